/* reader.c -- serial access to every task's stream of a container, over
 * all of its physical files. */
#include "container_internal.h"

#include <string.h>
#include <unistd.h>

struct lattio_container_reader {
    int flags;
    uint32_t nfiles;
    int *fds;                    /* [nfiles] */
    lattio_cont_member *m;       /* [nfiles] */
    lattio_cont_cache cache;     /* verified chunk being read in pieces */
};

void lattio_container_reader_close(lattio_container_reader *r)
{
    if (!r) return;
    for (uint32_t k = 0; k < r->nfiles; k++) {
        if (r->fds && r->fds[k] >= 0) close(r->fds[k]);
        if (r->m) lattio_cont_member_release(&r->m[k]);
    }
    lattio_cont_cache_release(&r->cache);
    lattio_free(r->fds);
    lattio_free(r->m);
    lattio_free(r);
}

/* Open physical file k (its name derived from path): ERR_CONTAINER_MEMBER
 * when a member other than file 0 does not exist. */
static int open_member(lattio_container_reader *r, const char *path, uint32_t k)
{
    int fd;
    RETURN_IF_ERROR(lattio_cont_open_member(path, k, &fd));
    r->fds[k] = fd;
    return lattio_source_fd(fd, &r->m[k].src);
}

/* Member k: open, header and footer checked against file 0's, scan. */
static int load_member(lattio_container_reader *r, const char *path, uint32_t k, uint32_t first)
{
    int recover = (r->flags & LATTIO_CONTAINER_RECOVER) != 0;
    lattio_cont_member *m = &r->m[k];
    RETURN_IF_ERROR(open_member(r, path, k));
    RETURN_IF_ERROR(lattio_cont_member_meta(m, recover, k ? &r->m[0].h : NULL, k, first));
    RETURN_IF_ERROR(lattio_cont_member_scan(m, recover, 0, 1));
    return lattio_cont_member_check_total(m, recover);
}

/* Room for files [0, n): grown one file at a time as files are found, so a
 * hostile file count costs nothing before its files exist. */
static int grow(lattio_container_reader *r, uint32_t n)
{
    return lattio_cont_members_grow(&r->fds, &r->m, &r->nfiles, n);
}

/* File 0 gives the file count; the others follow in order. */
static int load_all(lattio_container_reader *r, const char *path)
{
    RETURN_IF_ERROR(grow(r, 1));
    RETURN_IF_ERROR(load_member(r, path, 0, 0));
    for (uint32_t k = 1; k < r->m[0].h.nfiles; k++) {
        RETURN_IF_ERROR(grow(r, k + 1));
        const lattio_cont_header *prev = &r->m[k - 1].h;
        RETURN_IF_ERROR(load_member(r, path, k, prev->first_task + prev->file_tasks));
    }
    return LATTIO_OK;
}

int lattio_container_open_serial(const char *path, int flags, lattio_container_reader **out)
{
    RETURN_IF(!out, LATTIO_ERR_ARG);
    *out = NULL;
    RETURN_IF(!path || (flags & ~(LATTIO_CONTAINER_RECOVER | LATTIO_CONTAINER_NO_VERIFY)),
              LATTIO_ERR_ARG);
    lattio_container_reader *r = lattio_calloc(1, sizeof *r);
    RETURN_IF(!r, LATTIO_ERR_NOMEM);
    r->flags = flags;
    int rc = load_all(r, path);
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
    const lattio_cont_header *h = &r->m[0].h;
    memset(info, 0, sizeof *info);
    info->version = (int)h->version;
    info->ntasks = h->ntasks;
    info->nfiles = h->nfiles;
    info->align = h->align;
    info->stride = h->stride;
    info->chunk = lattio_cont_capacity(h);
    info->stream_crcs = (h->flags & LATTIO_CONT_HDR_STREAM_CRC) != 0;
    info->id = h->id;
    info->complete = 1;
    for (uint32_t k = 0; k < r->nfiles; k++) {
        const lattio_cont_member *m = &r->m[k];
        if (m->nblocks > info->nblocks) info->nblocks = m->nblocks;
        if (!m->closed || m->nscanned != m->h.file_tasks) info->complete = 0;
        for (uint32_t i = 0; i < m->nscanned && info->complete; i++)
            info->complete = m->tasks[i].complete;
    }
    return LATTIO_OK;
}

int lattio_container_reader_file(const lattio_container_reader *r, uint32_t index,
                                 lattio_container_file_info *info)
{
    RETURN_IF(!r || !info || index >= r->nfiles, LATTIO_ERR_ARG);
    const lattio_cont_member *m = &r->m[index];
    memset(info, 0, sizeof *info);
    info->index = index;
    info->first_task = m->h.first_task;
    info->tasks = m->h.file_tasks;
    info->align = m->h.align;
    info->stride = m->h.stride;
    info->data_start = m->h.data_start;
    info->nblocks = m->nblocks;
    info->size = m->src.size;
    info->closed = m->closed;
    return LATTIO_OK;
}

/* The member and task info of a global task (NULL info: empty stream). */
static int lookup(const lattio_container_reader *r, uint32_t task, int *k, lattio_cont_task_info **t)
{
    RETURN_IF(!r, LATTIO_ERR_ARG);
    RETURN_IF(task >= r->m[0].h.ntasks, LATTIO_ERR_CONTAINER_TASK);
    *k = lattio_cont_member_find(r->m, r->nfiles, task);
    RETURN_IF(*k < 0, LATTIO_ERR_CONTAINER_TASK);
    const lattio_cont_member *m = &r->m[*k];
    uint32_t i = task - m->h.first_task;
    *t = i < m->nscanned ? &m->tasks[i] : NULL;
    return LATTIO_OK;
}

