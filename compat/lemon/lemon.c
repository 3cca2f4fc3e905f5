/* lemon.c -- the Lemon API (lemon.h) on lattio's MPI layer: a writer or
 * reader is a lattio_file attached to the caller's MPI_File, records go
 * through lattio_record_*, lattices through lattio_lattice_* with a layout
 * built from the Cartesian communicator.  See lemon.h for the contract and
 * the deliberate differences from Lemon.
 *
 * Agreement: every call that may touch the file is collective; its local
 * argument and state checks are agreed (most negative Lemon code wins) before
 * any lattio collective, and lattio agrees on the rest.  A pending
 * non-blocking request is completed (collectively) by the next call on the
 * same handle, as Lemon specifies. */
#include "lemon.h"

#include "internal.h"

#include <string.h>

/* The public structure first, lattio's state after it. */
typedef struct {
    LemonWriter pub;
    lattio_file *f;
    lattio_request *req;
} writer_impl;

typedef struct {
    LemonReader pub;
    lattio_file *f;
    lattio_request *req;
    lattio_record_info info; /* the current record */
    LemonRecordHeader hdr;   /* pub.curr_header points here */
    int nrec;                /* records advanced through (for SetState) */
} reader_impl;

#define WIMPL(w) ((writer_impl *)(w))
#define RIMPL(r) ((reader_impl *)(r))

