/* volumes_bench.c -- a double gauge-sized field (72 reals per site) written
 * and read as one file (lattio_field_write / _read), as a QIO multifile set
 * (a volume per rank) and as a partfile set (a volume per node), t slabs
 * over the ranks, the cases alternating within each repetition so machine
 * noise hits all; then rank 0 joins the partfile set into one file and
 * splits it again (lattio_volumes_join / _split, QIO's serial converters'
 * job).  Prints the median and minimum seconds of each and the ratio of
 * the medians to the single file's.  Before every timed write rank 0
 * removes the previous output and calls sync(), untimed.
 *   mpirun -np N volumes_bench L T [reps]
 * Writes bench_single.lime, bench_multi.vol*, bench_part.vol* and
 * bench_joined.lime in the working directory. */
#define _DEFAULT_SOURCE 1 /* sync() */
#include "lattio.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REALS 72
#define CASES 7
#define MAX_REPS 32

static int rank_, size_;
static const char *const names[CASES] = {"write single", "write multi", "write part", "read single",
                                         "read multi",   "read part",   "join+split (rank 0)"};

static void die(int rc, const char *what)
{
    if (rc == LATTIO_OK) return;
    char detail[256];
    lattio_last_detail(detail, sizeof detail);
    fprintf(stderr, "volumes_bench: %s: %s (%s)\n", what, lattio_strerror(rc), detail);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Rank 0 removes the outputs of case c (all: c < 0) and syncs, untimed. */
static void clean(int c)
{
    static const char *const out[3] = {"bench_single.lime", "bench_multi.vol*", "bench_part.vol*"};
    if (rank_ == 0) {
        char cmd[160];
        snprintf(cmd, sizeof cmd, "rm -f %s bench_joined.lime bench_split.vol*",
                 c < 0 ? "bench_single.lime bench_multi.vol* bench_part.vol*" : out[c]);
        if (system(cmd) != 0) fprintf(stderr, "volumes_bench: rm failed\n");
        sync();
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static double run(int c, const lattio_field_desc *d, const lattio_layout *l, double *buf)
{
    if (c < 3) clean(c);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    const void *fields[1] = {buf};
    lattio_file *f = NULL;
    lattio_field_read_info info;
    switch (c) {
    case 0:
        die(lattio_open(MPI_COMM_WORLD, "bench_single.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f), "open");
        die(lattio_field_write(f, d, l, buf, NULL), "field write");
        die(lattio_close(f), "close");
        break;
    case 1: die(lattio_volumes_write(MPI_COMM_WORLD, "bench_multi", LATTIO_VOLFMT_MULTI, d, l, 1, fields, NULL), "multi");
        break;
    case 2: die(lattio_volumes_write(MPI_COMM_WORLD, "bench_part", LATTIO_VOLFMT_PART, d, l, 1, fields, NULL), "part");
        break;
    case 3:
        die(lattio_open(MPI_COMM_WORLD, "bench_single.lime", LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f), "open");
        die(lattio_field_read(f, 0, d, l, buf, &info), "field read");
        lattio_field_info_free(&info.field);
        die(lattio_close(f), "close");
        break;
    case 4:
    case 5:
        die(lattio_volumes_read(MPI_COMM_WORLD, c == 4 ? "bench_multi" : "bench_part", 0, d, l, buf, &info), "read");
        lattio_field_info_free(&info.field);
        break;
    default:
        if (rank_ == 0) {
            lattio_volumes_plan p;
            memset(&p, 0, sizeof p);
            p.volfmt = LATTIO_VOLFMT_PART, p.nd = 4;
            p.grid[0] = p.grid[1] = p.grid[2] = 1, p.grid[3] = size_;
            die(lattio_volumes_join("bench_part", "bench_joined.lime"), "join");
            die(lattio_volumes_split("bench_joined.lime", "bench_split", &p), "split");
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return MPI_Wtime() - t0;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    const uint64_t L = argc > 1 ? strtoull(argv[1], NULL, 10) : 8, T = argc > 2 ? strtoull(argv[2], NULL, 10) : 16;
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps;
    const uint64_t global[4] = {T, L, L, L}; /* file order t, z, y, x */
    uint64_t lo[4] = {0, 0, 0, 0}, count[4] = {T, L, L, L};
    die(lattio_split(T, (uint64_t)size_, (uint64_t)rank_, &lo[0], &count[0]), "split");
    lattio_layout l;
    die(lattio_layout_init(&l, 4, global, lo, count, REALS * sizeof(double)), "layout");
    const uint64_t n = lattio_layout_local_sites(&l) * REALS;
    double *buf = malloc((n ? n : 1) * sizeof *buf);
    for (uint64_t i = 0; i < n; i++) buf[i] = (double)((i * 2654435761u + (uint64_t)rank_) % 1000) / 999.0;
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, REALS);
    d.datacount = 4;
    double t[CASES][MAX_REPS];
    for (int r = 0; r < reps; r++)
        for (int c = 0; c < CASES; c++) t[c][r] = run(c, &d, &l, buf);
    if (rank_ == 0) {
        const double bytes = (double)(L * L * L * T) * REALS * 8;
        printf("volumes_bench: %d ranks, %llux%llux%llux%llu sites x %d doubles = %.0f MB, %d reps\n", size_,
               (unsigned long long)L, (unsigned long long)L, (unsigned long long)L, (unsigned long long)T, REALS,
               bytes / 1e6, reps);
        double med[CASES];
        for (int c = 0; c < CASES; c++) {
            qsort(t[c], (size_t)reps, sizeof(double), cmp);
            med[c] = t[c][reps / 2];
            const double base = c < 3 ? med[0] : c < 6 ? med[3] : med[c];
            printf("  %-20s median %.3f s  min %.3f s  %7.0f MB/s  ratio to single %.2f\n", names[c], med[c], t[c][0],
                   bytes / 1e6 / med[c], med[c] / base);
        }
    }
    clean(-1);
    free(buf);
    MPI_Finalize();
    return 0;
}
