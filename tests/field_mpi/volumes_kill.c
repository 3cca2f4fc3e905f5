/* volumes_kill.c -- the parallel volume writer killed while it publishes.
 *
 * Usage: test_field_mpi.volumes_kill K (under mpirun).  Every rank writes
 * its volume of a multifile set "set" (lattio_volumes_write: each volume
 * under a temporary name, then rank 0 publishes the set through its
 * journal); rank 0 is SIGKILLed before step K of the publication (test
 * hook lattio_volume_test_kill_at; K < 0: no kill) and the launcher takes
 * the others down.  tests/field_mpi/test_volumes_kill.py runs it for every
 * K over an older, larger set and checks what a reader then finds. */
#include "fmtest.h"

void lattio_volume_test_kill_at(int k);

#define REALS 24

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    const int k = argc > 1 ? atoi(argv[1]) : -1;
    static const uint64_t g[4] = {4, 4, 4, 4};
    int grid[4];
    lattio_layout l;
    fm_grid(0, mpitest_size, grid);
    CHECK_OK(fm_layout(&l, g, grid, mpitest_rank, REALS * 8, 0, 0));
    double *buf = fm_fill(&l, REALS);
    uint64_t *pos, *gr;
    const uint64_t n = fm_sites(&l, &pos, &gr);
    for (uint64_t s = 0; s < n; s++)
        for (uint64_t j = 0; j < REALS; j++) buf[pos[s] * REALS + j] = fm_value(gr[s], j);
    free(pos);
    free(gr);
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, REALS);
    d.datatype = "USQCD_D3_DiracFermion";
    d.colors = 3, d.spins = 4, d.datacount = 1;
    d.date = "Sun Nov 29 12:00:00 2026 UTC";
    if (mpitest_rank == 0) lattio_volume_test_kill_at(k);
    const void *fields[1] = {buf};
    CHECK_OK(lattio_volumes_write(MPI_COMM_WORLD, "set", LATTIO_VOLFMT_MULTI, &d, &l, 1, fields, NULL));
    free(buf);
    return mpitest_finish();
}
