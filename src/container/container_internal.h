/* container_internal.h -- the task-local container's MPI-free core: the
 * on-disk records (header, chunk trailer, footer; docs/format.md section 8),
 * the chunk geometry, the per-task stream writer shared by the serial and
 * the MPI writers, and the scan that finds each task's stream. */
#ifndef LATTIO_CONTAINER_INTERNAL_H
#define LATTIO_CONTAINER_INTERNAL_H

#include "internal.h"

#define LATTIO_CONT_HEADER_SIZE 96
#define LATTIO_CONT_TRAILER_SIZE 64
#define LATTIO_CONT_FOOTER_SIZE 64
#define LATTIO_CONT_MIN_ALIGN 64
#define LATTIO_CONT_MAX_ALIGN ((uint64_t)1 << 26)
#define LATTIO_CONT_MAX_STRIDE ((uint64_t)1 << 50)
#define LATTIO_CONT_MAX_TASKS ((uint32_t)1 << 28)
#define LATTIO_CONT_FINAL 1u /* trailer flag: last chunk of the task's stream */
#define LATTIO_CONT_HDR_STREAM_CRC 1u /* header flag: FINAL trailers hold the stream CRC */
#define LATTIO_CONT_PIECE ((size_t)1 << 20) /* buffer size for copying and checking */

/* The fixed header at byte 0 of every physical file. */
typedef struct lattio_cont_header {
    uint32_t version;
    uint64_t id;          /* random; repeated in every trailer and the footer */
    uint32_t ntasks;      /* tasks in the whole container */
    uint32_t nfiles;      /* physical files (1 in format version 1 as written today) */
    uint32_t file_index;  /* this file, 0 .. nfiles-1 */
    uint32_t first_task;  /* first task stored in this file */
    uint32_t file_tasks;  /* tasks stored in this file */
    uint32_t flags;       /* LATTIO_CONT_HDR_STREAM_CRC */
    uint64_t align;       /* file-system block size the chunks are aligned to */
    uint64_t stride;      /* bytes per chunk including its trailer; multiple of align */
    uint64_t data_start;  /* offset of block 0; multiple of align, >= header size */
} lattio_cont_header;

/* The 64 bytes at the end of every chunk, written when the chunk is full or
 * the stream ends. */
typedef struct lattio_cont_trailer {
    uint64_t id;
    uint32_t task;   /* global task number */
    uint32_t flags;  /* LATTIO_CONT_FINAL */
    uint64_t block;
    uint64_t used;   /* data bytes in this chunk, <= capacity */
    uint64_t stream_offset; /* block * capacity */
    uint32_t data_crc;      /* CRC-32 of the used data bytes */
    uint32_t stream_crc;    /* FINAL with the header flag: CRC-32 of the whole stream */
} lattio_cont_trailer;

/* The 64 bytes after the last block, written at a successful close. */
typedef struct lattio_cont_footer {
    uint64_t id;
    uint64_t nblocks;
    uint64_t total_bytes; /* sum of the stream sizes of this file's tasks */
} lattio_cont_footer;

/* Data bytes a chunk holds. */
static inline uint64_t lattio_cont_capacity(const lattio_cont_header *h)
{
    return h->stride - LATTIO_CONT_TRAILER_SIZE;
}

/* Codecs (codec.c).  Decoders check every field against the format's limits
 * and return ERR_CONTAINER_MAGIC, ERR_CONTAINER_VERSION, ERR_CONTAINER (a
 * field out of range or inconsistent, a bad CRC) or, for trailers,
 * ERR_CONTAINER_CHUNK. */
void lattio_cont_header_encode(unsigned char out[LATTIO_CONT_HEADER_SIZE], const lattio_cont_header *h);
int lattio_cont_header_decode(const unsigned char in[LATTIO_CONT_HEADER_SIZE], lattio_cont_header *h);
void lattio_cont_trailer_encode(unsigned char out[LATTIO_CONT_TRAILER_SIZE], const lattio_cont_trailer *t);
/* ERR_CONTAINER_MAGIC when the slot holds no trailer at all (e.g. zeros). */
int lattio_cont_trailer_decode(const unsigned char in[LATTIO_CONT_TRAILER_SIZE], lattio_cont_trailer *t);
void lattio_cont_footer_encode(unsigned char out[LATTIO_CONT_FOOTER_SIZE], const lattio_cont_footer *f);
int lattio_cont_footer_decode(const unsigned char in[LATTIO_CONT_FOOTER_SIZE], lattio_cont_footer *f);
uint32_t lattio_cont_crc32(uint32_t crc, const void *buf, size_t n);
/* The CRC-32 of A followed by B from crc_a = CRC(A), crc_b = CRC(B) and
 * B's length: the stream CRC from chunk CRCs without a second pass. */