int lattio_container_reader_size(const lattio_container_reader *r, uint32_t task, uint64_t *size,
                                 int *complete)
{
    int k = 0;
    lattio_cont_task_info *t = NULL;
    RETURN_IF(!size, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lookup(r, task, &k, &t));
    *size = t ? t->bytes : 0;
    if (complete) *complete = t ? t->complete : 0;
    return LATTIO_OK;
}

int lattio_container_reader_task(const lattio_container_reader *r, uint32_t task,
                                 lattio_container_task_info *info)
{
    int k = 0;
    lattio_cont_task_info *t = NULL;
    RETURN_IF(!info, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lookup(r, task, &k, &t));
    memset(info, 0, sizeof *info);
    info->file = (uint32_t)k;
    if (!t) return LATTIO_OK;
    info->bytes = t->bytes;
    info->blocks = t->chunks;
    info->complete = t->complete;
    info->has_crc = t->has_crc;
    info->crc = t->crc;
    return LATTIO_OK;
}

int lattio_container_reader_stream_crc(const lattio_container_reader *r, uint32_t task,
                                       uint32_t *crc)
{
    lattio_container_task_info info;
    RETURN_IF(!crc, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lattio_container_reader_task(r, task, &info));
    RETURN_IF(!info.has_crc, LATTIO_ERR_NOT_FOUND);
    *crc = info.crc;
    return LATTIO_OK;
}

int lattio_container_reader_read(lattio_container_reader *r, uint32_t task, uint64_t offset,
                                 void *buf, size_t n)
{
    int k = 0;
    lattio_cont_task_info *t = NULL;
    RETURN_IF_ERROR(lookup(r, task, &k, &t));
    RETURN_IF(n && !buf, LATTIO_ERR_ARG);
    if (!t) {
        RETURN_IF(offset > 0 || n > 0, LATTIO_ERR_RECORD_OVERRUN);
        return LATTIO_OK;
    }
    const lattio_cont_member *m = &r->m[k];
    int verify = r->flags & LATTIO_CONTAINER_NO_VERIFY ? LATTIO_CONT_VERIFY_NONE
                                                        : LATTIO_CONT_VERIFY_STRICT;
    const lattio_cont_view s = {&m->src, &m->h, task - m->h.first_task, t};
    return lattio_cont_read_stream(&s, verify, &r->cache, offset, buf, n);
}

int lattio_container_reader_chunk(lattio_container_reader *r, uint32_t task, uint64_t block,
                                  lattio_container_chunk_info *info, void *buf, size_t cap)
{
    int k = 0;
    lattio_cont_task_info *t = NULL;
    lattio_cont_trailer tr;
    uint64_t off = 0;
    RETURN_IF_ERROR(lookup(r, task, &k, &t));
    RETURN_IF(!t || block >= t->chunks, LATTIO_ERR_RECORD_OVERRUN);
    const lattio_cont_member *m = &r->m[k];
    uint32_t i = task - m->h.first_task;
    RETURN_IF_ERROR(lattio_cont_trailer_at(&m->src, &m->h, i, block, &tr));
    RETURN_IF_ERROR(lattio_cont_chunk_offset(&m->h, i, block, &off));
    if (info) {
        info->file_offset = off;
        info->used = tr.used;
        info->stream_offset = tr.stream_offset;
        info->data_crc = tr.data_crc;
        info->final = (tr.flags & LATTIO_CONT_FINAL) != 0;
    }
    if (!buf) return LATTIO_OK;
    RETURN_IF(tr.used > cap, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lattio_source_read_exact(&m->src, off, buf, (size_t)tr.used,
                                             LATTIO_ERR_CONTAINER_TRUNCATED));
    RETURN_IF(!(r->flags & LATTIO_CONTAINER_NO_VERIFY) &&
              lattio_cont_crc32(0, buf, (size_t)tr.used) != tr.data_crc, LATTIO_ERR_CONTAINER_CHECKSUM);
    return LATTIO_OK;
}

int lattio_container_reader_chunk_verify(lattio_container_reader *r, uint32_t task, uint64_t block)
{
    int k = 0;
    lattio_cont_task_info *t = NULL;
    RETURN_IF_ERROR(lookup(r, task, &k, &t));
    RETURN_IF(!t || block >= t->chunks, LATTIO_ERR_RECORD_OVERRUN);
    const lattio_cont_member *m = &r->m[k];
    return lattio_cont_verify_chunk(&m->src, &m->h, task - m->h.first_task, block);
}

int lattio_container_reader_prototype(const lattio_container_reader *r, lattio_cont_header *proto,
                                      uint32_t **first)
{
    RETURN_IF(!r || !proto || !first, LATTIO_ERR_ARG);
    *first = lattio_malloc((size_t)r->nfiles * sizeof **first);
    RETURN_IF(!*first, LATTIO_ERR_NOMEM);
    for (uint32_t k = 0; k < r->nfiles; k++) (*first)[k] = r->m[k].h.first_task;
    *proto = r->m[0].h;
    proto->flags = LATTIO_CONT_HDR_STREAM_CRC;
    return LATTIO_OK;
}
