/* writer.c -- a serial container writer: one process writes every task's
 * stream (tools, tests).  Same bytes as the MPI writer. */
#include "container_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

struct lattio_container_writer {
    int fd;
    int failed;
    lattio_cont_header h;
    lattio_cont_stream *streams; /* [ntasks] */
    lattio_cont_sink sink;
};

static int fd_write_at(void *ctx, uint64_t off, const void *buf, size_t n)
{
    const int fd = *(const int *)ctx;
    const unsigned char *p = buf;
    while (n > 0) {
        ssize_t k = pwrite(fd, p, n, (off_t)off);
        if (k < 0 && errno == EINTR) continue;
        RETURN_IF(k <= 0, LATTIO_ERR_WRITE);
        p += k;
        off += (uint64_t)k;
        n -= (size_t)k;
    }
    return LATTIO_OK;
}

static void free_writer(lattio_container_writer *w)
{
    if (w->fd >= 0) close(w->fd);
    lattio_free(w->streams);
    lattio_free(w);
}

/* Header at byte 0 and one stream state per task. */
static int start(lattio_container_writer *w, uint32_t ntasks, uint64_t chunk_hint, uint64_t align)
{
    unsigned char buf[LATTIO_CONT_HEADER_SIZE];
    if (align == 0) align = lattio_cont_detect_align(w->fd);
    RETURN_IF_ERROR(lattio_cont_header_init(&w->h, ntasks, chunk_hint, align, lattio_cont_new_id()));
    w->streams = lattio_calloc(ntasks, sizeof *w->streams);
    RETURN_IF(!w->streams, LATTIO_ERR_NOMEM);
    for (uint32_t t = 0; t < ntasks; t++) w->streams[t].task = w->streams[t].local = t;
    lattio_cont_header_encode(buf, &w->h);
    return fd_write_at(&w->fd, 0, buf, sizeof buf);
}

int lattio_container_create_serial(const char *path, uint32_t ntasks, uint64_t chunk_hint,
                                   uint64_t align, lattio_container_writer **out)
{
    RETURN_IF(!out, LATTIO_ERR_ARG);
    *out = NULL;
    RETURN_IF(!path || ntasks == 0 || ntasks > LATTIO_CONT_MAX_TASKS, LATTIO_ERR_ARG);
    lattio_container_writer *w = lattio_calloc(1, sizeof *w);
    RETURN_IF(!w, LATTIO_ERR_NOMEM);
    w->sink.write_at = fd_write_at;
    w->sink.ctx = &w->fd;
    do w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    while (w->fd < 0 && errno == EINTR);
    int rc = w->fd < 0 ? LATTIO_FAIL(LATTIO_ERR_OPEN, "open") : start(w, ntasks, chunk_hint, align);
    if (rc < 0) {
        free_writer(w);
        return rc;
    }
    *out = w;
    return LATTIO_OK;
}

int lattio_container_writer_write(lattio_container_writer *w, uint32_t task, const void *buf,
                                  size_t n)
{
    RETURN_IF(!w, LATTIO_ERR_ARG);
    RETURN_IF(task >= w->h.ntasks, LATTIO_ERR_CONTAINER_TASK);
    RETURN_IF(w->failed, LATTIO_ERR_STATE);
    int rc = lattio_cont_stream_write(&w->h, &w->streams[task], &w->sink, buf, n);
    if (rc < 0 && rc != LATTIO_ERR_ARG) w->failed = 1;
    return rc;
}

/* Final trailers of every stream, then the footer after the last block. */
static int finish(lattio_container_writer *w)
{
    lattio_cont_footer f = {w->h.id, 0, 0};
    unsigned char buf[LATTIO_CONT_FOOTER_SIZE];
    uint64_t off = 0;
    for (uint32_t t = 0; t < w->h.ntasks; t++) {
        RETURN_IF_ERROR(lattio_cont_stream_finish(&w->h, &w->streams[t], &w->sink));
        uint64_t nb = lattio_cont_stream_blocks(&w->streams[t]);
        if (nb > f.nblocks) f.nblocks = nb;
        f.total_bytes += w->streams[t].total;
    }
    RETURN_IF_ERROR(lattio_cont_footer_offset(&w->h, f.nblocks, &off));
    lattio_cont_footer_encode(buf, &f);
    return fd_write_at(&w->fd, off, buf, sizeof buf);
}

int lattio_container_writer_close(lattio_container_writer *w)
{
    if (!w) return LATTIO_OK;
    int rc = w->failed ? LATTIO_FAIL(LATTIO_ERR_STATE, "earlier failure") : finish(w);
    int crc = close(w->fd);
    w->fd = -1;
    if (rc == LATTIO_OK && crc != 0) rc = LATTIO_FAIL(LATTIO_ERR_CLOSE, "close");
    free_writer(w);
    return rc;
}

int lattio_container_writer_abandon(lattio_container_writer *w)
{
    if (w) free_writer(w);
    return LATTIO_OK;
}
