/* type_128_and_length: issue 16, one rule for record types and Lemon's
 * codes for damaged headers.  A type of 128 characters (the whole header
 * field, no NUL, as C-LIME writes it) is written by lemonWriteRecordHeader,
 * read back whole by lemonReaderNextRecord and by lime.h's reader (they used
 * to refuse it); 129 characters are LEMON_ERR_PARAM.  A header whose length
 * is near 2^64 is a damaged header: LEMON_ERR_READ (it was LEMON_ERR_PARAM),
 * on every rank. */
#include "lemontest.h"
#include "lime.h"

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    MPI_Comm cart = make_cart(1, (int[]){mpitest_size});
    char type[131];
    memset(type, 'q', sizeof type);
    type[128] = '\0';
    MPI_File fh = open_new(cart, "t128.lime");
    LemonWriter *w = lemonCreateWriter(&fh, cart);
    LemonRecordHeader *h = lemonCreateHeader(1, 1, type, 8);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    MPI_Offset n = mpitest_rank == 0 ? 8 : 0;
    CHECK_INT(lemonWriteRecordData((void *)"12345678", &n, w), LEMON_SUCCESS);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    type[128] = 'q';
    type[129] = '\0';
    h = lemonCreateHeader(1, 1, type, 8);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_ERR_PARAM);
    lemonDestroyHeader(h);
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    MPI_File_close(&fh);

    /* on disk: the field full of 'q', the payload right after it */
    size_t size = 0;
    unsigned char *b = test_slurp("t128.lime", &size);
    CHECK(b && size == 144 + 8 && b[16] == 'q' && b[143] == 'q' && b[144] == '1');
    free(b);

    fh = open_read(cart, "t128.lime");
    LemonReader *r = lemonCreateReader(&fh, cart);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK(lemonReaderType(r) && strlen(lemonReaderType(r)) == 128);
    lemonDestroyReader(r);
    MPI_File_close(&fh);
    if (mpitest_rank == 0) { /* the serial C-LIME API reads it the same way */
        FILE *f = fopen("t128.lime", "rb");
        LimeReader *lr = limeCreateReader(f);
        CHECK_INT(limeReaderNextRecord(lr), LIME_SUCCESS);
        CHECK(strlen(limeReaderType(lr)) == 128);
        limeDestroyReader(lr);
        fclose(f);
    }

    /* a length near 2^64: a damaged header, not a parameter error */
    if (mpitest_rank == 0) {
        FILE *f = fopen("huge.lime", "wb");
        unsigned char hd[144] = {0x45, 0x67, 0x89, 0xab, 0, 1, 0xc0, 0};
        memset(hd + 8, 0xff, 8);
        hd[16] = 'x';
        fwrite(hd, 1, sizeof hd, f);
        fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    fh = open_read(cart, "huge.lime");
    r = lemonCreateReader(&fh, cart);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_ERR_READ);
    lemonDestroyReader(r);
    MPI_File_close(&fh);
    return mpitest_finish();
}