uint32_t lattio_cont_crc32_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b);

/* Geometry (geometry.c). */
/* Fill a header for a new single-file container: stride = chunk_hint + 64
 * rounded up to align (chunk_hint 0: one aligned block), data at align.
 * ERR_ARG (ntasks 0 or too many, align not a power of two in
 * [64, 2^26]), ERR_OVERFLOW (chunk too large). */
int lattio_cont_header_init(lattio_cont_header *h, uint32_t ntasks, uint64_t chunk_hint,
                            uint64_t align, uint64_t id);
/* Make h describe physical file `index` of `nfiles` holding tasks
 * [first, first + tasks).  ERR_ARG when that is out of range. */
int lattio_cont_header_set_file(lattio_cont_header *h, uint32_t nfiles, uint32_t index,
                                uint32_t first, uint32_t tasks);
/* First task of file f when ntasks tasks are split evenly over nfiles:
 * ceil(f * ntasks / nfiles); task t lies in file t * nfiles / ntasks. */
uint32_t lattio_cont_split_first(uint32_t f, uint32_t ntasks, uint32_t nfiles);
/* Name of physical file `index`: path itself for 0, "path.%06u" otherwise
 * (lattio_malloc'd; NULL when out of memory). */
char *lattio_cont_member_name(const char *path, uint32_t index);
/* Open physical file k of the container at path read-only into *fd (-1 on
 * failure): ERR_CONTAINER_MEMBER when a member other than file 0 does not
 * exist, ERR_OPEN otherwise, ERR_NOMEM. */
int lattio_cont_open_member(const char *path, uint32_t k, int *fd);
/* Offset of chunk `block` of local task `i` (0 .. file_tasks-1): ERR_OVERFLOW
 * when the chunk would end beyond 2^62. */
int lattio_cont_chunk_offset(const lattio_cont_header *h, uint32_t i, uint64_t block, uint64_t *off);
/* Offset of the footer of a container with nblocks blocks. */
int lattio_cont_footer_offset(const lattio_cont_header *h, uint64_t nblocks, uint64_t *off);
/* Tasks whose chunk 0 could end within a file of `size` bytes (the others
 * have empty streams): bounds the memory a reader allocates for its task
 * table by the file's size, whatever the header claims. */
uint32_t lattio_cont_tasks_in_file(const lattio_cont_header *h, uint64_t size);
/* Alignment suggested by the file system holding fd (st_blksize), clamped
 * to [64, 2^26] and rounded down to a power of two. */
uint64_t lattio_cont_detect_align(int fd);
/* A fresh random container id (time, pid, counter). */
uint64_t lattio_cont_new_id(void);

/* Writing one task's stream through a positional write callback. */
typedef struct lattio_cont_sink {
    int (*write_at)(void *ctx, uint64_t off, const void *buf, size_t n); /* OK or ERR_WRITE */
    void *ctx;
} lattio_cont_sink;

typedef struct lattio_cont_stream {
    uint32_t task;     /* global task number */
    uint32_t local;    /* index within the file */
    uint64_t block;    /* chunk being filled */
    uint64_t used;     /* bytes in that chunk */
    uint64_t total;    /* bytes in the stream */
    uint32_t crc;      /* CRC-32 of the chunk's bytes so far */
    uint32_t stream_crc; /* CRC-32 of the stream's chunks before `block` */
} lattio_cont_stream;

/* CRC-32 of the stream so far (the chunks before `block` and the current
 * one's bytes, combined: each byte goes through the CRC once). */
static inline uint32_t lattio_cont_stream_crc(const lattio_cont_stream *s)
{
    return lattio_cont_crc32_combine(s->stream_crc, s->crc, s->used);
}

/* Append n bytes: fills the current chunk, writes its trailer as soon as it
 * is full and continues in the next block; n may exceed a chunk. */
int lattio_cont_stream_write(const lattio_cont_header *h, lattio_cont_stream *s,
                             const lattio_cont_sink *sink, const void *buf, uint64_t n);
/* Write the final trailer of the stream's last chunk. */
int lattio_cont_stream_finish(const lattio_cont_header *h, const lattio_cont_stream *s,
                              const lattio_cont_sink *sink);
