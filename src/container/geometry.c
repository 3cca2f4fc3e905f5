/* geometry.c -- where chunks lie, and the per-task stream writer shared by
 * the serial writer and the MPI layer. */
#include "container_internal.h"
#include "testhooks.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define OFFSET_LIMIT ((uint64_t)1 << 62)

static uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/* Bytes of one block of chunks (ERR_OVERFLOW beyond 2^62). */
static int block_bytes(const lattio_cont_header *h, uint64_t *out)
{
    RETURN_IF(h->file_tasks == 0 || h->stride > OFFSET_LIMIT / h->file_tasks, LATTIO_ERR_OVERFLOW);
    *out = (uint64_t)h->file_tasks * h->stride;
    return LATTIO_OK;
}

int lattio_cont_header_init(lattio_cont_header *h, uint32_t ntasks, uint64_t chunk_hint,
                            uint64_t align, uint64_t id)
{
    RETURN_IF(!h || ntasks == 0 || ntasks > LATTIO_CONT_MAX_TASKS, LATTIO_ERR_ARG);
    RETURN_IF(align < LATTIO_CONT_MIN_ALIGN || align > LATTIO_CONT_MAX_ALIGN || (align & (align - 1)),
              LATTIO_ERR_ARG);
    RETURN_IF(chunk_hint > LATTIO_CONT_MAX_STRIDE - LATTIO_CONT_MAX_ALIGN, LATTIO_ERR_OVERFLOW);
    memset(h, 0, sizeof *h);
    h->version = LATTIO_CONTAINER_VERSION;
    h->id = id;
    h->ntasks = h->file_tasks = ntasks;
    h->nfiles = 1;
    h->flags = LATTIO_CONT_HDR_STREAM_CRC;
    h->align = align;
    h->stride = round_up(chunk_hint + LATTIO_CONT_TRAILER_SIZE, align);
    h->data_start = round_up(LATTIO_CONT_HEADER_SIZE, align);
    return LATTIO_OK;
}

int lattio_cont_header_set_file(lattio_cont_header *h, uint32_t nfiles, uint32_t index,
                                uint32_t first, uint32_t tasks)
{
    RETURN_IF(nfiles == 0 || nfiles > h->ntasks || index >= nfiles, LATTIO_ERR_ARG);
    RETURN_IF(tasks == 0 || first >= h->ntasks || tasks > h->ntasks - first, LATTIO_ERR_ARG);
    h->nfiles = nfiles;
    h->file_index = index;
    h->first_task = first;
    h->file_tasks = tasks;
    return LATTIO_OK;
}

uint32_t lattio_cont_split_first(uint32_t f, uint32_t ntasks, uint32_t nfiles)
{
    return (uint32_t)(((uint64_t)f * ntasks + nfiles - 1) / nfiles);
}

char *lattio_cont_member_name(const char *path, uint32_t index)
{
    size_t n = strlen(path) + 16;
    char *s = lattio_malloc(n);
    if (!s) return NULL;
    if (index == 0) memcpy(s, path, strlen(path) + 1);
    else snprintf(s, n, "%s.%06u", path, (unsigned)index);
    return s;
}

int lattio_cont_chunk_offset(const lattio_cont_header *h, uint32_t i, uint64_t block, uint64_t *off)
{
    uint64_t per_block = 0;
    RETURN_IF(i >= h->file_tasks, LATTIO_ERR_CONTAINER_TASK);
    RETURN_IF_ERROR(block_bytes(h, &per_block));
    RETURN_IF(block > (OFFSET_LIMIT - h->data_start) / per_block, LATTIO_ERR_OVERFLOW);
    uint64_t o = h->data_start + block * per_block + (uint64_t)i * h->stride;
    RETURN_IF(o > OFFSET_LIMIT - h->stride, LATTIO_ERR_OVERFLOW);
    *off = o;
    return LATTIO_OK;
}

int lattio_cont_footer_offset(const lattio_cont_header *h, uint64_t nblocks, uint64_t *off)
{
    uint64_t per_block = 0;
    RETURN_IF_ERROR(block_bytes(h, &per_block));
    RETURN_IF(nblocks > (OFFSET_LIMIT - h->data_start) / per_block, LATTIO_ERR_OVERFLOW);
    *off = h->data_start + nblocks * per_block;
    return LATTIO_OK;
}

