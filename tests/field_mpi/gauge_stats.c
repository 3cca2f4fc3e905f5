/* gauge_stats.c -- lattio_gauge_stats_mpi over five decompositions (with
 * halos and another memory order), a file order with x slowest, and a rank
 * with an empty box gives the serial lattio_gauge_stats_compute's
 * plaquette and link trace (to rounding of the summation order) and exactly
 * its unitarity; boxes that do not tile the lattice (sites missing, or overlapping
 * boxes whose counts add up) are ERR_LAYOUT. */
#include "fmtest.h"

#define VOL (6 * 4 * 8 * 10)

static lattio_gauge_stats serial;

static void compare(const lattio_layout *l)
{
    double *local = fm_fill(l, 72);
    lattio_gauge_stats s;
    CHECK_OK(lattio_gauge_stats_mpi(MPI_COMM_WORLD, l, local, &s));
    CHECK(fabs(s.plaquette - serial.plaquette) <= 1e-13 * fabs(serial.plaquette));
    CHECK(fabs(s.link_trace - serial.link_trace) <= 1e-13 * fabs(serial.link_trace) + 1e-16);
    CHECK(s.unitarity == serial.unitarity);
    free(local);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    double *all = malloc((size_t)VOL * 72 * sizeof *all);
    for (uint64_t i = 0; i < (uint64_t)VOL * 72; i++) all[i] = fm_value(i / 72, i % 72);
    CHECK_OK(lattio_gauge_stats_compute(all, fm_g, &serial));
    CHECK(serial.plaquette != 0 && serial.unitarity > 0.1);
    lattio_layout l;
    for (int v = 0; v < 5; v++) {
        int grid[4];
        fm_grid(v, mpitest_size, grid);
        CHECK_OK(fm_layout(&l, fm_g, grid, mpitest_rank, 576, v % 2, v >= 3));
        compare(&l);
    }
    /* a rank with nothing: t over all ranks but the last */
    uint64_t lo[4] = {0, 0, 0, 0}, count[4] = {6, 4, 8, 10};
    const int parts = mpitest_size > 1 ? mpitest_size - 1 : 1;
    if (mpitest_rank < parts) lattio_split(10, (uint64_t)parts, (uint64_t)mpitest_rank, &lo[3], &count[3]);
    else count[3] = 0;
    CHECK_OK(lattio_layout_init(&l, 4, fm_g, lo, count, 576));
    for (int d = 0; d < 4; d++) l.file_order[d] = l.mem_order[d] = fm_file_order[d];
    compare(&l);
    /* overlapping boxes (every rank the whole lattice) on 2+ ranks */
    if (mpitest_size > 1) {
        const uint64_t zero[4] = {0, 0, 0, 0};
        CHECK_OK(lattio_layout_init(&l, 4, fm_g, zero, fm_g, 576));
        for (int d = 0; d < 4; d++) l.file_order[d] = l.mem_order[d] = fm_file_order[d];
        lattio_gauge_stats s;
        CHECK_STATUS(lattio_gauge_stats_mpi(MPI_COMM_WORLD, &l, all, &s), LATTIO_ERR_LAYOUT);
        /* the site counts add up, but the last rank's slab starts one t
         * early (overlapping its neighbour) and ends one early (a hole) */
        uint64_t lo2[4] = {0, 0, 0, 0}, count2[4] = {6, 4, 8, 0};
        lattio_split(10, (uint64_t)mpitest_size, (uint64_t)mpitest_rank, &lo2[3], &count2[3]);
        if (mpitest_rank == mpitest_size - 1) lo2[3]--;
        CHECK_OK(lattio_layout_init(&l, 4, fm_g, lo2, count2, 576));
        for (int d = 0; d < 4; d++) l.file_order[d] = l.mem_order[d] = fm_file_order[d];
        CHECK_STATUS(lattio_gauge_stats_mpi(MPI_COMM_WORLD, &l, all, &s), LATTIO_ERR_LAYOUT);
    }
    free(all);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
