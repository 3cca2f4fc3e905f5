/* reader_seek: limeReaderSeek (SEEK_SET, SEEK_CUR, clamping with
 * LIME_ERR_SEEK), limeReaderCloseRecord, limeReaderNextRecord skipping the
 * unread rest of a record, limeSetReaderPointer / limeGetReaderPointer and
 * limeReaderSetState onto a second FILE*, on the real C-LIME test file.
 * Payload bytes are compared with the file read independently. */
#include "limecheck.h"

static unsigned char *file;
static size_t file_len;

/* Read n bytes and compare them with the file at offset `at`. */
static void read_expect(LimeReader *r, n_uint64_t n, size_t at, int want_status)
{
    unsigned char buf[256];
    n_uint64_t got = n;
    CHECK_INT(limeReaderReadData(buf, &got, r), want_status);
    if (want_status == LIME_SUCCESS) {
        CHECK_U64(got, n);
        CHECK(at + n <= file_len && memcmp(buf, file + at, (size_t)n) == 0);
    }
}

int main(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/lime_writer_test1.lime", lc_datadir());
    file = lc_slurp(path, &file_len);
    CHECK(file && file_len == 888);
    FILE *f = fopen(path, "rb");
    LimeReader *r = limeCreateReader(f);
    if (!file || !r) return lc_finish();

    CHECK_INT(limeGetReaderPointer(r), 0); /* nothing read yet */
    CHECK_INT(limeReaderNextRecord(r), LIME_SUCCESS);
    CHECK_INT(limeGetReaderPointer(r), 192);
    read_expect(r, 10, 144, LIME_SUCCESS);
    CHECK_INT(limeReaderSeek(r, 5, SEEK_CUR), LIME_SUCCESS);
    read_expect(r, 3, 144 + 15, LIME_SUCCESS);
    CHECK_INT(limeReaderSeek(r, -18, SEEK_CUR), LIME_SUCCESS);
    read_expect(r, 4, 144, LIME_SUCCESS);
    CHECK_INT(limeReaderSeek(r, 40, SEEK_SET), LIME_SUCCESS);
    n_uint64_t n = 100;
    unsigned char buf[256];
    CHECK_INT(limeReaderReadData(buf, &n, r), LIME_SUCCESS); /* truncated to 5 */
    CHECK_U64(n, 5);
    CHECK(memcmp(buf, file + 144 + 40, 5) == 0);
    n = 10;
    CHECK_INT(limeReaderReadData(buf, &n, r), LIME_EOR);
    CHECK_U64(n, 0);
    /* out of the record: clamped to the nearest end, LIME_ERR_SEEK */
    CHECK_INT(limeReaderSeek(r, 46, SEEK_SET), LIME_ERR_SEEK);
    CHECK_U64(r->rec_ptr, 45);
    CHECK_INT(limeReaderSeek(r, -1000, SEEK_CUR), LIME_ERR_SEEK);
    CHECK_U64(r->rec_ptr, 0);
    read_expect(r, 7, 144, LIME_SUCCESS);
    CHECK_INT(limeReaderSeek(r, 0, SEEK_END), LIME_ERR_SEEK);
    read_expect(r, 2, 151, LIME_SUCCESS); /* a refused whence does not move */
    CHECK_INT(limeReaderSeek(r, 45, SEEK_SET), LIME_SUCCESS); /* the very end */
    CHECK_INT(limeReaderReadData(buf, &n, r), LIME_EOR);

    /* NextRecord skips whatever is left: record 2 after a partial read */
    CHECK_INT(limeReaderSeek(r, 3, SEEK_SET), LIME_SUCCESS);
    CHECK_INT(limeReaderNextRecord(r), LIME_SUCCESS);
    CHECK_U64(limeReaderBytes(r), 40);
    read_expect(r, 6, 192 + 144, LIME_SUCCESS);
    /* CloseRecord then NextRecord: record 3, not 4 */
    CHECK_INT(limeReaderCloseRecord(r), LIME_SUCCESS);
    CHECK_INT(limeReaderReadData(buf, &n, r), LIME_EOR);
    CHECK_INT(limeReaderNextRecord(r), LIME_SUCCESS);
    CHECK_U64(limeReaderBytes(r), 31);
    CHECK_INT(limeGetReaderPointer(r), 552);

    /* record 4, read 7 bytes, then hand the state to a second reader on its
     * own FILE*, as a byte copy with foreign pointers */
    CHECK_INT(limeReaderNextRecord(r), LIME_SUCCESS);
    CHECK_STR(limeReaderType(r), "lime-test-text2");
    read_expect(r, 7, 552 + 144, LIME_SUCCESS);
    LimeReader state;
    memcpy(&state, r, sizeof state);
    state.fp = (FILE *)(uintptr_t)0x10;
    state.curr_header = (LimeRecordHeader *)(uintptr_t)0x20;
    FILE *f2 = fopen(path, "rb");
    LimeReader *r2 = limeCreateReader(f2);
    CHECK_INT(limeReaderSetState(r2, &state), LIME_SUCCESS);
    CHECK(r2->fp == f2 && r2->curr_header == NULL);
    CHECK_U64(limeReaderBytes(r2), 0); /* no header of its own, as in C-LIME */
    read_expect(r2, 9, 552 + 144 + 7, LIME_SUCCESS);
    CHECK_INT(limeReaderSeek(r2, 0, SEEK_SET), LIME_SUCCESS);
    read_expect(r2, 23, 552 + 144, LIME_SUCCESS);
    CHECK_INT(limeReaderNextRecord(r2), LIME_SUCCESS);
    CHECK_STR(limeReaderType(r2), "lime-test-text3");
    /* the first reader was not disturbed */
    read_expect(r, 5, 552 + 144 + 7, LIME_SUCCESS);

    /* jump to a record by its offset; then to the end of the file */
    CHECK_INT(limeSetReaderPointer(r, 376), LIME_SUCCESS);
    CHECK(limeReaderType(r) == NULL);
    CHECK_INT(limeGetReaderPointer(r), 376);
    CHECK_INT(limeReaderNextRecord(r), LIME_SUCCESS);
    CHECK_U64(limeReaderBytes(r), 31);
    read_expect(r, 31, 376 + 144, LIME_SUCCESS);
    CHECK_INT(limeSetReaderPointer(r, 720), LIME_SUCCESS);
    CHECK_INT(limeReaderNextRecord(r), LIME_SUCCESS);
    CHECK_STR(limeReaderType(r), "lime-test-text3");
    CHECK_INT(limeGetReaderPointer(r), 888);
    CHECK_INT(limeReaderNextRecord(r), LIME_EOF);
    CHECK(limeReaderType(r) == NULL);
    CHECK_INT(limeReaderNextRecord(r), LIME_EOF); /* stays at the end */
    CHECK_INT(limeSetReaderPointer(r, -1), LIME_ERR_SEEK);
    CHECK_INT(limeSetReaderPointer(r, 0), LIME_SUCCESS);
    CHECK_INT(limeReaderNextRecord(r), LIME_SUCCESS);
    CHECK_U64(limeReaderBytes(r), 45);

    limeDestroyReader(r);
    limeDestroyReader(r2);
    fclose(f);
    fclose(f2);
    free(file);
    return lc_finish();
}
