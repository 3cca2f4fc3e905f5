/* volumes_hostile.c -- QIO volume sets that lie: copies of QIO's partfile
 * set with one volume missing, one too many (left from an older set), a
 * site listed twice, a rank beyond the lattice, a site list of the wrong
 * length or none, a binary record missing or of the wrong length, a
 * damaged payload, a truncated volume, volume 0 that says it is a single
 * file.  Each gives its specific status naming the volume, never a crash
 * or a partial result; a join that fails leaves the previous output in
 * place.  Also: 64-bit site lists are read, names that are not canonical
 * volume names are ignored, a volume read as a single file is refused
 * with a pointer to the set. */
#include "fieldtest.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PART "qio-volumes/part/binary_test"

typedef struct rec {
    char type[LATTIO_LIME_TYPE_MAX + 1];
    unsigned char *data;
    uint64_t len;
    int mb, me;
} rec;

static int load(const char *path, rec *r, int max)
{
    lattio_lime_reader *rd = NULL;
    lattio_record_info info;
    int n = 0;
    if (lattio_lime_reader_open(path, &rd) != LATTIO_OK) return 0;
    while (n < max && lattio_lime_reader_next(rd, &info) == LATTIO_OK) {
        snprintf(r[n].type, sizeof r[n].type, "%s", info.type);
        r[n].len = info.length;
        r[n].mb = info.mb, r[n].me = info.me;
        r[n].data = malloc(info.length ? info.length : 1);
        lattio_lime_reader_read_at(rd, 0, r[n].data, info.length);
        n++;
    }
    lattio_lime_reader_close(rd);
    return n;
}

static void save(const char *path, rec *r, int n, int skip)
{
    lattio_lime_writer *w = NULL;
    CHECK_OK(lattio_lime_writer_open(path, LATTIO_LIME_CREATE, &w));
    for (int i = 0; w && i < n; i++)
        if (i != skip) CHECK_OK(lattio_lime_writer_record(w, r[i].type, r[i].data, r[i].len, r[i].mb, r[i].me));
    CHECK_OK(lattio_lime_writer_close(w));
    for (int i = 0; i < n; i++) free(r[i].data);
}

/* A fresh copy of QIO's set as `base`. */
static void copy_set(const char *base)
{
    for (int k = 0; k < 4; k++) {
        char from[256], to[256];
        snprintf(from, sizeof from, "%s.vol%04d", PART, k);
        snprintf(to, sizeof to, "%s.vol%04d", base, k);
        CHECK(ft_copy(from, to));
    }
}

static int open_status(const char *base, const char *want_detail)
{
    lattio_volumes *v = NULL;
    const int rc = lattio_volumes_open(base, &v);
    char detail[512] = "";
    lattio_last_detail(detail, sizeof detail);
    if (want_detail && !strstr(detail, want_detail)) {
        fprintf(stderr, "  %s: detail '%s' lacks '%s'\n", base, detail, want_detail);
        CHECK(0);
    }
    CHECK(rc == LATTIO_OK || !v);
    lattio_volumes_close(v);
    return rc;
}

/* Volume k of base with record i's payload byte `at` xor-ed with `bits`. */
static void flip(const char *base, int k, int i, uint64_t at, unsigned bits)
{
    char path[256];
    snprintf(path, sizeof path, "%s.vol%04d", base, k);
    rec r[64];
    const int n = load(path, r, 64);
    CHECK(i < n && at < r[i].len);
    if (i < n && at < r[i].len) r[i].data[at] ^= (unsigned char)bits;
    save(path, r, n, -1);
}

static void drop_record(const char *base, int k, int i)
{
    char path[256];
    snprintf(path, sizeof path, "%s.vol%04d", base, k);
    rec r[64];
    const int n = load(path, r, 64);
    save(path, r, n, i);
}

/* Volume 1's site list rewritten with 8-byte ranks (as QIO writes when a
 * rank exceeds 32 bits). */
