/* helper_thread.c -- the field writer's ways of running its rounds give
 * the same file: a helper thread staging round q+1 while round q is
 * written (LATTIO_FIELD_THREADS=1, the two threads sharing the blocks of a
 * round) or not (THREADS=0), each under the default strategy, the
 * independent one and the mapped one (where the page cache is the file:
 * both threads converting into or out of the file's pages, taking the
 * blocks of a slab in turn).  For five decompositions, with halos and another memory
 * order (so blocks are packed on both threads), and staging bounds from
 * one site to the default, each file equals the one rank 0 writes alone;
 * under the helper, a round corrupted after staging is caught by the
 * verification and rewritten.  Reading back, with the helper thread
 * converting round q while round q+1 is read or without it, gives every
 * site in the same decompositions and staging bounds. */
#include "fmtest.h"

#include <stdlib.h>

/* strategy: 0 the default, 1 independent, 2 mapped */
static void set_mode(int threads, int strategy)
{
    setenv("LATTIO_FIELD_THREADS", threads ? "1" : "0", 1);
    if (strategy) setenv("LATTIO_STRATEGY", strategy == 1 ? "independent" : "mapped", 1);
    else unsetenv("LATTIO_STRATEGY");
}

/* Write decomposition `variant` (halo/other memory order when `odd`) with
 * staging bound `staging`; 1 on rank 0 when the file equals the reference. */
static int write_case(int variant, int odd, uint64_t staging, int corrupt, int *retries)
{
    int grid[4];
    fm_grid(variant, mpitest_size, grid);
    lattio_layout l;
    CHECK_OK(fm_layout(&l, fm_g, grid, mpitest_rank, 576, odd, odd));
    double *local = fm_fill(&l, 72);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    d.staging_bytes = staging;
    d.verify = corrupt > 0;
    d.verify_retries = 1;
    if (mpitest_rank == 0) lattio_field_test_corrupt_writes(corrupt);
    lattio_field_write_info wi;
    const int rc = fm_write(MPI_COMM_WORLD, "h.lime", &d, &l, local, &wi);
    lattio_field_test_corrupt_writes(0);
    free(local);
    CHECK(fm_same_everywhere(rc));
    CHECK_OK(rc);
    *retries = wi.retries;
    MPI_Barrier(MPI_COMM_WORLD);
    return mpitest_rank != 0 || fm_same_file("h.lime", "ref.lime");
}

/* Every rank reads h.lime in decomposition `variant` (halos and another
 * memory order when `odd`) with staging bound `staging`: all sites right,
 * checksum verified. */
static void read_back(int variant, int odd, uint64_t staging)
{
    lattio_layout l;
    CHECK_OK(fm_decomposed(&l, variant, odd));
    double *local = fm_buffer(&l);
    double *all = fm_whole();
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    d.staging_bytes = staging;
    lattio_field_read_info info;
    CHECK_OK(fm_read(MPI_COMM_WORLD, "h.lime", &d, &l, local, &info));
    CHECK_INT(info.checksum, LATTIO_CHECKSUM_VERIFIED);
    CHECK_U64(fm_mismatches(&l, local, all, 72), 0);
    free(local);
    free(all);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    fm_write_reference("ref.lime", LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    enum { NMODES = 6 };
    static const int modes[NMODES][2] = {{1, 1}, {0, 1}, {1, 0}, {0, 0}, {1, 2}, {0, 2}};
    static const uint64_t stagings[4] = {576, 576 * 7, 576 * 100, 0};
    int retries = -1;
    for (int m = 0; m < NMODES; m++) {
        set_mode(modes[m][0], modes[m][1]);
        for (int v = 0; v < 5; v++)
            for (int odd = 0; odd < 2; odd++)
                for (int s = 0; s < 4; s++) {
                    CHECK(write_case(v, odd, stagings[s], 0, &retries));
                    CHECK_INT(retries, 0);
                }
    }
    for (int m = 0; m < NMODES; m++) { /* the first sites staged: main, then helper */
        set_mode(modes[m][0], modes[m][1]);
        for (int corrupt = 1; corrupt <= 3; corrupt++) {
            CHECK(write_case(0, 1, 576 * 7, corrupt, &retries));
            CHECK_INT(retries, 1);
        }
    }
    CHECK(write_case(2, 1, 576 * 7, 0, &retries));
    for (int m = 0; m < NMODES; m++) { /* reads: helper thread or not, same data */
        set_mode(modes[m][0], modes[m][1]);
        for (int v = 0; v < 5; v++)
            for (int odd = 0; odd < 2; odd++)
                for (int s = 0; s < 4; s++) read_back(v, odd, stagings[s]);
    }
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
