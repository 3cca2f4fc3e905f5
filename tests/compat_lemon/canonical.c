/* canonical: Lemon's canonical example -- one text record written by a
 * writer on MPI_COMM_WORLD, a second writer appending on the same MPI_File
 * (it starts at the file pointer the first one left), then read back.  The
 * file must equal an independently encoded LIME file byte for byte. */
#include "lemontest.h"

static const char text1[] = "Hello, parallel LIME world!";  /* 27 bytes: 5 of padding */
static const char text2[] = "appended: 16 byt";              /* 16 bytes: no padding */

static void write_file(void)
{
    MPI_File fh = open_new(MPI_COMM_WORLD, "canonical.lime");
    LemonWriter *w = lemonCreateWriter(&fh, MPI_COMM_WORLD);
    CHECK(w != NULL);
    lemon_record(w, "lemon-test-text", text1, 27, 1, 1);
    CHECK_INT(w->off, 144 + 32);
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    /* the individual file pointer is after the record: a new writer appends */
    MPI_Offset p = -1;
    MPI_File_get_position(fh, &p);
    CHECK_INT(p, 144 + 32);
    w = lemonCreateWriter(&fh, MPI_COMM_WORLD);
    CHECK(w != NULL);
    lemon_record(w, "lemon-test-append", text2, 16, 1, 1);
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    MPI_File_close(&fh);
}

static void read_file(void)
{
    MPI_File fh = open_read(MPI_COMM_WORLD, "canonical.lime");
    LemonReader *r = lemonCreateReader(&fh, MPI_COMM_WORLD);
    CHECK(r != NULL);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_STR(lemonReaderType(r), "lemon-test-text");
    CHECK_INT(lemonReaderBytes(r), 27);
    CHECK_INT(lemonReaderPadBytes(r), 5);
    CHECK_INT(lemonReaderMBFlag(r), 1);
    CHECK_INT(lemonReaderMEFlag(r), 1);
    CHECK_INT(lemonEOM(r), 1);
    char buf[64] = {0};
    MPI_Offset n = 27;
    CHECK_INT(lemonReaderReadData(buf, &n, r), LEMON_SUCCESS);
    CHECK_INT(n, 27);
    CHECK_STR(buf, text1);
    CHECK_INT(lemonGetReaderPointer(r), 27);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_STR(lemonReaderType(r), "lemon-test-append");
    CHECK_INT(lemonReaderPadBytes(r), 0);
    memset(buf, 0, sizeof buf);
    n = 16;
    CHECK_INT(lemonReaderReadData(buf, &n, r), LEMON_SUCCESS);
    CHECK(memcmp(buf, text2, 16) == 0);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_EOF);
    lemonDestroyReader(r);
    MPI_File_close(&fh);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    write_file();
    expect_buf e = {0};
    exp_record(&e, "lemon-test-text", text1, 27, 1, 1);
    exp_record(&e, "lemon-test-append", text2, 16, 1, 1);
    check_file("canonical.lime", &e);
    read_file();
    free(e.b);
    return mpitest_finish();
}