int lattio_cont_locate(const lattio_cont_header *h, uint32_t i, uint64_t pos, uint64_t *off,
                       uint64_t *avail)
{
    uint64_t cap = lattio_cont_capacity(h), base = 0;
    RETURN_IF_ERROR(lattio_cont_chunk_offset(h, i, pos / cap, &base));
    *off = base + pos % cap;
    *avail = cap - pos % cap;
    return LATTIO_OK;
}

uint32_t lattio_cont_tasks_in_file(const lattio_cont_header *h, uint64_t size)
{
    if (size <= h->data_start) return 0;
    uint64_t n = (size - h->data_start) / h->stride + 1;
    return n < h->file_tasks ? (uint32_t)n : h->file_tasks;
}

uint64_t lattio_cont_detect_align(int fd)
{
    struct stat st;
    uint64_t b = 4096;
    if (fd >= 0 && fstat(fd, &st) == 0 && st.st_blksize > 0) b = (uint64_t)st.st_blksize;
    if (b < LATTIO_CONT_MIN_ALIGN) b = LATTIO_CONT_MIN_ALIGN;
    if (b > LATTIO_CONT_MAX_ALIGN) b = LATTIO_CONT_MAX_ALIGN;
    while (b & (b - 1)) b &= b - 1; /* highest power of two not above b */
    return b;
}

#ifdef LATTIO_TEST_HOOKS
static uint64_t test_id;

void lattio_cont_test_set_id(uint64_t id) { test_id = id; }
#else
#define test_id 0
#endif

uint64_t lattio_cont_new_id(void)
{
    static uint64_t counter;
    if (test_id) return test_id;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = ((uint64_t)ts.tv_sec << 30) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 40) ^
                 (++counter * 0x9e3779b97f4a7c15ULL);
    x ^= x >> 33; /* mix (splitmix64 finaliser) */
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x ? x : 1;
}

/* Write the trailer of the stream's current chunk. */
static int write_trailer(const lattio_cont_header *h, const lattio_cont_stream *s,
                         const lattio_cont_sink *sink, uint32_t flags)
{
    unsigned char buf[LATTIO_CONT_TRAILER_SIZE];
    uint64_t off = 0;
    lattio_cont_trailer t = {h->id, s->task, flags, s->block, s->used,
                             s->block * lattio_cont_capacity(h), s->crc, 0};
    if ((flags & LATTIO_CONT_FINAL) && (h->flags & LATTIO_CONT_HDR_STREAM_CRC))
        t.stream_crc = lattio_cont_stream_crc(s);
    RETURN_IF_ERROR(lattio_cont_chunk_offset(h, s->local, s->block, &off));
    lattio_cont_trailer_encode(buf, &t);
    return sink->write_at(sink->ctx, off + h->stride - LATTIO_CONT_TRAILER_SIZE, buf, sizeof buf);
}

int lattio_cont_stream_write(const lattio_cont_header *h, lattio_cont_stream *s,
                             const lattio_cont_sink *sink, const void *buf, uint64_t n)
{
    const unsigned char *p = buf;
    uint64_t cap = lattio_cont_capacity(h);
    RETURN_IF(n && !buf, LATTIO_ERR_ARG);
    while (n > 0) {
        if (s->used == cap) { /* full chunk: its trailer went out; next block */
            s->stream_crc = lattio_cont_crc32_combine(s->stream_crc, s->crc, cap);
            s->block++;
            s->used = 0;
            s->crc = 0;
        }
        uint64_t off = 0, k = cap - s->used < n ? cap - s->used : n;
        if (k > ((uint64_t)1 << 30)) k = (uint64_t)1 << 30;
        RETURN_IF_ERROR(lattio_cont_chunk_offset(h, s->local, s->block, &off));
        RETURN_IF_ERROR(sink->write_at(sink->ctx, off + s->used, p, (size_t)k));
        s->crc = lattio_cont_crc32(s->crc, p, (size_t)k);
        s->used += k;
        s->total += k;
        p += k;
        n -= k;
        if (s->used == cap) RETURN_IF_ERROR(write_trailer(h, s, sink, 0));
    }
    return LATTIO_OK;
}

int lattio_cont_stream_finish(const lattio_cont_header *h, const lattio_cont_stream *s,
                              const lattio_cont_sink *sink)
{
    return write_trailer(h, s, sink, LATTIO_CONT_FINAL);
}
