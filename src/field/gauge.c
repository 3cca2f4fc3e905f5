/* gauge.c -- observables of a 4-D SU(3) gauge field in ILDG order: average
 * plaquette and link trace (Re tr / 3) and the largest deviation from
 * unitarity.  Links are 3x3 complex row-major matrices of doubles. */
#include "field_internal.h"

/* The link U_mu at site rank s. */
static const double *link_at(const double *u, uint64_t s, int mu)
{
    return u + (s * 4 + (uint64_t)mu) * 18;
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
static double site_plaquettes(const double *u, uint64_t s, const uint64_t *x, const uint64_t *dims)
{
    double sum = 0;
    for (int mu = 0; mu < 4; mu++)
        for (int nu = mu + 1; nu < 4; nu++)
            sum += lattio_su3_plaquette(link_at(u, s, mu), link_at(u, neighbour(x, dims, mu), nu),
                                        link_at(u, neighbour(x, dims, nu), mu), link_at(u, s, nu));
    return sum;
}

int lattio_gauge_stats_compute(const double *u, const uint64_t dims[4], lattio_gauge_stats *out)
{
    RETURN_IF(!u || !dims || !out, LATTIO_ERR_ARG);
    uint64_t vol = 1;
    for (int d = 0; d < 4; d++) {
        RETURN_IF(dims[d] == 0, LATTIO_ERR_ARG);
        RETURN_IF(dims[d] > UINT64_MAX / 72 / vol, LATTIO_ERR_OVERFLOW);
        vol *= dims[d];
    }
    double plaq = 0, trace = 0, worst = 0;
    uint64_t x[4] = {0, 0, 0, 0};
    for (uint64_t s = 0; s < vol; s++) {
        plaq += site_plaquettes(u, s, x, dims);
        for (int mu = 0; mu < 4; mu++) {
            double t, dev;
            lattio_su3_link(link_at(u, s, mu), &t, &dev);
            trace += t;
            if (dev > worst) worst = dev;
        }
        for (int d = 0; d < 4 && ++x[d] == dims[d]; d++) x[d] = 0;
    }
    out->plaquette = plaq / (3.0 * 6.0 * (double)vol);
    out->link_trace = trace / (3.0 * 4.0 * (double)vol);
    out->unitarity = worst;
    return LATTIO_OK;
}
