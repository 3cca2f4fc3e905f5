/* Lemon defect 11: site counts were int, so more than 2^31 sites globally was
 * undefined.  A 16x16x16x524289 lattice of 1-byte sites (2^31 + 4096 sites)
 * in tmLQCD's mapping {0,3,2,1} is written and read back; the bytes on disk
 * at the 2^31 boundary, the start and the end must be those of the site
 * whose file rank equals the offset. */
#include "bigcheck.h"

static const int L[4] = {16, 16, 16, 524289};
static const int map[4] = {0, 3, 2, 1};

static unsigned char site(uint64_t r) { return (unsigned char)((r * UINT64_C(0x9E3779B97F4A7C15)) >> 56); }

/* This rank's sites in file order (t, z, y, x): file rank
 * r = ((t * Lz + z) * Ly + y) * Lx + x. */
static unsigned char *fill(const lattice_t *t)
{
    unsigned char *p = malloc((size_t)lattice_local_sites(t));
    size_t s = 0;
    for (uint64_t a = 0; a < (uint64_t)t->n[0]; a++)
        for (uint64_t z = 0; z < (uint64_t)t->n[3]; z++)
            for (uint64_t y = 0; y < (uint64_t)t->n[2]; y++) {
                uint64_t base = (((uint64_t)t->lo[0] + a) * (uint64_t)L[3] + (uint64_t)t->lo[3] + z) *
                                    (uint64_t)L[2] + (uint64_t)t->lo[2] + y;
                for (uint64_t x = 0; x < (uint64_t)t->n[1]; x++)
                    p[s++] = site(base * (uint64_t)L[1] + (uint64_t)t->lo[1] + x);
            }
    return p;
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    MPI_Comm cart = make_cart(4, (int[]){mpitest_size, 1, 1, 1});
    lattice_t t;
    lattice_init(&t, cart, 4, L, map, 1);
    uint64_t sites = lattice_sites(&t);
    CHECK(sites > (UINT64_C(1) << 31));
    unsigned char *local = fill(&t);
    MPI_File fh = open_new(cart, "big11.lime");
    LemonWriter *w = lemonCreateWriter(&fh, cart);
    LemonRecordHeader *h = lemonCreateHeader(1, 1, "ildg-binary-data", (MPI_Offset)sites);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    CHECK_INT(lemonWriteLatticeParallelMapped(w, local, 1, L, map), LEMON_SUCCESS);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    MPI_File_close(&fh);

    int ok = 1;
    if (mpitest_rank == 0) {
        const uint64_t probes[] = {0, (UINT64_C(1) << 31) - 100, sites - 200};
        for (int i = 0; i < 3; i++) ok &= window_ok("big11.lime", 144, probes[i], 200, site);
    }
    check_root(ok);

    size_t n = (size_t)lattice_local_sites(&t);
    unsigned char *got = malloc(n);
    memset(got, 0, n);
    fh = open_read(cart, "big11.lime");
    LemonReader *r = lemonCreateReader(&fh, cart);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_INT(lemonReadLatticeParallelMapped(r, got, 1, L, map), LEMON_SUCCESS);
    CHECK(memcmp(got, local, n) == 0);
    lemonDestroyReader(r);
    MPI_File_close(&fh);
    free(got);
    free(local);
    MPI_Comm_free(&cart);
    if (mpitest_rank == 0) remove("big11.lime");
    return mpitest_finish();
}
