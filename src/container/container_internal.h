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

/* The fixed header at byte 0 of every physical file. */
typedef struct lattio_cont_header {
    uint32_t version;
    uint64_t id;          /* random; repeated in every trailer and the footer */
    uint32_t ntasks;      /* tasks in the whole container */
    uint32_t nfiles;      /* physical files (1 in format version 1 as written today) */
    uint32_t file_index;  /* this file, 0 .. nfiles-1 */
    uint32_t first_task;  /* first task stored in this file */
    uint32_t file_tasks;  /* tasks stored in this file */
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

/* Geometry (geometry.c). */
/* Fill a header for a new single-file container: stride = chunk_hint + 64
 * rounded up to align (chunk_hint 0: one aligned block), data at align.
 * ERR_ARG (ntasks 0 or too many, align not a power of two in
 * [64, 2^26]), ERR_OVERFLOW (chunk too large). */
int lattio_cont_header_init(lattio_cont_header *h, uint32_t ntasks, uint64_t chunk_hint,
                            uint64_t align, uint64_t id);
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
} lattio_cont_stream;

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
/* Where byte `pos` of local task i's stream lies: file offset and the bytes
 * that follow it contiguously within the chunk. */
int lattio_cont_locate(const lattio_cont_header *h, uint32_t i, uint64_t pos, uint64_t *off,
                       uint64_t *avail);

/* Test hook (serial writer): close the file without the final trailers and
 * the footer, as a writer killed before close leaves it. */
int lattio_container_writer_abandon(lattio_container_writer *w);

#endif
