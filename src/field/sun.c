/* sun.c -- the SU(N) arithmetic of the gauge observables, shared by the
 * serial (gauge.c) and parallel (gauge_mpi.c) sums: a link is 2 N^2
 * doubles, an N x N complex matrix row-major with (re, im) pairs. */
#include "field_internal.h"

#include <math.h>

#define RE(m, n, i, j) (m)[2 * ((i) * (n) + (j))]
#define IM(m, n, i, j) (m)[2 * ((i) * (n) + (j)) + 1]

/* c = a * b (n x n, c distinct from a and b). */
static void mul(const double *a, const double *b, double *c, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double re = 0, im = 0;
            for (int k = 0; k < n; k++) {
                re += RE(a, n, i, k) * RE(b, n, k, j) - IM(a, n, i, k) * IM(b, n, k, j);
                im += RE(a, n, i, k) * IM(b, n, k, j) + IM(a, n, i, k) * RE(b, n, k, j);
            }
            RE(c, n, i, j) = re;
            IM(c, n, i, j) = im;
        }
}

double lattio_sun_plaquette(const double *a, const double *b, const double *c, const double *d, int n)
{
    double ab[2 * LATTIO_GAUGE_MAX_COLORS * LATTIO_GAUGE_MAX_COLORS];
    double dc[2 * LATTIO_GAUGE_MAX_COLORS * LATTIO_GAUGE_MAX_COLORS];
    mul(a, b, ab, n); /* U_mu(x) U_nu(x+mu) */
    mul(d, c, dc, n); /* U_nu(x) U_mu(x+nu) */
    double t = 0;     /* Re tr(ab dc^dagger) */
    for (int i = 0; i < 2 * n * n; i++) t += ab[i] * dc[i];
    return t;
}

void lattio_sun_link(const double *m, int n, double *re_tr, double *dev)
{
    double t = 0, worst = 0;
    for (int i = 0; i < n; i++) t += RE(m, n, i, i);
    *re_tr = t;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double re = -(double)(i == j), im = 0;
            for (int k = 0; k < n; k++) { /* conj(U_ki) U_kj */
                re += RE(m, n, k, i) * RE(m, n, k, j) + IM(m, n, k, i) * IM(m, n, k, j);
                im += RE(m, n, k, i) * IM(m, n, k, j) - IM(m, n, k, i) * RE(m, n, k, j);
            }
            const double e = hypot(re, im);
            if (isnan(e)) {
                *dev = INFINITY;
                return;
            }
            if (e > worst) worst = e;
        }
    *dev = worst;
}

int lattio_gauge_colors_of(uint64_t reals)
{
    for (int n = 1; n <= LATTIO_GAUGE_MAX_COLORS; n++)
        if (reals == 2 * (uint64_t)(n * n)) return n;
    return 0;
}
