/* gauge_observables.c -- average plaquette and link trace of every ILDG
 * gauge file in EXPECTED.md (values typed in from there), read through the
 * serial reference reader (checksum verified, converted to doubles); the
 * links of the real configurations are unitary to their precision. */
#include "fieldtest.h"

#include <math.h>

static const struct {
    const char *file;
    double plaquette, link_trace, unitarity_max;
} expected[] = {
    {"unity.lime", 1.000000000000, 1.000000000000, 0.0},
    {"t_dprec_ildg.lime", 0.038242289410, 0.463032210005, 1e-6},
    {"lat.sample.l4444.ildg", 0.594850158947, 0.646758737419, 1e-5},
};

static void check_file(int k)
{
    lattio_lime_reader *r = NULL;
    lattio_field_info fi;
    CHECK_OK(lattio_lime_reader_open(test_data(expected[k].file), &r));
    CHECK_OK(lattio_field_info_read(r, 0, &fi));
    CHECK_INT(fi.kind, LATTIO_FIELD_ILDG_GAUGE);
    const uint64_t n = fi.volume * 72;
    double *u = malloc(n * sizeof *u);
    CHECK_OK(lattio_field_read_double(r, &fi, u, n, NULL));
    lattio_gauge_stats st;
    CHECK_OK(lattio_gauge_stats_compute(u, fi.dims, &st));
    if (fabs(st.plaquette - expected[k].plaquette) > 1e-12 ||
        fabs(st.link_trace - expected[k].link_trace) > 1e-12)
        fprintf(stderr, "%s: plaquette %.12f link trace %.12f\n", expected[k].file, st.plaquette,
                st.link_trace);
    CHECK(fabs(st.plaquette - expected[k].plaquette) <= 1e-12);
    CHECK(fabs(st.link_trace - expected[k].link_trace) <= 1e-12);
    CHECK(st.unitarity <= expected[k].unitarity_max);
    if (k == 0) CHECK(st.unitarity == 0.0);
    free(u);
    lattio_field_info_free(&fi);
    lattio_lime_reader_close(r);
}

/* A link scaled by 2 is far from unitary; one NaN makes the deviation infinite. */
static void check_nonunitary(void)
{
    const uint64_t dims[4] = {2, 2, 2, 2};
    double *u = calloc(16 * 72, sizeof *u);
    for (int l = 0; l < 16 * 4; l++)
        for (int i = 0; i < 3; i++) u[l * 18 + 2 * (3 * i + i)] = 1.0;
    lattio_gauge_stats st;
    CHECK_OK(lattio_gauge_stats_compute(u, dims, &st));
    CHECK(st.unitarity == 0.0 && st.plaquette == 1.0 && st.link_trace == 1.0);
    u[5 * 18 + 0] = 2.0; /* (0,0) of one link: (U^+U)_00 = 4 */
    CHECK_OK(lattio_gauge_stats_compute(u, dims, &st));
    CHECK(fabs(st.unitarity - 3.0) < 1e-15);
    u[7 * 18 + 3] = NAN;
    CHECK_OK(lattio_gauge_stats_compute(u, dims, &st));
    CHECK(isinf(st.unitarity));
    free(u);
}

int main(void)
{
    for (size_t k = 0; k < sizeof expected / sizeof expected[0]; k++) check_file((int)k);
    check_nonunitary();
    return test_finish();
}
