/* Lemon defect 6: the header's data length was never enforced, so bytes
 * written or read beyond it corrupted or leaked the neighbours.  Writes
 * beyond the record return LEMON_ERR_WRITE and write nothing; reads beyond it
 * stop at the end (LEMON_EOR, *nbytes = what was left) and leave the rest of
 * the buffer alone; a lattice larger than the record is refused. */
#include "lemontest.h"

static const int L[1] = {24};

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    MPI_Comm cart = make_cart(1, NULL);
    unsigned char big[24 * 8];
    memset(big, 0x5a, sizeof big);
    MPI_File fh = open_new(cart, "defect06.lime");
    LemonWriter *w = lemonCreateWriter(&fh, cart);
    LemonRecordHeader *h = lemonCreateHeader(1, 0, "short", 10);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    MPI_Offset n = 16;
    CHECK_INT(lemonWriteRecordData(big, &n, w), LEMON_ERR_WRITE);
    CHECK_INT(n, 0);
    CHECK_INT(lemonWriteRecordDataNonBlocking(big, &(MPI_Offset){11}, w), LEMON_ERR_WRITE);
    CHECK_INT(lemonWriteLatticeParallel(w, big, 8, L), LEMON_ERR_WRITE);
    n = 10;
    CHECK_INT(lemonWriteRecordData("0123456789", &n, w), LEMON_SUCCESS);
    n = 1;
    CHECK_INT(lemonWriteRecordData("X", &n, w), LEMON_ERR_WRITE);
    CHECK_INT(lemonWriterSeek(w, 11, MPI_SEEK_SET), LEMON_ERR_SEEK);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    lemon_record(w, "neighbour", "intact", 6, 0, 1);
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    MPI_File_close(&fh);

    expect_buf e = {0};
    exp_record(&e, "short", "0123456789", 10, 1, 0);
    exp_record(&e, "neighbour", "intact", 6, 0, 1);
    check_file("defect06.lime", &e);

    unsigned char buf[32];
    memset(buf, 0xee, sizeof buf);
    fh = open_read(cart, "defect06.lime");
    LemonReader *r = lemonCreateReader(&fh, cart);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    n = 32;
    CHECK_INT(lemonReaderReadData(buf, &n, r), LEMON_EOR);
    CHECK_INT(n, 10);
    CHECK(memcmp(buf, "0123456789", 10) == 0);
    int untouched = 1;
    for (int i = 10; i < 32; i++) untouched &= buf[i] == 0xee;
    CHECK(untouched);
    CHECK_INT(lemonReaderSeek(r, 4, MPI_SEEK_SET), LEMON_SUCCESS);
    memset(buf, 0xee, sizeof buf);
    CHECK_INT(lemonReaderReadDataNonBlocking(buf, &(MPI_Offset){7}, r), LEMON_EOR);
    CHECK_INT(lemonFinishReading(r), LEMON_SUCCESS);
    CHECK_INT(buf[0], 0xee);
    CHECK_INT(lemonReadLatticeParallel(r, big, 8, L), LEMON_EOR);
    CHECK_INT(lemonReaderSeek(r, 11, MPI_SEEK_SET), LEMON_ERR_SEEK);
    CHECK_INT(lemonGetReaderPointer(r), 4);
    CHECK_INT(lemonReaderSeek(r, -3, MPI_SEEK_END), LEMON_SUCCESS);
    CHECK_INT(lemonGetReaderPointer(r), 7);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_STR(lemonReaderType(r), "neighbour");
    lemonDestroyReader(r);
    MPI_File_close(&fh);
    free(e.b);
    MPI_Comm_free(&cart);
    return mpitest_finish();
}
