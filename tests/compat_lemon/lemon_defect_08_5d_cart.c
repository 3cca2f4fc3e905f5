/* Lemon defect 8: a Cartesian communicator of more than 4 dimensions crashed
 * the unmapped calls.  A 5-D lattice on a 5-D grid is written unmapped and
 * mapped (reversed dimensions) and read back; bytes as computed serially. */
#include "lemontest.h"

static const int L[5] = {6, 4, 3, 2, 5};
static const int rev[5] = {4, 3, 2, 1, 0};
enum { SITE = 3 };

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    MPI_Comm cart = make_cart(5, NULL);
    lattice_t a, b;
    lattice_init(&a, cart, 5, L, NULL, SITE);
    lattice_init(&b, cart, 5, L, rev, SITE);
    MPI_Offset bytes = (MPI_Offset)lattice_sites(&a) * SITE;
    size_t n = (size_t)lattice_local_sites(&a) * SITE;
    unsigned char *la = lattice_local(&a), *lb = lattice_local(&b);
    MPI_File fh = open_new(cart, "defect08.lime");
    LemonWriter *w = lemonCreateWriter(&fh, cart);
    LemonRecordHeader *h = lemonCreateHeader(1, 0, "five-d", bytes);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    CHECK_INT(lemonWriteLatticeParallel(w, la, SITE, L), LEMON_SUCCESS);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    h = lemonCreateHeader(0, 1, "five-d-reversed", bytes);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    CHECK_INT(lemonWriteLatticeParallelNonBlockingMapped(w, lb, SITE, L, rev), LEMON_SUCCESS);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    MPI_File_close(&fh);

    unsigned char *pa = lattice_expected(&a), *pb = lattice_expected(&b);
    expect_buf e = {0};
    exp_record(&e, "five-d", pa, (uint64_t)bytes, 1, 0);
    exp_record(&e, "five-d-reversed", pb, (uint64_t)bytes, 0, 1);
    check_file("defect08.lime", &e);

    unsigned char *g = calloc(n, 1);
    fh = open_read(cart, "defect08.lime");
    LemonReader *r = lemonCreateReader(&fh, cart);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_INT(lemonReadLatticeParallelNonBlocking(r, g, SITE, L), LEMON_SUCCESS);
    CHECK_INT(lemonFinishReading(r), LEMON_SUCCESS);
    CHECK(memcmp(g, la, n) == 0);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_INT(lemonReadLatticeParallelMapped(r, g, SITE, L, rev), LEMON_SUCCESS);
    CHECK(memcmp(g, lb, n) == 0);
    lemonDestroyReader(r);
    MPI_File_close(&fh);
    free(la); free(lb); free(pa); free(pb); free(g); free(e.b);
    MPI_Comm_free(&cart);
    return mpitest_finish();
}
