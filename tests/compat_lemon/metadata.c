/* metadata: Lemon's xlf examples -- a three-record message of metadata
 * written blocking (in two pieces) and non-blocking, read back blocking and
 * non-blocking by every rank; the file must match the independent encoding. */
#include "lemontest.h"

static const char xlf[] = "plaquette = 0.5876\nbeta = 5.85\nkappa = 0.1625\n"; /* 46 bytes */
static const char ildg[] = "<ildgFormat><field>su3gauge</field></ildgFormat>";  /* 48 bytes */
static const char lfn[] = "lfn://example/conf.0001";                             /* 23 bytes */

static void write_file(void)
{
    MPI_File fh = open_new(MPI_COMM_WORLD, "metadata.lime");
    LemonWriter *w = lemonCreateWriter(&fh, MPI_COMM_WORLD);
    LemonRecordHeader *h = lemonCreateHeader(1, 0, "xlf-info", 46);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    MPI_Offset n = 20;
    CHECK_INT(lemonWriteRecordData((void *)xlf, &n, w), LEMON_SUCCESS);
    n = 26;
    CHECK_INT(lemonWriteRecordData((void *)(xlf + 20), &n, w), LEMON_SUCCESS);
    CHECK_INT(n, 26);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);

    h = lemonCreateHeader(0, 0, "ildg-format", 48);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    MPI_Offset nb = 48;
    CHECK_INT(lemonWriteRecordDataNonBlocking((void *)ildg, &nb, w), LEMON_SUCCESS);
    CHECK_INT(lemonFinishWriting(w), LEMON_SUCCESS);
    CHECK_INT(lemonFinishWriting(w), LEMON_SUCCESS); /* nothing pending: returns at once */
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);

    h = lemonCreateHeader(0, 1, "ildg-data-lfn", 23);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    nb = 23;
    CHECK_INT(lemonWriteRecordDataNonBlocking((void *)lfn, &nb, w), LEMON_SUCCESS);
    /* no FinishWriting: closing the record completes the request */
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    MPI_File_close(&fh);
}

static void read_file(void)
{
    MPI_File fh = open_read(MPI_COMM_WORLD, "metadata.lime");
    LemonReader *r = lemonCreateReader(&fh, MPI_COMM_WORLD);
    char buf[64];
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_STR(lemonReaderType(r), "xlf-info");
    CHECK_INT(lemonReaderMBFlag(r), 1);
    CHECK_INT(lemonReaderMEFlag(r), 0);
    memset(buf, 0, sizeof buf);
    MPI_Offset n = 46;
    CHECK_INT(lemonReaderReadData(buf, &n, r), LEMON_SUCCESS);
    CHECK(memcmp(buf, xlf, 46) == 0);

    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_STR(lemonReaderType(r), "ildg-format");
    memset(buf, 0, sizeof buf);
    MPI_Offset nb = 48;
    CHECK_INT(lemonReaderReadDataNonBlocking(buf, &nb, r), LEMON_SUCCESS);
    CHECK_INT(lemonFinishReading(r), LEMON_SUCCESS);
    CHECK(memcmp(buf, ildg, 48) == 0);

    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_STR(lemonReaderType(r), "ildg-data-lfn");
    CHECK_INT(lemonEOM(r), 1);
    memset(buf, 0, sizeof buf);
    CHECK_INT(lemonReaderSeek(r, 6, MPI_SEEK_SET), LEMON_SUCCESS);
    nb = 17;
    CHECK_INT(lemonReaderReadDataNonBlocking(buf, &nb, r), LEMON_SUCCESS);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_EOF); /* completes the read */
    CHECK(memcmp(buf, lfn + 6, 17) == 0);
    lemonDestroyReader(r);
    MPI_File_close(&fh);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    write_file();
    expect_buf e = {0};
    exp_record(&e, "xlf-info", xlf, 46, 1, 0);
    exp_record(&e, "ildg-format", ildg, 48, 0, 0);
    exp_record(&e, "ildg-data-lfn", lfn, 23, 0, 1);
    check_file("metadata.lime", &e);
    read_file();
    free(e.b);
    return mpitest_finish();
}
