/* bench_field_write.c -- not a test: time of lattio_field_write of a double
 * gauge field (conversion to big-endian + SciDAC checksum through bounded
 * staging + the record set) against lattio_lattice_write of the same bytes
 * in one record, t slabs over the ranks.  Usage: bench L T [reps] (writes
 * bench_*.lime in the working directory). Prints the best time of each and
 * their ratio. */
#include "fmtest.h"

static double timed(int field, const lattio_layout *l, const double *local)
{
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, field ? "bench_field.lime" : "bench_plain.lime",
                         LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    if (field) {
        lattio_field_desc d;
        fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
        CHECK_OK(lattio_field_write(f, &d, l, local, NULL));
    } else {
        CHECK_OK(lattio_record_begin(f, "ildg-binary-data",
                                     lattio_layout_global_sites(l) * 576, 1, 1));
        CHECK_OK(lattio_lattice_write(f, l, 0, local));
        CHECK_OK(lattio_record_end(f, 0));
    }
    CHECK_OK(lattio_close(f));
    double t = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return t;
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    const uint64_t L = argc > 1 ? strtoull(argv[1], NULL, 10) : 8;
    const uint64_t T = argc > 2 ? strtoull(argv[2], NULL, 10) : 16;
    const int reps = argc > 3 ? atoi(argv[3]) : 2;
    const uint64_t g[4] = {L, L, L, T};
    int grid[4];
    fm_grid(0, mpitest_size, grid);
    lattio_layout l;
    CHECK_OK(fm_layout(&l, g, grid, mpitest_rank, 576, 0, 0));
    const uint64_t n = lattio_layout_local_sites(&l) * 72;
    double *local = malloc(n * sizeof *local);
    for (uint64_t i = 0; i < n; i++) local[i] = (double)(i % 1000) * 0.001 - 0.5;
    double best[2] = {1e30, 1e30};
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < 2; k++) {
            const int field = (r + k) % 2;
            const double t = timed(field, &l, local);
            if (t < best[field]) best[field] = t;
        }
    if (mpitest_rank == 0)
        printf("np %d %llux%llux%llux%llu: plain %.3f s, field %.3f s, ratio %.2f\n", mpitest_size,
               (unsigned long long)L, (unsigned long long)L, (unsigned long long)L,
               (unsigned long long)T, best[0], best[1], best[1] / best[0]);
    free(local);
    return mpitest_finish();
}
