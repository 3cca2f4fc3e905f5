/* write_truncate: limeWriteRecordData truncates to the room left in the
 * record and writes the padding by itself once the record is full; zero-length
 * records, records without padding, and limeWriterCloseRecord on a partly
 * written record.  The file's bytes are compared with a hand-built image. */
#include "limecheck.h"

static void header(LimeWriter *w, int mb, int me, const char *type, n_uint64_t len, int want)
{
    LimeRecordHeader *h = limeCreateHeader(mb, me, (char *)type, len);
    CHECK(h != NULL);
    CHECK_INT(limeWriteRecordHeader(h, w), want);
    limeDestroyHeader(h);
}

int main(void)
{
    unsigned char want[4096];
    size_t wn = 0;
    const char *ten = "0123456789ABCDEF";
    FILE *f = fopen("trunc.lime", "w+b");
    LimeWriter *w = limeCreateWriter(f);
    CHECK(w != NULL);

    /* 10-byte record: 4 bytes, then 100 offered of which 6 fit. */
    header(w, 1, 0, "ten", 10, LIME_SUCCESS);
    CHECK_INT(lc_file_size(f), 144);
    n_uint64_t n = 4;
    CHECK_INT(limeWriteRecordData((void *)ten, &n, w), LIME_SUCCESS);
    CHECK_U64(n, 4);
    CHECK_INT(lc_file_size(f), 148); /* no padding while the record is open */
    CHECK_INT(w->header_nextP, 0);
    header(w, 0, 0, "early", 1, LIME_ERR_HEADER_NEXT);
    char big[100];
    memcpy(big, ten + 4, 6);
    memset(big + 6, 'x', sizeof big - 6);
    n = sizeof big;
    CHECK_INT(limeWriteRecordData(big, &n, w), LIME_SUCCESS);
    CHECK_U64(n, 6);
    CHECK_INT(lc_file_size(f), 160); /* 144 + 10 + 6 padding, written by itself */
    CHECK_INT(w->header_nextP, 1);
    n = 5;
    CHECK_INT(limeWriteRecordData(big, &n, w), LIME_ERR_PARAM); /* record closed */
    CHECK_U64(n, 0);
    lc_record(want, &wn, "ten", ten, 10, 1, 0);

    /* zero-length record: closed by a zero-byte write, no padding */
    header(w, 0, 0, "empty", 0, LIME_SUCCESS);
    n = 0;
    CHECK_INT(limeWriteRecordData(NULL, &n, w), LIME_SUCCESS);
    CHECK_INT(w->header_nextP, 1);
    CHECK_INT(lc_file_size(f), 160 + 144);
    lc_record(want, &wn, "empty", "", 0, 0, 0);

    /* 16 bytes in one call: a multiple of 8, no padding */
    header(w, 0, 0, "sixteen", 16, LIME_SUCCESS);
    n = 16;
    CHECK_INT(limeWriteRecordData((void *)ten, &n, w), LIME_SUCCESS);
    CHECK_U64(n, 16);
    CHECK_INT(lc_file_size(f), 160 + 144 + 160);
    lc_record(want, &wn, "sixteen", ten, 16, 0, 0);

    /* 13-byte record of which only 5 are written, then closed: the gap
     * stays zero and the padding (3) follows the declared length. */
    header(w, 0, 1, "partial", 13, LIME_SUCCESS);
    n = 5;
    CHECK_INT(limeWriteRecordData((void *)ten, &n, w), LIME_SUCCESS);
    CHECK_INT(w->header_nextP, 0);
    CHECK_INT(limeWriterCloseRecord(w), LIME_SUCCESS);
    CHECK_INT(w->header_nextP, 1);
    CHECK_INT(w->last_written, 1);
    CHECK_INT(limeWriterCloseRecord(w), LIME_SUCCESS); /* closing twice is harmless */
    char part[13] = {0};
    memcpy(part, ten, 5);
    lc_record(want, &wn, "partial", part, 13, 0, 1);

    /* a record begun after the explicit close lands after the padding */
    header(w, 1, 1, "last", 3, LIME_SUCCESS);
    n = 3;
    CHECK_INT(limeWriteRecordData((void *)"abc", &n, w), LIME_SUCCESS);
    lc_record(want, &wn, "last", "abc", 3, 1, 1);

    CHECK_INT(limeDestroyWriter(w), LIME_SUCCESS);
    CHECK_INT(fclose(f), 0);
    CHECK(lc_file_equals("trunc.lime", want, wn));
    return lc_finish();
}