static void widen(const char *base)
{
    char path[256];
    snprintf(path, sizeof path, "%s.vol0001", base);
    rec r[64];
    const int n = load(path, r, 64);
    unsigned char *wide = calloc(1, r[0].len * 2);
    for (uint64_t s = 0; s < r[0].len / 4; s++) memcpy(wide + 8 * s + 4, r[0].data + 4 * s, 4);
    free(r[0].data);
    r[0].data = wide;
    r[0].len *= 2;
    save(path, r, n, -1);
}

int main(void)
{
    lattio_volumes *v = NULL;
    char name[256];
    struct stat st;

    copy_set("missing");
    snprintf(name, sizeof name, "missing.vol0002");
    unlink(name);
    CHECK_STATUS(open_status("missing", "a volume missing"), LATTIO_ERR_VOLUME_SITES);

    /* a multifile set numbers its volumes 0 .. N-1: one renumbered (a gap) is
     * refused naming the number missing; a partfile set's gaps are its I/O
     * nodes' numbers (above: the site count finds the volume missing) */
    for (int k = 0; k < 4; k++) {
        char from[256], to[256];
        snprintf(from, sizeof from, "qio-volumes/multi/binary_test.vol%04d", k);
        snprintf(to, sizeof to, "renumbered.vol%04d", k == 3 ? 7 : k);
        CHECK(ft_copy(from, to));
    }
    CHECK_STATUS(open_status("renumbered", "volume 0003 is missing and volume 0007 follows"),
                 LATTIO_ERR_VOLUME_MISSING);

    copy_set("stale");
    CHECK(ft_copy(PART ".vol0001", "stale.vol0017"));
    CHECK_STATUS(open_status("stale", "another set"), LATTIO_ERR_VOLUME_SITES);

    copy_set("twice"); /* volume 1's first site becomes volume 0's first (rank 0) */
    flip("twice", 1, 0, 3, 0x02);
    CHECK_STATUS(open_status("twice", "listed twice"), LATTIO_ERR_VOLUME_SITES);

    copy_set("beyond");
    flip("beyond", 3, 0, 0, 0x80);
    CHECK_STATUS(open_status("beyond", "beyond the volume"), LATTIO_ERR_VOLUME_SITES);

    copy_set("nolist");
    drop_record("nolist", 2, 0);
    CHECK_STATUS(open_status("nolist", "nolist.vol0002"), LATTIO_ERR_VOLUME_MISSING);

    copy_set("norecord"); /* volume 3 without its SU(3) part */
    drop_record("norecord", 3, 3);
    CHECK_STATUS(open_status("norecord", "norecord.vol0003"), LATTIO_ERR_VOLUME_MISSING);

    copy_set("shortlist"); /* a site list of 5 bytes per site */
    {
        rec r[64];
        const int n = load("shortlist.vol0001", r, 64);
        r[0].len += 128;
        r[0].data = realloc(r[0].data, r[0].len);
        memset(r[0].data + r[0].len - 128, 0, 128);
        save("shortlist.vol0001", r, n, -1);
    }
    CHECK_STATUS(open_status("shortlist", "scidac-sitelist of 640 bytes"), LATTIO_ERR_VOLUME_SITES);

    copy_set("shortdata"); /* volume 2's real field one site short */
    {
        rec r[64];
        const int n = load("shortdata.vol0002", r, 64);
        r[1].len -= 8;
        save("shortdata.vol0002", r, n, -1);
    }
    CHECK_STATUS(open_status("shortdata", "shortdata.vol0002"), LATTIO_ERR_FIELD_LENGTH);

    copy_set("truncated");
    CHECK(truncate("truncated.vol0001", 1000) == 0);
    const int trc = open_status("truncated", "truncated.vol0001");
    CHECK(trc == LATTIO_ERR_TRUNCATED_PAYLOAD || trc == LATTIO_ERR_LENGTH_BEYOND_EOF);

    copy_set("single"); /* volume 0 says volfmt 0 */
    {
        rec r[64];
        const int n = load("single.vol0000", r, 64);
        char *at = strstr((char *)r[0].data, "<volfmt>2</volfmt>");
        CHECK(at != NULL);
        if (at) at[8] = '0';
        save("single.vol0000", r, n, -1);
    }
    CHECK_STATUS(open_status("single", "volfmt 0"), LATTIO_ERR_BAD_METADATA);

    /* a damaged payload: the set opens, that field fails, the others read */
    copy_set("flipped");
    flip("flipped", 2, 3, 100, 0x10);
    CHECK_OK(lattio_volumes_open("flipped", &v));
    if (v) {
        unsigned char *buf = malloc(512 * 288);
        CHECK_STATUS(lattio_volumes_read_bytes(v, 3, buf, NULL), LATTIO_ERR_CHECKSUM);
        CHECK_OK(lattio_volumes_read_bytes(v, 0, buf, NULL));
        free(buf);
        lattio_volumes_close(v);
    }
    FILE *f = fopen("joined", "w");
    if (f) {
        fputs("previous", f);
        fclose(f);
    }
    CHECK_STATUS(lattio_volumes_join("flipped", "joined"), LATTIO_ERR_CHECKSUM);
    CHECK(stat("joined", &st) == 0 && st.st_size == 8);
    CHECK(mkdir("adir", 0777) == 0 || errno == EEXIST);
    CHECK_STATUS(lattio_volumes_join(test_data(PART), "adir"), LATTIO_ERR_NOT_REGULAR);

    /* 64-bit ranks read as 32-bit ones */
    copy_set("wide");
    widen("wide");
    CHECK_OK(lattio_volumes_open("wide", &v));
    if (v) {
        unsigned char *a = malloc(512 * 288), *b = malloc(512 * 288);
        lattio_volumes *q = NULL;
        CHECK_OK(lattio_volumes_open(test_data(PART), &q));
        CHECK_OK(lattio_volumes_read_bytes(v, 3, a, NULL));
        if (q) CHECK_OK(lattio_volumes_read_bytes(q, 3, b, NULL));
        CHECK(memcmp(a, b, 512 * 288) == 0);
        lattio_volumes_close(q);
        lattio_volumes_close(v);
        free(a);
        free(b);
    }

    /* names that are not volumes of the set are ignored */
    copy_set("names");
    CHECK(ft_copy(PART ".vol0001", "names.vol01"));
    CHECK(ft_copy(PART ".vol0001", "names.vol0001.bak"));
    CHECK(ft_copy(PART ".vol0001", "names.vol00001"));
    CHECK(ft_copy(PART ".vol0001", "names2.vol0005"));
    CHECK_OK(open_status("names", NULL));

    /* a volume is not a single file */
    lattio_lime_reader *r = NULL;
    lattio_field_info fi;
    CHECK_OK(lattio_lime_reader_open(test_data(PART ".vol0000"), &r));
    CHECK_STATUS(lattio_field_info_read(r, 0, &fi), LATTIO_ERR_UNSUPPORTED);
    char detail[512];
    lattio_last_detail(detail, sizeof detail);
    CHECK(strstr(detail, "partfile") && strstr(detail, "base name"));
    lattio_lime_reader_close(r);
    CHECK_STATUS(lattio_volumes_open("nothing-here", &v), LATTIO_ERR_OPEN);
    CHECK_STATUS(lattio_volumes_open(NULL, &v), LATTIO_ERR_ARG);

    /* a split whose volume's directory name is taken publishes nothing */
    f = fopen("vol0002", "w");
    if (f) fclose(f);
    lattio_volumes_plan p;
    memset(&p, 0, sizeof p);
    p.volfmt = LATTIO_VOLFMT_PART_DIR;
    p.nd = 4;
    p.grid[0] = 4, p.grid[1] = p.grid[2] = p.grid[3] = 1;
    CHECK_STATUS(lattio_volumes_split(test_data("qio-volumes/single/binary_test"), "taken", &p),
                 LATTIO_ERR_NOT_REGULAR);
    CHECK(stat("vol0000/taken", &st) != 0);
    return test_finish();
}
