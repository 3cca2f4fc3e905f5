/* config_table.c -- the environment is read in one place from one table:
 * values are parsed as documented (bad ones leave the default and are
 * marked), every variable of the table is listed in lattio.h and in
 * docs/configuration.md with its default, and no file of src/ but
 * core/config.c calls getenv. */
#define _XOPEN_SOURCE 700
#include "config.h"
#include "testutil.h"

#include <ftw.h>
#include <stdlib.h>

static const char *const names[] = {"LATTIO_STRATEGY",       "LATTIO_STAGING_BYTES", "LATTIO_WRITE_PIECE",
                                    "LATTIO_STRIPING_UNIT",  "LATTIO_CB_NODES",      "LATTIO_CB_BUFFER_SIZE",
                                    "LATTIO_AGG_SHARED",     "LATTIO_FIELD_THREADS", "LATTIO_WRITEBACK",
                                    "LATTIO_TRUST_COLLECTIVE"};

static void clear(void)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) unsetenv(names[i]);
}

static void defaults(void)
{
    lattio_config c;
    clear();
    lattio_config_read(&c);
    CHECK_INT(c.strategy, LATTIO_STRATEGY_AUTO);
    CHECK_U64(c.staging_bytes, 0);
    CHECK_U64(c.write_piece, 0);
    CHECK_U64(c.agg_shared, UINT64_MAX);
    CHECK_INT(c.field_threads, -1);
    CHECK_INT(c.writeback, 1);
    CHECK_INT(c.trust_collective, 0);
    CHECK_INT((int)c.ignored, 0);
}

static void values(void)
{
    lattio_config c;
    clear();
    setenv("LATTIO_STRATEGY", "serial", 1);
    setenv("LATTIO_STAGING_BYTES", "576", 1);
    setenv("LATTIO_WRITE_PIECE", "16384", 1);
    setenv("LATTIO_CB_BUFFER_SIZE", "65536", 1);
    setenv("LATTIO_AGG_SHARED", "0", 1);
    setenv("LATTIO_FIELD_THREADS", "1", 1);
    setenv("LATTIO_WRITEBACK", "0", 1);
    setenv("LATTIO_TRUST_COLLECTIVE", "1", 1);
    lattio_config_read(&c);
    CHECK_INT(c.strategy, LATTIO_STRATEGY_SERIAL);
    CHECK_U64(c.staging_bytes, 576);
    CHECK_U64(c.write_piece, 16384);
    CHECK_U64(c.cb_buffer_size, 65536);
    CHECK_U64(c.agg_shared, 0);
    CHECK_INT(c.field_threads, 1);
    CHECK_INT(c.writeback, 0);
    CHECK_INT(c.trust_collective, 1);
    CHECK_INT((int)c.ignored, 0);
}

/* Values out of range or not understood: the default, and marked. */
static void rejects(void)
{
    lattio_config c;
    clear();
    setenv("LATTIO_STRATEGY", "fast", 1);
    setenv("LATTIO_WRITE_PIECE", "100", 1);   /* below 4096 */
    setenv("LATTIO_STAGING_BYTES", "12k", 1); /* bytes, digits only */
    setenv("LATTIO_FIELD_THREADS", "2", 1);
    setenv("LATTIO_AGG_SHARED", "some", 1);
    lattio_config_read(&c);
    CHECK_INT(c.strategy, LATTIO_STRATEGY_AUTO);
    CHECK_U64(c.write_piece, 0);
    CHECK_U64(c.staging_bytes, 0);
    CHECK_INT(c.field_threads, -1);
    CHECK_U64(c.agg_shared, UINT64_MAX);
    int marked = 0;
    for (unsigned i = 0; lattio_config_name(i, NULL, NULL); i++)
        if (c.ignored & (1u << i)) marked++;
    CHECK_INT(marked, 5);
    clear();
}

/* The first line of text holding `name`, as a string (static). */
static const char *line_of(const char *text, const char *name)
{
    static char line[1024];
    const char *p = strstr(text, name);
    if (!p) return NULL;
    while (p > text && p[-1] != '\n') p--;
    size_t n = strcspn(p, "\n");
    snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1), p);
    return line;
}

/* A file's text, NUL-terminated (test_slurp gives bytes). */
static char *slurp_text(const char *path)
{
    size_t n = 0;
    unsigned char *b = test_slurp(path, &n);
    char *t = b ? realloc(b, n + 1) : NULL;
    if (!t) {
        free(b);
        return NULL;
    }
    t[n] = '\0';
    return t;
}

static char *read_source(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", LATTIO_SOURCE_DIR, rel);
    char *t = slurp_text(path);
    CHECK(t != NULL);
    return t;
}

static void documented(void)
{
    char *header = read_source("include/lattio.h"), *doc = read_source("docs/configuration.md");
    unsigned n = 0;
    const char *dflt = NULL, *meaning = NULL, *name;
    for (; header && doc && (name = lattio_config_name(n, &dflt, &meaning)); n++) {
        char row[128];
        snprintf(row, sizeof row, " *   %s ", name); /* the header's table row */
        const char *h = line_of(header, row);
        CHECK(h && strstr(h, dflt));
        char cell[128];
        snprintf(cell, sizeof cell, "| `%s` |", name);
        const char *d = line_of(doc, cell);
        CHECK(d && strstr(d, dflt));
        if (!(h && strstr(h, dflt)) || !(d && strstr(d, dflt))) printf("%s (default %s) not documented\n", name, dflt);
        CHECK(meaning && strlen(meaning) > 20);
    }
    CHECK_INT((int)n, 15);
    free(header);
    free(doc);
}

static int getenv_calls;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)ftw;
    size_t len = strlen(path);
    if (type != FTW_F || len < 2 || (strcmp(path + len - 2, ".c") != 0 && strcmp(path + len - 2, ".h") != 0))
        return 0;
    if (len >= 14 && strcmp(path + len - 14, "/core/config.c") == 0) return 0;
    char *t = slurp_text(path);
    if (t && strstr(t, "getenv(")) {
        printf("%s reads the environment itself\n", path);
        getenv_calls++;
    }
    free(t);
    return 0;
}

int main(void)
{
    defaults();
    values();
    rejects();
    documented();
    char src[1024];
    snprintf(src, sizeof src, "%s/src", LATTIO_SOURCE_DIR);
    CHECK_INT(nftw(src, visit, 16, FTW_PHYS), 0);
    CHECK_INT(getenv_calls, 0);
    return test_finish();
}
