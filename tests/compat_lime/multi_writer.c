/* multi_writer: the multi-writer protocol on two FILE* open on the same
 * file.  Writer A writes the header; its state travels as a byte copy (as
 * MPI codes broadcast it, with a foreign FILE pointer) to writer B, which
 * seeks inside the payload and writes its part; A writes the rest and closes
 * the record, writing the padding.  A second record is closed by B instead.
 * The file must equal a hand-built image. */
#include "limecheck.h"

static unsigned char payload[2000];

static void header(LimeWriter *w, int mb, int me, const char *type, n_uint64_t len)
{
    LimeRecordHeader *h = limeCreateHeader(mb, me, (char *)type, len);
    CHECK_INT(limeWriteRecordHeader(h, w), LIME_SUCCESS);
    limeDestroyHeader(h);
}

/* The state as another process would receive it. */
static LimeWriter travel(const LimeWriter *w)
{
    unsigned char bytes[sizeof(LimeWriter)];
    LimeWriter copy;
    memcpy(bytes, w, sizeof bytes);
    memcpy(&copy, bytes, sizeof copy);
    copy.fp = (FILE *)(uintptr_t)0x10; /* meaningless here: must not be used */
    return copy;
}

static void write_at(LimeWriter *w, off_t off, n_uint64_t len, n_uint64_t piece)
{
    CHECK_INT(limeWriterSeek(w, off, SEEK_SET), LIME_SUCCESS);
    CHECK_U64(w->rec_ptr, (n_uint64_t)off);
    for (n_uint64_t done = 0; done < len;) {
        n_uint64_t n = len - done < piece ? len - done : piece;
        CHECK_INT(limeWriteRecordData(payload + off + done, &n, w), LIME_SUCCESS);
        CHECK(n > 0);
        if (n == 0) break;
        done += n;
    }
}

int main(void)
{
    for (size_t i = 0; i < sizeof payload; i++) payload[i] = (unsigned char)(i * 7 + 3);
    FILE *fa = fopen("multi.lime", "wb");
    FILE *fb = fopen("multi.lime", "r+b");
    CHECK(fa && fb);
    if (!fa || !fb) return lc_finish();
    LimeWriter *a = limeCreateWriter(fa), *b = limeCreateWriter(fb);

    /* record 1: 1003 bytes; B writes [500, 1003), A writes [0, 500) */
    header(a, 1, 0, "multi-one", 1003);
    LimeWriter state = travel(a);
    CHECK_INT(limeWriterSetState(b, &state), LIME_SUCCESS);
    CHECK(b->fp == fb);
    CHECK_U64(b->rec_start, 144);
    write_at(b, 500, 503, 100);
    CHECK_INT(b->header_nextP, 0); /* B wrote only part: no padding from B */
    write_at(a, 0, 500, 77);
    CHECK_INT(a->header_nextP, 0);
    CHECK_INT(limeWriterCloseRecord(a), LIME_SUCCESS);
    CHECK_INT(a->header_nextP, 1);

    /* record 2: 21 bytes; A writes [0, 8), B writes [8, 21) with SEEK_CUR
     * and closes; A, told the new state, continues after the padding. */
    header(a, 0, 1, "multi-two", 21);
    state = travel(a);
    CHECK_INT(limeWriterSetState(b, &state), LIME_SUCCESS);
    n_uint64_t n = 8;
    CHECK_INT(limeWriteRecordData(payload, &n, a), LIME_SUCCESS);
    CHECK_INT(limeWriterSeek(b, 4, SEEK_CUR), LIME_SUCCESS);
    CHECK_INT(limeWriterSeek(b, 4, SEEK_CUR), LIME_SUCCESS);
    n = 100; /* truncated to the 13 bytes left */
    CHECK_INT(limeWriteRecordData(payload + 8, &n, b), LIME_SUCCESS);
    CHECK_U64(n, 13);
    CHECK_INT(limeWriterCloseRecord(b), LIME_SUCCESS);
    CHECK_INT(b->header_nextP, 1);
    CHECK_INT(fflush(fb), 0);
    state = travel(b);
    CHECK_INT(limeWriterSetState(a, &state), LIME_SUCCESS);
    CHECK_INT(a->header_nextP, 1);
    header(a, 1, 1, "after", 2);
    n = 2;
    CHECK_INT(limeWriteRecordData((void *)"ok", &n, a), LIME_SUCCESS);

    limeDestroyWriter(a);
    limeDestroyWriter(b);
    CHECK_INT(fclose(fa), 0);
    CHECK_INT(fclose(fb), 0);

    static unsigned char want[4096];
    size_t wn = 0;
    lc_record(want, &wn, "multi-one", payload, 1003, 1, 0);
    lc_record(want, &wn, "multi-two", payload, 21, 0, 1);
    lc_record(want, &wn, "after", "ok", 2, 1, 1);
    CHECK(lc_file_equals("multi.lime", want, wn));
    return lc_finish();
}