/* Blocks the stream occupies (at least 1: every task has a final chunk). */
static inline uint64_t lattio_cont_stream_blocks(const lattio_cont_stream *s)
{
    return s->block + 1;
}

/* Scanning (scan.c). */
typedef struct lattio_cont_task_info {
    uint64_t bytes;   /* stream bytes found */
    uint64_t chunks;  /* chunks holding them */
    int complete;     /* the last chunk carries the FINAL flag */
    int has_crc;      /* complete, and the header flag says the FINAL trailer
                         holds the stream CRC */
    uint32_t crc;     /* that CRC */
    /* reading state (lattio_cont_read_stream) */
    unsigned char *checked; /* [chunks] 1 once the chunk's data CRC matched */
    int pending;            /* in-order verification: chunk pend_block's bytes
                               [0, pend_len) were returned, CRC pend_crc */
    uint64_t pend_block, pend_len;
    uint32_t pend_crc;
    uint64_t seq_pos;       /* bytes [0, seq_pos) were read in order ... */
    uint32_t seq_crc;       /* ... and their chunks before seq_pos / capacity
                               have this CRC (combined from verified chunks) */
} lattio_cont_task_info;

/* Read and check the header, and the footer in the file's last 64 bytes.
 * *closed is 1 when a valid footer matching the header and the file size is
 * there (then *f is filled).  Strict (recover == 0) requires it.  Errors:
 * ERR_CONTAINER_TRUNCATED (file shorter than its header; strict: no footer),
 * ERR_CONTAINER_MAGIC, ERR_CONTAINER_VERSION, ERR_CONTAINER (header fields,
 * or a footer contradicting the header or the file size),
 * ERR_CONTAINER_FILES (nfiles > 1), ERR_READ. */
int lattio_cont_read_meta(const lattio_source *src, int recover, lattio_cont_header *h,
                          lattio_cont_footer *f, int *closed);
/* Find local task i's stream by reading its trailers block by block.
 * Strict (recover == 0, nblocks from the footer): every chunk up to a FINAL
 * one within nblocks must have a valid trailer (ERR_CONTAINER_CHUNK
 * otherwise).  Recover: the stream ends before the first chunk whose
 * trailer is missing, damaged, beyond the end of the file or inconsistent. */
int lattio_cont_scan_task(const lattio_source *src, const lattio_cont_header *h, uint32_t i,
                          int recover, uint64_t nblocks, lattio_cont_task_info *out);
/* Read and check the trailer of chunk `block` of local task i (as the scan
 * does): ERR_CONTAINER_CHUNK, ERR_CONTAINER_TRUNCATED, ERR_READ. */
int lattio_cont_trailer_at(const lattio_source *src, const lattio_cont_header *h, uint32_t i,
                           uint64_t block, lattio_cont_trailer *t);
/* Check chunk `block`'s used bytes against its trailer's CRC:
 * ERR_CONTAINER_CHECKSUM. */
int lattio_cont_verify_chunk(const lattio_source *src, const lattio_cont_header *h, uint32_t i,
                             uint64_t block);
/* A verified chunk kept in memory so that a chunk read in pieces is read
 * from the file once (docs/format.md 8.6): bytes [off, off + len) of the
 * file behind src, whose chunk CRC matched.  Zero-initialised: empty. */
typedef struct lattio_cont_cache {
    unsigned char *buf;
    size_t cap;               /* allocated bytes */
    const lattio_source *src; /* NULL: nothing cached */
    uint64_t off;
    size_t len;
} lattio_cont_cache;
/* Chunks up to this many used bytes are cached; larger ones read in pieces
 * are checked by a separate reading pass first. */
#define LATTIO_CONT_CACHE_MAX ((uint64_t)64 << 20)
void lattio_cont_cache_release(lattio_cont_cache *c);

/* Verification modes of lattio_cont_read_stream. */
enum {
    LATTIO_CONT_VERIFY_NONE = 0,
    LATTIO_CONT_VERIFY_STRICT = 1,  /* no byte returned before its chunk matched */
    LATTIO_CONT_VERIFY_IN_ORDER = 2 /* in-order reads checked as they go (8.6) */
};

