/* small_fields.c -- many small fields into one file: the cost per
 * lattio_field_write of an L^4 double gauge field (ILDG record set with
 * conversion and SciDAC checksum) when a code writes N of them through one
 * handle (propagator sources, smeared links, a stream of measurements),
 * and its phase breakdown (mean over ranks).  Fine splits go through the
 * aggregate strategy, whose sharing group and window buffers the file keeps
 * between calls.
 *   mpirun -np P small_fields [L [N [split]]]     split: x (default) or 4d
 * Then the cost of a whole file of N fields (lattio_open, N writes,
 * lattio_close: the median of 3 new files) against rank 0 alone writing the
 * same bytes with write() (open, one write per field, close; the floor of
 * issue 45's per-call cost), measured in the same run.
 * Writes small_fields.lime (and small_fields.posix) in the working directory
 * and removes them at the end. */
#define _DEFAULT_SOURCE 1 /* unlink() */
#include "lattio.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void die(int rc, const char *what);

/* Seconds of one whole file of n fields through lattio (every rank). */
static double lattio_file_time(const lattio_field_desc *d, const lattio_layout *l, const double *local, int n)
{
    lattio_file *f = NULL;
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    die(lattio_open(MPI_COMM_WORLD, "small_fields.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f), "open");
    for (int i = 0; i < n; i++) die(lattio_field_write(f, d, l, local, NULL), "field write");
    die(lattio_close(f), "close");
    double t = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return t;
}

/* Seconds of rank 0 writing n fields' bytes with write() (0 elsewhere). */
static double posix_file_time(size_t bytes, int n, int rank)
{
    double t = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        char *buf = calloc(bytes ? bytes : 1, 1);
        const double t0 = MPI_Wtime();
        int fd = open("small_fields.posix", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        for (int i = 0; buf && fd >= 0 && i < n; i++)
            if (write(fd, buf, bytes) != (ssize_t)bytes) die(LATTIO_ERR_WRITE, "write()");
        if (fd < 0 || close(fd) != 0) die(LATTIO_ERR_WRITE, "posix file");
        t = MPI_Wtime() - t0;
        free(buf);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return t;
}

/* The whole-file line: medians of 3 of each, alternating. */
static void whole_files(const lattio_field_desc *d, const lattio_layout *l, const double *local, int n, int rank,
                        size_t field_bytes)
{
    double a[3], b[3];
    for (int k = 0; k < 3; k++) {
        a[k] = lattio_file_time(d, l, local, n);
        b[k] = posix_file_time(field_bytes, n, rank);
    }
    qsort(a, 3, sizeof *a, cmp_double);
    qsort(b, 3, sizeof *b, cmp_double);
    if (rank == 0)
        printf("  whole file of %d fields (open, writes, close; median of 3): %.3f ms, %.3f ms per field; "
               "rank 0's write() of the same bytes: %.3f ms; ratio %.2f\n",
               n, 1e3 * a[1], 1e3 * a[1] / n, 1e3 * b[1], a[1] / b[1]);
}

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
    whole_files(&d, &l, local, n, rank, (size_t)(L * L * L * L) * 576);
    free(local);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) unlink("small_fields.lime"), unlink("small_fields.posix"); /* nothing left behind */
    MPI_Finalize();
    return 0;
}