/* Return a Lemon code, traced (the trace names only lattio statuses). */
#define LEMON_RETURN_IF(cond, code)                                                      \
    do {                                                                                 \
        if (cond) {                                                                      \
            LATTIO_TRACE("%s -> Lemon status %d", #cond, (int)(code));                  \
            return (code);                                                               \
        }                                                                                \
    } while (0)

/* ------------------------------------------------------------------------ */
/* Status mapping: the one table                                            */
/* ------------------------------------------------------------------------ */

enum { IO_CODE = 1 }; /* placeholder: the caller's I/O code (ERR_WRITE or ERR_READ) */

static const struct {
    int lattio, lemon;
} status_map[] = {
    {LATTIO_OK, LEMON_SUCCESS},
    {LATTIO_ERR_ARG, LEMON_ERR_PARAM},
    {LATTIO_ERR_STATE, LEMON_ERR_PARAM},
    {LATTIO_ERR_UNSUPPORTED, LEMON_ERR_PARAM},
    {LATTIO_ERR_TYPE_TOO_LONG, LEMON_ERR_PARAM},
    {LATTIO_ERR_BAD_TYPE, LEMON_ERR_PARAM},
    {LATTIO_ERR_OVERFLOW, LEMON_ERR_PARAM},
    {LATTIO_ERR_LENGTH_OVERFLOW, LEMON_ERR_PARAM},
    {LATTIO_ERR_LAYOUT, LEMON_ERR_PARAM},
    {LATTIO_ERR_RANK_ARG, LEMON_ERR_PARAM},
    {LATTIO_ERR_PENDING, LEMON_ERR_PARAM},
    {LATTIO_ERR_EOF, LEMON_EOF},
    {LATTIO_ERR_NOT_FOUND, LEMON_EOF},
    {LATTIO_ERR_END_OF_RECORD, LEMON_EOR},
    {LATTIO_ERR_MBME, LEMON_ERR_MBME},
    {LATTIO_ERR_SEEK, LEMON_ERR_SEEK},
    {LATTIO_ERR_CLOSE, LEMON_ERR_CLOSE},
    {LATTIO_ERR_SYNC, LEMON_ERR_CLOSE},
    {LATTIO_ERR_RECORD_SHORT, LEMON_ERR_CLOSE},
    {LATTIO_ERR_WRITE, LEMON_ERR_WRITE},
    {LATTIO_ERR_MPI_COUNT, IO_CODE},
    {LATTIO_ERR_READ, LEMON_ERR_READ},
    {LATTIO_ERR_RECORD_OVERRUN, IO_CODE},
};

/* The Lemon code of a lattio status.  io is LEMON_ERR_WRITE or
 * LEMON_ERR_READ: the code of failed transfers in the caller's direction
 * (an overrun while reading is LEMON_EOR).  Format errors are ERR_READ. */
static int lemon_status(int status, int io)
{
    for (size_t i = 0; i < sizeof status_map / sizeof status_map[0]; i++) {
        if (status_map[i].lattio != status) continue;
        int code = status_map[i].lemon;
        /* a length near 2^64 in a header being read is a damaged header */
        if (status == LATTIO_ERR_LENGTH_OVERFLOW && io == LEMON_ERR_READ) return LEMON_ERR_READ;
        if (code != IO_CODE) return code;
        if (status == LATTIO_ERR_RECORD_OVERRUN && io == LEMON_ERR_READ) return LEMON_EOR;
        return io;
    }
    if (status <= -200 && status > -300) return LEMON_ERR_READ; /* damaged file */
    return io;
}

/* Collective.  The most negative Lemon code of all ranks. */
static int agree(MPI_Comm comm, int code)
{
    int all = code;
    LEMON_RETURN_IF(MPI_Allreduce(&code, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS,
                    LEMON_ERR_PARAM);
    return all;
}

/* The first error of two codes. */
static int first_error(int a, int b) { return a != LEMON_SUCCESS ? a : b; }

/* New position for (offset, whence) in a payload of len bytes at pos.
 * MPI_SEEK_END counts |offset| back from the end.  LEMON_ERR_SEEK outside
 * 0..len, LEMON_ERR_PARAM for an unknown whence. */
static int seek_target(MPI_Offset pos, MPI_Offset len, MPI_Offset offset, int whence,
                       MPI_Offset *target)
{
    MPI_Offset base = 0;
    if (whence == MPI_SEEK_END) {
        LEMON_RETURN_IF(offset < -len || offset > len, LEMON_ERR_SEEK);
        *target = len - (offset < 0 ? -offset : offset);
        return LEMON_SUCCESS;
    }
    if (whence == MPI_SEEK_CUR)
        base = pos;
    else
        LEMON_RETURN_IF(whence != MPI_SEEK_SET, LEMON_ERR_PARAM);
    LEMON_RETURN_IF(offset < -base || offset > len - base, LEMON_ERR_SEEK);
    *target = base + offset;
    return LEMON_SUCCESS;
}

/* The byte offset of this rank's individual file pointer; -1 on failure. */
static MPI_Offset file_pointer(MPI_File fh)
{
    MPI_Offset pos = 0, byte = -1;
    if (MPI_File_get_position(fh, &pos) != MPI_SUCCESS) return -1;
    if (MPI_File_get_byte_offset(fh, pos, &byte) != MPI_SUCCESS) return -1;
    return byte;
}

/* ------------------------------------------------------------------------ */
/* Headers                                                                  */
/* ------------------------------------------------------------------------ */

LemonRecordHeader *lemonCreateHeader(int MB_flag, int ME_flag, char const *type,
                                     MPI_Offset reclen)
{
    if (!type || reclen < 0) return NULL;
    LemonRecordHeader *h = lattio_malloc(sizeof *h);
    char *t = lattio_strdup(type);
    if (!h || !t) {
        lattio_free(h);
        lattio_free(t);
        return NULL;
    }
    h->lemon_version = LEMON_VERSION;
    h->MB_flag = MB_flag;
    h->ME_flag = ME_flag;
    h->type = t;
    h->data_length = (uint64_t)reclen;
    return h;
}

void lemonDestroyHeader(LemonRecordHeader *h)
{
    if (!h) return;
    lattio_free(h->type);
    lattio_free(h);
}

/* ------------------------------------------------------------------------ */
/* Lattice layouts from the Cartesian communicator                          */
/* ------------------------------------------------------------------------ */

/* Stands for a NULL mapping passed to a mapped call (LEMON_ERR_PARAM); the
 * unmapped calls pass NULL (the identity). */
static const int no_mapping[1] = {-1};

/* mapping is a permutation of 0..nd-1 (NULL: the identity). */
static int mapping_ok(int nd, int const *mapping, int *order)
{
    int seen[LATTIO_MAX_DIMS] = {0};
    LEMON_RETURN_IF(mapping == no_mapping, LEMON_ERR_PARAM);
    for (int i = 0; i < nd; i++) {
        order[i] = mapping ? mapping[i] : i;
        LEMON_RETURN_IF(order[i] < 0 || order[i] >= nd || seen[order[i]], LEMON_ERR_PARAM);
        seen[order[i]] = 1;
    }
    return LEMON_SUCCESS;
}

/* Local.  This rank's layout: latticeDims split evenly over the process
 * grid of comm (the native block split, refused unless it is even), file
 * and memory order both `mapping`. */
static int lattice_layout(MPI_Comm comm, MPI_Offset siteSize, int const *dims,
                          int const *mapping, lattio_layout *l)
{
    int topo = MPI_UNDEFINED, nd = 0, order[LATTIO_MAX_DIMS];
    int grid[LATTIO_MAX_DIMS], periods[LATTIO_MAX_DIMS], coords[LATTIO_MAX_DIMS];
    uint64_t global[LATTIO_MAX_DIMS];
    LEMON_RETURN_IF(!dims || siteSize <= 0, LEMON_ERR_PARAM);
    LEMON_RETURN_IF(MPI_Topo_test(comm, &topo) != MPI_SUCCESS || topo != MPI_CART,
                    LEMON_ERR_PARAM);
    LEMON_RETURN_IF(MPI_Cartdim_get(comm, &nd) != MPI_SUCCESS || nd < 1 || nd > LATTIO_MAX_DIMS,
                    LEMON_ERR_PARAM);
    LEMON_RETURN_IF(MPI_Cart_get(comm, nd, grid, periods, coords) != MPI_SUCCESS,
                    LEMON_ERR_PARAM);
    int rc = mapping_ok(nd, mapping, order);
    if (rc != LEMON_SUCCESS) return rc;
    for (int d = 0; d < nd; d++) {
        /* an extent the grid does not divide would leave the buffer size ambiguous */
        LEMON_RETURN_IF(dims[d] <= 0 || grid[d] <= 0 || dims[d] % grid[d] != 0, LEMON_ERR_PARAM);
        global[d] = (uint64_t)dims[d];
    }
    rc = lattio_layout_from_cart(comm, global, (size_t)siteSize, l);
    if (rc < 0) return lemon_status(rc, LEMON_ERR_PARAM);
    memcpy(l->file_order, order, sizeof(int) * (size_t)nd);
    memcpy(l->mem_order, order, sizeof(int) * (size_t)nd);
    return lemon_status(lattio_layout_check(l), LEMON_ERR_PARAM);
}

/* Bytes of the whole lattice (lattio_layout_check bounds the product). */
static MPI_Offset lattice_bytes(const lattio_layout *l)
{
    return (MPI_Offset)(lattio_layout_global_sites(l) * l->site_bytes);
}

/* ------------------------------------------------------------------------ */
/* Writer                                                                   */
/* ------------------------------------------------------------------------ */

static MPI_Comm wcomm(const writer_impl *w) { return lattio_file_comm(w->f); }

/* Collective when a request is pending.  Complete it. */
static int finish_writer(writer_impl *w)
{
    if (!w->req) return LEMON_SUCCESS;
    int rc = lattio_wait(&w->req);
    w->req = NULL;
    w->pub.is_busy = 0;
    w->pub.buffer = NULL;
    return lemon_status(rc, LEMON_ERR_WRITE);
}

/* Every rank's individual file pointer goes after the last record. */
static void leave_pointer(writer_impl *w)
{
    MPI_Offset end = (MPI_Offset)lattio_file_position(w->f);
    MPI_File_seek(*w->pub.fp, end, MPI_SEEK_SET);
    w->pub.off = end;
    w->pub.pos = 0;
}

/* Fill the public fields of a writer between records at `offset`. */
static void writer_fields(writer_impl *w, MPI_File *fp, uint64_t offset)
{
    LemonWriter *p = &w->pub;
    p->fp = fp;
    p->cartesian = wcomm(w);
    MPI_Comm_rank(p->cartesian, &p->my_rank);
    p->off = (MPI_Offset)offset;
    p->is_awaiting_header = 1;
    p->is_first_record = 1;
    p->request = MPI_REQUEST_NULL;
}

LemonWriter *lemonCreateWriter(MPI_File *fp, MPI_Comm cartesian)
{
    if (!fp || cartesian == MPI_COMM_NULL) return NULL;
    MPI_Offset start = file_pointer(*fp);
    uint64_t offset = start < 0 ? UINT64_MAX : (uint64_t)start; /* refused by attach */
    lattio_file *f = NULL;
    if (lattio_attach(cartesian, *fp, LATTIO_MODE_CREATE, offset, NULL, &f) < 0) return NULL;
    writer_impl *w = lattio_calloc(1, sizeof *w);
    if (agree(lattio_file_comm(f), w ? LEMON_SUCCESS : LEMON_ERR_PARAM) != LEMON_SUCCESS) {
        lattio_close(f);
        lattio_free(w);
        return NULL;
    }
    w->f = f;
    writer_fields(w, fp, offset);
    return &w->pub;
}

int lemonDestroyWriter(LemonWriter *writer)
{
    if (!writer) return LEMON_SUCCESS;
    writer_impl *w = WIMPL(writer);
    int rc = finish_writer(w);
    if (!writer->is_awaiting_header)
        rc = first_error(rc, lemon_status(lattio_record_end(w->f, 1), LEMON_ERR_WRITE));
    leave_pointer(w);
    rc = first_error(rc, lemon_status(lattio_close(w->f), LEMON_ERR_CLOSE));
    lattio_free(w);
    return rc;
}

int lemonWriteRecordHeader(LemonRecordHeader const *props, LemonWriter *writer)
{
    LEMON_RETURN_IF(!writer, LEMON_ERR_PARAM);
    writer_impl *w = WIMPL(writer);
    int rc = finish_writer(w);
    if (rc == LEMON_SUCCESS && (!props || !props->type)) rc = LEMON_ERR_PARAM;
    if (rc == LEMON_SUCCESS && !writer->is_awaiting_header) rc = LEMON_ERR_HEADER_NEXT;
    if (rc == LEMON_SUCCESS && !writer->is_first_record &&
        writer->is_last_written != (props->MB_flag != 0))
        rc = LEMON_ERR_MBME;
    rc = agree(wcomm(w), rc);
    if (rc != LEMON_SUCCESS) return rc;
    uint64_t header = lattio_file_position(w->f);
    rc = lattio_record_begin(w->f, props->type, props->data_length, props->MB_flag != 0,
                             props->ME_flag != 0);
    if (rc < 0) return lemon_status(rc, LEMON_ERR_WRITE);
    writer->off = (MPI_Offset)(header + LATTIO_LIME_HEADER_SIZE);
    writer->pos = 0;
    writer->data_length = (MPI_Offset)props->data_length;
    writer->is_awaiting_header = 0;
    writer->is_first_record = 0;
    writer->is_last = props->ME_flag != 0;
    writer->is_last_written = 0;
    return LEMON_SUCCESS;
}

/* Checks shared by the record-data writes: rank 0's count *n fits. */
static int record_data_checks(writer_impl *w, const void *source, MPI_Offset const *nbytes,
                              MPI_Offset *n)
{
    *n = nbytes ? *nbytes : 0;
    int rc = finish_writer(w);
    if (MPI_Bcast(n, 1, MPI_OFFSET, 0, wcomm(w)) != MPI_SUCCESS) rc = LEMON_ERR_PARAM;
    if (rc == LEMON_SUCCESS && (!nbytes || *n < 0 || !source)) rc = LEMON_ERR_PARAM;
    if (rc == LEMON_SUCCESS && w->pub.is_awaiting_header) rc = LEMON_ERR_PARAM;
    if (rc == LEMON_SUCCESS && *n > w->pub.data_length - w->pub.pos) rc = LEMON_ERR_WRITE;
    return agree(wcomm(w), rc);
}

int lemonWriteRecordData(void *source, MPI_Offset *nbytes, LemonWriter *writer)
{
    if (!writer) {
        if (nbytes) *nbytes = 0;
        LEMON_RETURN_IF(1, LEMON_ERR_PARAM);
    }
    writer_impl *w = WIMPL(writer);
    MPI_Offset n = 0;
    int rc = record_data_checks(w, source, nbytes, &n);
    int root = writer->my_rank == 0;
    if (rc == LEMON_SUCCESS)
        rc = lemon_status(lattio_record_write_at(w->f, (uint64_t)writer->pos, root ? source : NULL,
                                                 root ? (uint64_t)n : 0),
                          LEMON_ERR_WRITE);
    if (nbytes) *nbytes = rc == LEMON_SUCCESS ? n : 0;
    if (rc == LEMON_SUCCESS) writer->pos += n;
    return rc;
}

int lemonWriteRecordDataNonBlocking(void *source, MPI_Offset const *nbytes, LemonWriter *writer)
{
    LEMON_RETURN_IF(!writer, LEMON_ERR_PARAM);
    writer_impl *w = WIMPL(writer);
    MPI_Offset n = 0;
    int rc = record_data_checks(w, source, nbytes, &n);
    if (rc != LEMON_SUCCESS) return rc;
    int root = writer->my_rank == 0;
    rc = lattio_record_iwrite_at(w->f, (uint64_t)writer->pos, root ? source : NULL,
                                 root ? (uint64_t)n : 0, &w->req);
    if (rc < 0) return lemon_status(rc, LEMON_ERR_WRITE);
    writer->pos += n;
    writer->is_busy = w->req != NULL;
    writer->buffer = source;
    return LEMON_SUCCESS;
}

int lemonWriterCloseRecord(LemonWriter *writer)
{
    LEMON_RETURN_IF(!writer, LEMON_ERR_PARAM);
    writer_impl *w = WIMPL(writer);
    int rc = finish_writer(w);
    if (rc == LEMON_SUCCESS && writer->is_awaiting_header) rc = LEMON_ERR_CLOSE;
    rc = agree(wcomm(w), rc);
    if (rc != LEMON_SUCCESS) return rc;
    rc = lemon_status(lattio_record_end(w->f, 1), LEMON_ERR_WRITE);
    if (rc != LEMON_SUCCESS) return rc;
    writer->is_awaiting_header = 1;
    writer->is_last_written = writer->is_last;
    writer->is_last = 0;
    writer->data_length = 0;
    leave_pointer(w);
    return LEMON_SUCCESS;
}

int lemonWriterSeek(LemonWriter *writer, MPI_Offset offset, int whence)
{
    LEMON_RETURN_IF(!writer, LEMON_ERR_PARAM);
    writer_impl *w = WIMPL(writer);
    MPI_Offset target = writer->pos;
    int rc = finish_writer(w);
    if (rc == LEMON_SUCCESS && writer->is_awaiting_header) rc = LEMON_ERR_PARAM;
    if (rc == LEMON_SUCCESS)
        rc = seek_target(writer->pos, writer->data_length, offset, whence, &target);
    rc = agree(wcomm(w), rc);
    if (rc == LEMON_SUCCESS) writer->pos = target;
    return rc;
}

int lemonWriterSetState(LemonWriter *wdest, LemonWriter const *wsrc)
{
    LEMON_RETURN_IF(!wdest || !wsrc || !wdest->fp, LEMON_ERR_PARAM);
    writer_impl *w = WIMPL(wdest);
    const writer_impl *src = (const writer_impl *)wsrc;
    int rc = finish_writer(w);
    if (rc == LEMON_SUCCESS && (!wsrc->is_awaiting_header || src->req || !wdest->is_awaiting_header))
        rc = LEMON_ERR_PARAM;
    rc = agree(wcomm(w), rc);
    if (rc != LEMON_SUCCESS) return rc;
    uint64_t offset = lattio_file_position(src->f);
    lattio_file *f = NULL;
    rc = lattio_attach(wcomm(w), *wdest->fp, LATTIO_MODE_CREATE, offset, NULL, &f);
    if (rc < 0) return lemon_status(rc, LEMON_ERR_WRITE);
    lattio_close(w->f);
    w->f = f;
    writer_fields(w, wdest->fp, offset);
    wdest->is_first_record = wsrc->is_first_record;
    wdest->is_last_written = wsrc->is_last_written;
    return LEMON_SUCCESS;
}

/* All four lattice writes. */
static int write_lattice(LemonWriter *writer, void *data, MPI_Offset siteSize,
                         int const *latticeDims, int const *mapping, int nonblocking)
{
    LEMON_RETURN_IF(!writer, LEMON_ERR_PARAM);
    writer_impl *w = WIMPL(writer);
    lattio_layout l;
    int rc = finish_writer(w);
    if (rc == LEMON_SUCCESS) rc = lattice_layout(wcomm(w), siteSize, latticeDims, mapping, &l);
    if (rc == LEMON_SUCCESS && (writer->is_awaiting_header || !data)) rc = LEMON_ERR_PARAM;
    rc = agree(wcomm(w), rc);
    if (rc != LEMON_SUCCESS) return rc;
    uint64_t at = (uint64_t)writer->pos;
    rc = nonblocking ? lattio_lattice_iwrite(w->f, &l, at, data, &w->req)
                     : lattio_lattice_write(w->f, &l, at, data);
    if (rc < 0) return lemon_status(rc, LEMON_ERR_WRITE);
    writer->pos += lattice_bytes(&l);
    writer->is_busy = w->req != NULL;
    writer->buffer = w->req ? data : NULL;
    return LEMON_SUCCESS;
}

int lemonWriteLatticeParallel(LemonWriter *writer, void *data, MPI_Offset siteSize,
                              int const *latticeDims)
{
    return write_lattice(writer, data, siteSize, latticeDims, NULL, 0);
}

int lemonWriteLatticeParallelNonBlocking(LemonWriter *writer, void *data, MPI_Offset siteSize,
                                         int const *latticeDims)
{
    return write_lattice(writer, data, siteSize, latticeDims, NULL, 1);
}

int lemonWriteLatticeParallelMapped(LemonWriter *writer, void *data, MPI_Offset siteSize,
                                    int const *latticeDims, int const *mapping)
{
    return write_lattice(writer, data, siteSize, latticeDims, mapping ? mapping : no_mapping, 0);
}

int lemonWriteLatticeParallelNonBlockingMapped(LemonWriter *writer, void *data,
                                               MPI_Offset siteSize, int const *latticeDims,
                                               int const *mapping)
{
    return write_lattice(writer, data, siteSize, latticeDims, mapping ? mapping : no_mapping, 1);
}

int lemonFinishWriting(LemonWriter *writer)
{
    LEMON_RETURN_IF(!writer, LEMON_ERR_PARAM);
    return finish_writer(WIMPL(writer));
}

/* ------------------------------------------------------------------------ */
/* Reader                                                                   */
/* ------------------------------------------------------------------------ */

static MPI_Comm rcomm(const reader_impl *r) { return lattio_file_comm(r->f); }

static int finish_reader(reader_impl *r)
{
    if (!r->req) return LEMON_SUCCESS;
    int rc = lattio_wait(&r->req);
    r->req = NULL;
    r->pub.is_busy = 0;
    r->pub.buffer = NULL;
    r->pub.bytes_wanted = 0;
    return lemon_status(rc, LEMON_ERR_READ);
}

/* Make `info` the current record, at payload position 0. */
static void reader_current(reader_impl *r, const lattio_record_info *info)
{
    r->info = *info;
    r->hdr.lemon_version = (unsigned int)info->version;
    r->hdr.MB_flag = info->mb;
    r->hdr.ME_flag = info->me;
    r->hdr.type = r->info.type;
    r->hdr.data_length = info->length;
    r->pub.curr_header = &r->hdr;
    r->pub.off = (MPI_Offset)info->data_offset;
    r->pub.pos = 0;
    r->pub.is_last = info->me;
    r->pub.is_awaiting_header = 0;
}

static void reader_fields(reader_impl *r, MPI_File *fp)
{
    LemonReader *p = &r->pub;
    p->fp = fp;
    p->cartesian = rcomm(r);
    MPI_Comm_rank(p->cartesian, &p->my_rank);
    p->is_awaiting_header = 1;
}

LemonReader *lemonCreateReader(MPI_File *fp, MPI_Comm cartesian)
{
    if (!fp || cartesian == MPI_COMM_NULL) return NULL;
    lattio_file *f = NULL;
    if (lattio_attach(cartesian, *fp, LATTIO_MODE_READ, 0, NULL, &f) < 0) return NULL;
    reader_impl *r = lattio_calloc(1, sizeof *r);
    if (agree(lattio_file_comm(f), r ? LEMON_SUCCESS : LEMON_ERR_PARAM) != LEMON_SUCCESS) {
        lattio_close(f);
        lattio_free(r);
        return NULL;
    }
    r->f = f;
    reader_fields(r, fp);
    return &r->pub;
}

void lemonDestroyReader(LemonReader *reader)
{
    if (!reader) return;
    reader_impl *r = RIMPL(reader);
    finish_reader(r);
    lattio_close(r->f);
    lattio_free(r);
}

int lemonReaderNextRecord(LemonReader *reader)
{
    LEMON_RETURN_IF(!reader, LEMON_ERR_PARAM);
    reader_impl *r = RIMPL(reader);
    int rc = finish_reader(r);
    if (rc != LEMON_SUCCESS) return rc;
    lattio_record_info info;
    rc = lattio_record_next(r->f, &info); /* local: the index is the same on every rank */
    if (rc < 0) {
        reader->curr_header = NULL;
        reader->is_awaiting_header = 1;
        return rc == LATTIO_ERR_EOF ? LEMON_EOF : lemon_status(rc, LEMON_ERR_READ);
    }
    reader_current(r, &info);
    r->nrec++;
    return LEMON_SUCCESS;
}

int lemonReaderCloseRecord(LemonReader *reader)
{
    LEMON_RETURN_IF(!reader, LEMON_ERR_PARAM);
    int rc = finish_reader(RIMPL(reader));
    reader->is_awaiting_header = 1;
    return rc;
}

int lemonReaderMBFlag(LemonReader *reader)
{
    LEMON_RETURN_IF(!reader || !reader->curr_header, LEMON_ERR_PARAM);
    return reader->curr_header->MB_flag;
}

int lemonReaderMEFlag(LemonReader *reader)
{
    LEMON_RETURN_IF(!reader || !reader->curr_header, LEMON_ERR_PARAM);
    return reader->curr_header->ME_flag;
}

int lemonEOM(LemonReader *reader)
{
    LEMON_RETURN_IF(!reader || !reader->curr_header, LEMON_ERR_PARAM);
    return reader->curr_header->ME_flag != 0;
}

char const *lemonReaderType(LemonReader *reader)
{
    if (!reader || !reader->curr_header) return NULL;
    return reader->curr_header->type;
}

MPI_Offset lemonReaderBytes(LemonReader *reader)
{
    LEMON_RETURN_IF(!reader, LEMON_ERR_PARAM);
    return reader->curr_header ? (MPI_Offset)reader->curr_header->data_length : 0;
}

MPI_Offset lemonReaderPadBytes(LemonReader *reader)
{
    LEMON_RETURN_IF(!reader, LEMON_ERR_PARAM);
    return reader->curr_header ? (MPI_Offset)RIMPL(reader)->info.padding : 0;
}

MPI_Offset lemonGetReaderPointer(LemonReader *reader)
{
    LEMON_RETURN_IF(!reader, LEMON_ERR_PARAM);
    return reader->pos;
}

int lemonReaderSeek(LemonReader *reader, MPI_Offset offset, int whence)
{
    LEMON_RETURN_IF(!reader, LEMON_ERR_PARAM);
    reader_impl *r = RIMPL(reader);
    int rc = finish_reader(r);
    if (rc != LEMON_SUCCESS) return rc;
    LEMON_RETURN_IF(reader->is_awaiting_header, LEMON_ERR_PARAM);
    MPI_Offset target = reader->pos;
    rc = seek_target(reader->pos, (MPI_Offset)r->info.length, offset, whence, &target);
    if (rc == LEMON_SUCCESS) reader->pos = target;
    return rc;
}

int lemonSetReaderPointer(LemonReader *reader, MPI_Offset offset)
{
    return lemonReaderSeek(reader, offset, MPI_SEEK_SET);
}

/* Local checks of the record-data reads; *left receives the bytes left. */
static int read_checks(reader_impl *r, const void *dest, MPI_Offset n, MPI_Offset *left)
{
    int rc = finish_reader(r);
    *left = (MPI_Offset)r->info.length - r->pub.pos;
    if (rc == LEMON_SUCCESS && (n < 0 || !dest)) rc = LEMON_ERR_PARAM;
    if (rc == LEMON_SUCCESS && r->pub.is_awaiting_header) rc = LEMON_ERR_PARAM;
    return rc;
}

int lemonReaderReadData(void *dest, MPI_Offset *nbytes, LemonReader *reader)
{
    LEMON_RETURN_IF(!reader, LEMON_ERR_PARAM);
    reader_impl *r = RIMPL(reader);
    MPI_Offset n = nbytes ? *nbytes : -1, left = 0;
    int rc = agree(rcomm(r), read_checks(r, dest, n, &left));
    if (rc != LEMON_SUCCESS) {
        if (nbytes) *nbytes = 0;
        return rc;
    }
    MPI_Offset want = n < left ? n : left;
    rc = lemon_status(lattio_record_read_at(r->f, (uint64_t)reader->pos, dest, (uint64_t)want),
                      LEMON_ERR_READ);
    *nbytes = rc == LEMON_SUCCESS ? want : 0;
    if (rc != LEMON_SUCCESS) return rc;
    reader->pos += want;
    return want < n ? LEMON_EOR : LEMON_SUCCESS;
}

int lemonReaderReadDataNonBlocking(void *dest, MPI_Offset const *nbytes, LemonReader *reader)
{
    LEMON_RETURN_IF(!reader, LEMON_ERR_PARAM);
    reader_impl *r = RIMPL(reader);
    MPI_Offset n = nbytes ? *nbytes : -1, left = 0;
    int rc = read_checks(r, dest, n, &left);
    if (rc == LEMON_SUCCESS && n > left) rc = LEMON_EOR;
    rc = agree(rcomm(r), rc);
    if (rc != LEMON_SUCCESS) return rc;
    rc = lattio_record_iread_at(r->f, (uint64_t)reader->pos, dest, (uint64_t)n, &r->req);
    if (rc < 0) return lemon_status(rc, LEMON_ERR_READ);
    reader->pos += n;
    reader->is_busy = r->req != NULL;
    reader->buffer = dest;
    reader->bytes_wanted = (size_t)n;
    return LEMON_SUCCESS;
}

int lemonReaderSetState(LemonReader *rdest, LemonReader const *rsrc)
{
    LEMON_RETURN_IF(!rdest || !rsrc || !rdest->fp, LEMON_ERR_PARAM);
    reader_impl *r = RIMPL(rdest);
    const reader_impl *src = (const reader_impl *)rsrc;
    int rc = finish_reader(r);
    if (rc == LEMON_SUCCESS && src->req) rc = LEMON_ERR_PARAM;
    rc = agree(rcomm(r), rc);
    if (rc != LEMON_SUCCESS) return rc;
    lattio_file *f = NULL;
    rc = lattio_attach(rcomm(r), *rdest->fp, LATTIO_MODE_READ, 0, NULL, &f);
    if (rc < 0) return lemon_status(rc, LEMON_ERR_READ);
    for (int i = 0; i < src->nrec && rc == LATTIO_OK; i++) rc = lattio_record_next(f, NULL);
    lattio_close(r->f);
    r->f = f;
    reader_fields(r, rdest->fp);
    rdest->curr_header = NULL;
    r->nrec = src->nrec;
    if (rsrc->curr_header) reader_current(r, &src->info);
    rdest->pos = rsrc->pos;
    rdest->is_awaiting_header = rsrc->is_awaiting_header;
    return lemon_status(rc, LEMON_ERR_READ);
}

/* All four lattice reads. */
static int read_lattice(LemonReader *reader, void *data, MPI_Offset siteSize,
                        int const *latticeDims, int const *mapping, int nonblocking)
{
    LEMON_RETURN_IF(!reader, LEMON_ERR_PARAM);
    reader_impl *r = RIMPL(reader);
    lattio_layout l;
    int rc = finish_reader(r);
    if (rc == LEMON_SUCCESS) rc = lattice_layout(rcomm(r), siteSize, latticeDims, mapping, &l);
    if (rc == LEMON_SUCCESS && (reader->is_awaiting_header || !data)) rc = LEMON_ERR_PARAM;
    rc = agree(rcomm(r), rc);
    if (rc != LEMON_SUCCESS) return rc;
    uint64_t at = (uint64_t)reader->pos;
    rc = nonblocking ? lattio_lattice_iread(r->f, &l, at, data, &r->req)
                     : lattio_lattice_read(r->f, &l, at, data);
    if (rc < 0) return lemon_status(rc, LEMON_ERR_READ);
    reader->pos += lattice_bytes(&l);
    reader->is_busy = r->req != NULL;
    reader->buffer = r->req ? data : NULL;
    reader->bytes_wanted = r->req ? (size_t)(lattio_layout_local_sites(&l) * l.site_bytes) : 0;
    return LEMON_SUCCESS;
}

int lemonReadLatticeParallel(LemonReader *reader, void *data, MPI_Offset siteSize,
                             int const *latticeDims)
{
    return read_lattice(reader, data, siteSize, latticeDims, NULL, 0);
}

int lemonReadLatticeParallelNonBlocking(LemonReader *reader, void *data, MPI_Offset siteSize,
                                        int const *latticeDims)
{
    return read_lattice(reader, data, siteSize, latticeDims, NULL, 1);
}

int lemonReadLatticeParallelMapped(LemonReader *reader, void *data, MPI_Offset siteSize,
                                   int const *latticeDims, int const *mapping)
{
    return read_lattice(reader, data, siteSize, latticeDims, mapping ? mapping : no_mapping, 0);
}

int lemonReadLatticeParallelNonBlockingMapped(LemonReader *reader, void *data,
                                              MPI_Offset siteSize, int const *latticeDims,
                                              int const *mapping)
{
    return read_lattice(reader, data, siteSize, latticeDims, mapping ? mapping : no_mapping, 1);
}

int lemonFinishReading(LemonReader *reader)
{
    LEMON_RETURN_IF(!reader, LEMON_ERR_PARAM);
    return finish_reader(RIMPL(reader));
}
