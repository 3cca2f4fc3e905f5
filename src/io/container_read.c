/* container_read.c -- opening an MPI container for reading: every physical
 * file opened on every rank, headers and footers read by each rank, the
 * trailer scan shared out between ranks by task and its results shared. */
#include "container_mpi.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Room for n files (the sources' ctx pointers follow a move). */
static int grow(lattio_container *c, uint32_t n)
{
    MPI_File *fhs = lattio_realloc(c->fhs, (size_t)n * sizeof *fhs);
    RETURN_IF(!fhs, LATTIO_ERR_NOMEM);
    c->fhs = fhs;
    lattio_cont_member *m = lattio_realloc(c->m, (size_t)n * sizeof *m);
    RETURN_IF(!m, LATTIO_ERR_NOMEM);
    c->m = m;
    for (uint32_t k = c->nread; k < n; k++) {
        c->fhs[k] = MPI_FILE_NULL;
        memset(&c->m[k], 0, sizeof c->m[k]);
    }
    for (uint32_t k = 0; k < c->nread; k++) c->m[k].src.ctx = &c->fhs[k];
    c->nread = n;
    return LATTIO_OK;
}

/* Collective: open physical file k on every rank.  A missing member (not
 * file 0) is ERR_CONTAINER_MEMBER. */
static int open_member(lattio_container *c, uint32_t k, MPI_Info info)
{
    char *name = lattio_cont_member_name(c->path, k);
    int rc = lattio_agree(c->comm, name ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "name"));
    if (rc == LATTIO_OK) {
        int mrc = MPI_File_open(c->comm, name, MPI_MODE_RDONLY, info, &c->fhs[k]);
        if (mrc != MPI_SUCCESS) c->fhs[k] = MPI_FILE_NULL;
        rc = MPI_CHECK(mrc, LATTIO_ERR_OPEN);
        if (rc < 0 && k > 0 && access(name, F_OK) != 0 && errno == ENOENT)
            rc = LATTIO_FAIL(LATTIO_ERR_CONTAINER_MEMBER, "member file missing");
        if (rc == LATTIO_OK)
            rc = MPI_CHECK(MPI_File_set_errhandler(c->fhs[k], MPI_ERRORS_RETURN), LATTIO_ERR_MPI);
        if (rc == LATTIO_OK) rc = lattio_container_source(&c->fhs[k], &c->m[k].src);
        rc = lattio_agree(c->comm, rc);
    }
    lattio_free(name);
    return rc;
}

/* Collective: open, check and size file k's task table. */
static int load_member(lattio_container *c, uint32_t k, MPI_Info info)
{
    int recover = c->opt.recover != 0;
    uint32_t first = 0;
    if (k > 0) first = c->m[k - 1].h.first_task + c->m[k - 1].h.file_tasks;
    RETURN_IF_ERROR(open_member(c, k, info));
    return lattio_agree(c->comm, lattio_cont_member_meta(&c->m[k], recover, k ? &c->m[0].h : NULL,
                                                         k, first));
}

/* First task index of file m that this rank scans (tasks rank, rank + size, ...). */
static uint32_t my_first(const lattio_container *c, const lattio_cont_member *m)
{
    uint32_t s = (uint32_t)c->size;
    return ((uint32_t)c->rank + s - m->h.first_task % s) % s;
}

/* Collective: scan this rank's share of file m, then share the results. */
static int scan_and_share(lattio_container *c, lattio_cont_member *m)
{
    int recover = c->opt.recover != 0;
    size_t n = m->nscanned;
    uint32_t from = my_first(c, m);
    uint64_t *mine = lattio_calloc(3 * n + 1, sizeof *mine), *all = lattio_calloc(3 * n + 1, sizeof *all);
    int rc = mine && all ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "scan tables");
    if (rc == LATTIO_OK) rc = lattio_cont_member_scan(m, recover, from, (uint32_t)c->size);
    for (size_t i = from; rc == LATTIO_OK && i < n; i += (size_t)c->size) {
        const lattio_cont_task_info *t = &m->tasks[i];
        mine[3 * i] = t->bytes;
        mine[3 * i + 1] = t->chunks;
        mine[3 * i + 2] = (uint64_t)t->complete | (uint64_t)t->has_crc << 1 | (uint64_t)t->crc << 32;
    }
    rc = lattio_agree(c->comm, rc);
    if (rc == LATTIO_OK)
        rc = lattio_agree(c->comm, MPI_CHECK(MPI_Allreduce(mine, all, (int)(3 * n), MPI_UINT64_T,
                                                           MPI_SUM, c->comm), LATTIO_ERR_MPI));
    for (size_t i = 0; rc == LATTIO_OK && i < n; i++) {
        lattio_cont_task_info *t = &m->tasks[i];
        t->bytes = all[3 * i];
        t->chunks = all[3 * i + 1];
        t->complete = (int)(all[3 * i + 2] & 1);
        t->has_crc = (int)(all[3 * i + 2] >> 1 & 1);
        t->crc = (uint32_t)(all[3 * i + 2] >> 32);
    }
    uint64_t nb = m->nblocks;
    if (rc == LATTIO_OK)
        rc = lattio_agree(c->comm, MPI_CHECK(MPI_Allreduce(&nb, &m->nblocks, 1, MPI_UINT64_T, MPI_MAX,
                                                           c->comm), LATTIO_ERR_MPI));
    lattio_free(mine);
    lattio_free(all);
    RETURN_IF_ERROR(rc);
    return lattio_agree(c->comm, lattio_cont_member_check_total(m, recover));
}

int lattio_container_start_reading(lattio_container *c, MPI_Info info)
{
    RETURN_IF_ERROR(lattio_agree(c->comm, grow(c, 1)));
    RETURN_IF_ERROR(load_member(c, 0, info));
    c->h = c->m[0].h;
    for (uint32_t k = 1; k < c->h.nfiles; k++) { /* grown as files are found */
        RETURN_IF_ERROR(lattio_agree(c->comm, grow(c, k + 1)));
        RETURN_IF_ERROR(load_member(c, k, info));
    }
    for (uint32_t k = 0; k < c->h.nfiles; k++) RETURN_IF_ERROR(scan_and_share(c, &c->m[k]));
    c->has_task = (uint64_t)c->rank < c->h.ntasks;
    c->task = (uint32_t)c->rank;
    return LATTIO_OK;
}
