/* small_fields.c -- many small fields into one file: the cost per
 * lattio_field_write of an L^4 double gauge field (ILDG record set with
 * conversion and SciDAC checksum) when a code writes N of them through one
 * handle (propagator sources, smeared links, a stream of measurements),
 * and its phase breakdown (mean over ranks).  Fine splits go through the
 * aggregate strategy, whose sharing group and window buffers the file keeps
 * between calls.
 *   mpirun -np P small_fields [L [N [split]]]     split: x (default) or 4d
 * Writes small_fields.lime in the working directory and removes it at the end. */
#define _DEFAULT_SOURCE 1 /* unlink() */
#include "lattio.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void die(int rc, const char *what)
{
    if (rc == LATTIO_OK) return;
    fprintf(stderr, "small_fields: %s: %s\n", what, lattio_strerror(rc));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Rank `rank` of `size`: the x dimension split (x), or the prime factors
 * of size over x, y, z, t in turn (4d); file and memory order t, z, y, x. */
static void make_layout(lattio_layout *l, uint64_t L, int rank, int size, int four_d)
{
    const uint64_t g[4] = {L, L, L, L};
    uint64_t parts[4] = {1, 1, 1, 1}, lo[4], count[4];
    int n = size;
    for (int d = 0; n > 1; d = four_d ? (d + 1) % 4 : 0) {
        int p = 2;
        while (n % p) p++;
        parts[d] *= (uint64_t)p;
        n /= p;
    }
    uint64_t r = (uint64_t)rank;
    for (int d = 0; d < 4; d++) {
        die(lattio_split(L, parts[d], r % parts[d], &lo[d], &count[d]), "split");
        r /= parts[d];
    }
    die(lattio_layout_init(l, 4, g, lo, count, 576), "layout");
    static const int order[4] = {3, 2, 1, 0};
    for (int d = 0; d < 4; d++) l->file_order[d] = l->mem_order[d] = order[d];
    die(lattio_layout_check(l), "layout");
}

int main(int argc, char **argv)
{
    int provided = 0, rank = 0, size = 1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const uint64_t L = argc > 1 ? strtoull(argv[1], NULL, 10) : 8;
    int n = argc > 2 ? atoi(argv[2]) : 100;
    const int four_d = argc > 3 && strcmp(argv[3], "4d") == 0;
    if (L < 2 || L > 64 || n < 1 || n > 100000) die(LATTIO_ERR_ARG, "usage: small_fields [L [N [x|4d]]]");
    lattio_layout l;
    make_layout(&l, L, rank, size, four_d);
    const uint64_t reals = lattio_layout_local_sites(&l) * 72;
    double *local = malloc(reals ? reals * sizeof *local : 1);
    if (!local) die(LATTIO_ERR_NOMEM, "buffer");
    for (uint64_t i = 0; i < reals; i++) local[i] = (double)(i % 1000) * 0.001 - 0.5;
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_ILDG_GAUGE, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, 72);
    d.date = "Mon Jan  1 00:00:00 2024";
    lattio_file *f = NULL;
    die(lattio_open(MPI_COMM_WORLD, "small_fields.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f), "open");
    die(lattio_field_write(f, &d, &l, local, NULL), "warm-up write");
    lattio_profile_reset(f);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < n; i++) die(lattio_field_write(f, &d, &l, local, NULL), "field write");
    double t = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    lattio_profile p;
    die(lattio_profile_get(f, &p), "profile");
    if (rank == 0) {
        printf("np %d, %llu^4 (%.2f MB per field), %s split, %d fields: %.3f ms per field; phases (ms per field):",
               size, (unsigned long long)L, (double)(L * L * L * L) * 576 / 1e6, four_d ? "4-D" : "x", n,
               1e3 * t / n);
        for (int k = 0; k < LATTIO_NPHASES; k++)
            if (p.phase[k][1] * 1e3 / n >= 0.005) printf(" %s %.2f", lattio_phase_name(k), 1e3 * p.phase[k][1] / n);
        printf("\n");
    }
    die(lattio_close(f), "close");
    free(local);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) unlink("small_fields.lime"); /* nothing left behind */
    MPI_Finalize();
    return 0;
}
