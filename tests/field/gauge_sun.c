/* gauge_sun.c -- SU(N) gauge fields in C: the observables of a field of
 * diagonal phase links against the closed form (links commute, so a
 * plaquette is the mean over colours of cos(theta_mu(x) + theta_nu(x+mu)
 * - theta_mu(x+nu) - theta_nu(x))), for N = 2, 4, 6; the field written as
 * ILDG, SciDAC, NERSC and HiRep and read back equal with its N; MILC and
 * openQCD refuse N != 3, NERSC's two-row storage too; a HiRep file cut by
 * a byte is not taken for one; N of a matrix's reals and the default record
 * XML. */
#include "fieldtest.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const uint64_t DIMS[4] = {2, 3, 2, 4}; /* lx, ly, lz, lt */
#define VOL (2 * 3 * 2 * 4)

static double theta(uint64_t s, int mu, int k) { return 0.3 * (double)s + 1.1 * mu + 0.7 * k * k + 0.05 * (double)(s * s % 7); }

static uint64_t up(uint64_t s, int mu)
{
    uint64_t x[4], r = 0;
    for (int d = 0; d < 4; d++) x[d] = s % DIMS[d], s /= DIMS[d];
    x[mu] = (x[mu] + 1) % DIMS[mu];
    for (int d = 3; d >= 0; d--) r = r * DIMS[d] + x[d];
    return r;
}

static void fill(double *u, int n)
{
    memset(u, 0, (size_t)VOL * 8 * (size_t)(n * n) * sizeof *u);
    for (uint64_t s = 0; s < VOL; s++)
        for (int mu = 0; mu < 4; mu++)
            for (int k = 0; k < n; k++) {
                double *m = u + (s * 4 + (uint64_t)mu) * 2 * (uint64_t)(n * n);
                m[2 * (k * n + k)] = cos(theta(s, mu, k));
                m[2 * (k * n + k) + 1] = sin(theta(s, mu, k));
            }
}

static void closed_form(int n, double *plaq, double *trace)
{
    double p = 0, t = 0;
    for (uint64_t s = 0; s < VOL; s++)
        for (int mu = 0; mu < 4; mu++) {
            for (int k = 0; k < n; k++) t += cos(theta(s, mu, k));
            for (int nu = mu + 1; nu < 4; nu++)
                for (int k = 0; k < n; k++)
                    p += cos(theta(s, mu, k) + theta(up(s, mu), nu, k) - theta(up(s, nu), mu, k) - theta(s, nu, k));
        }
    *plaq = p / (6.0 * n * VOL), *trace = t / (4.0 * n * VOL);
}

static void round_trip(const double *u, int n, int format, const char *path)
{
    lattio_gauge_write_options o;
    lattio_gauge_write_options_default(&o, format);
    o.colors = n;
    CHECK_OK(lattio_gauge_write(path, format, &o, DIMS, u));
    lattio_gauge_info info;
    double *v = NULL;
    CHECK_OK(lattio_gauge_read(path, &info, &v));
    CHECK_INT(info.colors, n);
    CHECK_INT(info.format, format);
    CHECK(v && memcmp(u, v, (size_t)VOL * 8 * (size_t)(n * n) * sizeof *u) == 0);
    lattio_gauge_stats st;
    CHECK_OK(lattio_gauge_stats_compute_nc(v, DIMS, n, &st));
    CHECK_OK(lattio_gauge_check_header(&info, &st));
    lattio_gauge_free(v);
}

int main(void)
{
    static double u[VOL * 8 * 36];
    for (int n = 2; n <= 6; n += 2) {
        fill(u, n);
        double p, t;
        closed_form(n, &p, &t);
        lattio_gauge_stats st;
        CHECK_OK(lattio_gauge_stats_compute_nc(u, DIMS, n, &st));
        CHECK(fabs(st.plaquette - p) < 1e-13 && fabs(st.link_trace - t) < 1e-13 && st.unitarity < 1e-14);
        round_trip(u, n, LATTIO_GAUGE_ILDG, "sun.ildg");
        round_trip(u, n, LATTIO_GAUGE_SCIDAC, "sun.scidac");
        round_trip(u, n, LATTIO_GAUGE_NERSC, "sun.nersc");
        round_trip(u, n, LATTIO_GAUGE_HIREP, "sun.hirep");
        lattio_gauge_write_options o;
        lattio_gauge_write_options_default(&o, LATTIO_GAUGE_MILC);
        o.colors = n;
        CHECK_STATUS(lattio_gauge_write("sun.milc", LATTIO_GAUGE_MILC, &o, DIMS, u), LATTIO_ERR_UNSUPPORTED);
        CHECK_STATUS(lattio_gauge_write("sun.oqcd", LATTIO_GAUGE_OPENQCD, &o, DIMS, u), LATTIO_ERR_UNSUPPORTED);
        lattio_gauge_write_options_default(&o, LATTIO_GAUGE_NERSC);
        o.colors = n, o.nersc_rows = 2;
        CHECK_STATUS(lattio_gauge_write("sun2.nersc", LATTIO_GAUGE_NERSC, &o, DIMS, u), LATTIO_ERR_UNSUPPORTED);
    }
    CHECK_STATUS(lattio_gauge_stats_compute_nc(u, DIMS, LATTIO_GAUGE_MAX_COLORS + 1, &(lattio_gauge_stats){0}),
                 LATTIO_ERR_ARG);
    /* N of a matrix's reals, the default record XML */
    CHECK_INT(lattio_gauge_colors_of(2), 1);
    CHECK_INT(lattio_gauge_colors_of(8), 2);
    CHECK_INT(lattio_gauge_colors_of(18), 3);
    CHECK_INT(lattio_gauge_colors_of(2 * 16 * 16), 16);
    CHECK_INT(lattio_gauge_colors_of(2 * 17 * 17), 0);
    CHECK_INT(lattio_gauge_colors_of(72), 6);
    CHECK_INT(lattio_gauge_colors_of(7), 0);
    CHECK(strstr(lattio_gauge_record_xml(3), "SU(3) gauge field") && strstr(lattio_gauge_record_xml(0), "SU(3)"));
    CHECK(strstr(lattio_gauge_record_xml(4), "SU(N) gauge field") != NULL);
    /* a HiRep file a byte short is no HiRep file */
    size_t len;
    unsigned char *raw = test_slurp("sun.hirep", &len);
    FILE *f = fopen("cut.hirep", "wb");
    CHECK(raw && f && fwrite(raw, 1, len - 1, f) == len - 1);
    if (f) fclose(f);
    free(raw);
    int format = -1;
    CHECK_STATUS(lattio_gauge_detect("cut.hirep", &format), LATTIO_ERR_UNKNOWN_FORMAT);
    const char *files[] = {"sun.ildg", "sun.scidac", "sun.nersc", "sun.hirep", "cut.hirep"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) remove(files[i]);
    return test_finish();
}
