/* rw.c -- reads and writes of byte ranges that never overflow an MPI count
 * (pieces of at most 1 GiB, independent writes cut at the file system's
 * unit), and what a short transfer means (a truncated file, a full disk). */
#include "io_internal.h"

#include <errno.h>
#include <limits.h>

int lattio_short_read(lattio_file *f, uint64_t end)
{
    MPI_Offset size = 0;
    int rc = MPI_File_get_size(f->fh, &size);
    if (rc == MPI_SUCCESS && size >= 0 && (uint64_t)size < end)
        return LATTIO_FAIL(LATTIO_ERR_TRUNCATED_PAYLOAD, "the file ends inside the range read");
    return lattio_fail_errno(__FILE__, __LINE__, "short read inside the file", LATTIO_ERR_READ, EIO);
}

/* Local.  Whether the file system holding f has less than `need` bytes
 * (plus one block) free for unprivileged writers. */
static int fs_full(const lattio_file *f, uint64_t need)
{
    lattio_fsinfo fs;
    const char *name = f->place.tmp ? f->place.tmp : f->place.path;
    return name && lattio_fsinfo_path(name, &fs) == LATTIO_OK && fs.avail < need + fs.unit;
}

int lattio_short_write(lattio_file *f, uint64_t missing)
{
    if (fs_full(f, missing))
        return lattio_fail_errno(__FILE__, __LINE__, "short write, file system full", LATTIO_ERR_WRITE,
                                 ENOSPC);
    return LATTIO_FAIL(LATTIO_ERR_MPI_COUNT, "short write");
}

void lattio_note_full_disk(lattio_file *f, int status)
{
    const int e = lattio_errno_peek();
    if ((status == LATTIO_ERR_WRITE || status == LATTIO_ERR_CLOSE || status == LATTIO_ERR_SYNC ||
         status == LATTIO_ERR_MPI_COUNT) && (e == 0 || e == EIO) && fs_full(f, (uint64_t)1 << 20))
        lattio_errno_set(ENOSPC);
}

#define PIECE ((uint64_t)1 << 30)
#define WB_PIECE ((uint64_t)32 << 20) /* independent durable writes: early writeback */

/* Pieces of `piece` bytes needed for count bytes, agreed over ranks when
 * collective. */
static int pieces(lattio_file *f, uint64_t count, uint64_t piece, int collective, uint64_t *n)
{
    uint64_t mine = (count + piece - 1) / piece;
    *n = mine;
    if (!collective) return LATTIO_OK;
    int rc = MPI_Allreduce(&mine, n, 1, MPI_UINT64_T, MPI_MAX, f->comm);
    return MPI_CHECK(rc, LATTIO_ERR_MPI);
}

typedef int (*xfer_fn)(MPI_File, MPI_Offset, void *, int, MPI_Datatype, MPI_Status *);

static int wrap_write_at(MPI_File fh, MPI_Offset o, void *b, int n, MPI_Datatype t, MPI_Status *s)
{
    return MPI_File_write_at(fh, o, b, n, t, s);
}
static int wrap_write_at_all(MPI_File fh, MPI_Offset o, void *b, int n, MPI_Datatype t,
                             MPI_Status *s)
{
    return MPI_File_write_at_all(fh, o, b, n, t, s);
}

/* One transfer: count bytes at file offset off from or into buf, by fn;
 * collective or not; err is the status of a failed call. */
typedef struct rw {
    lattio_file *f;
    xfer_fn fn;
    uint64_t off, count;
    unsigned char *buf;
    int collective, err;
} rw;

/* The pieces of t: independent writes of f->write_piece bytes cut at its
 * absolute multiples (*aligned), else pieces of PIECE agreed over the ranks
 * when collective; their number into *n. */
