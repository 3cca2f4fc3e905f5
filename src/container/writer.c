/* writer.c -- a serial container writer: one process writes every task's
 * stream (tools, tests, repair), into one or several physical files.  Same
 * bytes as the MPI writer. */
#include "container_internal.h"
#include "testhooks.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

struct lattio_container_writer {
    uint32_t nfiles;
    int failed;
    int *fds;                    /* [nfiles] */
    lattio_cont_header *h;       /* [nfiles] */
    lattio_cont_sink *sinks;     /* [nfiles] */
    lattio_cont_stream *streams; /* [ntasks] */
};

static int fd_write_at(void *ctx, uint64_t off, const void *buf, size_t n)
{
    return lattio_pwrite_all(*(const int *)ctx, off, buf, n);
}

static void free_writer(lattio_container_writer *w)
{
    for (uint32_t k = 0; w->fds && k < w->nfiles; k++)
        if (w->fds[k] >= 0) close(w->fds[k]);
    lattio_free(w->fds);
    lattio_free(w->h);
    lattio_free(w->sinks);
    lattio_free(w->streams);
    lattio_free(w);
}

static int open_file(const char *path, uint32_t k, int *fd)
{
    char *name = lattio_cont_member_name(path, k);
    RETURN_IF(!name, LATTIO_ERR_NOMEM);
    do *fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    while (*fd < 0 && errno == EINTR);
    lattio_free(name);
    RETURN_IF_ERRNO(*fd < 0, LATTIO_ERR_OPEN);
    return LATTIO_OK;
}

/* Arrays for nfiles files and ntasks streams. */
static int allocate(lattio_container_writer *w, uint32_t nfiles, uint32_t ntasks)
{
    w->fds = lattio_malloc((size_t)nfiles * sizeof *w->fds);
    w->h = lattio_calloc(nfiles, sizeof *w->h);
    w->sinks = lattio_calloc(nfiles, sizeof *w->sinks);
    w->streams = lattio_calloc(ntasks, sizeof *w->streams);
    RETURN_IF(!w->fds || !w->h || !w->sinks || !w->streams, LATTIO_ERR_NOMEM);
    w->nfiles = nfiles;
    for (uint32_t k = 0; k < nfiles; k++) w->fds[k] = -1;
    return LATTIO_OK;
}

/* File k: its header from proto and the task range, the file, the header
 * written, its streams' local numbers. */
static int start_file(lattio_container_writer *w, const char *path, const lattio_cont_header *proto,
                      const uint32_t *first, uint32_t k)
{
    unsigned char buf[LATTIO_CONT_HEADER_SIZE];
    uint32_t end = k + 1 < proto->nfiles ? first[k + 1] : proto->ntasks;
    RETURN_IF(first[k] >= end || (k == 0 && first[0] != 0), LATTIO_ERR_ARG);
    w->h[k] = *proto;
    RETURN_IF_ERROR(lattio_cont_header_set_file(&w->h[k], proto->nfiles, k, first[k], end - first[k]));
    RETURN_IF_ERROR(open_file(path, k, &w->fds[k]));
    w->sinks[k].write_at = fd_write_at;
    w->sinks[k].ctx = &w->fds[k];
    for (uint32_t t = first[k]; t < end; t++) {
        w->streams[t].task = t;
        w->streams[t].local = t - first[k];
    }
    lattio_cont_header_encode(buf, &w->h[k]);
    return fd_write_at(&w->fds[k], 0, buf, sizeof buf);
}

int lattio_cont_writer_create(const char *path, const lattio_cont_header *proto,
                              const uint32_t *first_tasks, lattio_container_writer **out)
{
    RETURN_IF(!out, LATTIO_ERR_ARG);
    *out = NULL;
    RETURN_IF(!path || !proto || !first_tasks || proto->nfiles == 0 ||
              proto->nfiles > proto->ntasks, LATTIO_ERR_ARG);
    lattio_container_writer *w = lattio_calloc(1, sizeof *w);
    RETURN_IF(!w, LATTIO_ERR_NOMEM);
    int rc = allocate(w, proto->nfiles, proto->ntasks);
    for (uint32_t k = 0; rc == LATTIO_OK && k < proto->nfiles; k++)
        rc = start_file(w, path, proto, first_tasks, k);
    if (rc < 0) {
        free_writer(w);
        return rc;
    }
    *out = w;
    return LATTIO_OK;
}

