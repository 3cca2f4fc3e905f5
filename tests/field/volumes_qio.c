/* volumes_qio.c -- QIO's own volume sets: the files QIO's test programs
 * qio-test1 (single file), qio-test2 (partfile) and qio-test3 (multifile)
 * write on 4 ranks (tests/data/real/qio-volumes, EXPECTED.md): a real
 * field, a subset of it (a hypercube), global data and an SU(3) field.
 * Every field of both sets equals the single file's binary record byte
 * for byte and its checksum verifies; joining either set gives QIO's single
 * file byte for byte; splitting the single file as QIO's layout cut the
 * lattice (4 nodes along x) gives QIO's partfile volumes byte for byte;
 * lattio's own multifile, partfile-in-directories and partitioned sets
 * join back to the single file. */
#include "fieldtest.h"

#include <string.h>
#include <sys/stat.h>

#define SINGLE "qio-volumes/single/binary_test"
#define NFIELDS 4

static unsigned char *slurp(const char *path, size_t *n)
{
    return test_slurp(path, n);
}

static int same_file(const char *a, const char *b)
{
    size_t na = 0, nb = 0;
    unsigned char *pa = slurp(a, &na), *pb = slurp(b, &nb);
    const int same = pa && pb && na == nb && memcmp(pa, pb, na) == 0;
    if (!same) fprintf(stderr, "  %s (%zu bytes) differs from %s (%zu bytes)\n", a, na, b, nb);
    free(pa);
    free(pb);
    return same;
}

static void check_set(const char *base, int volfmt)
{
    lattio_volumes *v = NULL;
    CHECK_OK(lattio_volumes_open(base, &v));
    if (!v) return;
    lattio_volumes_info vi;
    CHECK_OK(lattio_volumes_describe(v, &vi));
    CHECK_INT(vi.volfmt, volfmt);
    CHECK_INT(vi.volumes, 4);
    CHECK_INT(vi.fields, NFIELDS);
    CHECK_INT(vi.nd, 4);
    CHECK_U64(vi.dims[0], 8);
    CHECK_U64(vi.volume, 512);
    static const int recordtype[NFIELDS] = {0, 2, 1, 0};
    for (int k = 0; k < NFIELDS; k++) {
        size_t n = 0;
        unsigned char *want = ft_binary(SINGLE, k, &n), *got = malloc(n ? n : 1);
        lattio_field_info fi;
        CHECK_OK(lattio_volumes_field_info(v, k, &fi));
        CHECK_INT(fi.recordtype, recordtype[k]);
        CHECK_INT(fi.volfmt, volfmt);
        lattio_scidac_sum sum = {0, 0};
        CHECK_OK(lattio_volumes_read_bytes(v, k, got, &sum));
        CHECK(want && got && memcmp(want, got, n) == 0);
        CHECK(fi.has_checksum && sum.suma == fi.stored.suma && sum.sumb == fi.stored.sumb);
        lattio_field_info_free(&fi);
        free(want);
        free(got);
    }
    /* the SU(3) field as doubles against the single file's reader */
    lattio_lime_reader *r = NULL;
    lattio_field_info fi;
    CHECK_OK(lattio_lime_reader_open(test_data(SINGLE), &r));
    CHECK_OK(lattio_field_info_read(r, 3, &fi));
    const uint64_t n = fi.volume * 72;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    CHECK_OK(lattio_field_read_double(r, &fi, a, n, NULL));
    CHECK_OK(lattio_volumes_read_values(v, 3, LATTIO_REAL_F64_NATIVE, b, n, NULL));
    CHECK(a && b && memcmp(a, b, n * sizeof *a) == 0);
    CHECK_STATUS(lattio_volumes_read_values(v, 3, LATTIO_REAL_F64_NATIVE, b, n - 1, NULL), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_volumes_read_bytes(v, NFIELDS, b, NULL), LATTIO_ERR_NOT_FOUND);
    free(a);
    free(b);
    lattio_field_info_free(&fi);
    lattio_lime_reader_close(r);
    lattio_volumes_close(v);
}

static lattio_volumes_plan plan(int volfmt, int gx, int iox)
{
    lattio_volumes_plan p;
    memset(&p, 0, sizeof p);
    p.volfmt = volfmt;
    p.nd = 4;
    p.grid[0] = gx, p.grid[1] = p.grid[2] = p.grid[3] = 1;
    if (iox) p.io_grid[0] = iox, p.io_grid[1] = p.io_grid[2] = p.io_grid[3] = 1;
    return p;
}

