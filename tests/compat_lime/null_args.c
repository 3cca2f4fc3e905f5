/* null_args: every function given NULL handles or arguments returns its
 * documented error instead of crashing (C-LIME dereferences most of them). */
#include "limecheck.h"

int main(void)
{
    n_uint64_t n = 5;
    char buf[8];
    CHECK(limeCreateHeader(1, 1, NULL, 0) == NULL);
    limeDestroyHeader(NULL);
    CHECK(limeCreateWriter(NULL) == NULL);
    CHECK(limeCreateReader(NULL) == NULL);
    CHECK_INT(limeDestroyWriter(NULL), LIME_SUCCESS);
    limeDestroyReader(NULL);

    /* writer */
    LimeRecordHeader *h = limeCreateHeader(1, 1, "t", 4);
    CHECK_INT(limeWriteRecordHeader(h, NULL), LIME_ERR_PARAM);
    CHECK_INT(limeWriteRecordHeader(NULL, NULL), LIME_ERR_PARAM);
    CHECK_INT(limeWriteRecordData(buf, &n, NULL), LIME_ERR_PARAM);
    CHECK_U64(n, 0);
    CHECK_INT(limeWriterCloseRecord(NULL), LIME_ERR_PARAM);
    CHECK_INT(limeWriterSeek(NULL, 0, SEEK_SET), LIME_ERR_PARAM);
    CHECK_INT(limeWriterSetState(NULL, NULL), LIME_ERR_PARAM);

    FILE *f = fopen("null.lime", "w+b");
    LimeWriter *w = limeCreateWriter(f);
    CHECK_INT(limeWriteRecordHeader(NULL, w), LIME_ERR_PARAM);
    char *type = h->type;
    h->type = NULL;
    CHECK_INT(limeWriteRecordHeader(h, w), LIME_ERR_PARAM);
    h->type = type;
    n = 4;
    CHECK_INT(limeWriteRecordData(buf, &n, w), LIME_ERR_PARAM); /* no header yet */
    CHECK_INT(limeWriteRecordHeader(h, w), LIME_SUCCESS);
    CHECK_INT(limeWriteRecordData(buf, NULL, w), LIME_ERR_PARAM);
    n = 4;
    CHECK_INT(limeWriteRecordData(NULL, &n, w), LIME_ERR_PARAM);
    CHECK_INT(limeWriterSetState(w, NULL), LIME_ERR_PARAM);
    CHECK_INT(limeWriterSetState(NULL, w), LIME_ERR_PARAM);
    CHECK_INT(limeWriterSeek(w, 1, 12345), LIME_ERR_WRITE); /* C-LIME's code */
    /* a corrupt state is refused, not followed */
    LimeWriter bad = *w;
    bad.rec_ptr = bad.bytes_total + 1;
    CHECK_INT(limeWriterSetState(w, &bad), LIME_ERR_PARAM);
    bad = *w;
    bad.bytes_pad = 3;
    CHECK_INT(limeWriterSetState(w, &bad), LIME_ERR_PARAM);
    CHECK_INT(limeWriterCloseRecord(w), LIME_SUCCESS);
    limeDestroyWriter(w);
    limeDestroyHeader(h);
    fflush(f);
    rewind(f);

    /* reader */
    CHECK_INT(limeReaderNextRecord(NULL), LIME_ERR_PARAM);
    CHECK_INT(limeReaderMBFlag(NULL), -1);
    CHECK_INT(limeReaderMEFlag(NULL), -1);
    CHECK(limeReaderType(NULL) == NULL);
    CHECK_U64(limeReaderBytes(NULL), 0);
    CHECK_U64(limeReaderPadBytes(NULL), 0);
    n = 3;
    CHECK_INT(limeReaderReadData(buf, &n, NULL), LIME_ERR_PARAM);
    CHECK_INT(limeReaderCloseRecord(NULL), LIME_ERR_PARAM);
    CHECK_INT(limeReaderSeek(NULL, 0, SEEK_SET), LIME_ERR_PARAM);
    CHECK_INT(limeReaderSetState(NULL, NULL), LIME_ERR_PARAM);
    CHECK_INT(limeSetReaderPointer(NULL, 0), LIME_ERR_PARAM);
    CHECK_INT(limeGetReaderPointer(NULL), -1);
    CHECK_INT(limeEOM(NULL), LIME_ERR_PARAM);

    LimeReader *r = limeCreateReader(f);
    CHECK_INT(limeReaderSetState(r, NULL), LIME_ERR_PARAM);
    CHECK_INT(limeReaderSetState(NULL, r), LIME_ERR_PARAM);
    n = 3;
    CHECK_INT(limeReaderReadData(buf, &n, r), LIME_EOR); /* no record yet */
    CHECK_INT(limeReaderCloseRecord(r), LIME_SUCCESS);   /* nothing to close */
    CHECK_INT(limeReaderSeek(r, 0, SEEK_SET), LIME_SUCCESS);
    CHECK_INT(limeReaderNextRecord(r), LIME_SUCCESS);
    CHECK_INT(limeReaderReadData(buf, NULL, r), LIME_ERR_PARAM);
    n = 3;
    CHECK_INT(limeReaderReadData(NULL, &n, r), LIME_ERR_PARAM);
    n = 0;
    CHECK_INT(limeReaderReadData(NULL, &n, r), LIME_SUCCESS); /* nothing asked */
    n = 4;
    CHECK_INT(limeReaderReadData(buf, &n, r), LIME_SUCCESS);
    CHECK_U64(n, 4);
    LimeReader badr = *r;
    badr.rec_start = (n_uint64_t)1 << 63;
    CHECK_INT(limeReaderSetState(r, &badr), LIME_ERR_PARAM);
    limeDestroyReader(r);
    fclose(f);
    return lc_finish();
}
