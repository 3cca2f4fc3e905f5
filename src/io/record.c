/* record.c -- LIME records on a parallel file: rank 0 writes headers and
 * padding at explicit offsets, all ranks write and read payload bytes
 * collectively, and the declared length is enforced on both sides. */
#include "io_internal.h"

#include <string.h>

/* Bytes of one record's arguments in same_set: type, length, flags. */
#define SET_ARGS (LATTIO_LIME_TYPE_MAX + 1 + 8 + 4)

/* Collective: every rank passes rank 0's n, types, lengths and flags. */
static int same_set(lattio_file *f, int n, const lattio_xfer_record *r)
{
    unsigned char mine[(LATTIO_XFER_RECORDS_MAX + 1) * SET_ARGS] = {0}, root[sizeof mine];
    const int32_t count = n;
    memcpy(mine, &count, sizeof count);
    for (int i = 0; i < n; i++) {
        unsigned char *at = mine + (size_t)(i + 1) * SET_ARGS;
        const int32_t flags = (r[i].mb ? 2 : 0) | (r[i].me ? 1 : 0);
        strncpy((char *)at, r[i].type, LATTIO_LIME_TYPE_MAX);
        memcpy(at + LATTIO_LIME_TYPE_MAX + 1, &r[i].length, 8);
        memcpy(at + LATTIO_LIME_TYPE_MAX + 9, &flags, sizeof flags);
    }
    memcpy(root, mine, sizeof mine);
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(root, (int)sizeof root, MPI_BYTE, 0, f->comm), LATTIO_ERR_MPI));
    RETURN_IF(memcmp(root, mine, sizeof mine) != 0, LATTIO_ERR_RANK_ARG);
    return LATTIO_OK;
}

/* The agreed outcome of a write step (the public call poisons the file on
 * failure: lattio_file_outcome). */
static int settle(lattio_file *f, int rc) { return lattio_agree(f->comm, rc); }

static int writable(const lattio_file *f)
{
    RETURN_IF(f->mode == LATTIO_MODE_READ, LATTIO_ERR_STATE);
    RETURN_IF(f->out.failed, LATTIO_ERR_STATE);
    return LATTIO_OK;
}

int lattio_record_writing(const lattio_file *f)
{
    RETURN_IF_ERROR(writable(f));
    RETURN_IF(!f->out.in_record, LATTIO_ERR_STATE);
    return LATTIO_OK;
}

int lattio_piece_to_write(const lattio_file *f, uint64_t offset, const void *buf, uint64_t count)
{
    RETURN_IF_ERROR(lattio_record_writing(f));
    RETURN_IF(!buf && count, LATTIO_ERR_ARG);
    RETURN_IF(offset > f->out.rec_len || count > f->out.rec_len - offset, LATTIO_ERR_RECORD_OVERRUN);
    return LATTIO_OK;
}

int lattio_piece_to_read(const lattio_file *f, uint64_t offset, const void *buf, uint64_t count,
                         const lattio_record_info **rec)
{
    *rec = lattio_current_record(f);
    RETURN_IF(!*rec, LATTIO_ERR_STATE);
    RETURN_IF(!buf && count, LATTIO_ERR_ARG);
    RETURN_IF(offset > (*rec)->length || count > (*rec)->length - offset, LATTIO_ERR_RECORD_OVERRUN);
    return LATTIO_OK;
}

/* Local.  Add type to the distinct types begun (lattio_file_has_type). */
static int remember_type(lattio_file *f, const char *type)
{
    if (lattio_file_has_type(f, type)) return LATTIO_OK;
    char **more = lattio_realloc(f->out.types, (size_t)(f->out.ntypes + 1) * sizeof *more);
    RETURN_IF(!more, LATTIO_ERR_NOMEM);
    f->out.types = more;
    const size_t n = strlen(type) + 1;
    RETURN_IF(!(f->out.types[f->out.ntypes] = lattio_malloc(n)), LATTIO_ERR_NOMEM);
    memcpy(f->out.types[f->out.ntypes++], type, n);
    return LATTIO_OK;
}

