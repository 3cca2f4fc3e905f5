/* read_real: read every record of every LIME file in tests/data/real with
 * the C-LIME reader API.  Types, lengths, padding and flags are checked
 * against the tables of EXPECTED.md (parsed here) and, with the payload
 * bytes, against an independent parse of the file's bytes.  Files that are
 * not LIME files must be refused with LIME_ERR_READ. */
#include "limecheck.h"

#include <dirent.h>
#include <sys/stat.h>

#define MAXREC 64

typedef struct {
    uint64_t off, len;
    unsigned pad;
    int mb, me;
    char type[130];
} rec;

typedef struct {
    char file[256];
    int nrec;           /* records expected; -1 when EXPECTED.md does not say */
    int full;           /* recs[] lists every record */
    rec recs[MAXREC];   /* full table, or just the records EXPECTED.md names */
    int nnamed;
    char follow[64];    /* type of the record after each named one, or "" */
} expect;

static expect exps[16];
static int nexp;

/* --- EXPECTED.md ------------------------------------------------------ */

/* "`name`" at the start of a line, alone or followed by a parenthesised
 * remark: the name of the file whose table follows. */
static int backticked_line(const char *line, char *name, size_t cap)
{
    if (line[0] != '`') return 0;
    const char *end = strchr(line + 1, '`');
    if (!end || end == line + 1 || (size_t)(end - line - 1) >= cap) return 0;
    const char *rest = end + 1;
    while (*rest == ' ') rest++;
    if (*rest != '\0' && *rest != '\n' && *rest != '\r' && *rest != '(') return 0;
    memcpy(name, line + 1, (size_t)(end - line - 1));
    name[end - line - 1] = '\0';
    return 1;
}

/* "0      lime-test-text1   45  3  MB" */
static int table_row(const char *line, rec *r)
{
    char flags[3][32] = {"", "", ""};
    unsigned long long off, len;
    unsigned pad;
    int n = sscanf(line, "%llu %129s %llu %u %31s %31s %31s", &off, r->type, &len, &pad, flags[0],
                   flags[1], flags[2]);
    if (n < 4) return 0;
    r->off = off, r->len = len, r->pad = pad, r->mb = r->me = 0;
    for (int i = 0; i < n - 4; i++) {
        if (flags[i][0] == '(') break; /* a comment follows */
        if (!strcmp(flags[i], "MB")) r->mb = 1;
        if (!strcmp(flags[i], "ME")) r->me = 1;
    }
    return 1;
}

/* "`f`: 14 records; binary records at header offsets 1256 (4096 bytes),
 *  6480 (36864 bytes) and 44472 (147456 bytes), each followed by its `t`." */
static void sentence(const char *line, expect *e)
{
    const char *p = strstr(line, "`: ");
    if (!p || sscanf(p + 3, "%d records", &e->nrec) != 1) return;
    p = strstr(p, "offsets");
    while (p && e->nnamed < MAXREC) {
        while (*p && (*p < '0' || *p > '9')) {
            if (*p == '`') break;
            p++;
        }
        unsigned long long off, len;
        if (sscanf(p, "%llu (%llu bytes)", &off, &len) != 2) break;
        e->recs[e->nnamed].off = off;
        e->recs[e->nnamed++].len = len;
        p = strchr(p, ')');
    }
    const char *f = strstr(line, "followed by its `");
    if (f) sscanf(f + 17, "%63[^`]", e->follow);
}

/* Join the lines that follow `line` up to a blank line (one paragraph). */
static void paragraph(FILE *f, char *line, size_t cap)
{
    char more[1024];
    size_t n = strlen(line);
    while (n + 1 < cap && fgets(more, sizeof more, f) && more[0] != '\n' && more[0] != '\r') {
        if (n && line[n - 1] == '\n') line[n - 1] = ' ';
        snprintf(line + n, cap - n, "%s", more);
        n = strlen(line);
    }
}

static void parse_expected(const char *path)
{
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f) return;
    char line[4096], name[256];
    expect *cur = NULL;
    int in_block = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "```", 3)) {
            in_block = !in_block && cur;
            if (!in_block) cur = NULL;
        } else if (in_block && cur->nnamed < MAXREC) {
            if (table_row(line, &cur->recs[cur->nnamed])) cur->nnamed++, cur->nrec++;
        } else if (backticked_line(line, name, sizeof name) && nexp < 16) {
            cur = &exps[nexp++];
            snprintf(cur->file, sizeof cur->file, "%s", name);
            cur->full = 1;
        } else if (line[0] == '`' && strstr(line, " records;") && nexp < 16) {
            expect *e = &exps[nexp++];
            sscanf(line + 1, "%255[^`]", e->file);
            e->nrec = -1;
            paragraph(f, line, sizeof line);
            sentence(line, e);
        }
    }
    fclose(f);
}

static expect *find_expect(const char *file)
{
    for (int i = 0; i < nexp; i++)
        if (!strcmp(exps[i].file, file)) return &exps[i];
    return NULL;
}

/* --- independent parse ----------------------------------------------- */

