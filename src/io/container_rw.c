/* container_rw.c -- a task's stream in an MPI container: local writes
 * (buffered while coalescing), reads, seeks; no other rank takes part. */
#include "container_mpi.h"

#include <string.h>

int lattio_container_sink_write(void *ctx, uint64_t off, const void *buf, size_t n)
{
    lattio_container *c = ctx;
    MPI_Status st;
    int got = 0;
    RETURN_IF(n > ((size_t)1 << 30) || off > (uint64_t)INT64_MAX - n, LATTIO_ERR_OVERFLOW);
    int rc = MPI_CHECK(MPI_File_write_at(c->fh, (MPI_Offset)off, (void *)buf, (int)n, MPI_BYTE, &st),
                       LATTIO_ERR_WRITE);
    RETURN_IF_ERROR(rc);
    RETURN_IF(n > 0 && (MPI_Get_count(&st, MPI_BYTE, &got) != MPI_SUCCESS || (size_t)got != n),
              LATTIO_ERR_MPI_COUNT);
    return LATTIO_OK;
}

static int mpi_read_at(const lattio_source *src, uint64_t off, void *buf, size_t n, size_t *got)
{
    MPI_File fh = *(MPI_File *)src->ctx;
    unsigned char *p = buf;
    *got = 0;
    RETURN_IF(off > (uint64_t)INT64_MAX - n, LATTIO_ERR_OVERFLOW);
    while (n > 0) {
        int k = n > ((size_t)1 << 30) ? 1 << 30 : (int)n, count = 0;
        MPI_Status st;
        RETURN_IF_ERROR(MPI_CHECK(MPI_File_read_at(fh, (MPI_Offset)(off + *got), p, k, MPI_BYTE, &st),
                                  LATTIO_ERR_READ));
        RETURN_IF(MPI_Get_count(&st, MPI_BYTE, &count) != MPI_SUCCESS, LATTIO_ERR_READ);
        *got += (size_t)count;
        p += count;
        n -= (size_t)count;
        if (count < k) break; /* end of file */
    }
    return LATTIO_OK;
}

int lattio_container_source(MPI_File *fh, lattio_source *src)
{
    MPI_Offset size = 0;
    memset(src, 0, sizeof *src);
    src->fd = -1;
    src->ctx = fh;
    src->read_at = mpi_read_at;
    RETURN_IF_ERROR(MPI_CHECK(MPI_File_get_size(*fh, &size), LATTIO_ERR_STAT));
    RETURN_IF(size < 0, LATTIO_ERR_STAT);
    src->size = (uint64_t)size;
    return LATTIO_OK;
}

/* Coalescing: keep the stream in memory while it fits its first chunk;
 * *done = 1 when the bytes were buffered. */
static int buffer_stream(lattio_container *c, const void *buf, uint64_t n, int *done)
{
    const uint64_t cap = lattio_cont_capacity(&c->h);
    *done = 0;
    if (n <= cap - c->cbuf_len) {
        if (c->cbuf_len + n > c->cbuf_cap) {
            size_t want = c->cbuf_cap ? c->cbuf_cap : 4096;
            while (want < c->cbuf_len + n) want *= 2;
            if (want > cap) want = (size_t)cap;
            unsigned char *p = lattio_realloc(c->cbuf, want);
            RETURN_IF(!p, LATTIO_ERR_NOMEM);
            c->cbuf = p;
            c->cbuf_cap = want;
        }
        if (n) memcpy(c->cbuf + c->cbuf_len, buf, (size_t)n);
        c->cbuf_len += (size_t)n;
        *done = 1;
        return LATTIO_OK;
    }
    c->spilled = 1; /* outgrew its chunk: write directly from now on */
    int rc = lattio_cont_stream_write(&c->h, &c->s, &c->sink, c->cbuf, c->cbuf_len);
    lattio_free(c->cbuf);
    c->cbuf = NULL;
    c->cbuf_len = c->cbuf_cap = 0;
    return rc;
}

int lattio_container_write(lattio_container *c, const void *buf, uint64_t n)
{
    RETURN_IF(!c || (n && !buf), LATTIO_ERR_ARG);
    RETURN_IF(c->mode != LATTIO_MODE_CREATE || c->failed, LATTIO_ERR_STATE);
    int rc = LATTIO_OK, done = 0;
    if (c->coalescing && !c->spilled) rc = buffer_stream(c, buf, n, &done);
    if (rc == LATTIO_OK && !done) rc = lattio_cont_stream_write(&c->h, &c->s, &c->sink, buf, n);
    if (rc < 0) c->failed = 1;
    return rc;
}