static int record_begin(lattio_file *f, const char *type, uint64_t length, int mb, int me)
{
    unsigned char h[LATTIO_LIME_HEADER_SIZE];
    RETURN_IF(!f, LATTIO_ERR_ARG);
    int rc = writable(f);
    if (rc == LATTIO_OK && f->out.in_record) rc = LATTIO_FAIL(LATTIO_ERR_STATE, "record open");
    if (rc == LATTIO_OK && !type) rc = LATTIO_FAIL(LATTIO_ERR_ARG, "type");
    if (rc == LATTIO_OK) rc = lattio_lime_header_encode(h, type, length, mb, me);
    if (rc == LATTIO_OK && length > LATTIO_LIME_MAX_LENGTH - f->out.offset) rc = LATTIO_ERR_OVERFLOW;
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    const lattio_xfer_record args = {type, NULL, length, mb, me};
    rc = same_set(f, 1, &args);
    if (rc == LATTIO_OK) rc = remember_type(f, type);
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    lattio_prof_phase(f, LATTIO_PHASE_META);
    if (f->rank == 0) rc = lattio_write_at(f, f->out.offset, h, sizeof h);
    RETURN_IF_ERROR(settle(f, rc));
    f->out.in_record = 1;
    f->out.rec_data = f->out.offset + LATTIO_LIME_HEADER_SIZE;
    f->out.rec_len = length;
    f->out.rec_written = 0;
    return LATTIO_OK;
}

static int record_write_at(lattio_file *f, uint64_t offset, const void *buf, uint64_t count)
{
    RETURN_IF(!f, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lattio_agree(f->comm, lattio_piece_to_write(f, offset, buf, count)));
    /* no collective MPI-IO call while a request is pending */
    lattio_prof_phase(f, LATTIO_PHASE_IO);
    int rc = f->req.npending ? lattio_write_at(f, f->out.rec_data + offset, buf, count)
                         : lattio_write_at_all(f, f->out.rec_data + offset, buf, count);
    RETURN_IF_ERROR(settle(f, rc));
    f->out.rec_written += count;
    return LATTIO_OK;
}

/* Collective: make the file at least `end` bytes long (a record closed
 * short with no padding may otherwise end early).  While requests are
 * pending (no collective MPI-IO allowed) this is left to lattio_close. */
static int extend_to(lattio_file *f, uint64_t end, int rc)
{
    MPI_Offset size = 0;
    if (f->req.npending) {
        if (end > f->out.min_size) f->out.min_size = end;
        return rc;
    }
    if (f->rank == 0 && rc == LATTIO_OK)
        rc = MPI_CHECK(MPI_File_get_size(f->fh, &size), LATTIO_ERR_STAT);
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(&size, 1, MPI_OFFSET, 0, f->comm), LATTIO_ERR_MPI));
    if ((uint64_t)size >= end) return LATTIO_OK;
    return MPI_CHECK(MPI_File_set_size(f->fh, (MPI_Offset)end), LATTIO_ERR_WRITE);
}

static int record_end(lattio_file *f, int allow_short)
{
    static const unsigned char zeros[8];
    RETURN_IF(!f, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lattio_agree(f->comm, lattio_record_writing(f)));
    uint64_t total = 0;
    lattio_prof_phase(f, LATTIO_PHASE_SYNC);
    int rc = MPI_CHECK(MPI_Allreduce(&f->out.rec_written, &total, 1, MPI_UINT64_T, MPI_SUM, f->comm),
                       LATTIO_ERR_MPI);
    if (rc == LATTIO_OK && total < f->out.rec_len && !allow_short)
        rc = LATTIO_FAIL(LATTIO_ERR_RECORD_SHORT, "record closed short");
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    lattio_prof_phase(f, LATTIO_PHASE_META);
    uint32_t pad = lattio_lime_padding(f->out.rec_len);
    uint64_t end = f->out.rec_data + f->out.rec_len;
    if (f->rank == 0) rc = lattio_write_at(f, end, zeros, pad);
    if (pad == 0 && total < f->out.rec_len) rc = extend_to(f, end, rc);
    RETURN_IF_ERROR(settle(f, rc));
    f->out.in_record = 0;
    f->out.offset = end + pad;
    return LATTIO_OK;
}

/* --- whole records of rank 0's bytes ---------------------------------------- */

/* Local.  The file bytes records r[0..n) take (headers, payloads, padding),
 * checked as lattio_record_begin checks one. */
