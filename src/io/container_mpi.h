/* container_mpi.h -- the MPI task-local container handle (container.c,
 * container_rw.c).  The on-disk logic is the MPI-free core's. */
#ifndef LATTIO_CONTAINER_MPI_H
#define LATTIO_CONTAINER_MPI_H

#include "container/container_internal.h"
#include "io_internal.h"

struct lattio_container {
    MPI_Comm comm; /* duplicate of the caller's */
    int rank, size;
    MPI_File fh;
    int mode;                      /* LATTIO_MODE_CREATE or _READ */
    lattio_container_options opt;
    char *path, *tmp;              /* final and temporary names (tmp NULL in place) */
    lattio_cont_header h;
    /* writing: this rank's stream */
    lattio_cont_stream s;
    lattio_cont_sink sink;
    int failed;
    /* reading */
    lattio_cont_footer footer;
    int closed;                    /* footer found */
    uint32_t nknown;               /* tasks with a size entry (bounded by the file size) */
    uint64_t *sizes;               /* [nknown] stream bytes; later tasks: 0 */
    int has_task;
    uint32_t task;                 /* selected stream */
    uint64_t pos;
};

/* Positional MPI write of at most 1 GiB, independent: the stream sink. */
int lattio_container_sink_write(void *ctx, uint64_t off, const void *buf, size_t n);
/* A byte source over the container's MPI file (independent reads). */
int lattio_container_source(lattio_container *c, lattio_source *src);

/* Test hook: close the file and free the handle without the final trailers,
 * the footer or the rename, as a writer killed before close leaves it.
 * Collective (closes the MPI file). */
void lattio_container_test_abandon(lattio_container *c);

#endif
