/* nb_write.c -- lattio_lattice_iwrite + lattio_wait against
 * lattio_lattice_write of the same 32^3x64 lattice of 576-byte sites
 * (1.21 GB, t slabs), alternating, page cache; before every write rank 0
 * removes the file and calls sync(), untimed.  Prints each write's time
 * (open to close, max over ranks) and its phases (rank 0's profile).
 *   mpirun -np P nb_write [REPS]
 * Writes nb_write.lime in the working directory and removes it at the end. */
#define _DEFAULT_SOURCE 1 /* sync() */
#include "lattio.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void die(int rc, const char *what)
{
    if (rc == LATTIO_OK) return;
    fprintf(stderr, "nb_write: %s: %s\n", what, lattio_strerror(rc));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static double one_write(const lattio_layout *l, const unsigned char *buf, uint64_t bytes, int nb, int rank)
{
    if (rank == 0) {
        unlink("nb_write.lime");
        sync();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    lattio_file *f = NULL;
    die(lattio_open(MPI_COMM_WORLD, "nb_write.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f), "open");
    die(lattio_record_begin(f, "lattice", bytes, 1, 1), "begin");
    if (nb) {
        lattio_request *req = NULL;
        die(lattio_lattice_iwrite(f, l, 0, buf, &req), "iwrite");
        die(lattio_wait(&req), "wait");
    } else {
        die(lattio_lattice_write(f, l, 0, buf), "write");
    }
    die(lattio_record_end(f, 0), "end");
    lattio_profile p;
    die(lattio_profile_get(f, &p), "profile");
    if (rank == 0) {
        printf("  %s phases:", nb ? "iwrite+wait" : "write      ");
        for (int k = 0; k < LATTIO_NPHASES; k++)
            if (p.phase[k][1] >= 0.0005) printf(" %s %.3f", lattio_phase_name(k), p.phase[k][1]);
    }
    die(lattio_close(f), "close");
    double t = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) printf(" | %.3f s\n", t);
    return t;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int reps = argc > 1 ? atoi(argv[1]) : 3;
    if (reps < 1 || reps > 100) reps = 3;
    const uint64_t L = 32, T = 64, g[4] = {L, L, L, T};
    uint64_t lo[4] = {0, 0, 0, 0}, count[4] = {L, L, L, T};
    die(lattio_split(T, (uint64_t)size, (uint64_t)rank, &lo[3], &count[3]), "split");
    lattio_layout l;
    die(lattio_layout_init(&l, 4, g, lo, count, 576), "layout");
    static const int order[4] = {3, 2, 1, 0};
    for (int d = 0; d < 4; d++) l.file_order[d] = l.mem_order[d] = order[d];
    const uint64_t n = lattio_layout_local_sites(&l) * 576;
    unsigned char *buf = malloc(n ? n : 1);
    if (!buf) die(LATTIO_ERR_NOMEM, "buffer");
    for (uint64_t i = 0; i < n; i++) buf[i] = (unsigned char)(i * 7);
    if (rank == 0) printf("np %d, 32^3x64 x 576 B (1.21 GB), t slabs, page cache\n", size);
    double sum[2] = {0, 0};
    for (int r = 0; r < 2 * reps; r++) sum[r % 2] += one_write(&l, buf, L * L * L * T * 576, r % 2, rank);
    if (rank == 0) printf("mean: write %.3f s, iwrite+wait %.3f s\n", sum[0] / reps, sum[1] / reps);
    free(buf);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) unlink("nb_write.lime"); /* nothing left behind */
    MPI_Finalize();
    return 0;
}
