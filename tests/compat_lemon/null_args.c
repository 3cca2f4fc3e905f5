/* null_args: Lemon dereferenced NULL arguments (and printed per rank).  Every
 * call here gets a NULL handle or argument and must return LEMON_ERR_PARAM
 * (NULL / negative from accessors), the same on every rank, and leave the
 * handles usable: the file ends up exactly one intact record. */
#include "lemontest.h"

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    MPI_Comm cart = make_cart(2, (int[]){mpitest_size, 1});
    int L[2] = {2 * mpitest_size, 2};
    MPI_Offset n = 4;
    unsigned char buf[64] = {0};
    CHECK(lemonCreateWriter(NULL, cart) == NULL);
    CHECK(lemonCreateReader(NULL, cart) == NULL);
    CHECK_INT(lemonWriteRecordHeader(NULL, NULL), LEMON_ERR_PARAM);
    CHECK_INT(lemonWriteRecordData(buf, &n, NULL), LEMON_ERR_PARAM);
    CHECK_INT(n, 0);
    CHECK_INT(lemonWriterCloseRecord(NULL), LEMON_ERR_PARAM);
    CHECK_INT(lemonReaderNextRecord(NULL), LEMON_ERR_PARAM);
    CHECK_INT(lemonReaderMBFlag(NULL), LEMON_ERR_PARAM);
    CHECK(lemonReaderType(NULL) == NULL);
    CHECK_INT(lemonGetReaderPointer(NULL), LEMON_ERR_PARAM);
    CHECK_INT(lemonFinishWriting(NULL), LEMON_ERR_PARAM);
    CHECK_INT(lemonFinishReading(NULL), LEMON_ERR_PARAM);

    MPI_File fh = open_new(cart, "null.lime");
    LemonWriter *w = lemonCreateWriter(&fh, cart);
    CHECK_INT(lemonWriteRecordHeader(NULL, w), LEMON_ERR_PARAM);
    LemonRecordHeader *h = lemonCreateHeader(1, 1, "rec", 8 * L[0] * L[1]);
    CHECK_INT(lemonWriteRecordData(buf, &n, w), LEMON_ERR_PARAM); /* no record open */
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_ERR_HEADER_NEXT);
    CHECK_INT(lemonWriteRecordData(NULL, &n, w), LEMON_ERR_PARAM);
    CHECK_INT(lemonWriteRecordData(buf, NULL, w), LEMON_ERR_PARAM);
    /* NULL data on one rank only: every rank fails */
    int rc = lemonWriteLatticeParallel(w, mpitest_rank == mpitest_size - 1 ? NULL : buf, 8, L);
    CHECK_INT(rc, LEMON_ERR_PARAM);
    CHECK_INT(lemonWriteLatticeParallel(w, buf, 8, NULL), LEMON_ERR_PARAM);
    CHECK_INT(lemonWriteLatticeParallelMapped(w, buf, 8, L, NULL), LEMON_ERR_PARAM);
    CHECK_INT(lemonWriteLatticeParallelMapped(w, buf, 8, L, (int[]){0, 0}), LEMON_ERR_PARAM);
    CHECK_INT(lemonWriteLatticeParallel(w, buf, 0, L), LEMON_ERR_PARAM);
    CHECK_INT(lemonWriterSeek(w, 0, 12345), LEMON_ERR_PARAM);
    memset(buf, 'a' + mpitest_rank, sizeof buf);
    CHECK_INT(lemonWriteLatticeParallel(w, buf, 8, L), LEMON_SUCCESS);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_ERR_CLOSE);
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    MPI_File_close(&fh);

    expect_buf e = {0};
    unsigned char payload[64 * 4];
    for (int r = 0; r < mpitest_size; r++) memset(payload + 32 * r, 'a' + r, 32);
    exp_record(&e, "rec", payload, (uint64_t)(8 * L[0] * L[1]), 1, 1);
    check_file("null.lime", &e);

    fh = open_read(cart, "null.lime");
    LemonReader *r = lemonCreateReader(&fh, cart);
    CHECK_INT(lemonReaderMBFlag(r), LEMON_ERR_PARAM); /* no record yet */
    CHECK(lemonReaderType(r) == NULL);
    CHECK_INT(lemonReaderReadData(buf, &n, r), LEMON_ERR_PARAM);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_INT(lemonReaderReadData(NULL, &n, r), LEMON_ERR_PARAM);
    CHECK_INT(lemonReaderReadData(buf, NULL, r), LEMON_ERR_PARAM);
    CHECK_INT(lemonReadLatticeParallel(r, NULL, 8, L), LEMON_ERR_PARAM);
    CHECK_INT(lemonReaderSetState(NULL, r), LEMON_ERR_PARAM);
    lemonDestroyReader(r);
    MPI_File_close(&fh);
    lemonDestroyHeader(h);
    free(e.b);
    MPI_Comm_free(&cart);
    return mpitest_finish();
}
