/* io_internal.h -- the MPI layer's private pieces: the file handle, status
 * agreement between ranks, and the one place MPI error codes are mapped. */
#ifndef LATTIO_IO_INTERNAL_H
#define LATTIO_IO_INTERNAL_H

#include "config.h"
#include "internal.h"
#include "fsinfo.h"
#include "xfer.h"

#include <mpi.h>
#include <pthread.h>

/* The phase clock of one file (clock.c): while a public call runs
 * (depth > 0), the time since `since` is charged to phase `cur` at every
 * switch; the call's end charges the rest and adds end - start to total, so
 * the phases partition the calls. */
typedef struct lattio_prof {
    int depth;           /* nested public calls (counted once) */
    int cur;             /* current phase */
    double start, since; /* the outermost call's start; the last switch */
    uint64_t calls, bytes;
    double total;
    double phase[LATTIO_NPHASES];
    int strategy;       /* the latest transfer's (equal on every rank) */
    uint64_t fallbacks; /* transfers whose explicit strategy could not run */
    char fallback[160]; /* the latest fallback in words */
} lattio_prof;

/* Where the file is and how its ranks sit (file.c, set at open). */
typedef struct lattio_file_place {
    char *path;          /* final name */
    char *tmp;           /* temporary name (rank 0 and others alike), NULL in place */
    MPI_Info info;       /* the hints passed to MPI_File_open (the caller's, completed from
                            lattio_options), MPI_INFO_NULL when none */
    int fs_kind;         /* enum lattio_fs_kind of the file's directory (rank 0's, broadcast) */
    uint64_t fs_block;   /* its block size, 0 when unknown */
    int nnodes;          /* shared-memory nodes of comm (MPI_COMM_TYPE_SHARED), >= 1 */
    int node_ranks;      /* ranks of comm on this rank's node, >= 1 */
    int node_leader;     /* 1 on the first rank of comm on each node */
    /* lattio_attach: fh belongs to the caller; close neither closes, renames
     * nor unlinks it, and restores the caller's error handler */
    int borrowed;
    MPI_Errhandler caller_errh;
    uint64_t base;       /* byte where lattio's records start (0 for lattio_open) */
} lattio_file_place;

/* Writing (record.c, rw.c, writeback.c). */
typedef struct lattio_file_out {
    uint64_t offset;      /* where the next header goes */
    int in_record;
    uint64_t rec_data, rec_len;
    uint64_t rec_written; /* bytes this rank wrote into the open record */
    uint64_t rec_end;     /* highest payload offset this rank wrote */
    uint64_t min_size;    /* size the file must reach at close (short record deferred) */
    char **types;         /* the distinct record types begun since open */
    int ntypes;
    int failed;           /* the first agreed error of a collective write call (0: none):
                             every later write call returns ERR_STATE and lattio_close
                             returns it and renames nothing (lattio_file_outcome) */
    uint64_t write_piece; /* bytes per independent write call (file.c: write_piece) */
    int wb_fd;            /* writeback.c: descriptor for early writeback, -1 when off */
} lattio_file_out;

/* Reading: the record index, read by rank 0 and broadcast (index.c). */
typedef struct lattio_file_in {
    lattio_record_info *index;
    int nindex;
    int index_status;           /* why the index ends: ERR_EOF or a format error */
    int cur;                    /* current record, -1 before the first */
    int raw;                    /* a region another format laid out is current (lattio_xfer_region) */
    lattio_record_info raw_rec; /* reading: that region as a record without header */
} lattio_file_in;

/* Non-blocking requests not yet completed, in start order (the same on
 * every rank); while npending > 0 no collective MPI-IO call is made
 * (request.c sets finish_pending, the collective call that completes them,
 * which the handle calls at close). */
typedef struct lattio_file_requests {
    int npending;
    struct lattio_request *pending;
    int (*finish_pending)(lattio_file *f);
} lattio_file_requests;

/* The handle: what every layer shares at the top, then one part per owner. */
struct lattio_file {
    lattio_prof prof; /* time breakdown (clock.c) */
    MPI_Comm comm; /* duplicate of the caller's communicator */
    int rank, size;
    MPI_File fh;
    int mode;            /* LATTIO_MODE_* */
    lattio_options opt;
    lattio_config cfg;   /* the environment's settings: rank 0's, read at open (config.c) */
    lattio_file_place place;
    lattio_file_out out;
    lattio_file_in in;
    lattio_file_requests req;
    /* What the strategy layer keeps in the handle between calls
     * (strategy/agg_shared.c: the aggregate strategy's sharing group and
     * windows) with the collective call that frees it: set by its owner,
     * NULL until then; the handle calls it at close and frees nothing of
     * it itself. */
    void *strategy_cache;
    void (*strategy_release)(lattio_file *f);
};

