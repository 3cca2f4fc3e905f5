/* Lemon defect 7: a lattice not divisible by the process grid (5^4 on
 * 2x2x1x1) was silently written in part.  Here every rank gets
 * LEMON_ERR_PARAM from the write and the read, nothing of the lattice reaches
 * the file (the record, closed short, holds only zeros), and the writer stays
 * usable. */
#include "lemontest.h"

static const int L[4] = {5, 5, 5, 5};
enum { SITE = 2 };

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    int grid[4] = {mpitest_size, 1, 1, 1};
    if (mpitest_size == 4) grid[0] = grid[1] = 2; /* Lemon's 2x2x1x1 */
    MPI_Comm cart = make_cart(4, grid);
    unsigned char *local = malloc(625 * SITE);
    memset(local, 0x77, 625 * SITE);
    MPI_File fh = open_new(cart, "defect07.lime");
    LemonWriter *w = lemonCreateWriter(&fh, cart);
    LemonRecordHeader *h = lemonCreateHeader(1, 0, "indivisible", 625 * SITE);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    int rc = lemonWriteLatticeParallel(w, local, SITE, L);
    CHECK_INT(rc, LEMON_ERR_PARAM);
    CHECK(all_equal(rc));
    rc = lemonWriteLatticeParallelNonBlockingMapped(w, local, SITE, L, (int[]){0, 3, 2, 1});
    CHECK_INT(rc, LEMON_ERR_PARAM);
    CHECK(all_equal(rc));
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    lemon_record(w, "still-usable", "yes", 3, 0, 1);
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    MPI_File_close(&fh);

    expect_buf e = {0};
    exp_record(&e, "indivisible", NULL, 625 * SITE, 1, 0);
    exp_record(&e, "still-usable", "yes", 3, 0, 1);
    check_file("defect07.lime", &e);

    fh = open_read(cart, "defect07.lime");
    LemonReader *r = lemonCreateReader(&fh, cart);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    memset(local, 0x11, 625 * SITE);
    rc = lemonReadLatticeParallel(r, local, SITE, L);
    CHECK_INT(rc, LEMON_ERR_PARAM);
    CHECK(all_equal(rc));
    CHECK_INT(local[0], 0x11);
    lemonDestroyReader(r);
    MPI_File_close(&fh);
    free(local); free(e.b);
    MPI_Comm_free(&cart);
    return mpitest_finish();
}
