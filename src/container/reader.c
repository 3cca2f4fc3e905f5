/* reader.c -- serial access to every task's stream of a container. */
#include "container_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

struct lattio_container_reader {
    int fd;
    lattio_source src;
    lattio_cont_header h;
    int closed;          /* a valid footer was found */
    uint64_t nblocks;    /* footer's, or the largest chunk count found */
    uint64_t footer_total; /* footer's sum of stream bytes */
    uint32_t nscanned;   /* tasks whose first chunk lies within the file */
    lattio_cont_task_info *tasks; /* [nscanned]; later tasks have empty streams */
};

void lattio_container_reader_close(lattio_container_reader *r)
{
    if (!r) return;
    if (r->fd >= 0) close(r->fd);
    lattio_free(r->tasks);
    lattio_free(r);
}

static int scan_all(lattio_container_reader *r, int recover)
{
    uint64_t sum = 0;
    r->nscanned = lattio_cont_tasks_in_file(&r->h, r->src.size);
    if (!recover) RETURN_IF(r->nscanned < r->h.file_tasks, LATTIO_ERR_CONTAINER);
    r->tasks = lattio_calloc(r->nscanned ? r->nscanned : 1, sizeof *r->tasks);
    RETURN_IF(!r->tasks, LATTIO_ERR_NOMEM);
    for (uint32_t i = 0; i < r->nscanned; i++) {
        RETURN_IF_ERROR(lattio_cont_scan_task(&r->src, &r->h, i, recover, r->nblocks, &r->tasks[i]));
        if (recover && r->tasks[i].chunks > r->nblocks) r->nblocks = r->tasks[i].chunks;
        sum += r->tasks[i].bytes;
    }
    RETURN_IF(!recover && sum != r->footer_total, LATTIO_ERR_CONTAINER);
    return LATTIO_OK;
}

static int open_fd(const char *path, int *fd)
{
    do *fd = open(path, O_RDONLY | O_CLOEXEC);
    while (*fd < 0 && errno == EINTR);
    RETURN_IF(*fd < 0, LATTIO_ERR_OPEN);
    return LATTIO_OK;
}

int lattio_container_open_serial(const char *path, int flags, lattio_container_reader **out)
{
    RETURN_IF(!out, LATTIO_ERR_ARG);
    *out = NULL;
    RETURN_IF(!path || (flags & ~LATTIO_CONTAINER_RECOVER), LATTIO_ERR_ARG);
    int recover = flags & LATTIO_CONTAINER_RECOVER;
    lattio_container_reader *r = lattio_calloc(1, sizeof *r);
    RETURN_IF(!r, LATTIO_ERR_NOMEM);
    lattio_cont_footer f;
    int rc = open_fd(path, &r->fd);
    if (rc < 0) r->fd = -1;
    if (rc == LATTIO_OK) rc = lattio_source_fd(r->fd, &r->src);
    if (rc == LATTIO_OK) rc = lattio_cont_read_meta(&r->src, recover, &r->h, &f, &r->closed);
    r->nblocks = r->closed && !recover ? f.nblocks : 0;
    r->footer_total = f.total_bytes;
    if (rc == LATTIO_OK) rc = scan_all(r, recover);
    if (rc < 0) {
        lattio_container_reader_close(r);
        return rc;
    }
    *out = r;
    return LATTIO_OK;
}

int lattio_container_reader_info(const lattio_container_reader *r, lattio_container_info *info)
{
    RETURN_IF(!r || !info, LATTIO_ERR_ARG);
    memset(info, 0, sizeof *info);
    info->version = (int)r->h.version;
    info->ntasks = r->h.ntasks;
    info->nfiles = r->h.nfiles;
    info->align = r->h.align;
    info->stride = r->h.stride;
    info->chunk = lattio_cont_capacity(&r->h);
    info->nblocks = r->nblocks;
    info->complete = r->closed && r->nscanned == r->h.file_tasks;
    for (uint32_t i = 0; i < r->nscanned && info->complete; i++)
        info->complete = r->tasks[i].complete;
    return LATTIO_OK;
}

int lattio_container_reader_size(const lattio_container_reader *r, uint32_t task, uint64_t *size,
                                 int *complete)
{
    RETURN_IF(!r || !size, LATTIO_ERR_ARG);
    RETURN_IF(task >= r->h.ntasks, LATTIO_ERR_CONTAINER_TASK);
    uint32_t i = task - r->h.first_task;
    *size = i < r->nscanned ? r->tasks[i].bytes : 0;
    if (complete) *complete = i < r->nscanned ? r->tasks[i].complete : 0;
    return LATTIO_OK;
}

int lattio_container_reader_read(lattio_container_reader *r, uint32_t task, uint64_t offset,
                                 void *buf, size_t n)
{
    uint64_t size = 0;
    unsigned char *p = buf;
    RETURN_IF_ERROR(lattio_container_reader_size(r, task, &size, NULL));
    RETURN_IF(n && !buf, LATTIO_ERR_ARG);
    RETURN_IF(offset > size || n > size - offset, LATTIO_ERR_RECORD_OVERRUN);
    while (n > 0) {
        uint64_t off = 0, avail = 0;
        RETURN_IF_ERROR(lattio_cont_locate(&r->h, task - r->h.first_task, offset, &off, &avail));
        size_t k = avail < n ? (size_t)avail : n;
        RETURN_IF_ERROR(lattio_source_read_exact(&r->src, off, p, k, LATTIO_ERR_CONTAINER_TRUNCATED));
        p += k;
        offset += k;
        n -= k;
    }
    return LATTIO_OK;
}
