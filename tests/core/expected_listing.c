/* expected_listing.c -- the serial reader lists every LIME file of the real
 * test data exactly as tests/data/real/EXPECTED.md says.  The expected
 * values are parsed from EXPECTED.md at run time (this test generates none
 * of them): for each "`FILE`" heading followed by a ``` block of lines
 * "OFFSET TYPE LENGTH PADDING [MB] [ME]", and the t_qio sentence giving the
 * binary records' offsets and lengths. */
#include "testutil.h"

#include <ctype.h>

typedef struct row {
    uint64_t offset, length;
    unsigned padding;
    int mb, me;
    char type[128];
} row;

/* Parse one table line; returns 1 on success. */
static int parse_row(const char *text, row *r)
{
    char line[256] = "", rest[256] = "";
    unsigned long long off, len;
    size_t n = strcspn(text, "\n");
    memcpy(line, text, n < sizeof line - 1 ? n : sizeof line - 1); /* this line only */
    memset(r, 0, sizeof *r);
    if (sscanf(line, "%llu %127s %llu %u %255[^\n]", &off, r->type, &len, &r->padding, rest) < 4)
        return 0;
    r->offset = off;
    r->length = len;
    /* flags are the words before an optional "(" comment */
    char *paren = strchr(rest, '(');
    if (paren) *paren = '\0';
    r->mb = strstr(rest, "MB") != NULL;
    r->me = strstr(rest, "ME") != NULL;
    return 1;
}

static int compare_file(const char *name, const row *rows, int nrows)
{
    lattio_lime_reader *rd = NULL;
    CHECK_OK(lattio_lime_reader_open(test_data(name), &rd));
    if (!rd) return 0;
    lattio_record_info info;
    int i = 0;
    while (lattio_lime_reader_next(rd, &info) == LATTIO_OK) {
        if (i < nrows) {
            CHECK_U64(info.offset, rows[i].offset);
            CHECK_STR(info.type, rows[i].type);
            CHECK_U64(info.length, rows[i].length);
            CHECK_INT(info.padding, rows[i].padding);
            CHECK_INT(info.mb, rows[i].mb);
            CHECK_INT(info.me, rows[i].me);
        }
        i++;
    }
    CHECK_INT(i, nrows);
    lattio_lime_reader_close(rd);
    printf("%s: %d records as expected\n", name, nrows);
    return 1;
}

/* "binary records at header offsets 1256 (4096 bytes), 6480 (...)": each
 * must be a record of that length, followed by a scidac-checksum. */
static int check_qio_sentence(const char *text)
{
    const char *p = strstr(text, "binary records at header offsets");
    CHECK(p != NULL);
    if (!p) return 0;
    lattio_lime_reader *rd = NULL;
    CHECK_OK(lattio_lime_reader_open(test_data("t_qio.intel-scalar.lime"), &rd));
    int found = 0;
    unsigned long long off, len;
    const char *q = p;
    while ((q = strpbrk(q, "0123456789")) && sscanf(q, "%llu (%llu bytes)", &off, &len) == 2) {
        lattio_record_info a, b;
        CHECK_OK(lattio_lime_reader_find(rd, "scidac-binary-data", found, &a));
        CHECK_U64(a.offset, off);
        CHECK_U64(a.length, len);
        CHECK_OK(lattio_lime_reader_next(rd, &b));
        CHECK_STR(b.type, "scidac-checksum");
        found++;
        q = strchr(q, ')');
        if (!q) break;
    }
    CHECK_INT(found, 3);
    size_t n = 0;
    lattio_record_info x;
    CHECK_OK(lattio_lime_reader_rewind(rd));
    while (lattio_lime_reader_next(rd, &x) == LATTIO_OK) n++;
    CHECK_INT(n, 14);
    lattio_lime_reader_close(rd);
    return found;
}

int main(void)
{
    size_t len = 0;
    char *text = (char *)test_slurp(test_data("EXPECTED.md"), &len);
    CHECK(text != NULL);
    if (!text) return test_finish();
    text = realloc(text, len + 1);
    text[len] = '\0';
    int files = 0;
    for (char *p = text; (p = strchr(p, '`'));) {
        char name[128];
        /* a heading "`FILE`" or "`FILE` (comment)" on its own line, then ``` */
        const char *eol = strchr(p, '\n');
        if (sscanf(p, "`%127[^`]`", name) == 1 && (p == text || p[-1] == '\n') && eol &&
            strncmp(eol + 1, "```\n", 4) == 0) {
            row rows[32];
            int n = 0;
            char *line = strchr(p, '\n') + 1;  /* the ``` line */
            line = strchr(line, '\n') + 1;
            while (strncmp(line, "```", 3) != 0 && n < 32) {
                CHECK(parse_row(line, &rows[n]));
                n++;
                line = strchr(line, '\n') + 1;
            }
            files += compare_file(name, rows, n);
            p = line + 3;
        } else {
            p++;
        }
    }
    CHECK_INT(files, 4);
    check_qio_sentence(text);
    free(text);
    return test_finish();
}
