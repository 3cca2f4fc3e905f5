/* Lemon defect 5: a second lattice written into the same record landed at
 * the wrong offset.  Two lattices (unmapped, then mapped {0,3,2,1}) share one
 * record: the second must start right after the first; both read back. */
#include "lemontest.h"

static const int L[4] = {12, 2, 6, 4};
static const int map[4] = {0, 3, 2, 1};
enum { SITE = 6 };

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    MPI_Comm cart = make_cart(4, NULL);
    lattice_t a, b;
    lattice_init(&a, cart, 4, L, NULL, SITE);
    lattice_init(&b, cart, 4, L, map, SITE);
    uint64_t bytes = lattice_sites(&a) * SITE;
    size_t n = (size_t)lattice_local_sites(&a) * SITE;
    unsigned char *la = lattice_local(&a), *lb = lattice_local(&b);
    MPI_File fh = open_new(cart, "defect05.lime");
    LemonWriter *w = lemonCreateWriter(&fh, cart);
    LemonRecordHeader *h = lemonCreateHeader(1, 1, "two-lattices", (MPI_Offset)(2 * bytes));
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    CHECK_INT(lemonWriteLatticeParallel(w, la, SITE, L), LEMON_SUCCESS);
    CHECK_INT(lemonWriteLatticeParallelMapped(w, lb, SITE, L, map), LEMON_SUCCESS);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    MPI_File_close(&fh);

    unsigned char *pa = lattice_expected(&a), *pb = lattice_expected(&b);
    unsigned char *both = malloc(2 * bytes);
    memcpy(both, pa, bytes);
    memcpy(both + bytes, pb, bytes);
    expect_buf e = {0};
    exp_record(&e, "two-lattices", both, 2 * bytes, 1, 1);
    check_file("defect05.lime", &e);

    unsigned char *ga = calloc(n, 1), *gb = calloc(n, 1);
    fh = open_read(cart, "defect05.lime");
    LemonReader *r = lemonCreateReader(&fh, cart);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_INT(lemonReadLatticeParallel(r, ga, SITE, L), LEMON_SUCCESS);
    CHECK_INT(lemonReadLatticeParallelMapped(r, gb, SITE, L, map), LEMON_SUCCESS);
    CHECK(memcmp(ga, la, n) == 0);
    CHECK(memcmp(gb, lb, n) == 0);
    CHECK_INT(lemonGetReaderPointer(r), (MPI_Offset)(2 * bytes));
    lemonDestroyReader(r);
    MPI_File_close(&fh);
    free(la); free(lb); free(pa); free(pb); free(both); free(ga); free(gb); free(e.b);
    MPI_Comm_free(&cart);
    return mpitest_finish();
}
