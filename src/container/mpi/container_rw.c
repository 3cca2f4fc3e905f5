/* container_rw.c -- a task's stream in an MPI container: local writes
 * (buffered while coalescing), reads, seeks; no other rank takes part, and
 * no MPI call is made: pwrite/pread on the rank's own descriptors. */
#include "container_mpi.h"

#include <string.h>
#include <unistd.h>

int lattio_container_sink_write(void *ctx, uint64_t off, const void *buf, size_t n)
{
    const lattio_container *c = ctx;
    return lattio_pwrite_all(c->fd, off, buf, n);
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
    RETURN_IF(!c, LATTIO_ERR_ARG);
    RETURN_IF(c->mode != LATTIO_MODE_CREATE || c->failed, LATTIO_ERR_STATE);
    int rc = n && !buf ? LATTIO_FAIL(LATTIO_ERR_ARG, "buf") : LATTIO_OK, done = 0;
    if (rc == LATTIO_OK && c->coalescing && !c->spilled) rc = buffer_stream(c, buf, n, &done);
    if (rc == LATTIO_OK && !done) rc = lattio_cont_stream_write(&c->h, &c->s, &c->sink, buf, n);
    if (rc < 0) c->failed = rc; /* the stream lacks what the task meant to write */
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
        *crc = c->cbuf_len ? lattio_cont_crc32(0, c->cbuf, c->cbuf_len) : lattio_cont_stream_crc(&c->s);
        return LATTIO_OK;
    }
    RETURN_IF_ERROR(lookup(c, task, &m, &t));
    RETURN_IF(!t || !t->has_crc, LATTIO_ERR_NOT_FOUND);
    *crc = t->crc;
    return LATTIO_OK;
}

int lattio_container_leave_chunk(lattio_container *c, uint32_t task, uint64_t pos)
{
    lattio_cont_member *m = NULL;
    lattio_cont_task_info *t = NULL;
    if (c->mode != LATTIO_MODE_READ || !c->has_task || lookup(c, c->task, &m, &t) < 0 || !t ||
        !t->pending)
        return LATTIO_OK;
    const uint64_t cap = lattio_cont_capacity(&m->h);
    if (task == c->task && pos == t->pend_block * cap + t->pend_len) return LATTIO_OK;
    return lattio_cont_finish_pending(&m->src, &m->h, c->task - m->h.first_task, t);
}

int lattio_container_select(lattio_container *c, uint32_t task)
{
    lattio_cont_member *m = NULL;
    lattio_cont_task_info *t = NULL;
    RETURN_IF(!c, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lookup(c, task, &m, &t));
    int rc = lattio_container_leave_chunk(c, task, 0);
    c->task = task;
    c->has_task = 1;
    c->pos = 0;
    return rc;
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
    const lattio_cont_view s = {&m->src, &m->h, c->task - m->h.first_task, t};
    RETURN_IF_ERROR(lattio_cont_read_stream(&s, c->opt.no_verify ? LATTIO_CONT_VERIFY_NONE : LATTIO_CONT_VERIFY_IN_ORDER,
                                            &c->cache, c->pos, buf, (size_t)k));
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
    int rc = lattio_container_leave_chunk(c, c->task, pos);
    c->pos = pos;
    return rc;
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
