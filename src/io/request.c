/* request.c -- non-blocking transfers.  A request is a list of contiguous
 * pieces (writes: of the file's write piece, as blocking writes make them,
 * agree.c; reads: at most 1 GiB, so no MPI count overflows) started with
 * independent MPI_File_iwrite_at / MPI_File_iread_at at offsets fixed at the
 * start.  Writes go from a request-owned copy; lattice reads land in a
 * request-owned staging buffer unpacked at the wait.  The file keeps its
 * pending requests in start order, and while any is pending no collective
 * MPI-IO call is made on it (record.c and file.c check f->npending). */
#include "io_internal.h"

#include <limits.h>
#include <string.h>

#define PIECE ((uint64_t)1 << 30)
#define WAIT_BATCH 256 /* MPI requests completed per MPI_Waitall */

typedef struct piece {
    uint64_t off; /* absolute file offset */
    unsigned char *buf;
    uint64_t bytes; /* 1 .. PIECE */
} piece;

struct lattio_request {
    lattio_file *f;
    struct lattio_request *next; /* f's pending list */
    int writing;
    unsigned char *own; /* request-owned bytes: the write copy or the read staging */
    void *local;        /* lattice read: the caller's buffer, filled at the wait */
    lattio_layout layout;
    uint64_t piece;     /* bytes per MPI call: the file's write piece, or PIECE reading */
    piece *pieces;
    size_t npieces, cap, nstarted;
    MPI_Request *mpi;
    uint64_t end; /* highest absolute file offset + 1 the pieces reach */
};

static int request_new(lattio_file *f, int writing, lattio_request **out)
{
    lattio_request *r = lattio_calloc(1, sizeof *r);
    *out = r;
    RETURN_IF(!r, LATTIO_ERR_NOMEM);
    r->f = f;
    r->writing = writing;
    r->piece = writing && f->out.write_piece && f->out.write_piece < PIECE ? f->out.write_piece : PIECE;
    return LATTIO_OK;
}

static void request_free(lattio_request *r)
{
    if (!r) return;
    lattio_free(r->own);
    lattio_free(r->pieces);
    lattio_free(r->mpi);
    lattio_free(r);
}

static uint64_t pieces_of(const lattio_request *r, uint64_t bytes) { return (bytes + r->piece - 1) / r->piece; }

/* Room for `more` further pieces. */
static int reserve(lattio_request *r, uint64_t more)
{
    RETURN_IF(more > SIZE_MAX / sizeof *r->pieces - r->npieces, LATTIO_ERR_OVERFLOW);
    size_t want = r->npieces + (size_t)more;
    if (want <= r->cap) return LATTIO_OK;
    piece *p = lattio_realloc(r->pieces, want * sizeof *p);
    RETURN_IF(!p, LATTIO_ERR_NOMEM);
    r->pieces = p;
    r->cap = want;
    return LATTIO_OK;
}

/* Append `bytes` bytes at absolute file offset `off` (nothing when 0). */
static int add_range(lattio_request *r, uint64_t off, unsigned char *buf, uint64_t bytes)
{
    RETURN_IF(off > (uint64_t)LLONG_MAX - bytes, LATTIO_ERR_OVERFLOW);
    RETURN_IF_ERROR(reserve(r, pieces_of(r, bytes)));
    for (uint64_t done = 0; done < bytes;) {
        uint64_t k = bytes - done < r->piece ? bytes - done : r->piece;
        r->pieces[r->npieces++] = (piece){off + done, buf + done, k};
        done += k;
    }
    if (bytes && off + bytes > r->end) r->end = off + bytes;
    return LATTIO_OK;
}

/* The file runs of this rank's n packed sites in r->own, at lattice offset off. */
static int add_runs(lattio_request *r, const lattio_layout *l, uint64_t off, uint64_t n)
{
    size_t nruns = 0;
    RETURN_IF_ERROR(lattio_layout_runs(l, 0, n, NULL, 0, &nruns));
    RETURN_IF(nruns > SIZE_MAX / sizeof(lattio_run), LATTIO_ERR_OVERFLOW);
    lattio_run *runs = lattio_malloc(nruns * sizeof *runs);
    RETURN_IF(!runs, LATTIO_ERR_NOMEM);
    int rc = lattio_layout_runs(l, 0, n, runs, nruns, &nruns);
    uint64_t total = 0;
    for (size_t i = 0; i < nruns; i++) total += pieces_of(r, runs[i].bytes);
    if (rc == LATTIO_OK) rc = reserve(r, total);
    for (size_t i = 0; i < nruns && rc == LATTIO_OK; i++)
        rc = add_range(r, off + runs[i].file_offset, r->own + runs[i].packed_offset, runs[i].bytes);
    lattio_free(runs);
    return rc;
}

