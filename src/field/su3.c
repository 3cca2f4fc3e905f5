/* su3.c -- the SU(3) arithmetic of the gauge observables, shared by the
 * serial (gauge.c) and parallel (gauge_mpi.c) sums: a link is 18 doubles, a
 * 3x3 complex matrix row-major with (re, im) pairs. */
#include "field_internal.h"

#include <math.h>

typedef struct cmat {
    double re[3][3], im[3][3];
} cmat;

static void load(const double *p, cmat *m)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            m->re[i][j] = p[2 * (3 * i + j)];
            m->im[i][j] = p[2 * (3 * i + j) + 1];
        }
}

/* c = a * b. */
static void mul(const cmat *a, const cmat *b, cmat *c)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double re = 0, im = 0;
            for (int k = 0; k < 3; k++) {
                re += a->re[i][k] * b->re[k][j] - a->im[i][k] * b->im[k][j];
                im += a->re[i][k] * b->im[k][j] + a->im[i][k] * b->re[k][j];
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

double lattio_su3_plaquette(const double *a, const double *b, const double *c, const double *d)
{
    cmat ma, mb, mc, md, ab, dc;
    load(a, &ma);
    load(b, &mb);
    load(c, &mc);
    load(d, &md);
    mul(&ma, &mb, &ab); /* U_mu(x) U_nu(x+mu) */
    mul(&md, &mc, &dc); /* U_nu(x) U_mu(x+nu) */
    return re_tr_mul_dag(&ab, &dc);
}

void lattio_su3_link(const double *p, double *re_tr, double *dev)
{
    cmat m;
    load(p, &m);
    *re_tr = m.re[0][0] + m.re[1][1] + m.re[2][2];
    double worst = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double re = -(double)(i == j), im = 0;
            for (int k = 0; k < 3; k++) { /* conj(U_ki) U_kj */
                re += m.re[k][i] * m.re[k][j] + m.im[k][i] * m.im[k][j];
                im += m.re[k][i] * m.im[k][j] - m.im[k][i] * m.re[k][j];
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