static int set_size(const lattio_xfer_record *r, int n, uint64_t *size)
{
    uint64_t at = 0;
    for (int i = 0; i < n; i++) {
        unsigned char h[LATTIO_LIME_HEADER_SIZE];
        RETURN_IF(!r[i].type, LATTIO_ERR_ARG);
        RETURN_IF_ERROR(lattio_lime_header_encode(h, r[i].type, r[i].length, r[i].mb, r[i].me));
        const uint64_t pad = lattio_lime_padding(r[i].length);
        RETURN_IF(r[i].length > LATTIO_LIME_MAX_LENGTH - sizeof h - pad - at, LATTIO_ERR_OVERFLOW);
        at += sizeof h + r[i].length + pad;
    }
    *size = at;
    return LATTIO_OK;
}

/* Payloads up to GATHER bytes are copied beside their headers and padding
 * and go out in one write; a longer one is written from the caller's
 * memory, between the writes of what comes before and after it. */
#define GATHER ((uint64_t)64 << 10)

/* Rank 0.  Records r[0..n) at off (set_size checked them). */
static int write_set(lattio_file *f, uint64_t off, const lattio_xfer_record *r, int n)
{
    const uint64_t cap = 2 * (GATHER + LATTIO_LIME_HEADER_SIZE);
    unsigned char *buf = lattio_malloc((size_t)cap);
    RETURN_IF(!buf, LATTIO_ERR_NOMEM);
    uint64_t fill = 0;
    int rc = LATTIO_OK;
    for (int i = 0; i < n && rc == LATTIO_OK; i++) {
        const uint64_t len = r[i].length, pad = lattio_lime_padding(len);
        const int gather = len <= GATHER;
        if (!r[i].data && len) rc = LATTIO_FAIL(LATTIO_ERR_ARG, "record data");
        if (rc == LATTIO_OK && fill + LATTIO_LIME_HEADER_SIZE + (gather ? len : 0) + pad > cap) {
            rc = lattio_write_at(f, off, buf, fill); /* room for this record */
            off += fill, fill = 0;
        }
        if (rc == LATTIO_OK) rc = lattio_lime_header_encode(buf + fill, r[i].type, len, r[i].mb, r[i].me);
        fill += LATTIO_LIME_HEADER_SIZE;
        if (rc == LATTIO_OK && gather) {
            if (len) memcpy(buf + fill, r[i].data, (size_t)len);
            fill += len;
        } else if (rc == LATTIO_OK) {
            rc = lattio_write_at(f, off, buf, fill);
            if (rc == LATTIO_OK) rc = lattio_write_at(f, off + fill, r[i].data, len);
            off += fill + len, fill = 0;
        }
        memset(buf + fill, 0, (size_t)pad);
        fill += pad;
    }
    if (rc == LATTIO_OK && fill) rc = lattio_write_at(f, off, buf, fill);
    lattio_free(buf);
    return rc;
}

static int records_write(lattio_file *f, int n, const lattio_xfer_record *r)
{
    RETURN_IF(!f, LATTIO_ERR_ARG);
    uint64_t size = 0;
    int rc = writable(f);
    if (rc == LATTIO_OK && f->out.in_record) rc = LATTIO_FAIL(LATTIO_ERR_STATE, "record open");
    if (rc == LATTIO_OK && (n < 0 || n > LATTIO_XFER_RECORDS_MAX || (n && !r))) rc = LATTIO_ERR_ARG;
    if (rc == LATTIO_OK) rc = set_size(r, n, &size);
    if (rc == LATTIO_OK && size > LATTIO_LIME_MAX_LENGTH - f->out.offset) rc = LATTIO_ERR_OVERFLOW;
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    rc = same_set(f, n, r);
    for (int i = 0; rc == LATTIO_OK && i < n; i++) rc = remember_type(f, r[i].type);
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    lattio_prof_phase(f, LATTIO_PHASE_META);
    if (f->rank == 0) rc = write_set(f, f->out.offset, r, n);
    RETURN_IF_ERROR(settle(f, rc));
    f->out.offset += size;
    return LATTIO_OK;
}

/* The payload bytes this rank moves in records r[0..n) (rank 0's). */
static uint64_t set_payload(const lattio_file *f, int n, const lattio_xfer_record *r)
{
    uint64_t bytes = 0;
    for (int i = 0; f && f->rank == 0 && r && i < n && i <= LATTIO_XFER_RECORDS_MAX; i++) bytes += r[i].length;
    return bytes;
}