/* Profiling (clock.c; reported by profile.c).  A public call brackets its work with
 * lattio_prof_begin (phase where it starts) and lattio_prof_end (returns rc;
 * adds `bytes` of payload when rc is OK); nested public calls count once.
 * lattio_prof_phase charges the time since the last switch to the current
 * phase and makes `phase` current.  lattio_prof_push does the same and
 * returns the previous phase for lattio_prof_pop (-1 when no call is
 * active: pop ignores it).  lattio_prof_active is the file whose call is
 * running on this thread (NULL outside calls): for code without the file,
 * e.g. lattio_agree.  lattio_prof_release ends an unfinished call and keeps
 * the handle's breakdown for lattio_prof_last_closed (called when a handle
 * is freed).  All accept NULL. */
void lattio_prof_begin(lattio_file *f, int phase);
int lattio_prof_end(lattio_file *f, int rc, uint64_t bytes);
void lattio_prof_phase(lattio_file *f, int phase);
int lattio_prof_push(lattio_file *f, int phase);
void lattio_prof_pop(lattio_file *f, int prev);
lattio_file *lattio_prof_active(void);
void lattio_prof_release(lattio_file *f);
/* This rank's accumulated breakdown of f (not reduced), and that of the
 * last handle freed on this thread (lattio_close's own time included). */
const lattio_prof *lattio_prof_local(const lattio_file *f);
const lattio_prof *lattio_prof_last_closed(void);

/* Collective (rc must be agreed).  The outcome of a collective write call
 * on f: a failure is remembered as the file's first error (poisoning it:
 * later write calls give ERR_STATE, lattio_close returns it and discards a
 * CREATE file).  An attached file (Lemon's contract: the caller owns it and
 * lattio renames nothing) stays usable after a call refused before writing
 * any byte (ERR_ARG, ERR_RANK_ARG, ERR_RECORD_OVERRUN), as Lemon allows.
 * Read-only files are never poisoned.  Returns rc. */
int lattio_file_outcome(lattio_file *f, int rc);

/* Collective.  A temporary name beside `path` chosen by rank 0
 * (lattio_temp_name) in *tmp on every rank (lattio_malloc'd, or NULL). */
int lattio_bcast_temp_name(MPI_Comm comm, int rank, const char *path, char **tmp);

/* Map an MPI return code: MPI_SUCCESS -> LATTIO_OK, otherwise `status`
 * (traced with MPI's error string). */
int lattio_mpi_status(int mpi_rc, int status, const char *what);
/* The status of a read of f that delivered fewer bytes than asked, of a range
 * ending at byte `end`: ERR_TRUNCATED_PAYLOAD when the file ends before `end`,
 * else ERR_READ with errno EIO (the bytes exist but did not arrive: a broken
 * disk is not a broken file). */
int lattio_short_read(lattio_file *f, uint64_t end);
/* The status of a write of f that took fewer bytes than asked (`missing`
 * bytes not written; MPI-IO reports a full disk so, without an error):
 * ERR_WRITE with errno ENOSPC when the file system holding f has less room
 * than that left, else ERR_MPI_COUNT. */
int lattio_short_write(lattio_file *f, uint64_t missing);
/* Local.  After a failed write, sync or close of f (`status`) whose reason
 * is unknown or a bare EIO (MPICH's ROMIO reports a full disk as
 * MPI_ERR_IO): when f's file system has less than 1 MiB free, the reason
 * lattio_last_errno gives is ENOSPC.  Every rank decides alike (the same
 * file system). */
void lattio_note_full_disk(lattio_file *f, int status);
#define MPI_CHECK(call, status) lattio_mpi_status((call), (status), #call)

/* Local (mpi_env.c).  Whether the MPI library is Open MPI, and whether its
 * io component for the next file is OMPIO (MPI_T's view of the "io"
 * selection and the components' priorities; the environment without it). */
int lattio_mpi_is_open_mpi(void);
int lattio_mpi_ompio_selected(void);
/* Local (mpi_env.c).  Whether MPI_File_open may go through Open MPI's
 * lockedfile shared-file-pointer component (Open MPI, OMPIO not excluded,
 * lockedfile not excluded), which hangs across nodes on file systems whose
 * clients cache directory entries. */
int lattio_mpi_sharedfp_hazard(void);

/* Local.  On a file system whose clients cache metadata
 * (lattio_fs_caches_metadata), bring this node's view of f's file up to
 * date (lattio_fs_refresh) after other nodes wrote it: MPI-IO's sync and
 * barrier make their bytes reach the servers, this makes sizes and reads
 * on this node see them.  A no-op elsewhere.  Errors: ERR_STAT. */
int lattio_file_refresh(const lattio_file *f);

/* Collective.  Agree on one status: every rank returns the most negative
 * status any rank had (ties: the lowest rank's).  A failure of the agreement
 * itself gives ERR_MPI. */
int lattio_agree(MPI_Comm comm, int status);

/* Collective.  MPI_MIN or MPI_MAX of n unsigned 64-bit values over comm.
 * MPICH 4.0.2 reduces MPI_UINT64_T with MIN/MAX as if signed (values from
 * 2^63 on lose), so the values travel as MPI_INT64_T through the
 * order-preserving map u ^ 2^63.  `in` is changed during the call and
 * restored; out may not alias it.  Returns ERR_MPI on failure. */
