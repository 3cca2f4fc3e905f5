/* container.c -- the task-local container, in one page.
 * Run me:  mpirun -n 4 build/examples/example_container [FILE]
 * (or without mpirun, on one rank).  Every rank appends its own stream of
 * bytes, in pieces of any size, to one shared file (no coordination while
 * writing); then every rank reads another rank's stream back and checks it. */
#include "lattio.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int report(const char *what, int rc)
{
    fprintf(stderr, "example: %s: %s (%s)\n", what, lattio_strerror(rc), lattio_error_name(rc));
    return rc;
}

/* Task t's stream: 3 pieces of 1000 + 100 t bytes, byte i of it (i + t) % 251. */
static void piece(uint32_t t, int k, unsigned char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) buf[i] = (unsigned char)((k * n + i + t) % 251);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm comm = MPI_COMM_WORLD;
    const char *path = argc > 1 ? argv[1] : "run.ltc";
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    unsigned char buf[2000], want[2000];
    const uint64_t chunk_hint = 4096;
    lattio_container *c;
    lattio_container_options opt;
    lattio_container_options_default(&opt);          /* nfiles, file_comm, coalesce, ... */
    int rc = lattio_container_open(comm, path, LATTIO_MODE_CREATE, chunk_hint, MPI_INFO_NULL, &opt, &c);
    if (rc < 0) return report("create", rc), MPI_Finalize(), 1;
    const size_t n = 1000 + 100 * (size_t)rank;
    for (int k = 0; k < 3 && rc == LATTIO_OK; k++) {
        piece((uint32_t)rank, k, buf, n);
        rc = lattio_container_write(c, buf, n);      /* each rank alone, any size, any number */
    }
    const int closed = lattio_container_close(c);    /* collective: trailers, footer, rename */
    if (rc < 0 || closed < 0) return report("write", rc < 0 ? rc : closed), MPI_Finalize(), 1;
    const uint32_t task = (uint32_t)((rank + 1) % size);
    const size_t m = 1000 + 100 * (size_t)task;
    uint64_t got = 0;
    int same = 1;
    rc = lattio_container_open(comm, path, LATTIO_MODE_READ, 0, MPI_INFO_NULL, NULL, &c);
    if (rc == LATTIO_OK) rc = lattio_container_select(c, task);   /* any task, on any number of ranks */
    for (int k = 0; k < 3 && rc == LATTIO_OK; k++) {
        rc = lattio_container_read(c, buf, m, &got);              /* also _seek, _tell, _eof, _stream_size */
        piece(task, k, want, m);
        same = same && got == m && memcmp(buf, want, m) == 0;
    }
    if (rc == LATTIO_OK) rc = lattio_container_close(c);
    else lattio_container_close(c);
    int all = 0;
    same = same && rc == LATTIO_OK;
    MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, comm);
    if (rc < 0) report("read", rc);
    if (rank == 0) printf("%d stream(s) written and read back %s\n", size, all ? "equal" : "DIFFERENT");
    MPI_Finalize();
    return all ? 0 : 1;
}
