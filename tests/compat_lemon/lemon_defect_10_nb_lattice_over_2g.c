/* Lemon defect 10: the non-blocking lattice path overflowed an int byte
 * count above 2 GiB.  A 2x2x2x65540 lattice of 4 KiB sites (2 GiB + 128 KiB)
 * in mapping {0,3,2,1} is written and read non-blocking; the bytes on disk
 * around the 2^31 boundary and at the end must be those of the expected
 * sites, and the read must return every byte. */
#include "bigcheck.h"

static const int L[4] = {2, 2, 2, 65540};
static const int map[4] = {0, 3, 2, 1};
enum { SITE = 4096 };

/* Byte k of the site with file rank r. */
static unsigned char sbyte(uint64_t r, uint64_t k) { return (unsigned char)((r * 40503u) ^ (r >> 8) ^ (k * 7u)); }
static unsigned char at(uint64_t off) { return sbyte(off / SITE, off % SITE); }

static unsigned char *fill(const lattice_t *t)
{
    unsigned char *p = malloc((size_t)(lattice_local_sites(t) * SITE));
    size_t s = 0;
    for (uint64_t a = 0; a < (uint64_t)t->n[0]; a++)
        for (uint64_t z = 0; z < (uint64_t)t->n[3]; z++)
            for (uint64_t y = 0; y < (uint64_t)t->n[2]; y++)
                for (uint64_t x = 0; x < (uint64_t)t->n[1]; x++, s++) {
                    uint64_t r = (((uint64_t)t->lo[0] + a) * (uint64_t)L[3] + (uint64_t)t->lo[3] + z) *
                                     (uint64_t)L[2] + (uint64_t)t->lo[2] + y;
                    r = r * (uint64_t)L[1] + (uint64_t)t->lo[1] + x;
                    for (uint64_t k = 0; k < SITE; k++) p[s * SITE + k] = sbyte(r, k);
                }
    return p;
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    MPI_Comm cart = make_cart(4, (int[]){mpitest_size, 1, 1, 1});
    lattice_t t;
    lattice_init(&t, cart, 4, L, map, SITE);
    uint64_t bytes = lattice_sites(&t) * SITE;
    CHECK(bytes > (UINT64_C(1) << 31));
    unsigned char *local = fill(&t);
    MPI_File fh = open_new(cart, "big10.lime");
    LemonWriter *w = lemonCreateWriter(&fh, cart);
    LemonRecordHeader *h = lemonCreateHeader(1, 1, "big-lattice", (MPI_Offset)bytes);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    CHECK_INT(lemonWriteLatticeParallelNonBlockingMapped(w, local, SITE, L, map), LEMON_SUCCESS);
    CHECK_INT(lemonFinishWriting(w), LEMON_SUCCESS);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    MPI_File_close(&fh);

    int ok = 1;
    if (mpitest_rank == 0) {
        const uint64_t probes[] = {0, (UINT64_C(1) << 31) - 100, (UINT64_C(1) << 31) + 4000,
                                   bytes - 200};
        for (int i = 0; i < 4; i++) ok &= window_ok("big10.lime", 144, probes[i], 200, at);
    }
    check_root(ok);

    size_t n = (size_t)(lattice_local_sites(&t) * SITE);
    unsigned char *got = calloc(n, 1);
    fh = open_read(cart, "big10.lime");
    LemonReader *r = lemonCreateReader(&fh, cart);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_INT(lemonReadLatticeParallelNonBlockingMapped(r, got, SITE, L, map), LEMON_SUCCESS);
    CHECK_INT(lemonFinishReading(r), LEMON_SUCCESS);
    CHECK(memcmp(got, local, n) == 0);
    lemonDestroyReader(r);
    MPI_File_close(&fh);
    free(got);
    free(local);
    MPI_Comm_free(&cart);
    if (mpitest_rank == 0) remove("big10.lime");
    return mpitest_finish();
}