/* The member and task entry of a global task (NULL entry: empty stream). */
static int lookup(const lattio_container *c, uint32_t task, lattio_cont_member **m,
                  lattio_cont_task_info **t)
{
    RETURN_IF(c->mode != LATTIO_MODE_READ, LATTIO_ERR_STATE);
    RETURN_IF(task >= c->h.ntasks, LATTIO_ERR_CONTAINER_TASK);
    int k = lattio_cont_member_find(c->m, c->nread, task);
    RETURN_IF(k < 0, LATTIO_ERR_CONTAINER_TASK);
    *m = &c->m[k];
    uint32_t i = task - (*m)->h.first_task;
    *t = i < (*m)->nscanned ? &(*m)->tasks[i] : NULL;
    return LATTIO_OK;
}

int lattio_container_stream_size(const lattio_container *c, uint32_t task, uint64_t *size)
{
    lattio_cont_member *m = NULL;
    lattio_cont_task_info *t = NULL;
    RETURN_IF(!c || !size, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lookup(c, task, &m, &t));
    *size = t ? t->bytes : 0;
    return LATTIO_OK;
}

int lattio_container_stream_crc(const lattio_container *c, uint32_t task, uint32_t *crc)
{
    lattio_cont_member *m = NULL;
    lattio_cont_task_info *t = NULL;
    RETURN_IF(!c || !crc, LATTIO_ERR_ARG);
    if (c->mode == LATTIO_MODE_CREATE) {
        RETURN_IF(task != (uint32_t)c->rank, LATTIO_ERR_CONTAINER_TASK);
        *crc = c->cbuf_len ? lattio_cont_crc32(0, c->cbuf, c->cbuf_len) : c->s.stream_crc;
        return LATTIO_OK;
    }
    RETURN_IF_ERROR(lookup(c, task, &m, &t));
    RETURN_IF(!t || !t->has_crc, LATTIO_ERR_NOT_FOUND);
    *crc = t->crc;
    return LATTIO_OK;
}

int lattio_container_select(lattio_container *c, uint32_t task)
{
    lattio_cont_member *m = NULL;
    lattio_cont_task_info *t = NULL;
    RETURN_IF(!c, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lookup(c, task, &m, &t));
    c->task = task;
    c->has_task = 1;
    c->pos = 0;
    return LATTIO_OK;
}

static uint64_t selected_size(const lattio_container *c)
{
    uint64_t size = 0;
    if (c->has_task && lattio_container_stream_size(c, c->task, &size) < 0) size = 0;
    return size;
}

int lattio_container_read(lattio_container *c, void *buf, uint64_t n, uint64_t *got)
{
    lattio_cont_member *m = NULL;
    lattio_cont_task_info *t = NULL;
    RETURN_IF(!c || !got || (n && !buf), LATTIO_ERR_ARG);
    *got = 0;
    RETURN_IF(c->mode != LATTIO_MODE_READ, LATTIO_ERR_STATE);
    RETURN_IF(!c->has_task, LATTIO_ERR_CONTAINER_TASK);
    RETURN_IF_ERROR(lookup(c, c->task, &m, &t));
    uint64_t left = (t ? t->bytes : 0) - c->pos, k = n < left ? n : left;
    if (k == 0) return LATTIO_OK;
    RETURN_IF(k > SIZE_MAX, LATTIO_ERR_OVERFLOW);
    RETURN_IF_ERROR(lattio_cont_read_stream(&m->src, &m->h, c->task - m->h.first_task, t,
                                            !c->opt.no_verify, c->pos, buf, (size_t)k));
    c->pos += k;
    *got = k;
    return LATTIO_OK;
}

int lattio_container_seek(lattio_container *c, uint64_t pos)
{
    RETURN_IF(!c, LATTIO_ERR_ARG);
    RETURN_IF(c->mode != LATTIO_MODE_READ, LATTIO_ERR_STATE);
    RETURN_IF(!c->has_task, LATTIO_ERR_CONTAINER_TASK);
    RETURN_IF(pos > selected_size(c), LATTIO_ERR_RECORD_OVERRUN);
    c->pos = pos;
    return LATTIO_OK;
}

uint64_t lattio_container_tell(const lattio_container *c)
{
    if (!c) return 0;
    return c->mode == LATTIO_MODE_READ ? c->pos : lattio_container_written(c);
}

int lattio_container_eof(const lattio_container *c)
{
    if (!c || c->mode != LATTIO_MODE_READ) return 1;
    return c->pos >= selected_size(c);
}

uint32_t lattio_container_ntasks(const lattio_container *c) { return c ? c->h.ntasks : 0; }
