/* write_reference: reproduce the C-LIME writer test's output file
 * (tests/data/real/lime_writer_test1.lime) byte for byte through the C-LIME
 * API: five text records in three messages, the third and fourth written
 * back half first with limeWriterSeek. */
#include "limecheck.h"

/* Write `text` as one record in two halves.  In order: first half, then
 * the rest.  Shuffled: seek to the second half, write it, seek back by the
 * whole length (SEEK_CUR), write the first half, close explicitly. */
static void put(LimeWriter *w, int mb, int me, int shuffled, const char *text, const char *type)
{
    n_uint64_t len = strlen(text), half = len / 2, n;
    LimeRecordHeader *h = limeCreateHeader(mb, me, (char *)type, len);
    CHECK(h != NULL);
    CHECK_INT(limeWriteRecordHeader(h, w), LIME_SUCCESS);
    limeDestroyHeader(h);
    char *p = (char *)text;
    if (!shuffled) {
        n = half;
        CHECK_INT(limeWriteRecordData(p, &n, w), LIME_SUCCESS);
        CHECK_U64(n, half);
        CHECK_INT(w->header_nextP, 0);
        n = len - half;
        CHECK_INT(limeWriteRecordData(p + half, &n, w), LIME_SUCCESS);
        CHECK_U64(n, len - half);
    } else {
        n_uint64_t second = len - half;
        n = half;
        CHECK_INT(limeWriterSeek(w, (off_t)second, SEEK_SET), LIME_SUCCESS);
        CHECK_INT(limeWriteRecordData(p + second, &n, w), LIME_SUCCESS);
        CHECK_U64(n, half);
        CHECK_U64(w->rec_ptr, len);
        CHECK_INT(w->header_nextP, 0); /* not full yet: half of it missing */
        CHECK_INT(limeWriterSeek(w, -(off_t)len, SEEK_CUR), LIME_SUCCESS);
        CHECK_U64(w->rec_ptr, 0);
        n = second;
        CHECK_INT(limeWriteRecordData(p, &n, w), LIME_SUCCESS);
        CHECK_U64(n, second);
        CHECK_INT(limeWriterCloseRecord(w), LIME_SUCCESS);
    }
    CHECK_INT(w->header_nextP, 1); /* the record is complete and padded */
}

int main(void)
{
    FILE *fp = fopen("lime_file_test", "wb");
    CHECK(fp != NULL);
    if (!fp) return lc_finish();
    LimeWriter *w = limeCreateWriter(fp);
    CHECK(w != NULL);
    put(w, 1, 0, 0, "Doctor! Ain't there nothin' I can take, I say", "lime-test-text1");
    put(w, 0, 1, 0, "Doctor! To relieve this bellyache, I say", "lime-test-text1");
    put(w, 1, 0, 1, "You put the lime in the coconut", "lime-test-text1");
    put(w, 0, 1, 1, "drink 'em both together", "lime-test-text2");
    put(w, 1, 1, 0, "Harry Nilsson, 1971", "lime-test-text3");
    CHECK_INT(w->last_written, 1);
    CHECK_INT(limeDestroyWriter(w), LIME_SUCCESS);
    CHECK_INT(fclose(fp), 0);

    char path[4096];
    snprintf(path, sizeof path, "%s/lime_writer_test1.lime", lc_datadir());
    size_t n = 0;
    unsigned char *want = lc_slurp(path, &n);
    CHECK(want != NULL);
    CHECK_U64(n, 888);
    if (want) CHECK(lc_file_equals("lime_file_test", want, n));
    free(want);
    return lc_finish();
}