/* Local.  A lattice request: pack (write) or stage (read) this rank's sites. */
static int lattice_prepare(lattio_request *r, const lattio_layout *l, uint64_t off, void *local)
{
    uint64_t n = lattio_layout_local_sites(l);
    if (n == 0) return LATTIO_OK;
    RETURN_IF(n > SIZE_MAX / l->site_bytes, LATTIO_ERR_OVERFLOW);
    r->own = lattio_malloc((size_t)(n * l->site_bytes));
    RETURN_IF(!r->own, LATTIO_ERR_NOMEM);
    if (r->writing) {
        lattio_prof_phase(r->f, LATTIO_PHASE_PACK);
        RETURN_IF_ERROR(lattio_layout_pack(l, local, 0, n, r->own));
    } else {
        r->layout = *l;
        r->local = local;
    }
    lattio_prof_phase(r->f, LATTIO_PHASE_SETUP);
    return add_runs(r, l, off, n);
}

/* Local.  A read must not reach past the end of the file (truncated behind
 * lattio's back): OMPIO's non-blocking read across the end never completes. */
static int check_file_end(const lattio_request *r)
{
    MPI_Offset size = 0;
    if (r->writing) return LATTIO_OK;
    RETURN_IF_ERROR(MPI_CHECK(MPI_File_get_size(r->f->fh, &size), LATTIO_ERR_STAT));
    RETURN_IF(r->end > (uint64_t)size, LATTIO_ERR_TRUNCATED_PAYLOAD);
    return LATTIO_OK;
}

/* Local.  Start every piece; on failure r->nstarted tells what runs. */
static int start(lattio_request *r)
{
    if (r->npieces == 0) return LATTIO_OK;
    lattio_prof_phase(r->f, LATTIO_PHASE_META);
    RETURN_IF_ERROR(check_file_end(r));
    lattio_prof_phase(r->f, LATTIO_PHASE_IO);
    r->mpi = lattio_malloc(r->npieces * sizeof *r->mpi);
    RETURN_IF(!r->mpi, LATTIO_ERR_NOMEM);
    MPI_File fh = r->f->fh;
    for (size_t i = 0; i < r->npieces; i++) {
        const piece *p = &r->pieces[i];
        int rc = r->writing
                     ? MPI_File_iwrite_at(fh, (MPI_Offset)p->off, p->buf, (int)p->bytes, MPI_BYTE, &r->mpi[i])
                     : MPI_File_iread_at(fh, (MPI_Offset)p->off, p->buf, (int)p->bytes, MPI_BYTE, &r->mpi[i]);
        RETURN_IF_ERROR(MPI_CHECK(rc, r->writing ? LATTIO_ERR_WRITE : LATTIO_ERR_READ));
        r->nstarted = i + 1;
    }
    return LATTIO_OK;
}

/* The outcome of one MPI_Waitall over pieces [first, first + k). */
static int check_batch(const lattio_request *r, size_t first, size_t k, int mrc,
                       MPI_Status *st)
{
    int err = r->writing ? LATTIO_ERR_WRITE : LATTIO_ERR_READ;
    if (mrc != MPI_SUCCESS && mrc != MPI_ERR_IN_STATUS) return MPI_CHECK(mrc, err);
    for (size_t j = 0; j < k; j++) {
        if (mrc == MPI_ERR_IN_STATUS && st[j].MPI_ERROR != MPI_SUCCESS)
            return lattio_mpi_status(st[j].MPI_ERROR, err, "non-blocking transfer");
        int got = -1; /* every piece is non-empty, so its status is set */
        const piece *p = &r->pieces[first + j];
        if (MPI_Get_count(&st[j], MPI_BYTE, &got) != MPI_SUCCESS || (uint64_t)got != p->bytes)
            return r->writing ? lattio_short_write(r->f, p->bytes - (uint64_t)(got > 0 ? got : 0))
                              : lattio_short_read(r->f, p->off + p->bytes);
    }
    return LATTIO_OK;
}

/* Local.  Complete every started piece; the first error. */
static int drain(lattio_request *r)
{
    int status = LATTIO_OK;
    MPI_Status st[WAIT_BATCH];
    if (!r) return LATTIO_OK;
    for (size_t i = 0; i < r->nstarted;) {
        size_t k = r->nstarted - i < WAIT_BATCH ? r->nstarted - i : WAIT_BATCH;
        int mrc = MPI_Waitall((int)k, r->mpi + i, st);
        int rc = check_batch(r, i, k, mrc, st);
        if (status == LATTIO_OK) status = rc;
        i += k;
    }
    r->nstarted = 0;
    return status;
}