int lattio_xfer_records(lattio_file *f, int n, const lattio_xfer_record *recs)
{
    lattio_prof_begin(f, LATTIO_PHASE_META);
    return lattio_prof_end(f, lattio_file_outcome(f, records_write(f, n, recs)), set_payload(f, n, recs));
}

/* --- reading ------------------------------------------------------------ */

int lattio_record_count(const lattio_file *f) { return f ? f->in.nindex : 0; }

static int record_next(lattio_file *f, lattio_record_info *info)
{
    RETURN_IF(!f, LATTIO_ERR_ARG);
    RETURN_IF(f->mode == LATTIO_MODE_CREATE, LATTIO_ERR_STATE);
    if (f->in.cur + 1 >= f->in.nindex) {
        f->in.cur = f->in.nindex;
        return f->in.index_status == LATTIO_ERR_EOF ? LATTIO_ERR_EOF
                                                 : LATTIO_FAIL(f->in.index_status, "damaged record");
    }
    f->in.cur++;
    if (info) *info = f->in.index[f->in.cur];
    return LATTIO_OK;
}

static int record_find(lattio_file *f, const char *type, int n, lattio_record_info *info)
{
    RETURN_IF(!f || !type || n < 0, LATTIO_ERR_ARG);
    for (int i = 0; i < f->in.nindex; i++) {
        if (strcmp(f->in.index[i].type, type) == 0 && n-- == 0) {
            f->in.cur = i;
            if (info) *info = f->in.index[i];
            return LATTIO_OK;
        }
    }
    f->in.cur = f->in.nindex;
    return LATTIO_FAIL(LATTIO_ERR_NOT_FOUND, type);
}

static int record_read_at(lattio_file *f, uint64_t offset, void *buf, uint64_t count)
{
    RETURN_IF(!f, LATTIO_ERR_ARG);
    const lattio_record_info *r = NULL;
    RETURN_IF_ERROR(lattio_agree(f->comm, lattio_piece_to_read(f, offset, buf, count, &r)));
    lattio_prof_phase(f, LATTIO_PHASE_IO);
    if (f->req.npending) /* no collective MPI-IO call while a request is pending */
        return lattio_agree(f->comm, lattio_read_at(f, r->data_offset + offset, buf, count));
    return lattio_agree(f->comm, lattio_read_at_all(f, r->data_offset + offset, buf, count));
}

/* --- the public calls, timed (profile.c) ---------------------------------- */

int lattio_record_begin(lattio_file *f, const char *type, uint64_t length, int mb, int me)
{
    lattio_prof_begin(f, LATTIO_PHASE_SETUP);
    return lattio_prof_end(f, lattio_file_outcome(f, record_begin(f, type, length, mb, me)), 0);
}

int lattio_record_write_at(lattio_file *f, uint64_t offset, const void *buf, uint64_t count)
{
    lattio_prof_begin(f, LATTIO_PHASE_SETUP);
    return lattio_prof_end(f, lattio_file_outcome(f, record_write_at(f, offset, buf, count)), count);
}

int lattio_record_end(lattio_file *f, int allow_short)
{
    lattio_prof_begin(f, LATTIO_PHASE_SETUP);
    return lattio_prof_end(f, lattio_file_outcome(f, record_end(f, allow_short)), 0);
}

int lattio_record_write(lattio_file *f, const char *type, const void *data, uint64_t length,
                        int mb, int me)
{
    const lattio_xfer_record r = {type, data, length, mb, me};
    return lattio_xfer_records(f, 1, &r);
}

int lattio_record_next(lattio_file *f, lattio_record_info *info)
{
    lattio_prof_begin(f, LATTIO_PHASE_META);
    return lattio_prof_end(f, record_next(f, info), 0);
}

int lattio_record_find(lattio_file *f, const char *type, int n, lattio_record_info *info)
{
    lattio_prof_begin(f, LATTIO_PHASE_META);
    return lattio_prof_end(f, record_find(f, type, n, info), 0);
}

int lattio_record_read_at(lattio_file *f, uint64_t offset, void *buf, uint64_t count)
{
    lattio_prof_begin(f, LATTIO_PHASE_SETUP);
    return lattio_prof_end(f, record_read_at(f, offset, buf, count), count);
}
