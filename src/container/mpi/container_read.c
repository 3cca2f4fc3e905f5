/* container_read.c -- opening an MPI container for reading: every rank
 * opens every physical file (POSIX, read-only) and checks its header and
 * footer itself; the trailer scan is shared out between ranks by task
 * (rank r scans tasks r, r + size, ...: its own task when there are as
 * many ranks as tasks) and one reduction shares the results and the
 * statuses.  Two collective calls in all, whatever the number of ranks
 * and files. */
#include "container_mpi.h"

#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

/* Room for n files (the sources' ctx pointers are unused: fd sources). */
static int grow(lattio_container *c, uint32_t n)
{
    return lattio_cont_members_grow(&c->fds, &c->m, &c->nread, n);
}

/* Local: open physical file k.  A missing member (not file 0) is
 * ERR_CONTAINER_MEMBER. */
static int open_member(lattio_container *c, uint32_t k)
{
    int fd;
    char *name = lattio_cont_member_name(c->path, k);
    RETURN_IF(!name, LATTIO_ERR_NOMEM);
    (void)lattio_fs_refresh(name, NULL); /* other nodes wrote it: names and sizes cached here may be old */
    lattio_free(name);
    RETURN_IF_ERROR(lattio_cont_open_member(c->path, k, &fd));
    c->fds[k] = fd;
#ifdef POSIX_FADV_SEQUENTIAL
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    return lattio_source_fd(fd, &c->m[k].src);
}

/* Local: open and check every file of the set (file 0 gives their count),
 * and size their task tables. */
static int load_members(lattio_container *c)
{
    int recover = c->opt.recover != 0;
    for (uint32_t k = 0; k == 0 || k < c->m[0].h.nfiles; k++) { /* grown as files are found */
        uint32_t first = k ? c->m[k - 1].h.first_task + c->m[k - 1].h.file_tasks : 0;
        RETURN_IF_ERROR(grow(c, k + 1));
        RETURN_IF_ERROR(open_member(c, k));
        RETURN_IF_ERROR(lattio_cont_member_meta(&c->m[k], recover, k ? &c->m[0].h : NULL, k, first));
    }
    return LATTIO_OK;
}

/* First task index of file m that this rank scans (tasks rank, rank + size, ...). */
static uint32_t my_first(const lattio_container *c, const lattio_cont_member *m)
{
    uint32_t s = (uint32_t)c->size;
    return ((uint32_t)c->rank + s - m->h.first_task % s) % s;
}

/* Entries of all task tables (3 per task). */
static size_t table_size(const lattio_container *c)
{
    size_t n = 0;
    for (uint32_t k = 0; k < c->nread; k++) n += 3 * (size_t)c->m[k].nscanned;
    return n;
}

/* This rank's scanned tasks into v (zeros elsewhere); advances v. */
static void pack(const lattio_container *c, const lattio_cont_member *m, uint64_t **v)
{
    for (size_t i = my_first(c, m); i < m->nscanned; i += (size_t)c->size) {
        const lattio_cont_task_info *t = &m->tasks[i];
        (*v)[3 * i] = t->bytes;
        (*v)[3 * i + 1] = t->chunks;
        (*v)[3 * i + 2] = (uint64_t)t->complete | (uint64_t)t->has_crc << 1 | (uint64_t)t->crc << 32;
    }
    *v += 3 * (size_t)m->nscanned;
}

/* Every task from the summed tables; recovery: the blocks found. */
static void unpack(lattio_cont_member *m, int recover, const uint64_t **v)
{
    for (size_t i = 0; i < m->nscanned; i++) {
        lattio_cont_task_info *t = &m->tasks[i];
        t->bytes = (*v)[3 * i];
        t->chunks = (*v)[3 * i + 1];
        t->complete = (int)((*v)[3 * i + 2] & 1);
        t->has_crc = (int)((*v)[3 * i + 2] >> 1 & 1);
        t->crc = (uint32_t)((*v)[3 * i + 2] >> 32);
        if (recover && t->chunks > m->nblocks) m->nblocks = t->chunks;
    }
    *v += 3 * (size_t)m->nscanned;
}

/* Local: the two tables of n + 1 entries (every task's three, a status). */
static int allocate_tables(const lattio_container *c, uint64_t **mine, uint64_t **all, size_t *n)
{
    *n = table_size(c);
    RETURN_IF(*n >= INT_MAX, LATTIO_ERR_OVERFLOW);
    *mine = lattio_calloc(*n + 1, sizeof **mine);
    *all = lattio_calloc(*n + 1, sizeof **all);
    RETURN_IF(!*mine || !*all, LATTIO_ERR_NOMEM);
    return LATTIO_OK;
}

/* Collective: this rank's share of every file scanned, then one Allreduce
 * (MAX) of all task tables, each task's entries being non-zero on the one
 * rank that scanned it, and of the ranks' statuses (negated: the worst
 * wins, as lattio_agree). */
static int scan_and_share(lattio_container *c, uint64_t *mine, uint64_t *all, size_t n)
{
    int recover = c->opt.recover != 0, rc = LATTIO_OK;
    for (uint32_t k = 0; rc == LATTIO_OK && k < c->nread; k++)
        rc = lattio_cont_member_scan(&c->m[k], recover, my_first(c, &c->m[k]), (uint32_t)c->size);
    uint64_t *v = mine;
    for (uint32_t k = 0; rc == LATTIO_OK && k < c->nread; k++) pack(c, &c->m[k], &v);
    mine[n] = (uint64_t)(-(int64_t)rc);
    rc = lattio_allreduce_u64(mine, all, (int)n + 1, MPI_MAX, c->comm);
    if (rc == LATTIO_OK) rc = (int)-(int64_t)all[n];
    const uint64_t *w = all;
    for (uint32_t k = 0; rc == LATTIO_OK && k < c->nread; k++) unpack(&c->m[k], recover, &w);
    /* the same tables on every rank: the same verdict, no agreement needed */
    for (uint32_t k = 0; rc == LATTIO_OK && k < c->nread; k++)
        rc = lattio_cont_member_check_total(&c->m[k], recover);
    return rc;
}

int lattio_container_start_reading(lattio_container *c)
{
    uint64_t *mine = NULL, *all = NULL;
    size_t n = 0;
    int rc = load_members(c);
    if (rc == LATTIO_OK) rc = allocate_tables(c, &mine, &all, &n);
    rc = lattio_agree(c->comm, rc);
    if (rc == LATTIO_OK) rc = scan_and_share(c, mine, all, n);
    lattio_free(mine);
    lattio_free(all);
    RETURN_IF_ERROR(rc);
    c->h = c->m[0].h;
    c->has_task = (uint64_t)c->rank < c->h.ntasks;
    c->task = (uint32_t)c->rank;
    return LATTIO_OK;
}