static void enlist(lattio_file *f, lattio_request *r)
{
    lattio_request **p = &f->req.pending;
    while (*p) p = &(*p)->next;
    *p = r;
    r->next = NULL;
    f->req.npending++;
    f->req.finish_pending = lattio_requests_finish; /* lattio_close completes them */
}

static void delist(lattio_file *f, const lattio_request *r)
{
    for (lattio_request **p = &f->req.pending; *p; p = &(*p)->next)
        if (*p == r) {
            *p = r->next;
            f->req.npending--;
            return;
        }
}

/* Collective.  Agree on the start (rc: the local preparation); on failure
 * complete whatever started anywhere and free r.  A failed write start
 * poisons the file as a failed blocking write does. */
static int launch(lattio_file *f, lattio_request *r, int rc, lattio_request **req)
{
    if (rc == LATTIO_OK) rc = start(r);
    rc = lattio_agree(f->comm, rc);
    if (rc < 0) {
        drain(r);
        if (!r || r->writing) lattio_file_outcome(f, rc);
        request_free(r);
        return rc;
    }
    enlist(f, r);
    *req = r;
    return LATTIO_OK;
}

/* Bookkeeping of a started write: the record counts the bytes now. */
static void account(lattio_file *f, const lattio_request *r, uint64_t bytes)
{
    f->out.rec_written += bytes;
    if (r->npieces && r->end - f->out.rec_data > f->out.rec_end) f->out.rec_end = r->end - f->out.rec_data;
}

/* Local.  Durable writes: start the writeback of r's pieces, adjacent
 * pieces (one file run cut into write pieces) as one range. */
static void writeback(lattio_request *r)
{
    for (size_t i = 0; i < r->npieces;) {
        uint64_t off = r->pieces[i].off, end = off + r->pieces[i].bytes;
        for (i++; i < r->npieces && r->pieces[i].off == end; i++) end += r->pieces[i].bytes;
        lattio_writeback_start(r->f, off, end - off);
    }
}

/* Collective.  Complete r, unpack a lattice read, agree, unlink and free. */
static int complete(lattio_request *r)
{
    lattio_file *f = r->f;
    lattio_prof_phase(f, LATTIO_PHASE_IO);
    int rc = drain(r);
    if (rc == LATTIO_OK && r->writing) writeback(r);
    lattio_prof_phase(f, LATTIO_PHASE_PACK);
    uint64_t n = r->local ? lattio_layout_local_sites(&r->layout) : 0;
    if (rc == LATTIO_OK && n) rc = lattio_layout_unpack(&r->layout, r->own, 0, n, r->local);
    rc = lattio_agree(f->comm, rc);
    if (r->writing) lattio_file_outcome(f, rc);
    delist(f, r);
    request_free(r);
    return rc;
}

static int wait_request(lattio_request **req)
{
    if (!req || !*req) return LATTIO_OK;
    lattio_request *r = *req;
    *req = NULL;
    return complete(r);
}

int lattio_requests_finish(lattio_file *f)
{
    int first = LATTIO_OK;
    while (f->req.pending) {
        int rc = complete(f->req.pending);
        if (first == LATTIO_OK) first = rc;
    }
    return first;
}

/* --- starting requests ---------------------------------------------------- */

/* Local.  A record is open for writing on f and req can receive a request. */
static int can_write(const lattio_file *f, lattio_request **req)
{
    RETURN_IF(!req, LATTIO_ERR_ARG);
    return lattio_record_writing(f);
}

/* Local.  f has a current record to read and req can receive a request. */
static int can_read(const lattio_file *f, lattio_request **req, const lattio_record_info **rec)
{
    RETURN_IF(!req, LATTIO_ERR_ARG);
    *rec = lattio_current_record(f);
    RETURN_IF(!*rec, LATTIO_ERR_STATE);
    return LATTIO_OK;
}

static int lattice_iwrite(lattio_file *f, const lattio_layout *l, uint64_t offset,
                          const void *local, lattio_request **req)
{
    RETURN_IF(!f, LATTIO_ERR_ARG);
    if (req) *req = NULL;
    int rc = can_write(f, req);
    if (rc == LATTIO_OK) rc = lattio_lattice_fits(l, offset, f->out.rec_len, local);
    RETURN_IF_ERROR(lattio_same_lattice(f, l, rc));
    lattio_request *r = NULL;
    rc = request_new(f, 1, &r);
    if (rc == LATTIO_OK) rc = lattice_prepare(r, l, f->out.rec_data + offset, (void *)local);
    RETURN_IF_ERROR(launch(f, r, rc, req));
    account(f, r, lattio_layout_local_sites(l) * l->site_bytes);
    return LATTIO_OK;
}

