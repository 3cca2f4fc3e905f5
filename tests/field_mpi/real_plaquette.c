/* real_plaquette.c -- the real gauge files read in parallel (two
 * decompositions) give the plaquette and link trace EXPECTED.md lists
 * (typed in here), computed by lattio_gauge_stats_mpi on the distributed
 * links; unity.lime is unitary to rounding. */
#include "fmtest.h"

static const struct {
    const char *file;
    double plaquette, link_trace;
} expected[] = {
    {"unity.lime", 1.000000000000, 1.000000000000},
    {"t_dprec_ildg.lime", 0.038242289410, 0.463032210005},
    {"lat.sample.l4444.ildg", 0.594850158947, 0.646758737419},
};

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    const uint64_t g[4] = {4, 4, 4, 4};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        for (int v = 0; v < 5; v += 3) {
            int grid[4];
            fm_grid(v, mpitest_size, grid);
            lattio_layout l;
            CHECK_OK(fm_layout(&l, g, grid, mpitest_rank, 576, v == 3, v == 3));
            double *local = fm_buffer(&l);
            lattio_field_desc d;
            lattio_field_desc_default(&d, LATTIO_FIELD_ILDG_GAUGE, LATTIO_REAL_F64_NATIVE, 0, 72);
            lattio_file *f = NULL;
            CHECK_OK(lattio_open(MPI_COMM_WORLD, test_data(expected[i].file), LATTIO_MODE_READ,
                                 MPI_INFO_NULL, NULL, &f));
            CHECK_OK(lattio_field_read(f, -1, &d, &l, local, NULL));
            CHECK_OK(lattio_close(f));
            lattio_gauge_stats s;
            CHECK_OK(lattio_gauge_stats_mpi(MPI_COMM_WORLD, &l, local, &s));
            CHECK(fabs(s.plaquette - expected[i].plaquette) < 1e-11);
            CHECK(fabs(s.link_trace - expected[i].link_trace) < 1e-11);
            if (i == 0) CHECK(s.unitarity < 1e-14);
            if (mpitest_rank == 0 && (fabs(s.plaquette - expected[i].plaquette) >= 1e-11))
                fprintf(stderr, "%s: plaquette %.12f\n", expected[i].file, s.plaquette);
            free(local);
        }
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