int lattio_allreduce_u64(uint64_t *in, uint64_t *out, int n, MPI_Op op, MPI_Comm comm);

/* Transfer count bytes at an absolute file offset, in pieces of at most
 * 1 GiB so no MPI count overflows.  Collective variants call the MPI
 * collective the same number of times on every rank. */
int lattio_write_at_all(lattio_file *f, uint64_t off, const void *buf, uint64_t count);
int lattio_read_at_all(lattio_file *f, uint64_t off, void *buf, uint64_t count);
int lattio_write_at(lattio_file *f, uint64_t off, const void *buf, uint64_t count);
int lattio_read_at(lattio_file *f, uint64_t off, void *buf, uint64_t count);

/* Collective.  Complete every pending request of f in start order (as
 * lattio_wait does) and return the first agreed error.  OK when none. */
int lattio_requests_finish(lattio_file *f);

/* The current record of a file being read, NULL when there is none. */
static inline const lattio_record_info *lattio_current_record(const lattio_file *f)
{
    if (f->in.raw) return &f->in.raw_rec;
    return f->in.cur >= 0 && f->in.cur < f->in.nindex ? &f->in.index[f->in.cur] : NULL;
}

/* Collective.  Read the record index (rank 0) and broadcast it; in APPEND
 * mode also set the offset after the last record (format errors refuse). */
int lattio_index_load(lattio_file *f);

/* Local checks of the record calls (record.c), shared by the blocking and
 * non-blocking variants.  lattio_record_writing: a record is open for
 * writing (ERR_STATE otherwise: read mode, an earlier failure, no record).
 * lattio_piece_to_write / _to_read: in addition, buf is non-NULL unless
 * count is 0 (ERR_ARG) and the piece [offset, offset+count) lies within the
 * open / current record's payload (ERR_RECORD_OVERRUN); _to_read sets *rec
 * to the current record (ERR_STATE when there is none). */
int lattio_record_writing(const lattio_file *f);
int lattio_piece_to_write(const lattio_file *f, uint64_t offset, const void *buf, uint64_t count);
int lattio_piece_to_read(const lattio_file *f, uint64_t offset, const void *buf, uint64_t count,
                         const lattio_record_info **rec);

/* Collective.  Agree on local_rc, then check that every rank describes the
 * same lattice (ndims, global, file_order, site_bytes: ERR_RANK_ARG) and
 * that the boxes add up to the global site count (ERR_LAYOUT). */
int lattio_same_lattice(lattio_file *f, const lattio_layout *l, int local_rc);
/* The same, the boxes covering at most the lattice when `partial`. */
int lattio_same_lattice_part(lattio_file *f, const lattio_layout *l, int local_rc, int partial);

/* Local.  The layout is valid, the lattice at payload `offset` fits a record
 * of `record_length` bytes (ERR_RECORD_OVERRUN) and buf is non-NULL when this
 * rank owns sites. */
int lattio_lattice_fits(const lattio_layout *l, uint64_t offset, uint64_t record_length,
                        const void *buf);

/* The strategies: strategy/strategy.h. */
/* Local.  The default file-domain alignment of f for two-phase I/O (see
 * lattio_fs_alignment), given the striping_unit hint (0: none). */
uint64_t lattio_file_alignment(const lattio_file *f, uint64_t striping_unit);

/* Local.  1 when the MPI library is known to corrupt collective writes
 * (Open MPI with the OMPIO component) and f's LATTIO_TRUST_COLLECTIVE (read
 * at open; f NULL: none) is not 1. */
int lattio_collective_untrusted(const lattio_file *f);
/* Local.  Runs this process rewrote after a corrupted collective write. */
uint64_t lattio_collective_repairs(void);

/* task.c: a helper thread kept for one transfer (NULL: none could be
 * started) and fn(arg) on it between start and join (at once on this
 * thread without a helper); join returns fn's status.  One task at a time
 * per helper; fn must not call MPI.  The CPUs this process may run on,
 * and those online. */
typedef struct lattio_helper lattio_helper;
lattio_helper *lattio_helper_open(void);
void lattio_helper_close(lattio_helper *h);
typedef struct lattio_task {
    lattio_helper *h;
    int rc;
} lattio_task;
void lattio_task_start(lattio_task *t, lattio_helper *h, int (*fn)(void *), void *arg);
int lattio_task_join(lattio_task *t);
int lattio_cpus_allowed(void);
int lattio_cpus_online(void);

/* writeback.c: durable writes start the kernel's writeback of each
 * independent piece of at least LATTIO_WB_MIN bytes once written (blocking
 * pieces in agree.c, non-blocking ones at their completion in request.c;
 * Linux; a no-op elsewhere, when off, or for shorter pieces). */
#define LATTIO_WB_MIN ((uint64_t)1 << 20)
void lattio_writeback_open(lattio_file *f);
void lattio_writeback_start(lattio_file *f, uint64_t off, uint64_t len);
void lattio_writeback_close(lattio_file *f);

#endif