static int lattice_iread(lattio_file *f, const lattio_layout *l, uint64_t offset, void *local,
                         lattio_request **req)
{
    RETURN_IF(!f, LATTIO_ERR_ARG);
    if (req) *req = NULL;
    const lattio_record_info *rec = NULL;
    int rc = can_read(f, req, &rec);
    if (rc == LATTIO_OK) rc = lattio_lattice_fits(l, offset, rec->length, local);
    RETURN_IF_ERROR(lattio_same_lattice(f, l, rc));
    lattio_request *r = NULL;
    rc = request_new(f, 0, &r);
    if (rc == LATTIO_OK) rc = lattice_prepare(r, l, rec->data_offset + offset, local);
    return launch(f, r, rc, req);
}

static int record_iwrite_at(lattio_file *f, uint64_t offset, const void *buf, uint64_t count,
                            lattio_request **req)
{
    RETURN_IF(!f, LATTIO_ERR_ARG);
    if (req) *req = NULL;
    int rc = req ? lattio_piece_to_write(f, offset, buf, count) : LATTIO_FAIL(LATTIO_ERR_ARG, "req");
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    lattio_request *r = NULL;
    rc = request_new(f, 1, &r);
    if (rc == LATTIO_OK && count > SIZE_MAX) rc = LATTIO_FAIL(LATTIO_ERR_OVERFLOW, "count");
    if (rc == LATTIO_OK && count && !(r->own = lattio_malloc((size_t)count)))
        rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "write copy");
    lattio_prof_phase(f, LATTIO_PHASE_PACK);
    if (rc == LATTIO_OK && count) memcpy(r->own, buf, (size_t)count);
    if (rc == LATTIO_OK) rc = add_range(r, f->out.rec_data + offset, r->own, count);
    RETURN_IF_ERROR(launch(f, r, rc, req));
    account(f, r, count);
    return LATTIO_OK;
}

static int record_iread_at(lattio_file *f, uint64_t offset, void *buf, uint64_t count,
                           lattio_request **req)
{
    RETURN_IF(!f, LATTIO_ERR_ARG);
    if (req) *req = NULL;
    const lattio_record_info *rec = NULL;
    int rc = req ? lattio_piece_to_read(f, offset, buf, count, &rec)
                 : LATTIO_FAIL(LATTIO_ERR_ARG, "req");
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    lattio_request *r = NULL;
    rc = request_new(f, 0, &r);
    if (rc == LATTIO_OK) rc = add_range(r, rec->data_offset + offset, buf, count);
    return launch(f, r, rc, req);
}

/* --- the public calls, timed (profile.c); a request's bytes count at its
 * start ------------------------------------------------------------------- */

int lattio_wait(lattio_request **req)
{
    lattio_file *f = req && *req ? (*req)->f : NULL;
    lattio_prof_begin(f, LATTIO_PHASE_IO);
    return lattio_prof_end(f, wait_request(req), 0);
}

int lattio_lattice_iwrite(lattio_file *f, const lattio_layout *l, uint64_t offset,
                          const void *local, lattio_request **req)
{
    lattio_prof_begin(f, LATTIO_PHASE_SETUP);
    int rc = lattio_file_outcome(f, lattice_iwrite(f, l, offset, local, req));
    return lattio_prof_end(f, rc, rc == LATTIO_OK ? lattio_layout_local_sites(l) * l->site_bytes : 0);
}

int lattio_lattice_iread(lattio_file *f, const lattio_layout *l, uint64_t offset, void *local,
                         lattio_request **req)
{
    lattio_prof_begin(f, LATTIO_PHASE_SETUP);
    int rc = lattice_iread(f, l, offset, local, req);
    return lattio_prof_end(f, rc, rc == LATTIO_OK ? lattio_layout_local_sites(l) * l->site_bytes : 0);
}

int lattio_record_iwrite_at(lattio_file *f, uint64_t offset, const void *buf, uint64_t count,
                            lattio_request **req)
{
    lattio_prof_begin(f, LATTIO_PHASE_SETUP);
    return lattio_prof_end(f, lattio_file_outcome(f, record_iwrite_at(f, offset, buf, count, req)), count);
}

int lattio_record_iread_at(lattio_file *f, uint64_t offset, void *buf, uint64_t count,
                           lattio_request **req)
{
    lattio_prof_begin(f, LATTIO_PHASE_SETUP);
    return lattio_prof_end(f, record_iread_at(f, offset, buf, count, req), count);
}