int lattio_container_create_serial_ex(const char *path, uint32_t ntasks,
                                      const lattio_container_serial_options *opt,
                                      lattio_container_writer **out)
{
    lattio_container_serial_options o = {0, 0, 1, NULL, 0};
    lattio_cont_header proto;
    RETURN_IF(!out, LATTIO_ERR_ARG);
    *out = NULL;
    if (opt) o = *opt;
    if (o.nfiles == 0) o.nfiles = 1;
    RETURN_IF(!path || ntasks == 0 || ntasks > LATTIO_CONT_MAX_TASKS || o.nfiles > ntasks,
              LATTIO_ERR_ARG);
    uint64_t align = o.align;
    if (align == 0) { /* the file system of the directory the file goes to */
        int fd = -1;
        RETURN_IF_ERROR(open_file(path, 0, &fd));
        align = lattio_cont_detect_align(fd);
        close(fd);
    }
    RETURN_IF_ERROR(lattio_cont_header_init(&proto, ntasks, o.chunk_hint, align,
                                            o.id ? o.id : lattio_cont_new_id()));
    proto.nfiles = o.nfiles;
    uint32_t *first = lattio_malloc((size_t)o.nfiles * sizeof *first);
    RETURN_IF(!first, LATTIO_ERR_NOMEM);
    for (uint32_t k = 0; k < o.nfiles; k++)
        first[k] = o.first_tasks ? o.first_tasks[k] : lattio_cont_split_first(k, ntasks, o.nfiles);
    int rc = lattio_cont_writer_create(path, &proto, first, out);
    lattio_free(first);
    return rc;
}

int lattio_container_create_serial(const char *path, uint32_t ntasks, uint64_t chunk_hint,
                                   uint64_t align, lattio_container_writer **out)
{
    lattio_container_serial_options o = {chunk_hint, align, 1, NULL, 0};
    return lattio_container_create_serial_ex(path, ntasks, &o, out);
}

/* The file holding task t (files sorted by first task). */
static uint32_t file_of(const lattio_container_writer *w, uint32_t t)
{
    uint32_t lo = 0, hi = w->nfiles;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (w->h[mid].first_task <= t) lo = mid;
        else hi = mid;
    }
    return lo;
}

int lattio_container_writer_write(lattio_container_writer *w, uint32_t task, const void *buf,
                                  size_t n)
{
    RETURN_IF(!w, LATTIO_ERR_ARG);
    RETURN_IF(task >= w->h[0].ntasks, LATTIO_ERR_CONTAINER_TASK);
    RETURN_IF(w->failed, LATTIO_ERR_STATE);
    uint32_t k = file_of(w, task);
    int rc = lattio_cont_stream_write(&w->h[k], &w->streams[task], &w->sinks[k], buf, n);
    if (rc < 0 && rc != LATTIO_ERR_ARG) w->failed = 1;
    return rc;
}

/* File k: final trailers of its streams, then the footer after its last block. */
static int finish_file(lattio_container_writer *w, uint32_t k)
{
    const lattio_cont_header *h = &w->h[k];
    lattio_cont_footer f = {h->id, 0, 0};
    unsigned char buf[LATTIO_CONT_FOOTER_SIZE];
    uint64_t off = 0;
    for (uint32_t t = h->first_task; t < h->first_task + h->file_tasks; t++) {
        RETURN_IF_ERROR(lattio_cont_stream_finish(h, &w->streams[t], &w->sinks[k]));
        uint64_t nb = lattio_cont_stream_blocks(&w->streams[t]);
        if (nb > f.nblocks) f.nblocks = nb;
        f.total_bytes += w->streams[t].total;
    }
    RETURN_IF_ERROR(lattio_cont_footer_offset(h, f.nblocks, &off));
    lattio_cont_footer_encode(buf, &f);
    return fd_write_at(&w->fds[k], off, buf, sizeof buf);
}

int lattio_container_writer_close(lattio_container_writer *w)
{
    if (!w) return LATTIO_OK;
    int rc = w->failed ? LATTIO_FAIL(LATTIO_ERR_STATE, "earlier failure") : LATTIO_OK;
    for (uint32_t k = 0; k < w->nfiles; k++) {
        if (rc == LATTIO_OK) rc = finish_file(w, k);
        int crc = close(w->fds[k]);
        w->fds[k] = -1;
        if (rc == LATTIO_OK && crc != 0) rc = LATTIO_FAIL_ERRNO(LATTIO_ERR_CLOSE, "close");
    }
    free_writer(w);
    return rc;
}

int lattio_container_writer_abandon(lattio_container_writer *w)
{
    if (w) free_writer(w);
    return LATTIO_OK;
}
