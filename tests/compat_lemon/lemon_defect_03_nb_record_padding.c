/* Lemon defect 3: non-blocking record data omitted the padding.  Records of
 * 13 and 5 bytes written with lemonWriteRecordDataNonBlocking, the last one
 * ending the file: the padding must be on disk (file length a multiple of 8)
 * and every byte as in the serial encoding. */
#include "lemontest.h"

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    MPI_File fh = open_new(MPI_COMM_WORLD, "defect03.lime");
    LemonWriter *w = lemonCreateWriter(&fh, MPI_COMM_WORLD);
    const char *payload[2] = {"thirteen byte", "five!"};
    const MPI_Offset len[2] = {13, 5};
    for (int i = 0; i < 2; i++) {
        LemonRecordHeader *h = lemonCreateHeader(i == 0, i == 1, "nb-meta", len[i]);
        CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
        lemonDestroyHeader(h);
        CHECK_INT(lemonWriteRecordDataNonBlocking((void *)payload[i], &len[i], w), LEMON_SUCCESS);
        CHECK_INT(lemonFinishWriting(w), LEMON_SUCCESS);
        CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    }
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    MPI_Offset size = 0;
    MPI_File_get_size(fh, &size);
    CHECK_INT(size, 2 * 144 + 16 + 8);
    MPI_File_close(&fh);
    expect_buf e = {0};
    exp_record(&e, "nb-meta", payload[0], 13, 1, 0);
    exp_record(&e, "nb-meta", payload[1], 5, 0, 1);
    check_file("defect03.lime", &e);
    free(e.b);
    return mpitest_finish();
}