int main(void)
{
    char part[4096], multi[4096], name[8200];
    snprintf(part, sizeof part, "%s", test_data("qio-volumes/part/binary_test"));
    snprintf(multi, sizeof multi, "%s", test_data("qio-volumes/multi/binary_test"));
    CHECK(lattio_volumes_probe(part));
    CHECK(!lattio_volumes_probe(test_data(SINGLE)));
    CHECK(!lattio_volumes_probe("no-such-set"));
    check_set(part, LATTIO_VOLFMT_PART);
    check_set(multi, LATTIO_VOLFMT_MULTI);

    /* joined: QIO's single file, byte for byte */
    CHECK_OK(lattio_volumes_join(part, "joined_part"));
    CHECK(same_file("joined_part", test_data(SINGLE)));
    CHECK_OK(lattio_volumes_join(multi, "joined_multi"));
    CHECK(same_file("joined_multi", test_data(SINGLE)));

    /* split as QIO's layout cut it: QIO's partfile volumes, byte for byte */
    lattio_volumes_plan p = plan(LATTIO_VOLFMT_PART, 4, 0);
    CHECK_OK(lattio_volumes_split(test_data(SINGLE), "split", &p));
    for (int k = 0; k < 4; k++) {
        char mine[64];
        snprintf(mine, sizeof mine, "split.vol%04d", k);
        snprintf(name, sizeof name, "%s.vol%04d", part, k);
        CHECK(same_file(mine, name));
    }

    /* lattio's multifile (a node's sites in lexicographic order), partfile
     * in directories and two partitions of two nodes: each joins back */
    static const struct {
        int volfmt, gx, iox, volumes;
        const char *base;
    } cut[] = {{LATTIO_VOLFMT_MULTI, 2, 0, 2, "mine_multi"},
               {LATTIO_VOLFMT_PART_DIR, 4, 0, 4, "mine_dir"},
               {LATTIO_VOLFMT_PART, 4, 2, 2, "mine_io"},
               {LATTIO_VOLFMT_PART, 8, 8, 8, "mine_8"}};
    for (size_t c = 0; c < sizeof cut / sizeof cut[0]; c++) {
        p = plan(cut[c].volfmt, cut[c].gx, cut[c].iox);
        CHECK_OK(lattio_volumes_split(test_data(SINGLE), cut[c].base, &p));
        lattio_volumes *v = NULL;
        CHECK_OK(lattio_volumes_open(cut[c].base, &v));
        lattio_volumes_info vi = {0};
        if (v) CHECK_OK(lattio_volumes_describe(v, &vi));
        CHECK_INT(vi.volumes, cut[c].volumes);
        CHECK_INT(vi.volfmt, cut[c].volfmt);
        lattio_volumes_close(v);
        snprintf(name, sizeof name, "%s.joined", cut[c].base);
        CHECK_OK(lattio_volumes_join(cut[c].base, name));
        CHECK(same_file(name, test_data(SINGLE)));
    }
    struct stat st;
    CHECK(stat("vol0003/mine_dir", &st) == 0 && S_ISREG(st.st_mode));
    CHECK(stat("mine_io.vol0002", &st) == 0 && stat("mine_io.vol0001", &st) != 0); /* named after node 2 */
    CHECK_OK(lattio_volumes_name("d/x", LATTIO_VOLFMT_PART_DIR, 12, name, sizeof name));
    CHECK_STR(name, "d/vol0012/x");
    CHECK_OK(lattio_volumes_name("x", LATTIO_VOLFMT_MULTI, 12345, name, sizeof name));
    CHECK_STR(name, "x.vol12345");

    /* plans that do not fit */
    p = plan(LATTIO_VOLFMT_PART, 3, 0);
    CHECK_STATUS(lattio_volumes_split(test_data(SINGLE), "bad", &p), LATTIO_ERR_ARG);
    p = plan(LATTIO_VOLFMT_PART, 4, 3);
    CHECK_STATUS(lattio_volumes_split(test_data(SINGLE), "bad", &p), LATTIO_ERR_ARG);
    p = plan(LATTIO_VOLFMT_MULTI, 4, 2);
    CHECK_STATUS(lattio_volumes_split(test_data(SINGLE), "bad", &p), LATTIO_ERR_ARG);
    p = plan(LATTIO_VOLFMT_SINGLE, 4, 0);
    CHECK_STATUS(lattio_volumes_split(test_data(SINGLE), "bad", &p), LATTIO_ERR_ARG);
    CHECK(stat("bad.vol0000", &st) != 0);
    return test_finish();
}
