/* gauge.c -- observables of a 4-D SU(3) gauge field in ILDG order: average
 * plaquette and link trace (Re tr / 3) and the largest deviation from
 * unitarity.  Links are 3x3 complex row-major matrices of doubles. */
#include "field_internal.h"

#include <math.h>

typedef struct cmat {
    double re[3][3], im[3][3];
} cmat;

/* The link U_mu at site rank s. */
static void load_link(const double *u, uint64_t s, int mu, cmat *m)
{
    const double *p = u + (s * 4 + (uint64_t)mu) * 18;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            m->re[i][j] = p[2 * (3 * i + j)];
            m->im[i][j] = p[2 * (3 * i + j) + 1];
        }
}

/* c = a * b, or a * b^dagger when dag_b. */
static void mul(const cmat *a, const cmat *b, int dag_b, cmat *c)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double re = 0, im = 0;
            for (int k = 0; k < 3; k++) {
                const double br = dag_b ? b->re[j][k] : b->re[k][j];
                const double bi = dag_b ? -b->im[j][k] : b->im[k][j];
                re += a->re[i][k] * br - a->im[i][k] * bi;
                im += a->re[i][k] * bi + a->im[i][k] * br;
            }
            c->re[i][j] = re;
            c->im[i][j] = im;
        }
}

/* Re tr(a * b^dagger). */
static double re_tr_mul_dag(const cmat *a, const cmat *b)
{
    double t = 0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) t += a->re[i][k] * b->re[i][k] + a->im[i][k] * b->im[i][k];
    return t;
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
        for (int nu = mu + 1; nu < 4; nu++) {
            cmat a, b, c, d, ab, dc;
            load_link(u, s, mu, &a);
            load_link(u, neighbour(x, dims, mu), nu, &b);
            load_link(u, neighbour(x, dims, nu), mu, &c);
            load_link(u, s, nu, &d);
            mul(&a, &b, 0, &ab);  /* U_mu(x) U_nu(x+mu) */
            mul(&d, &c, 0, &dc);  /* U_nu(x) U_mu(x+nu) */
            sum += re_tr_mul_dag(&ab, &dc);
        }
    return sum;
}

/* max_ij |(U^dagger U - 1)_ij|; infinity when anything is NaN. */
static double unitarity_deviation(const cmat *m)
{
    double worst = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double re = -(double)(i == j), im = 0;
            for (int k = 0; k < 3; k++) { /* conj(U_ki) U_kj */
                re += m->re[k][i] * m->re[k][j] + m->im[k][i] * m->im[k][j];
                im += m->re[k][i] * m->im[k][j] - m->im[k][i] * m->re[k][j];
            }
            const double e = hypot(re, im);
            if (isnan(e)) return INFINITY;
            if (e > worst) worst = e;
        }
    return worst;
}

/* Trace and unitarity deviation of one link. */
static void link_stats(const cmat *m, double *re_tr, double *dev)
{
    *re_tr = m->re[0][0] + m->re[1][1] + m->re[2][2];
    *dev = unitarity_deviation(m);
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
            cmat m;
            double t, dev;
            load_link(u, s, mu, &m);
            link_stats(&m, &t, &dev);
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
