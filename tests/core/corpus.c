/* corpus.c -- one damaged LIME file per case: the library's reader and
 * checker must each return the specific status expected, and `lattio check`
 * (when LATTIO_BIN is set) must exit 1 naming that status.
 * Usage: test_corpus CASE.  Each case is its own CTest entry. */
#include "testutil.h"

#include <sys/wait.h>

#define NREC 3
static unsigned char file[4096];
static size_t file_len;
static size_t rec_off[NREC];

/* The clean base file: three records in one message, built byte by byte
 * here (not with the library): "alpha-text" 13 bytes (pad 3),
 * "beta-bin" 16 bytes (pad 0), "gamma-text" 5 bytes (pad 3). */
static void put_header(size_t at, const char *type, uint64_t len, int flags)
{
    unsigned char *h = file + at;
    memset(h, 0, 144);
    h[0] = 0x45, h[1] = 0x67, h[2] = 0x89, h[3] = 0xAB;
    h[5] = 1;
    h[6] = (unsigned char)flags;
    for (int i = 0; i < 8; i++) h[8 + i] = (unsigned char)(len >> (56 - 8 * i));
    memcpy(h + 16, type, strlen(type));
}

static void build_base(void)
{
    static const char *types[NREC] = {"alpha-text", "beta-bin", "gamma-text"};
    static const size_t lens[NREC] = {13, 16, 5};
    static const int flags[NREC] = {0x80, 0, 0x40};
    size_t at = 0;
    memset(file, 0, sizeof file);
    for (int i = 0; i < NREC; i++) {
        rec_off[i] = at;
        put_header(at, types[i], lens[i], flags[i]);
        for (size_t k = 0; k < lens[i]; k++) file[at + 144 + k] = (unsigned char)('a' + k % 26);
        at += 144 + lens[i] + (8 - lens[i] % 8) % 8;
    }
    file_len = at;
}

typedef struct expect {
    const char *name;
    int reader_status;  /* status of the first failing lattio_lime_reader_next */
    int reader_at;      /* records read successfully before it */
    int check_status;   /* first problem reported by lattio_lime_check */
    int check_record;   /* its record index */
    long check_offset;  /* its file offset, -1 = don't care */
} expect;

static void set_be64(size_t at, uint64_t v)
{
    for (int i = 0; i < 8; i++) file[at + i] = (unsigned char)(v >> (56 - 8 * i));
}

