/* field_bench.c -- time of lattio_field_write of a double gauge field
 * (conversion to big-endian + SciDAC checksum, double-buffered staging,
 * the ILDG record set) against lattio_lattice_write of the same bytes in
 * one record, t slabs over the ranks, in the same run (the cases alternate
 * so machine noise hits both).  Prints min and median of each, the ratio
 * field/plain of the medians and of the minima, and the field write's
 * phase breakdown (lattio_profile_get, mean over ranks, last repetition);
 * also the same figures for the write calls alone (lattio_profile_get's
 * call time: open, close, rename and the replaced file's removal excluded).
 *   mpirun -np N field_bench L T [reps] [sync]
 * sync=1: lattio_options.durable (MPI_File_sync before close) for both.
 * Before every timed write rank 0 removes the previous file and calls
 * sync(), untimed, so no case inherits another's dirty pages.
 * Then reads both files back (page cache), field read with checksum
 * verification against lattio_lattice_read of the binary record.
 * Writes bench_plain.lime / bench_field.lime in the working directory. */
#define _DEFAULT_SOURCE 1 /* sync() */
#include "lattio.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int rank_;

static void die(int rc, const char *what)
{
    if (rc == LATTIO_OK) return;
    fprintf(stderr, "field_bench: %s: %s\n", what, lattio_strerror(rc));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Collective: the breakdown so far; printed when `show`; returns the
 * calls' time (max over ranks). */
static double profile(lattio_file *f, int show)
{
    lattio_profile p;
    die(lattio_profile_get(f, &p), "profile");
    if (rank_ != 0 || !show) return p.total[2];
    printf("  field write phases (mean over ranks, s):");
    for (int k = 0; k < LATTIO_NPHASES; k++)
        if (p.phase[k][1] >= 0.0005) printf(" %s %.3f", lattio_phase_name(k), p.phase[k][1]);
    printf(" | total %.3f\n", p.total[1]);
    return p.total[2];
}

/* One write of the field (field = 1) or of its bytes (0): seconds from open
 * to close and (*call) in the write calls alone (profile), max over ranks. */
static double timed(int field, int durable, const lattio_layout *l, const double *local, int last,
                    double *call)
{
    lattio_options opt;
    lattio_options_default(&opt);
    opt.durable = durable;
    const char *path = field ? "bench_field.lime" : "bench_plain.lime";
    if (rank_ == 0) { /* same start for every case: no old file, nothing dirty */
        unlink(path);
        sync();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    lattio_file *f = NULL;
    die(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, &opt, &f), "open");
    if (field) {
        lattio_field_desc d;
        lattio_field_desc_default(&d, LATTIO_FIELD_ILDG_GAUGE, LATTIO_REAL_F64_NATIVE,
                                  LATTIO_REAL_F64_BE, 72);
        d.date = "Mon Jan  1 00:00:00 2024";
        die(lattio_field_write(f, &d, l, local, NULL), "field write");
    } else {
        die(lattio_record_begin(f, "ildg-binary-data", lattio_layout_global_sites(l) * 576, 1, 1),
            "begin");
        die(lattio_lattice_write(f, l, 0, local), "lattice write");
        die(lattio_record_end(f, 0), "end");
    }
    *call = profile(f, field && last);
    die(lattio_close(f), "close");
    double t = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return t;
}

/* One read of the file the last write left (field = 1: lattio_field_read
 * with conversion and checksum verification; 0: lattio_lattice_read of the
 * binary record), open to close, max over ranks (page cache). */
static double timed_read(int field, const lattio_layout *l, double *local)
{
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    lattio_file *f = NULL;
    die(lattio_open(MPI_COMM_WORLD, field ? "bench_field.lime" : "bench_plain.lime",
                    LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f), "open for reading");
    if (field) {
        lattio_field_desc d;
        lattio_field_desc_default(&d, LATTIO_FIELD_ILDG_GAUGE, LATTIO_REAL_F64_NATIVE,
                                  LATTIO_REAL_F64_BE, 72);
        lattio_field_read_info info;
        die(lattio_field_read(f, 0, &d, l, local, &info), "field read");
        lattio_field_info_free(&info.field);
    } else {
        lattio_record_info ri;
        die(lattio_record_find(f, "ildg-binary-data", 0, &ri), "find");
        die(lattio_lattice_read(f, l, 0, local), "lattice read");
    }
    die(lattio_close(f), "close");
    double t = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return t;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* t slabs: rank r holds t in [lo, lo + count); file order t, z, y, x. */
static void slab_layout(lattio_layout *l, uint64_t L, uint64_t T, int rank, int size)
{
    const uint64_t g[4] = {L, L, L, T};
    uint64_t lo[4] = {0, 0, 0, 0}, count[4] = {L, L, L, T};
    die(lattio_split(T, (uint64_t)size, (uint64_t)rank, &lo[3], &count[3]), "split");
    die(lattio_layout_init(l, 4, g, lo, count, 576), "layout");
    static const int order[4] = {3, 2, 1, 0};
    for (int d = 0; d < 4; d++) l->file_order[d] = l->mem_order[d] = order[d];
    die(lattio_layout_check(l), "layout");
}

int main(int argc, char **argv)
{
    int provided = 0; /* FUNNELED: lattio's field I/O may use a helper thread */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const uint64_t L = argc > 1 ? strtoull(argv[1], NULL, 10) : 8;
    const uint64_t T = argc > 2 ? strtoull(argv[2], NULL, 10) : 16;
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    const int sync = argc > 4 ? atoi(argv[4]) : 0;
    if (reps < 1 || reps > 100) reps = 3;
    lattio_layout l;
    slab_layout(&l, L, T, rank_, size);
    const uint64_t n = lattio_layout_local_sites(&l) * 72;
    double *local = malloc(n ? n * sizeof *local : 1);
    if (!local) die(LATTIO_ERR_NOMEM, "buffer");
    for (uint64_t i = 0; i < n; i++) local[i] = (double)(i % 1000) * 0.001 - 0.5;
    double t[2][100], c[2][100];
    timed(0, sync, &l, local, 0, &c[0][0]); /* warm-up: touch the pages of both paths */
    timed(1, sync, &l, local, 0, &c[1][0]);
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < 2; k++) {
            const int field = (r + k) % 2;
            t[field][r] = timed(field, sync, &l, local, r == reps - 1 && field, &c[field][r]);
        }
    double rd[2][100];
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < 2; k++) rd[(r + k) % 2][r] = timed_read((r + k) % 2, &l, local);
    if (rank_ == 0) {
        for (int k = 0; k < 2; k++) {
            qsort(t[k], (size_t)reps, sizeof(double), cmp);
            qsort(c[k], (size_t)reps, sizeof(double), cmp);
            qsort(rd[k], (size_t)reps, sizeof(double), cmp);
        }
        const double gb = (double)(L * L * L * T) * 576 / 1e9;
        printf("np %d %llux%llux%llux%llu (%.2f GB)%s reps %d: plain min %.3f med %.3f s, "
               "field min %.3f med %.3f s, ratio med %.2f min %.2f\n",
               size, (unsigned long long)L, (unsigned long long)L, (unsigned long long)L,
               (unsigned long long)T, gb, sync ? " +fsync" : "", reps, t[0][0], t[0][reps / 2],
               t[1][0], t[1][reps / 2], t[1][reps / 2] / t[0][reps / 2], t[1][0] / t[0][0]);
        printf("  write calls alone (open/close excluded): plain min %.3f med %.3f s, field min "
               "%.3f med %.3f s, ratio med %.2f min %.2f; field %.2f GB/s\n",
               c[0][0], c[0][reps / 2], c[1][0], c[1][reps / 2], c[1][reps / 2] / c[0][reps / 2],
               c[1][0] / c[0][0], gb / c[1][0]);
        printf("  reads (page cache, open to close): plain min %.3f med %.3f s, field (verified) "
               "min %.3f med %.3f s, ratio med %.2f min %.2f\n",
               rd[0][0], rd[0][reps / 2], rd[1][0], rd[1][reps / 2], rd[1][reps / 2] / rd[0][reps / 2],
               rd[1][0] / rd[0][0]);
    }
    free(local);
    MPI_Finalize();
    return 0;
}