static int raw_parse(const unsigned char *b, size_t n, rec *out)
{
    int k = 0;
    uint64_t off = 0;
    while (off + 144 <= n && k < MAXREC && lc_be(b + off, 4) == 0x456789ABu) {
        rec *r = &out[k++];
        r->off = off;
        r->len = lc_be(b + off + 8, 8);
        r->pad = (unsigned)((8 - r->len % 8) % 8);
        r->mb = (b[off + 6] & 0x80) != 0;
        r->me = (b[off + 6] & 0x40) != 0;
        memcpy(r->type, b + off + 16, 128);
        r->type[128] = '\0';
        off += 144 + r->len + r->pad;
    }
    return k;
}

/* --- checks ------------------------------------------------------------ */

static void check_against_expected(const char *file, const rec *raw, int nraw)
{
    expect *e = find_expect(file);
    CHECK(e != NULL); /* every LIME file is described in EXPECTED.md */
    if (!e) return;
    if (e->nrec >= 0) CHECK_INT(nraw, e->nrec);
    for (int i = 0; i < e->nnamed; i++) {
        const rec *x = &e->recs[i];
        int k = 0;
        while (k < nraw && raw[k].off != x->off) k++;
        CHECK(k < nraw);
        if (k == nraw) continue;
        CHECK_U64(raw[k].len, x->len);
        if (e->full) {
            CHECK_STR(raw[k].type, x->type);
            CHECK_INT(raw[k].pad, x->pad);
            CHECK_INT(raw[k].mb, x->mb);
            CHECK_INT(raw[k].me, x->me);
        } else {
            CHECK(strstr(raw[k].type, "binary-data") != NULL);
            if (e->follow[0] && k + 1 < nraw) CHECK_STR(raw[k + 1].type, e->follow);
        }
    }
}

/* Read the payload in odd-sized pieces until LIME_EOR; compare bytes. */
static void check_payload(LimeReader *r, const unsigned char *want, uint64_t len)
{
    static const n_uint64_t sizes[] = {1, 7, 4093, 13, 65537, 3};
    unsigned char *buf = malloc(65537);
    uint64_t done = 0;
    int st = LIME_SUCCESS;
    for (int i = 0; buf && st == LIME_SUCCESS; i++) {
        n_uint64_t n = sizes[i % 6];
        st = limeReaderReadData(buf, &n, r);
        if (st != LIME_SUCCESS) break;
        CHECK(n > 0 && done + n <= len);
        if (n == 0 || done + n > len) break;
        if (memcmp(buf, want + done, (size_t)n) != 0) {
            fprintf(stderr, "payload differs near byte %" PRIu64 "\n", done);
            CHECK(0);
        }
        done += n;
    }
    CHECK_INT(st, LIME_EOR);
    CHECK_U64(done, len);
    free(buf);
}

static void check_file(const char *dir, const char *file)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    size_t n = 0;
    unsigned char *b = lc_slurp(path, &n);
    CHECK(b != NULL);
    if (!b) return;
    FILE *f = fopen(path, "rb");
    LimeReader *r = limeCreateReader(f);
    CHECK(r != NULL);
    if (n < 4 || lc_be(b, 4) != 0x456789ABu) {
        printf("%s: not a LIME file\n", file);
        CHECK_INT(limeReaderNextRecord(r), n ? LIME_ERR_READ : LIME_EOF);
        CHECK(limeReaderType(r) == NULL);
    } else {
        rec raw[MAXREC];
        int nraw = raw_parse(b, n, raw), k = 0, st;
        check_against_expected(file, raw, nraw);
        while ((st = limeReaderNextRecord(r)) == LIME_SUCCESS && k < nraw) {
            const rec *x = &raw[k++];
            CHECK_STR(limeReaderType(r), x->type);
            CHECK_U64(limeReaderBytes(r), x->len);
            CHECK_U64(limeReaderPadBytes(r), x->pad);
            CHECK_INT(limeReaderMBFlag(r), x->mb);
            CHECK_INT(limeReaderMEFlag(r), x->me);
            CHECK_INT(limeGetReaderPointer(r), x->off + 144 + x->len + x->pad);
            if (x->off + 144 + x->len <= n) check_payload(r, b + x->off + 144, x->len);
        }
        CHECK_INT(st, LIME_EOF);
        CHECK_INT(k, nraw);
        printf("%s: %d records\n", file, k);
    }
    limeDestroyReader(r);
    if (f) fclose(f);
    free(b);
}

int main(void)
{
    const char *dir = lc_datadir();
    char path[4096];
    snprintf(path, sizeof path, "%s/EXPECTED.md", dir);
    parse_expected(path);
    CHECK(nexp >= 5);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    int nfiles = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        check_file(dir, e->d_name);
        nfiles++;
    }
    if (d) closedir(d);
    CHECK(nfiles >= 6);
    /* every file EXPECTED.md describes was found and read */
    for (int i = 0; i < nexp; i++) {
        int len = snprintf(path, sizeof path, "%s/%s", dir, exps[i].file);
        CHECK(len > 0 && (size_t)len < sizeof path);
        FILE *f = fopen(path, "rb");
        CHECK(f != NULL);
        if (f) fclose(f);
    }
    return lc_finish();
}
