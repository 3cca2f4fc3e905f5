/* write_mbme: the message begin/end rules limeWriteRecordHeader enforces
 * (LIME_ERR_MBME), exactly as C-LIME does, the header length limits
 * (LIME_ERR_PARAM), and that a refused header writes nothing. */
#include "limecheck.h"

static int put(LimeWriter *w, int mb, int me, const char *type)
{
    LimeRecordHeader *h = limeCreateHeader(mb, me, (char *)type, 1);
    int st = limeWriteRecordHeader(h, w);
    limeDestroyHeader(h);
    if (st == LIME_SUCCESS) {
        n_uint64_t n = 1;
        CHECK_INT(limeWriteRecordData((void *)"z", &n, w), LIME_SUCCESS);
    }
    return st;
}

int main(void)
{
    FILE *f = fopen("mbme.lime", "wb");
    LimeWriter *w = limeCreateWriter(f);
    /* the first record may lack MB (appending to a message) */
    CHECK_INT(put(w, 0, 0, "a"), LIME_SUCCESS);
    /* the previous record did not end the message: MB is wrong now */
    CHECK_INT(put(w, 1, 0, "b"), LIME_ERR_MBME);
    CHECK_INT(lc_file_size(f), 152); /* nothing written for the refused header */
    CHECK_INT(put(w, 0, 1, "c"), LIME_SUCCESS);
    /* the message ended: the next record must begin one */
    CHECK_INT(put(w, 0, 0, "d"), LIME_ERR_MBME);
    CHECK_INT(put(w, 0, 1, "d"), LIME_ERR_MBME);
    CHECK_INT(put(w, 1, 0, "e"), LIME_SUCCESS);
    /* C-LIME does not check the record after one that set MB */
    CHECK_INT(put(w, 1, 0, "f"), LIME_SUCCESS);
    CHECK_INT(put(w, 0, 1, "g"), LIME_SUCCESS);
    CHECK_INT(put(w, 1, 1, "h"), LIME_SUCCESS);
    CHECK_INT(lc_file_size(f), 6 * 152);

    /* types: 128 characters fill the field (written without a NUL, as
     * C-LIME does), 129 are refused */
    char type[131];
    memset(type, 't', sizeof type);
    type[128] = '\0';
    CHECK_INT(put(w, 1, 1, type), LIME_SUCCESS);
    type[128] = 't';
    type[129] = '\0';
    CHECK_INT(put(w, 1, 1, type), LIME_ERR_PARAM);
    /* lengths that cannot be addressed are refused */
    LimeRecordHeader *h = limeCreateHeader(1, 1, "huge", UINT64_MAX);
    CHECK_INT(limeWriteRecordHeader(h, w), LIME_ERR_PARAM);
    h->data_length = (n_uint64_t)1 << 63;
    CHECK_INT(limeWriteRecordHeader(h, w), LIME_ERR_PARAM);
    limeDestroyHeader(h);
    CHECK_INT(lc_file_size(f), 7 * 152);
    CHECK_INT(w->header_nextP, 1);
    limeDestroyWriter(w);
    fclose(f);

    /* flags on disk: byte 6 of each header */
    size_t n = 0;
    unsigned char *b = lc_slurp("mbme.lime", &n);
    static const unsigned char flags[7] = {0x00, 0x40, 0x80, 0x80, 0x40, 0xc0, 0xc0};
    CHECK_U64(n, 7 * 152);
    for (int i = 0; b && i < 7 && (size_t)(i * 152 + 7) < n; i++)
        CHECK_INT(b[i * 152 + 6], flags[i]);
    const size_t t = 6 * 152 + 16; /* the 128-character type: the field full, no NUL */
    CHECK(b && n > t + 128 && b[t + 127] == 't' && b[t + 128] == 'z'); /* then the payload */
    free(b);
    return lc_finish();
}
