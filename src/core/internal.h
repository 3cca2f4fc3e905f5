/* internal.h -- helpers shared by every layer of lattio (no MPI here). */
#ifndef LATTIO_INTERNAL_H
#define LATTIO_INTERNAL_H

#include "lattio.h"
#include "support.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

/* Trace channel: off unless LATTIO_TRACE is set to a non-empty value other
 * than "0".  The library prints nothing else, ever. */
int lattio_trace_enabled(void);
#if defined(__GNUC__)
#define LATTIO_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define LATTIO_PRINTF(f, a)
#endif
void lattio_trace(const char *file, int line, const char *fmt, ...) LATTIO_PRINTF(3, 4);
/* Rank prefix for trace lines; set by the MPI layer, -1 when unknown. */
void lattio_trace_set_rank(int rank);

#define LATTIO_TRACE(...)                                                                \
    do {                                                                                 \
        if (lattio_trace_enabled()) lattio_trace(__FILE__, __LINE__, __VA_ARGS__);       \
    } while (0)

/* Record an error in the trace and evaluate to it. */
int lattio_fail(const char *file, int line, const char *cond, int status);
#define LATTIO_FAIL(status, cond) lattio_fail(__FILE__, __LINE__, (cond), (status))

/* Record a failed system call: `err` (an errno value) becomes what
 * lattio_last_errno reports, the trace shows strerror(err); evaluates to
 * status. */
int lattio_fail_errno(const char *file, int line, const char *cond, int status, int err);
#define LATTIO_FAIL_ERRNO(status, cond) lattio_fail_errno(__FILE__, __LINE__, (cond), (status), errno)
/* This thread's recorded errno without clearing it, and setting it (the MPI
 * layer shares the failing rank's reason with the others). */
