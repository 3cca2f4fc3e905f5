/* lime.c -- the C-LIME API (lime.h) on stdio streams, over lattio's header
 * codec.  Semantics follow C-LIME; see lime.h for the deliberate differences.
 *
 * Invariants kept for every open record, reader or writer:
 *   rec_ptr <= bytes_total, bytes_pad == padding(bytes_total), and
 *   rec_start + bytes_total + bytes_pad fits in off_t.
 * States arriving through limeReaderSetState / limeWriterSetState are
 * checked against them before use.  rec_start == 0 means "no record yet":
 * a payload always starts at least 144 bytes into the file. */
#include "lime.h"
#include "lime_utils.h"

#include "internal.h"

#include <string.h>

_Static_assert(sizeof(off_t) == 8, "lattio's lime.h needs a 64-bit off_t");

#define LIME_OFF_MAX ((n_uint64_t)INT64_MAX)
#define NO_POSITION UINT64_MAX /* rec_start of a writer on an unseekable stream */

/* Return a C-LIME status (the lattio trace names only lattio statuses). */
#define LIME_RETURN_IF(cond, code)                                                       \
    do {                                                                                 \
        if (cond) {                                                                      \
            LATTIO_TRACE("%s -> C-LIME status %d", #cond, (int)(code));                 \
            return (code);                                                               \
        }                                                                                \
    } while (0)

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */
/* ------------------------------------------------------------------------ */

/* fseeko to base + add, refusing offsets that do not fit off_t. */
static int seek_to(FILE *fp, n_uint64_t base, n_uint64_t add)
{
    LIME_RETURN_IF(base > LIME_OFF_MAX || add > LIME_OFF_MAX - base, LIME_ERR_SEEK);
    LIME_RETURN_IF(fseeko(fp, (off_t)(base + add), SEEK_SET) != 0, LIME_ERR_SEEK);
    return LIME_SUCCESS;
}

/* A record's geometry is addressable and self-consistent. */
static int record_state_ok(n_uint64_t start, n_uint64_t total, n_uint64_t ptr, size_t pad)
{
    if (ptr > total || pad != lattio_lime_padding(total)) return 0;
    if (start == NO_POSITION) return 1;
    return start <= LIME_OFF_MAX && total <= LIME_OFF_MAX - start &&
           pad <= LIME_OFF_MAX - start - total;
}

/* New payload position for (offset, whence) relative to ptr in [0, total],
 * clamped to the record.  LIME_ERR_SEEK when clamped, bad_whence for a
 * whence other than SEEK_SET / SEEK_CUR. */
static int seek_target(n_uint64_t ptr, n_uint64_t total, off_t offset, int whence,
                       int bad_whence, n_uint64_t *target)
{
    n_uint64_t base;
    if (whence == SEEK_SET)
        base = 0;
    else if (whence == SEEK_CUR)
        base = ptr;
    else
        LIME_RETURN_IF(1, bad_whence);
    if (offset < 0) {
        n_uint64_t back = (n_uint64_t)(-(offset + 1)) + 1;
        *target = back > base ? 0 : base - back;
        LIME_RETURN_IF(back > base, LIME_ERR_SEEK);
    } else {
        n_uint64_t fwd = (n_uint64_t)offset;
        *target = fwd > total - base ? total : base + fwd;
        LIME_RETURN_IF(base > total || fwd > total - base, LIME_ERR_SEEK);
    }
    return LIME_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Headers                                                                  */
/* ------------------------------------------------------------------------ */

LimeRecordHeader *limeCreateHeader(int MB_flag, int ME_flag, char *type, n_uint64_t reclen)
{
    if (!type) return NULL;
    size_t n = strlen(type);
    LimeRecordHeader *h = lattio_malloc(sizeof *h);
    char *t = lattio_malloc(n + 1);
    if (!h || !t) {
        lattio_free(h);
        lattio_free(t);
        return NULL;
    }
    memcpy(t, type, n + 1);
    h->lime_version = LIME_VERSION;
    h->MB_flag = MB_flag;
    h->ME_flag = ME_flag;
    h->type = t;
    h->data_length = reclen;
    return h;
}

void limeDestroyHeader(LimeRecordHeader *h)
{
    if (!h) return;
    lattio_free(h->type);
    lattio_free(h);
}

/* ------------------------------------------------------------------------ */
/* Writer                                                                   */
/* ------------------------------------------------------------------------ */

LimeWriter *limeCreateWriter(FILE *fp)
{
    if (!fp) return NULL;
    LimeWriter *w = lattio_calloc(1, sizeof *w);
    if (!w) return NULL;
    w->fp = fp;
    w->first_record = 1;
    w->header_nextP = 1;
    return w;
}

int limeDestroyWriter(LimeWriter *s)
{
    lattio_free(s);
    return LIME_SUCCESS;
}

int limeWriteRecordHeader(LimeRecordHeader *props, LimeWriter *d)
{
    LIME_RETURN_IF(!d || !props || !props->type || !d->fp, LIME_ERR_PARAM);
    LIME_RETURN_IF(d->header_nextP != 1, LIME_ERR_HEADER_NEXT);
    int mb = props->MB_flag != 0, me = props->ME_flag != 0;
    /* C-LIME's rule: the check is skipped while first_record is set, which
     * is at the start and after every record that began a message. */
    LIME_RETURN_IF(d->first_record != 1 && d->isLastP != mb, LIME_ERR_MBME);

    unsigned char buf[LATTIO_LIME_HEADER_SIZE];
    int rc = lattio_lime_header_encode(buf, props->type, props->data_length, mb, me);
    LIME_RETURN_IF(rc != LATTIO_OK, LIME_ERR_PARAM);
    LIME_RETURN_IF(fwrite(buf, 1, sizeof buf, d->fp) != sizeof buf, LIME_ERR_WRITE);

    off_t pos = ftello(d->fp);
    n_uint64_t start = pos < 0 ? NO_POSITION : (n_uint64_t)pos;
    size_t pad = lattio_lime_padding(props->data_length);
    LIME_RETURN_IF(!record_state_ok(start, props->data_length, 0, pad), LIME_ERR_PARAM);
    d->isLastP = me;
    d->first_record = mb;
    d->bytes_left = props->data_length;
    d->bytes_total = props->data_length;
    d->rec_ptr = 0;
    d->rec_start = start;
    d->bytes_pad = pad;
    d->header_nextP = 0;
    return LIME_SUCCESS;
}

int limeWriteRecordData(void *source, n_uint64_t *nbytes, LimeWriter *d)
{
    LIME_RETURN_IF(!nbytes, LIME_ERR_PARAM);
    if (!d || d->header_nextP == 1 || !d->fp || (*nbytes > 0 && !source)) {
        *nbytes = 0;
        LIME_RETURN_IF(1, LIME_ERR_PARAM);
    }
    if (*nbytes > 0) {
        n_uint64_t room = d->rec_ptr < d->bytes_total ? d->bytes_total - d->rec_ptr : 0;
        n_uint64_t want = *nbytes < room ? *nbytes : room;
        if (want > SIZE_MAX) {
            *nbytes = 0;
            LIME_RETURN_IF(1, LIME_ERR_WRITE);
        }
        size_t done = fwrite(source, 1, (size_t)want, d->fp);
        *nbytes = done;
        d->rec_ptr += done;
        d->bytes_left = d->bytes_left > done ? d->bytes_left - done : 0;
        LIME_RETURN_IF(done != want, LIME_ERR_WRITE);
    }
    /* A record written up to its length is closed here, as in C-LIME. */
    if (d->bytes_left == 0) return limeWriterCloseRecord(d);
    return LIME_SUCCESS;
}

int limeWriterCloseRecord(LimeWriter *w)
{
    static const unsigned char zeros[8];
    LIME_RETURN_IF(!w || !w->fp, LIME_ERR_PARAM);
    LIME_RETURN_IF(!record_state_ok(w->rec_start, w->bytes_total, w->rec_ptr, w->bytes_pad),
                   LIME_ERR_PARAM);
    if (w->header_nextP) {
        /* Already closed (possibly by another writer): move past it. */
        if (w->rec_start == 0 || w->rec_start == NO_POSITION) return LIME_SUCCESS;
        return seek_to(w->fp, w->rec_start, w->bytes_total + w->bytes_pad);
    }
    if (w->rec_ptr != w->bytes_total) {
        LIME_RETURN_IF(w->rec_start == NO_POSITION, LIME_ERR_SEEK);
        RETURN_IF_ERROR(seek_to(w->fp, w->rec_start, w->bytes_total));
        w->rec_ptr = w->bytes_total;
    }
    if (w->bytes_pad > 0)
        LIME_RETURN_IF(fwrite(zeros, 1, w->bytes_pad, w->fp) != w->bytes_pad, LIME_ERR_WRITE);
    w->bytes_left = 0;
    w->header_nextP = 1;
    if (w->isLastP == 1) w->last_written = 1;
    return LIME_SUCCESS;
}

int limeWriterSeek(LimeWriter *r, off_t offset, int whence)
{
    LIME_RETURN_IF(!r || !r->fp, LIME_ERR_PARAM);
    LIME_RETURN_IF(!record_state_ok(r->rec_start, r->bytes_total, r->rec_ptr, r->bytes_pad),
                   LIME_ERR_PARAM);
    n_uint64_t target = r->rec_ptr;
    int rc = seek_target(r->rec_ptr, r->bytes_total, offset, whence, LIME_ERR_WRITE, &target);
    if (rc == LIME_ERR_WRITE) return rc;
    if (target == r->rec_ptr) return rc; /* nothing to move, as in C-LIME */
    /* With no open record a seek would move where the next header goes. */
    LIME_RETURN_IF(r->header_nextP, LIME_ERR_SEEK);
    LIME_RETURN_IF(r->rec_start == NO_POSITION, LIME_ERR_SEEK);
    RETURN_IF_ERROR(seek_to(r->fp, r->rec_start, target));
    r->rec_ptr = target;
    return rc;
}

int limeWriterSetState(LimeWriter *wdest, LimeWriter *wsrc)
{
    LIME_RETURN_IF(!wdest || !wsrc || !wdest->fp, LIME_ERR_PARAM);
    LIME_RETURN_IF(
        !record_state_ok(wsrc->rec_start, wsrc->bytes_total, wsrc->rec_ptr, wsrc->bytes_pad),
        LIME_ERR_PARAM);
    wdest->first_record = wsrc->first_record;
    wdest->last_written = wsrc->last_written;
    wdest->header_nextP = wsrc->header_nextP;
    wdest->bytes_total = wsrc->bytes_total;
    wdest->bytes_left = wsrc->bytes_left;
    wdest->rec_ptr = wsrc->rec_ptr;
    wdest->rec_start = wsrc->rec_start;
    wdest->bytes_pad = wsrc->bytes_pad;
    wdest->isLastP = wsrc->isLastP;
    if (wdest->rec_start == 0 || wdest->rec_start == NO_POSITION) return LIME_SUCCESS;
    if (wdest->header_nextP) /* closed record: the next header follows its padding */
        return seek_to(wdest->fp, wdest->rec_start, wdest->bytes_total + wdest->bytes_pad);
    return seek_to(wdest->fp, wdest->rec_start, wdest->rec_ptr);
}

/* ------------------------------------------------------------------------ */
/* Reader                                                                   */
/* ------------------------------------------------------------------------ */

static void reader_reset(LimeReader *r)
{
    limeDestroyHeader(r->curr_header);
    r->curr_header = NULL;
    r->first_read = 0;
    r->is_last = 0;
    r->header_nextP = 1;
    r->bytes_left = 0;
    r->bytes_total = 0;
    r->rec_ptr = 0;
    r->rec_start = 0;
    r->bytes_pad = 0;
}

LimeReader *limeCreateReader(FILE *fp)
{
    if (!fp) return NULL;
    LimeReader *r = lattio_calloc(1, sizeof *r);
    if (!r) return NULL;
    r->fp = fp;
    reader_reset(r);
    return r;
}

void limeDestroyReader(LimeReader *r)
{
    if (!r) return;
    limeDestroyHeader(r->curr_header);
    lattio_free(r);
}

int limeSetReaderPointer(LimeReader *r, off_t offset)
{
    LIME_RETURN_IF(!r || !r->fp, LIME_ERR_PARAM);
    LIME_RETURN_IF(offset < 0 || fseeko(r->fp, offset, SEEK_SET) != 0, LIME_ERR_SEEK);
    reader_reset(r);
    return LIME_SUCCESS;
}

off_t limeGetReaderPointer(LimeReader *r)
{
    if (!r || !r->fp) return -1;
    if (r->first_read == 0) return ftello(r->fp);
    if (!record_state_ok(r->rec_start, r->bytes_total, r->rec_ptr, r->bytes_pad)) return -1;
    return (off_t)(r->rec_start + r->bytes_total + r->bytes_pad);
}

/* Read and check the header at the stream's position into a new
 * curr_header.  The type may fill all 128 bytes without a NUL (C-LIME
 * writes such headers); reserved flag bits are ignored as C-LIME does. */
static int read_header(LimeReader *r)
{
    unsigned char buf[LATTIO_LIME_HEADER_SIZE];
    size_t got = fread(buf, 1, sizeof buf, r->fp);
    LIME_RETURN_IF(got == 0 && feof(r->fp), LIME_EOF);
    LIME_RETURN_IF(got != sizeof buf, LIME_ERR_READ);

    lattio_record_info info;
    int rc = lattio_lime_header_decode(buf, &info);
    LIME_RETURN_IF(rc == LATTIO_ERR_BAD_MAGIC || rc == LATTIO_ERR_BAD_VERSION, LIME_ERR_READ);
    LIME_RETURN_IF(info.length > LATTIO_LIME_MAX_LENGTH, LIME_ERR_READ);

    char type[MAX_LIME_HDR_REC_TYPE + 1];
    const unsigned char *nul = memchr(buf + 16, 0, MAX_LIME_HDR_REC_TYPE);
    size_t tlen = nul ? (size_t)(nul - (buf + 16)) : MAX_LIME_HDR_REC_TYPE;
    memcpy(type, buf + 16, tlen);
    type[tlen] = '\0';

    off_t pos = ftello(r->fp);
    LIME_RETURN_IF(pos < 0, LIME_ERR_SEEK);
    size_t pad = lattio_lime_padding(info.length);
    LIME_RETURN_IF(!record_state_ok((n_uint64_t)pos, info.length, 0, pad), LIME_ERR_READ);

    r->curr_header = limeCreateHeader(info.mb, info.me, type, info.length);
    LIME_RETURN_IF(!r->curr_header, LIME_ERR_READ);
    r->is_last = info.me;
    r->bytes_left = info.length;
    r->bytes_total = info.length;
    r->rec_ptr = 0;
    r->rec_start = (n_uint64_t)pos;
    r->bytes_pad = pad;
    return LIME_SUCCESS;
}

int limeReaderNextRecord(LimeReader *r)
{
    LIME_RETURN_IF(!r || !r->fp, LIME_ERR_PARAM);
    if (r->first_read) {
        LIME_RETURN_IF(
            !record_state_ok(r->rec_start, r->bytes_total, r->rec_ptr, r->bytes_pad),
            LIME_ERR_PARAM);
        RETURN_IF_ERROR(seek_to(r->fp, r->rec_start, r->bytes_total + r->bytes_pad));
        r->rec_ptr = r->bytes_total;
        r->bytes_left = 0;
    }
    limeDestroyHeader(r->curr_header);
    r->curr_header = NULL;
    RETURN_IF_ERROR(read_header(r));
    r->first_read = 1;
    return LIME_SUCCESS;
}

int limeReaderMBFlag(LimeReader *r)
{
    if (!r || !r->curr_header) return -1;
    return r->curr_header->MB_flag;
}

int limeReaderMEFlag(LimeReader *r)
{
    if (!r || !r->curr_header) return -1;
    return r->curr_header->ME_flag;
}

char *limeReaderType(LimeReader *r)
{
    if (!r || !r->curr_header) return NULL;
    return r->curr_header->type;
}

n_uint64_t limeReaderBytes(LimeReader *r)
{
    if (!r || !r->curr_header) return 0;
    return r->bytes_total;
}

size_t limeReaderPadBytes(LimeReader *r)
{
    if (!r || !r->curr_header) return 0;
    return r->bytes_pad;
}

int limeReaderReadData(void *dest, n_uint64_t *nbytes, LimeReader *r)
{
    LIME_RETURN_IF(!nbytes, LIME_ERR_PARAM);
    if (!r || !r->fp || (*nbytes > 0 && !dest)) {
        *nbytes = 0;
        LIME_RETURN_IF(1, LIME_ERR_PARAM);
    }
    if (r->rec_ptr >= r->bytes_total) {
        *nbytes = 0;
        return LIME_EOR;
    }
    if (*nbytes == 0) return LIME_SUCCESS;
    n_uint64_t room = r->bytes_total - r->rec_ptr;
    n_uint64_t want = *nbytes < room ? *nbytes : room;
    if (want > SIZE_MAX) {
        *nbytes = 0;
        LIME_RETURN_IF(1, LIME_ERR_READ);
    }
    size_t got = fread(dest, 1, (size_t)want, r->fp);
    *nbytes = got;
    r->rec_ptr += got;
    r->bytes_left = r->bytes_left > got ? r->bytes_left - got : 0;
    LIME_RETURN_IF(got != want, LIME_ERR_READ);
    return LIME_SUCCESS;
}

/* Move to payload position `target`; the end of the payload means the
 * end of the padding, where the next header starts. */
static int reader_move(LimeReader *r, n_uint64_t target)
{
    n_uint64_t add = target == r->bytes_total ? target + r->bytes_pad : target;
    RETURN_IF_ERROR(seek_to(r->fp, r->rec_start, add));
    r->rec_ptr = target;
    r->bytes_left = r->bytes_total - target;
    return LIME_SUCCESS;
}

int limeReaderCloseRecord(LimeReader *r)
{
    LIME_RETURN_IF(!r || !r->fp, LIME_ERR_PARAM);
    LIME_RETURN_IF(!record_state_ok(r->rec_start, r->bytes_total, r->rec_ptr, r->bytes_pad),
                   LIME_ERR_PARAM);
    if (r->rec_start == 0) return LIME_SUCCESS; /* no record yet */
    return reader_move(r, r->bytes_total);
}

int limeReaderSeek(LimeReader *r, off_t offset, int whence)
{
    LIME_RETURN_IF(!r || !r->fp, LIME_ERR_PARAM);
    LIME_RETURN_IF(!record_state_ok(r->rec_start, r->bytes_total, r->rec_ptr, r->bytes_pad),
                   LIME_ERR_PARAM);
    n_uint64_t target = r->rec_ptr;
    int rc = seek_target(r->rec_ptr, r->bytes_total, offset, whence, LIME_ERR_SEEK, &target);
    if (r->rec_start == 0) return rc; /* no record: nothing to move within */
    if (rc != LIME_SUCCESS && whence != SEEK_SET && whence != SEEK_CUR) return rc;
    RETURN_IF_ERROR(reader_move(r, target));
    return rc;
}

int limeReaderSetState(LimeReader *rdest, LimeReader *rsrc)
{
    LIME_RETURN_IF(!rdest || !rsrc || !rdest->fp, LIME_ERR_PARAM);
    LIME_RETURN_IF(
        !record_state_ok(rsrc->rec_start, rsrc->bytes_total, rsrc->rec_ptr, rsrc->bytes_pad),
        LIME_ERR_PARAM);
    /* rsrc may be a byte copy from another process: its fp and
     * curr_header pointers are never dereferenced or copied. */
    rdest->first_read = rsrc->first_read;
    rdest->is_last = rsrc->is_last;
    rdest->header_nextP = rsrc->header_nextP;
    rdest->bytes_total = rsrc->bytes_total;
    rdest->bytes_left = rsrc->bytes_left;
    rdest->rec_ptr = rsrc->rec_ptr;
    rdest->rec_start = rsrc->rec_start;
    rdest->bytes_pad = rsrc->bytes_pad;
    return seek_to(rdest->fp, rdest->rec_start, rdest->rec_ptr);
}

int limeEOM(LimeReader *r)
{
    LIME_RETURN_IF(!r, LIME_ERR_PARAM);
    return r->is_last ? 1 : 0;
}

/* ------------------------------------------------------------------------ */
/* lime_utils.h                                                             */
/* ------------------------------------------------------------------------ */

int lime_padding(size_t nbytes) { return (int)lattio_lime_padding(nbytes); }

int lime_big_endian(void)
{
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 0;
}

void lime_byte_swap(void *ptr, size_t size, size_t nmemb)
{
    if (!ptr || (size != 2 && size != 4 && size != 8)) return;
    unsigned char *p = ptr;
    for (size_t i = 0; i < nmemb; i++, p += size)
        for (size_t a = 0, b = size - 1; a < b; a++, b--) {
            unsigned char t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
}

n_uint64_t big_endian_long_long(n_uint64_t ull)
{
    if (!lime_big_endian()) lime_byte_swap(&ull, sizeof ull, 1);
    return ull;
}

n_uint32_t big_endian_long(n_uint32_t ul)
{
    if (!lime_big_endian()) lime_byte_swap(&ul, sizeof ul, 1);
    return ul;
}

n_uint16_t big_endian_short(n_uint16_t us)
{
    if (!lime_big_endian()) lime_byte_swap(&us, sizeof us, 1);
    return us;
}