static int piece_plan(const rw *t, uint64_t *piece, int *aligned, uint64_t *n)
{
    const uint64_t wp = t->f->out.write_piece;
    *piece = t->fn == wrap_write_at && wp && wp < PIECE ? wp : PIECE;
    *aligned = *piece < PIECE;
    if (!*aligned) return pieces(t->f, t->count, *piece, t->collective, n);
    *n = t->count ? (t->off + t->count - 1) / *piece - t->off / *piece + 1 : 0;
    return LATTIO_OK;
}

/* One call of k bytes at byte `done` of t.  `report`: its status (a short
 * transfer explained), else OK (a call after a failure still joins a
 * collective transfer, and the first failure's reason stays). */
static int one_call(const rw *t, uint64_t done, uint64_t k, int report)
{
    MPI_Status st;
    int got = 0;
    const int rc = t->fn(t->f->fh, (MPI_Offset)(t->off + done), k ? t->buf + done : NULL, (int)k, MPI_BYTE, &st);
    if (!report) return LATTIO_OK;
    if (rc != MPI_SUCCESS) return MPI_CHECK(rc, t->err);
    /* ROMIO leaves the status unset for an empty transfer: count only k > 0 */
    if (k == 0 || MPI_Get_count(&st, MPI_BYTE, &got) != MPI_SUCCESS || (uint64_t)got == k) return LATTIO_OK;
    return t->err == LATTIO_ERR_READ ? lattio_short_read(t->f, t->off + done + k)
                                     : lattio_short_write(t->f, k - (uint64_t)got);
}

/* Move count bytes in agreed pieces; every rank makes npieces calls.
 * Independent writes go in pieces of f->write_piece (file.c: one call per
 * file-system unit, 256 KiB on page-cache file systems), cut at absolute
 * multiples of it: a transfer that starts inside a stripe (the first window
 * of a record's payload) ends its first call at the stripe's end and every
 * later call covers whole stripes (before: every call of such a window
 * straddled two stripes, 16 of 74 calls of a 72 MiB write at 1 MiB stripes,
 * docs/scaling.md).  Durable ones start the writeback of what they wrote
 * every WB_PIECE bytes. */
static int transfer(const rw *t)
{
    uint64_t n = 0, done = 0, flushed = 0, piece = PIECE;
    int aligned = 0, status = LATTIO_OK;
    RETURN_IF(t->off > (uint64_t)LLONG_MAX - t->count, LATTIO_ERR_OVERFLOW);
    const int wb = t->fn == wrap_write_at && t->f->out.wb_fd >= 0;
    RETURN_IF_ERROR(piece_plan(t, &piece, &aligned, &n));
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t room = aligned ? piece - (t->off + done) % piece : piece;
        const uint64_t k = t->count - done < room ? t->count - done : room;
        const int rc = one_call(t, done, k, status == LATTIO_OK);
        if (status == LATTIO_OK) status = rc;
        done += k;
        if (wb && status == LATTIO_OK && (done - flushed >= WB_PIECE || done == t->count)) {
            lattio_writeback_start(t->f, t->off + flushed, done - flushed);
            flushed = done;
        }
        if (status != LATTIO_OK && !t->collective) break;
    }
    return status;
}

int lattio_write_at_all(lattio_file *f, uint64_t off, const void *buf, uint64_t count)
{
    return transfer(&(rw){f, wrap_write_at_all, off, count, (unsigned char *)buf, 1, LATTIO_ERR_WRITE});
}

int lattio_write_at(lattio_file *f, uint64_t off, const void *buf, uint64_t count)
{
    return transfer(&(rw){f, wrap_write_at, off, count, (unsigned char *)buf, 0, LATTIO_ERR_WRITE});
}

int lattio_read_at_all(lattio_file *f, uint64_t off, void *buf, uint64_t count)
{
    return transfer(&(rw){f, MPI_File_read_at_all, off, count, buf, 1, LATTIO_ERR_READ});
}

int lattio_read_at(lattio_file *f, uint64_t off, void *buf, uint64_t count)
{
    return transfer(&(rw){f, MPI_File_read_at, off, count, buf, 0, LATTIO_ERR_READ});
}
