/* mapped: tmLQCD's mapping {0,3,2,1} on a 4-D lattice, written with
 * lemonWriteLatticeParallelMapped on a grid splitting two dimensions and on
 * one splitting up to four, read back on the other grid; the payload must be
 * the sites in file order (t, z, y, x) as computed serially. */
#include "lemontest.h"

static const int L[4] = {6, 4, 12, 12};
static const int map[4] = {0, 3, 2, 1};
enum { SITE = 3 };

/* Grid A splits lattice dimensions 0 and 2; grid B splits from the last one. */
static MPI_Comm grid(int which)
{
    int two[2] = {0, 0}, four[4] = {0, 0, 0, 0};
    if (which == 0) {
        MPI_Dims_create(mpitest_size, 2, two);
        int g[4] = {two[0], 1, two[1], 1};
        return make_cart(4, g);
    }
    MPI_Dims_create(mpitest_size, 4, four);
    int g[4] = {four[3], four[2], four[1], four[0]};
    return make_cart(4, g);
}

static void write_with(MPI_Comm cart, const char *path)
{
    lattice_t t;
    lattice_init(&t, cart, 4, L, map, SITE);
    unsigned char *local = lattice_local(&t);
    MPI_Offset bytes = (MPI_Offset)lattice_sites(&t) * SITE;
    MPI_File fh = open_new(cart, path);
    LemonWriter *w = lemonCreateWriter(&fh, cart);
    LemonRecordHeader *h = lemonCreateHeader(1, 1, "ildg-binary-data", bytes);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    CHECK_INT(lemonWriteLatticeParallelMapped(w, local, SITE, L, map), LEMON_SUCCESS);
    CHECK_INT(w->pos, bytes);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    MPI_File_close(&fh);
    free(local);

    expect_buf e = {0};
    unsigned char *payload = lattice_expected(&t);
    exp_record(&e, "ildg-binary-data", payload, (uint64_t)bytes, 1, 1);
    check_file(path, &e);
    free(payload);
    free(e.b);
}

static void read_with(MPI_Comm cart, const char *path)
{
    lattice_t t;
    lattice_init(&t, cart, 4, L, map, SITE);
    unsigned char *want = lattice_local(&t);
    size_t n = (size_t)lattice_local_sites(&t) * SITE;
    unsigned char *got = calloc(n, 1);
    MPI_File fh = open_read(cart, path);
    LemonReader *r = lemonCreateReader(&fh, cart);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_INT(lemonReadLatticeParallelMapped(r, got, SITE, L, map), LEMON_SUCCESS);
    CHECK(memcmp(got, want, n) == 0);
    lemonDestroyReader(r);
    MPI_File_close(&fh);
    free(want);
    free(got);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    MPI_Comm a = grid(0), b = grid(1);
    write_with(a, "mapped_a.lime");
    write_with(b, "mapped_b.lime");
    read_with(b, "mapped_a.lime");
    read_with(a, "mapped_b.lime");
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    return mpitest_finish();
}