/* Read n bytes at pos (pos + n <= t->bytes) of local task i's stream (s),
 * verified (docs/format.md 8.6) as `verify` says:
 * - a read covering a chunk's whole used part checks what it read;
 * - IN_ORDER: a read continuing the chunk's in-order reading (from its
 *   first byte on) goes straight to buf and extends the chunk's CRC: the
 *   bytes are returned before the chunk is checked, which happens at the
 *   latest when a read reaches the chunk's end (it fails on a mismatch), or
 *   lattio_cont_finish_pending when the caller leaves the chunk;
 * - any other read of an unchecked chunk reads the chunk's used part once
 *   into `cache` (<= LATTIO_CONT_CACHE_MAX bytes; larger chunks: a checking
 *   pass, then the read) and serves this and later reads from it.
 * Reading the stream in order from 0 to its end also checks the stream CRC
 * (combined from the chunk CRCs).  Errors: ERR_CONTAINER_CHECKSUM,
 * ERR_NOMEM, read errors. */
typedef struct lattio_cont_view {
    const lattio_source *src;    /* the member's bytes */
    const lattio_cont_header *h; /* its header */
    uint32_t i;                  /* the task's index in the member */
    lattio_cont_task_info *t;    /* the task and its reading state */
} lattio_cont_view;
int lattio_cont_read_stream(const lattio_cont_view *s, int verify, lattio_cont_cache *cache, uint64_t pos,
                            void *buf, size_t n);
/* Check the rest of a chunk left part-read by IN_ORDER reading (no-op when
 * there is none): ERR_CONTAINER_CHECKSUM, read errors. */
int lattio_cont_finish_pending(const lattio_source *src, const lattio_cont_header *h, uint32_t i,
                               lattio_cont_task_info *t);
/* Free the reading state of n task infos (not the array). */
void lattio_cont_task_infos_release(lattio_cont_task_info *t, uint32_t n);

/* One physical file being read: its source (filled by the owner), header,
 * footer and the tasks whose chunk 0 lies within it. */
typedef struct lattio_cont_member {
    lattio_source src;
    lattio_cont_header h;
    lattio_cont_footer f;
    int closed;
    uint64_t nblocks;             /* footer's (strict) or largest found (recover) */
    uint32_t nscanned;
    lattio_cont_task_info *tasks; /* [nscanned] (allocated by member_meta) */
} lattio_cont_member;

/* Read member's header and footer, check it is file `index` of the set
 * whose file 0 has header h0 (NULL for file 0 itself: then it must have
 * index 0) and starts at task `first`; allocate its task table.  Errors as
 * read_meta, ERR_CONTAINER_FILES. */
int lattio_cont_member_meta(lattio_cont_member *m, int recover, const lattio_cont_header *h0,
                            uint32_t index, uint32_t first);
/* Scan tasks [from, nscanned) step `step` into m->tasks (recover: grows
 * nblocks).  The strict total check is lattio_cont_member_check_total. */
int lattio_cont_member_scan(lattio_cont_member *m, int recover, uint32_t from, uint32_t step);
int lattio_cont_member_check_total(const lattio_cont_member *m, int recover);
void lattio_cont_member_release(lattio_cont_member *m);
/* The member holding global task `task` (members sorted by first task):
 * index into m[0..n), or -1. */
int lattio_cont_member_find(const lattio_cont_member *m, uint32_t n, uint32_t task);
/* Grow the parallel tables of descriptors and members from *count to n
 * entries (new descriptors -1, new members zeroed); *count becomes n.
 * Shared by the serial reader and the MPI container. */
int lattio_cont_members_grow(int **fds, lattio_cont_member **m, uint32_t *count, uint32_t n);

/* Where byte `pos` of local task i's stream lies: file offset and the bytes
 * that follow it contiguously within the chunk. */
int lattio_cont_locate(const lattio_cont_header *h, uint32_t i, uint64_t pos, uint64_t *off,
                       uint64_t *avail);

/* Serial writer with an explicit header prototype (repair): geometry, id and
 * file ranges taken from proto and first_tasks[nfiles]. */
int lattio_cont_writer_create(const char *path, const lattio_cont_header *proto,
                              const uint32_t *first_tasks, lattio_container_writer **out);

/* Check chunk `block` of task's data CRC (reader.c, for repair). */
int lattio_container_reader_chunk_verify(lattio_container_reader *r, uint32_t task, uint64_t block);
/* File 0's header with the set's file count, and the first task of every
 * file (*first lattio_malloc'd, nfiles entries): a writer prototype giving
 * the same geometry and id (reader.c, for repair). */
int lattio_container_reader_prototype(const lattio_container_reader *r, lattio_cont_header *proto,
                                      uint32_t **first);


/* Close a serial writer's file without the final trailers and footer (as a
 * writer killed before close leaves it) and free it: repair's failure path,
 * and tests that need an unfinished container. */
int lattio_container_writer_abandon(lattio_container_writer *w);

#endif