/* Apply the damage of one case; returns its expectations. */
static int damage(const char *name, expect *e)
{
    const size_t r1 = rec_off[1], r2 = rec_off[2];
    expect cases[] = {
        {"clean", LATTIO_ERR_EOF, 3, LATTIO_OK, 0, -1},
        {"empty", LATTIO_ERR_EOF, 0, LATTIO_OK, 0, -1},
        {"truncated_header", LATTIO_ERR_TRUNCATED_HEADER, 2, LATTIO_ERR_TRUNCATED_HEADER, 2, (long)r2},
        {"truncated_payload", LATTIO_ERR_TRUNCATED_PAYLOAD, 2, LATTIO_ERR_TRUNCATED_PAYLOAD, 2, (long)r2},
        {"wrong_magic", LATTIO_ERR_BAD_MAGIC, 0, LATTIO_ERR_BAD_MAGIC, 0, 0},
        {"version2", LATTIO_ERR_BAD_VERSION, 1, LATTIO_ERR_BAD_VERSION, 1, (long)r1},
        {"length_beyond_eof", LATTIO_ERR_LENGTH_BEYOND_EOF, 1, LATTIO_ERR_LENGTH_BEYOND_EOF, 1, (long)r1},
        {"length_near_2_64", LATTIO_ERR_LENGTH_OVERFLOW, 1, LATTIO_ERR_LENGTH_OVERFLOW, 1, (long)r1},
        /* a type filling all 128 bytes is valid (C-LIME writes it, every reader reads it) */
        {"type_without_nul", LATTIO_ERR_EOF, 3, LATTIO_OK, 0, -1},
        {"nonzero_padding", LATTIO_ERR_EOF, 3, LATTIO_ERR_NONZERO_PADDING, 0, 144 + 13 + 1},
        {"trailing_garbage", LATTIO_ERR_TRAILING_BYTES, 3, LATTIO_ERR_TRAILING_BYTES, 3, -1},
        {"trailing_big_garbage", LATTIO_ERR_TRAILING_BYTES, 3, LATTIO_ERR_TRAILING_BYTES, 3, -1},
        {"mbme_missing_mb", LATTIO_ERR_EOF, 3, LATTIO_ERR_MBME, 0, 0},
        {"mbme_unended", LATTIO_ERR_EOF, 3, LATTIO_ERR_MBME, 2, -1},
        {"mbme_nested", LATTIO_ERR_EOF, 3, LATTIO_ERR_MBME, 1, (long)r1},
        {"reserved_flags", LATTIO_ERR_EOF, 3, LATTIO_ERR_BAD_FLAGS, 1, (long)r1},
        {"type_nonprintable", LATTIO_ERR_EOF, 3, LATTIO_ERR_BAD_TYPE, 1, (long)r1},
        {"truncated_padding", LATTIO_ERR_EOF, 3, LATTIO_ERR_TRUNCATED_PADDING, 2, -1},
        {"not_lime", LATTIO_ERR_BAD_MAGIC, 0, LATTIO_ERR_BAD_MAGIC, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (strcmp(cases[i].name, name) == 0) *e = cases[i];
    if (!e->name) return -1;
    if (!strcmp(name, "empty")) file_len = 0;
    if (!strcmp(name, "truncated_header")) file_len = r2 + 100;
    if (!strcmp(name, "truncated_payload")) file_len = r2 + 144 + 2;
    if (!strcmp(name, "wrong_magic")) file[0] = 0x46;
    if (!strcmp(name, "version2")) file[r1 + 5] = 2;
    if (!strcmp(name, "length_beyond_eof")) set_be64(r1 + 8, 1000000);
    if (!strcmp(name, "length_near_2_64")) set_be64(r1 + 8, UINT64_MAX - 3);
    if (!strcmp(name, "type_without_nul")) memset(file + r1 + 16, 'x', 128);
    if (!strcmp(name, "nonzero_padding")) file[144 + 13 + 1] = 0x5a;
    if (!strcmp(name, "trailing_garbage")) memcpy(file + file_len, "garbage!\n", 9), file_len += 9;
    if (!strcmp(name, "trailing_big_garbage")) memset(file + file_len, 0x33, 300), file_len += 300;
    if (!strcmp(name, "mbme_missing_mb")) file[6] = 0;
    if (!strcmp(name, "mbme_unended")) file[r2 + 6] = 0;
    if (!strcmp(name, "mbme_nested")) file[r1 + 6] = 0x80;
    if (!strcmp(name, "reserved_flags")) file[r1 + 6] |= 0x01;
    if (!strcmp(name, "type_nonprintable")) file[r1 + 16 + 2] = 0x07;
    if (!strcmp(name, "truncated_padding")) file_len -= 2;
    if (!strcmp(name, "not_lime")) memcpy(file, "BEGIN_HEADER\nHDR_VERSION = 1.0\n", 31);
    return 0;
}

static void write_file(const char *path)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK_INT(fwrite(file, 1, file_len, f), file_len);
    fclose(f);
}

static void check_reader(const char *path, const expect *e)
{
    lattio_lime_reader *r = NULL;
    CHECK_OK(lattio_lime_reader_open(path, &r));
    lattio_record_info info;
    int n = 0, rc;
    while ((rc = lattio_lime_reader_next(r, &info)) == LATTIO_OK) {
        unsigned char buf[64];
        CHECK_OK(lattio_lime_reader_read_at(r, 0, buf, (size_t)info.length));
        n++;
    }
    CHECK_STATUS(rc, e->reader_status);
    CHECK_INT(n, e->reader_at);
    /* the reader stays usable: asking again gives the same answer */
    CHECK_STATUS(lattio_lime_reader_next(r, &info), e->reader_status);
    lattio_lime_reader_close(r);
}

static void check_checker(const char *path, const expect *e)
{
    lattio_problem p[8];
    size_t count = 99, nrec = 99;
    CHECK_STATUS(lattio_lime_check(path, p, 8, &count, &nrec), e->check_status);
    if (e->check_status == LATTIO_OK) {
        CHECK_INT(count, 0);
        return;
    }
    CHECK(count >= 1);
    CHECK_STATUS(p[0].status, e->check_status);
    CHECK_INT(p[0].record, e->check_record);
    if (e->check_offset >= 0) CHECK_INT(p[0].offset, e->check_offset);
    CHECK(strlen(p[0].message) > 10);
    printf("check: record %d offset %llu: %s\n", p[0].record, (unsigned long long)p[0].offset,
           p[0].message);
}

/* `lattio check FILE` must exit 1 and name the status (0 and "ok" if clean). */
static void check_command(const char *path, const expect *e)
{
    const char *bin = getenv("LATTIO_BIN");
    char cmd[4096], out[8192] = "";
    if (!bin) return;
    snprintf(cmd, sizeof cmd, "'%s/lattio' check '%s' 2>&1", bin, path);
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL);
    if (!p) return;
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    printf("lattio check said:\n%s", out);
    CHECK(WIFEXITED(st));
    CHECK_INT(WEXITSTATUS(st), e->check_status == LATTIO_OK ? 0 : 1);
    const char *want = e->check_status == LATTIO_OK ? "ok" : lattio_error_name(e->check_status);
    CHECK(strstr(out, want) != NULL);
    CHECK(strstr(out, path) != NULL);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_corpus CASE\n");
        return 2;
    }
    expect e = {0};
    build_base();
    if (damage(argv[1], &e) != 0) {
        fprintf(stderr, "unknown case %s\n", argv[1]);
        return 2;
    }
    char path[256];
    snprintf(path, sizeof path, "%s.lime", argv[1]);
    write_file(path);
    check_reader(path, &e);
    check_checker(path, &e);
    check_command(path, &e);
    return test_finish();
}
