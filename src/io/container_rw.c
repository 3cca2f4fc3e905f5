/* container_rw.c -- a task's stream in an MPI container: local writes,
 * reads, seeks; no other rank takes part. */
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
    lattio_container *c = src->ctx;
    unsigned char *p = buf;
    *got = 0;
    RETURN_IF(off > (uint64_t)INT64_MAX - n, LATTIO_ERR_OVERFLOW);
    while (n > 0) {
        int k = n > ((size_t)1 << 30) ? 1 << 30 : (int)n, count = 0;
        MPI_Status st;
        RETURN_IF_ERROR(MPI_CHECK(MPI_File_read_at(c->fh, (MPI_Offset)(off + *got), p, k, MPI_BYTE, &st),
                                  LATTIO_ERR_READ));
        RETURN_IF(MPI_Get_count(&st, MPI_BYTE, &count) != MPI_SUCCESS, LATTIO_ERR_READ);
        *got += (size_t)count;
        p += count;
        n -= (size_t)count;
        if (count < k) break; /* end of file */
    }
    return LATTIO_OK;
}

int lattio_container_source(lattio_container *c, lattio_source *src)
{
    MPI_Offset size = 0;
    memset(src, 0, sizeof *src);
    src->fd = -1;
    src->ctx = c;
    src->read_at = mpi_read_at;
    RETURN_IF_ERROR(MPI_CHECK(MPI_File_get_size(c->fh, &size), LATTIO_ERR_STAT));
    RETURN_IF(size < 0, LATTIO_ERR_STAT);
    src->size = (uint64_t)size;
    return LATTIO_OK;
}

int lattio_container_write(lattio_container *c, const void *buf, uint64_t n)
{
    RETURN_IF(!c || (n && !buf), LATTIO_ERR_ARG);
    RETURN_IF(c->mode != LATTIO_MODE_CREATE || c->failed, LATTIO_ERR_STATE);
    int rc = lattio_cont_stream_write(&c->h, &c->s, &c->sink, buf, n);
    if (rc < 0) c->failed = 1;
    return rc;
}

int lattio_container_stream_size(const lattio_container *c, uint32_t task, uint64_t *size)
{
    RETURN_IF(!c || !size, LATTIO_ERR_ARG);
    RETURN_IF(c->mode != LATTIO_MODE_READ, LATTIO_ERR_STATE);
    RETURN_IF(task >= c->h.ntasks, LATTIO_ERR_CONTAINER_TASK);
    *size = task < c->nknown ? c->sizes[task] : 0;
    return LATTIO_OK;
}

int lattio_container_select(lattio_container *c, uint32_t task)
{
    RETURN_IF(!c, LATTIO_ERR_ARG);
    RETURN_IF(c->mode != LATTIO_MODE_READ, LATTIO_ERR_STATE);
    RETURN_IF(task >= c->h.ntasks, LATTIO_ERR_CONTAINER_TASK);
    c->task = task;
    c->has_task = 1;
    c->pos = 0;
    return LATTIO_OK;
}

static uint64_t selected_size(const lattio_container *c)
{
    return c->has_task && c->task < c->nknown ? c->sizes[c->task] : 0;
}

int lattio_container_read(lattio_container *c, void *buf, uint64_t n, uint64_t *got)
{
    RETURN_IF(!c || !got || (n && !buf), LATTIO_ERR_ARG);
    *got = 0;
    RETURN_IF(c->mode != LATTIO_MODE_READ, LATTIO_ERR_STATE);
    RETURN_IF(!c->has_task, LATTIO_ERR_CONTAINER_TASK);
    uint64_t left = selected_size(c) - c->pos;
    lattio_source src;
    RETURN_IF_ERROR(lattio_container_source(c, &src));
    for (unsigned char *p = buf; n > 0 && left > 0;) {
        uint64_t off = 0, avail = 0;
        RETURN_IF_ERROR(lattio_cont_locate(&c->h, c->task, c->pos, &off, &avail));
        uint64_t k = avail < n ? avail : n;
        k = k < left ? k : left;
        RETURN_IF_ERROR(lattio_source_read_exact(&src, off, p, (size_t)k, LATTIO_ERR_CONTAINER_TRUNCATED));
        p += k;
        n -= k;
        left -= k;
        c->pos += k;
        *got += k;
    }
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
    return c->mode == LATTIO_MODE_READ ? c->pos : c->s.total;
}

int lattio_container_eof(const lattio_container *c)
{
    if (!c || c->mode != LATTIO_MODE_READ) return 1;
    return c->pos >= selected_size(c);
}

uint32_t lattio_container_ntasks(const lattio_container *c) { return c ? c->h.ntasks : 0; }
