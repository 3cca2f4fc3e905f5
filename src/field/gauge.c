/* gauge.c -- observables of a 4-D SU(N) gauge field in ILDG order: average
 * plaquette and link trace (Re tr / N) and the largest deviation from
 * unitarity.  Links are N x N complex row-major matrices of doubles. */
#include "field_internal.h"

/* The link U_mu at site rank s. */
static const double *link_at(const double *u, uint64_t s, int mu, int n)
{
    return u + (s * 4 + (uint64_t)mu) * 2 * (uint64_t)(n * n);
}

/* Rank of the neighbour of site x (coordinates) one step up in mu. */
static uint64_t neighbour(const uint64_t *x, const uint64_t *dims, int mu)
{
    uint64_t r = 0;
    for (int d = 3; d >= 0; d--) {
        const uint64_t c = d == mu ? (x[d] + 1) % dims[d] : x[d];
        r = r * dims[d] + c;
    }
    return r;
}

/* Sum over the six planes at site s of Re tr U_mu(x) U_nu(x+mu) U_mu(x+nu)^+ U_nu(x)^+. */
static double site_plaquettes(const double *u, uint64_t s, const uint64_t *x, const uint64_t *dims, int n)
{
    double sum = 0;
    for (int mu = 0; mu < 4; mu++)
        for (int nu = mu + 1; nu < 4; nu++)
            sum += lattio_sun_plaquette(link_at(u, s, mu, n), link_at(u, neighbour(x, dims, mu), nu, n),
                                        link_at(u, neighbour(x, dims, nu), mu, n), link_at(u, s, nu, n), n);
    return sum;
}

int lattio_gauge_stats_compute(const double *u, const uint64_t dims[4], lattio_gauge_stats *out)
{
    return lattio_gauge_stats_compute_nc(u, dims, 3, out);
}

int lattio_gauge_stats_compute_nc(const double *u, const uint64_t dims[4], int colors, lattio_gauge_stats *out)
{
    RETURN_IF(!u || !dims || !out || colors < 1 || colors > LATTIO_GAUGE_MAX_COLORS, LATTIO_ERR_ARG);
    const int n = colors;
    uint64_t vol = 1;
    for (int d = 0; d < 4; d++) {
        RETURN_IF(dims[d] == 0, LATTIO_ERR_ARG);
        RETURN_IF(dims[d] > UINT64_MAX / (8 * (uint64_t)(n * n)) / vol, LATTIO_ERR_OVERFLOW);
        vol *= dims[d];
    }
    double plaq = 0, trace = 0, worst = 0;
    uint64_t x[4] = {0, 0, 0, 0};
    for (uint64_t s = 0; s < vol; s++) {
        plaq += site_plaquettes(u, s, x, dims, n);
        for (int mu = 0; mu < 4; mu++) {
            double t, dev;
            lattio_sun_link(link_at(u, s, mu, n), n, &t, &dev);
            trace += t;
            if (dev > worst) worst = dev;
        }
        for (int d = 0; d < 4 && ++x[d] == dims[d]; d++) x[d] = 0;
    }
    out->plaquette = plaq / ((double)n * 6.0 * (double)vol);
    out->link_trace = trace / ((double)n * 4.0 * (double)vol);
    out->unitarity = worst;
    return LATTIO_OK;
}