int lattio_errno_peek(void);
void lattio_errno_set(int err);
/* Return `status` (with errno recorded) when `cond` holds. */
#define RETURN_IF_ERRNO(cond, status)                                                    \
    do {                                                                                 \
        if (cond) return LATTIO_FAIL_ERRNO((status), #cond);                             \
    } while (0)

/* The detail lattio_last_detail reports: where an error lies, in words (the
 * record and XML element of a metadata error).  Set replaces it (printf
 * format); peek reads it without clearing; clear empties it, done where a
 * public call that may set one begins so no older detail is taken for its. */
#define LATTIO_DETAIL_MAX 256
void lattio_detail_set(const char *fmt, ...) LATTIO_PRINTF(1, 2);
const char *lattio_detail_peek(void);
void lattio_detail_clear(void);

/* Temporary files (tempfile.c).  The host part of a temporary name. */
#define LATTIO_TEMP_HOST_MAX 64
void lattio_temp_host(char *out, size_t size);

/* A fresh temporary name beside path (lattio_malloc'd; NULL: no memory). */
char *lattio_temp_name(const char *path);
/* Create a temporary file beside path exclusively, for reading and
 * writing (a writer reads back what it wrote): *fd and *tmp (the
 * name, lattio_malloc'd).  ERR_OPEN (errno recorded), ERR_NOMEM. */
int lattio_temp_create(const char *path, int *fd, char **tmp);

/* Return `status` from the current function when `cond` holds. */
#define RETURN_IF(cond, status)                                                          \
    do {                                                                                 \
        if (cond) return LATTIO_FAIL((status), #cond);                                   \
    } while (0)

/* Return the status of `expr` from the current function when it is an error. */
#define RETURN_IF_ERROR(expr)                                                            \
    do {                                                                                 \
        int lattio_rc_ = (expr);                                                         \
        if (lattio_rc_ < 0) return lattio_rc_;                                           \
    } while (0)

/* Allocation goes through one wrapper so tests can count it. */
void *lattio_malloc(size_t n);
void *lattio_calloc(size_t count, size_t size);
void *lattio_realloc(void *p, size_t n);
void lattio_free(void *p);
/* A copy of s through lattio_malloc; NULL when out of memory. */
char *lattio_strdup(const char *s);
/* Outstanding allocations made through the wrapper (for leak tests). */
long lattio_alloc_outstanding(void);

/* A decimal number of bytes (digits only, as in environment variables and
 * MPI_Info hints), or 0 when s is NULL, empty or not one. */
uint64_t lattio_parse_size(const char *s);

/* fsync the directory holding `path` (after a rename).  ERR_SYNC_DIR. */
int lattio_sync_directory(const char *path);
/* pwrite all n bytes of buf at off (retrying short writes and EINTR).
 * ERR_OVERFLOW (off + n beyond the file-offset range), ERR_WRITE. */
int lattio_pwrite_all(int fd, uint64_t off, const void *buf, size_t n);
/* A writer's own file read back (no record open): n bytes at offset, below
 * the next header's offset (lattio_lime_writer_offset).  ERR_STATE, ERR_READ. */
int lattio_lime_writer_reread(lattio_lime_writer *w, uint64_t offset, void *buf, size_t n);
/* n payload bytes at `offset` of the open record (pieces in any order,
 * each byte once: they count toward the record's length as
 * lattio_lime_writer_write's do).  ERR_RECORD_OVERRUN beyond the declared
 * length (nothing written), ERR_STATE, ERR_WRITE. */
int lattio_lime_writer_write_at(lattio_lime_writer *w, uint64_t offset, const void *buf, size_t n);
/* Close a CREATE writer without renaming: a complete file (ok, no failed
 * call, no record open) stays under its temporary name, handed over in *tmp
 * (lattio_free) for a caller that publishes several files as one unit
 * (a volume set); otherwise it is removed and *tmp is NULL.  The status as
 * lattio_lime_writer_close's. */
int lattio_lime_writer_keep(lattio_lime_writer *w, int ok, char **tmp);

/* Big-endian load/store. */
static inline uint64_t lattio_load_be64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | p[i];
    return v;
}
static inline uint32_t lattio_load_be32(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline uint16_t lattio_load_be16(const unsigned char *p)
{
    return (uint16_t)(((unsigned)p[0] << 8) | p[1]);
}
static inline void lattio_store_be64(unsigned char *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--) {
        p[i] = (unsigned char)(v & 0xff);
        v >>= 8;
    }
}
static inline void lattio_store_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* --- byte sources --------------------------------------------------------
 * The LIME scanner reads through a source: a positional read callback and the
 * total size.  The serial reader and the checker use a file descriptor, the
 * fuzzers a memory buffer, the MPI layer an MPI_File on one rank. */
typedef struct lattio_source lattio_source;
struct lattio_source {
    /* Read up to n bytes at off; *got receives the count (short only at end
     * of data).  Returns LATTIO_OK or ERR_READ. */
    int (*read_at)(const lattio_source *src, uint64_t off, void *buf, size_t n, size_t *got);
    void *ctx;       /* for other backends (an MPI_File, ...) */
    const void *mem; /* memory backend */
    int fd;          /* file-descriptor backend */
    uint64_t size;   /* total bytes available */
};

/* A source over memory. */
lattio_source lattio_source_memory(const void *buf, size_t size);
/* A source over a POSIX file descriptor (pread); size from fstat.
 * Errors: ERR_STAT. */
int lattio_source_fd(int fd, lattio_source *src);
/* Read up to n bytes at off (short only at the end of the source). */
int lattio_source_read_at(const lattio_source *src, uint64_t off, void *buf, size_t n,
                          size_t *got);
/* Read exactly n bytes at off: ERR_READ on an I/O error, `short_status` when
 * the source ends first. */
int lattio_source_read_exact(const lattio_source *src, uint64_t off, void *buf, size_t n,
                             int short_status);

/* Read and validate the record header at `off`, filling *info (including
 * offset and data_offset).  Statuses:
 *   ERR_EOF               off == size (clean end)
 *   ERR_TRAILING_BYTES    off > 0 and the bytes there are not a LIME header
 *   ERR_BAD_MAGIC         off == 0 and the file does not start with the magic
 *   ERR_TRUNCATED_HEADER  a header (or a prefix of the magic) cut short
 *   ERR_BAD_VERSION, ERR_LENGTH_OVERFLOW (decode)
 *   ERR_LENGTH_BEYOND_EOF length larger than the whole file
 *   ERR_TRUNCATED_PAYLOAD the payload runs past the end of the source
 * Reserved flag bits are tolerated here (lattio_lime_check reports them) and
 * so is missing padding after the last payload. */
int lattio_lime_header_at(const lattio_source *src, uint64_t off, lattio_record_info *info);
/* Open path for reading: regular files only (ERR_OPEN with the kind in
 * the detail and errno EISDIR for a directory, EINVAL for a FIFO, socket or
 * device; opening never blocks), after lattio_fs_refresh. */
int lattio_open_regular(const char *path, int *fd);
/* Every record of r's file, read once and kept by r (at most max records:
 * ERR_BAD_METADATA beyond); *recs stays valid until r is closed.  The
 * reader's position afterwards is unspecified. */
int lattio_lime_reader_index(lattio_lime_reader *r, int max, const lattio_record_info **recs, int *n);
/* Make the record `info` (from r's index) r's current record, its header
 * read again at its offset: ERR_STATE when it is not there any more. */
int lattio_lime_reader_goto(lattio_lime_reader *r, const lattio_record_info *info);

/* Offset of the header following the record `info` describes. */
static inline uint64_t lattio_lime_next_offset(const lattio_record_info *info)
{
    return info->data_offset + info->length + info->padding;
}

/* --- layouts across ranks --------------------------------------------------
 * A box is 2*ndims values: lo[0..ndims) then count[0..ndims). */
/* Local.  Write l's box into box[0 .. 2*l->ndims). */
void lattio_box_of(const lattio_layout *l, uint64_t *box);
/* Local.  1 when box `me` of the n boxes shares a site with another
 * (empty boxes share nothing), else 0.  O(n * ndims): each rank checks its
 * own box, so together the ranks check every pair. */
int lattio_box_overlaps(const uint64_t *boxes, size_t n, int ndims, size_t me);

/* lattio_lime_check on any source. */
int lattio_lime_check_source(const lattio_source *src, lattio_problem *problems, size_t max,
                             size_t *count, size_t *nrecords);


/* --- staging rounds (slab.c) -----------------------------------------------
 * A rank's box in file order cut into chunks: one index in each file
 * dimension slower than k, up to t indices of dimension k, whole faster
 * dimensions.  Every chunk is a box and a contiguous range of the rank's
 * sites numbered in file order (lattio_layout_pack's numbering), of at most
 * `budget` sites unless one index of dimension k alone is more. */
typedef struct lattio_slab_plan {
    int nd, k;
    uint64_t c[LATTIO_MAX_DIMS]; /* local extents, file order */
    uint64_t inner;              /* sites of one index of dimension k */
    uint64_t t, per;             /* thickness, chunks per index of the slower dims */
    uint64_t nchunks, max_sites;
} lattio_slab_plan;
void lattio_slab_plan_make(lattio_slab_plan *p, const lattio_layout *l, uint64_t budget);
/* Chunk q's sites [*first, *first + *n) (q beyond the last: n = 0). */
void lattio_slab_chunk(const lattio_slab_plan *p, uint64_t q, uint64_t *first, uint64_t *n);
/* The runs of this rank's sites [first, first + n) (lattio_layout_runs),
 * handed to fn in batches of at most `max` runs computed into `scratch`:
 * fn(ctx, k0, k, runs, nruns) for sites [k0, k0 + k), the runs' packed
 * offsets relative to site k0.  Stops at fn's first failure. */
typedef int (*lattio_runs_fn)(void *ctx, uint64_t first, uint64_t n, const lattio_run *runs,
                              size_t nruns);
int lattio_layout_runs_each(const lattio_layout *l, uint64_t first, uint64_t n, lattio_run *scratch,
                            size_t max, lattio_runs_fn fn, void *ctx);
/* Global file rank of this rank's site s (file-order numbering, s below
 * the local site count); sites of one row (the fastest file dimension's
 * local extent, lattio_layout_row_sites) have consecutive ranks. */
uint64_t lattio_layout_local_rank(const lattio_layout *l, uint64_t s);
uint64_t lattio_layout_row_sites(const lattio_layout *l);
/* 1 when l's buffer holds its sites packed in file order (no ghosts,
 * memory order = file order): packing is the identity. */
int lattio_layout_is_packed(const lattio_layout *l);
/* *out: l's box as packed file bytes of `site_bytes` each (no ghosts,
 * memory order = file order). */
void lattio_layout_packed_view(lattio_layout *out, const lattio_layout *l, size_t site_bytes);

#endif
