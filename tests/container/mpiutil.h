/* mpiutil.h -- MPI container tests: each rank writes task t_size(rank)'s
 * pattern in pieces of 333 bytes (rank 2 mod 5: one write larger than a
 * chunk); chunk hint and alignment as the serial tests. */
#ifndef LATTIO_CONTAINER_MPIUTIL_H
#define LATTIO_CONTAINER_MPIUTIL_H

#include "contest.h"
#include "mpitest.h"

static inline int m_write_stream(lattio_container *c, uint32_t task)
{
    uint64_t size = t_size(task), done = 0;
    unsigned char *buf = malloc(8 * (size_t)T_CAP);
    int rc = buf ? LATTIO_OK : LATTIO_ERR_NOMEM;
    while (rc == LATTIO_OK && done < size) {
        uint64_t left = size - done, k = task % 5 == 2 ? left : (left < 333 ? left : 333);
        pattern_fill(task, done, buf, (size_t)k);
        rc = lattio_container_write(c, buf, k);
        done += k;
    }
    free(buf);
    return rc;
}

static inline int m_create(MPI_Comm comm, const char *path, int in_place, lattio_container **c)
{
    lattio_container_options opt;
    lattio_container_options_default(&opt);
    opt.align = T_ALIGN;
    opt.in_place = in_place;
    return lattio_container_open(comm, path, LATTIO_MODE_CREATE, T_HINT, MPI_INFO_NULL, &opt, c);
}

/* Read the selected stream to its end in pieces of 1000 and compare. */
static inline void m_check_stream(lattio_container *c, uint32_t task)
{
    uint64_t size = 0, got = 0, pos = 0;
    unsigned char buf[1000];
    CHECK_OK(lattio_container_select(c, task));
    CHECK_OK(lattio_container_stream_size(c, task, &size));
    CHECK_U64(size, t_size(task));
    while (!lattio_container_eof(c)) {
        CHECK_OK(lattio_container_read(c, buf, sizeof buf, &got));
        if (got == 0) break;
        CHECK_INT(pattern_mismatches(task, pos, buf, (size_t)got), 0);
        pos += got;
    }
    CHECK_U64(pos, size);
}

#endif
