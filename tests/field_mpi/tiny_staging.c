/* tiny_staging.c -- staging forced down to one x row (6 sites) or one site:
 * many rounds, uneven splits and (on 2+ ranks) a rank with an empty box,
 * which takes part in every round with nothing to move.  Under the
 * independent and mapped strategies the rounds are the largest box's rows
 * (sites); under
 * every strategy the file equals the one rank 0 writes alone, and reading with the staging bound from LATTIO_STAGING_BYTES
 * returns every site. */
#include "fmtest.h"

#include <stdlib.h>

/* t split unevenly over all ranks but the last, which owns nothing. */
static void layout_with_empty_rank(lattio_layout *l)
{
    uint64_t lo[4] = {0, 0, 0, 0}, count[4] = {6, 4, 8, 10};
    const int writers = mpitest_size > 1 ? mpitest_size - 1 : 1;
    if (mpitest_rank < writers)
        lattio_split(10, (uint64_t)writers, (uint64_t)mpitest_rank, &lo[3], &count[3]);
    else
        count[3] = 0;
    CHECK_OK(lattio_layout_init(l, 4, fm_g, lo, count, 576));
    for (int d = 0; d < 4; d++) l->file_order[d] = l->mem_order[d] = fm_file_order[d];
    CHECK_OK(lattio_layout_check(l));
}

static uint64_t max_sites(const lattio_layout *l)
{
    uint64_t n = lattio_layout_local_sites(l), m = 0;
    MPI_Allreduce(&n, &m, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

static void write_tiny(const lattio_layout *l, uint64_t staging, uint64_t rounds)
{
    double *local = fm_fill(l, 72);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    d.staging_bytes = staging;
    static const char *const strategies[] = {"independent", "collective", "aggregate", "serial", "mapped", NULL};
    for (int s = 0; s < 6; s++) {
        if (strategies[s]) setenv("LATTIO_STRATEGY", strategies[s], 1);
        else unsetenv("LATTIO_STRATEGY");
        lattio_field_write_info wi;
        CHECK_OK(fm_write(MPI_COMM_WORLD, "tiny.lime", &d, l, local, &wi));
        if (s < 2 || s == 4) CHECK_U64(wi.rounds, rounds); /* slabs of the box */
        if (mpitest_rank == 0) CHECK(fm_same_file("tiny.lime", "ref.lime"));
        MPI_Barrier(MPI_COMM_WORLD);
    }
    unsetenv("LATTIO_STRATEGY");
    free(local);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Read with a 4-D decomposition, one site per round from the environment. */
static void read_tiny(void)
{
    int grid[4];
    fm_grid(3, mpitest_size, grid);
    lattio_layout l;
    CHECK_OK(fm_layout(&l, fm_g, grid, mpitest_rank, 576, 1, 1));
    double *local = fm_buffer(&l);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, 0);
    setenv("LATTIO_STAGING_BYTES", "576", 1);
    lattio_file *f = NULL;
    lattio_field_read_info info;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "tiny.lime", LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_field_read(f, 0, &d, &l, local, &info));
    unsetenv("LATTIO_STAGING_BYTES");
    CHECK_U64(info.rounds, max_sites(&l));
    CHECK_INT(info.checksum, LATTIO_CHECKSUM_VERIFIED);
    lattio_field_info_free(&info.field);
    CHECK_OK(lattio_close(f));
    double *all = malloc(6 * 4 * 8 * 10 * 72 * sizeof *all);
    for (uint64_t i = 0; i < 6 * 4 * 8 * 10 * 72; i++) all[i] = fm_value(i / 72, i % 72);
    CHECK_U64(fm_mismatches(&l, local, all, 72), 0);
    free(all);
    free(local);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    fm_write_reference("ref.lime", LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    lattio_layout l;
    layout_with_empty_rank(&l);
    write_tiny(&l, 6 * 576, max_sites(&l) / 6); /* one x row per round */
    write_tiny(&l, 1, max_sites(&l));            /* one site per round */
    int grid[4];
    fm_grid(2, mpitest_size, grid); /* x split: 6 over 4 gives rows of 2 and 1 */
    CHECK_OK(fm_layout(&l, fm_g, grid, mpitest_rank, 576, 0, 0));
    /* 7 sites of staging, local boxes 10 x 8 x 4 x cx (file order): cx = 6
     * (1 rank) takes single y rows: 320 rounds; cx = 3 or 2 takes 2 or 3
     * rows of y: 10 * 8 * 2 = 160; cx = 1 (on 4 ranks, beside cx = 2) takes
     * whole z planes of 4 sites: 80, so the maximum is 160. */
    static const uint64_t rounds[5] = {0, 320, 160, 160, 160};
    write_tiny(&l, 576 * 7, rounds[mpitest_size]);
    read_tiny();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
