/* ILDG -> openQCD -> ILDG is identical in double precision (t_dprec_ildg and
 * an asymmetric 6x4x8x10 field with distinct links); the openQCD bytes are
 * checked against the layout of formats.md computed here: header (N0 = t,
 * N1..N3 = x, y, z, plaquette as Re tr), size, and where U_mu(x) and
 * U_mu(x - mu) of chosen odd sites sit. */
#include "gaugetest.h"

static double le_double(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* u[(r*4+mu)*18 + k] = distinct value from r, mu, k. */
static double *labelled(const uint64_t dims[4])
{
    const uint64_t v = dims[0] * dims[1] * dims[2] * dims[3];
    double *u = lattio_gauge_alloc(v);
    for (uint64_t i = 0; u && i < v * 72; i++) u[i] = (double)i + 0.25;
    return u;
}

/* openQCD file offset of matrix k (0..7) of the odd site with openQCD coordinates c. */
static size_t oq_offset(const uint64_t n[4], const uint64_t c[4], int k)
{
    uint64_t odd_before = 0;
    const uint64_t ix = c[3] + n[3] * (c[2] + n[2] * (c[1] + n[1] * c[0]));
    for (uint64_t j = 0; j < ix; j++) {
        uint64_t t = j, s = 0;
        for (int d = 3; d >= 0; d--) s += t % n[d], t /= n[d];
        odd_before += s % 2;
    }
    return 24 + (size_t)odd_before * 1152 + (size_t)k * 144;
}

static void layout(void)
{
    const uint64_t dims[4] = {6, 4, 8, 10}; /* x y z t */
    double *u = labelled(dims);
    if (!u) return;
    CHECK_OK(lattio_gauge_write("l.oq", LATTIO_GAUGE_OPENQCD, NULL, dims, u));
    size_t n = 0;
    unsigned char *f = test_slurp("l.oq", &n);
    CHECK_U64(n, 24 + 1920 / 2 * 8 * 144);
    if (!f || n != 24 + 1920 / 2 * 1152) return;
    CHECK_U64(le32(f), 10);
    CHECK_U64(le32(f + 4), 6);
    CHECK_U64(le32(f + 8), 4);
    CHECK_U64(le32(f + 12), 8);
    const uint64_t nn[4] = {10, 6, 4, 8};
    /* odd site t=3, x=0, y=0, z=0: +t link is U_t at ILDG rank 0 + 6*4*8*3; -x link is U_x(x=5) */
    const uint64_t c[4] = {3, 0, 0, 0};
    const uint64_t r = 6 * 4 * 8 * 3, rminus_x = r + 5;
    CHECK(le_double(f + oq_offset(nn, c, 0)) == u[(r * 4 + 3) * 18]);
    CHECK(le_double(f + oq_offset(nn, c, 3) + 8 * 17) == u[(rminus_x * 4 + 0) * 18 + 17]);
    /* odd site t=0, x=0, y=0, z=1: -z link is U_z(z=0) at rank 0, -t link U_t(t=9) */
    const uint64_t c2[4] = {0, 0, 0, 1};
    CHECK(le_double(f + oq_offset(nn, c2, 7)) == u[(0 * 4 + 2) * 18]);
    const uint64_t r2 = 6 * 4 + 6 * 4 * 8 * 9;
    CHECK(le_double(f + oq_offset(nn, c2, 1) + 8) == u[(r2 * 4 + 3) * 18 + 1]);
    lattio_gauge_info in;
    double *v = gt_read("l.oq", &in, LATTIO_OK);
    CHECK(v && memcmp(u, v, 1920 * 72 * sizeof(double)) == 0);
    free(f);
    lattio_gauge_free(u), lattio_gauge_free(v);
    /* odd extents have no parity: refused */
    const uint64_t odd[4] = {5, 4, 4, 4};
    double *o = labelled(odd);
    CHECK_STATUS(lattio_gauge_write("o.oq", LATTIO_GAUGE_OPENQCD, NULL, odd, o), LATTIO_ERR_ARG);
    lattio_gauge_free(o);
}

static void real_roundtrip(void)
{
    lattio_gauge_info in, mid;
    double *u = gt_read(test_data("t_dprec_ildg.lime"), &in, LATTIO_OK);
    if (!u) return;
    CHECK_OK(lattio_gauge_write("r.oq", LATTIO_GAUGE_OPENQCD, NULL, in.dims, u));
    double *v = gt_read("r.oq", &mid, LATTIO_OK);
    CHECK_INT(mid.format, LATTIO_GAUGE_OPENQCD);
    CHECK(mid.has_plaquette && fabs(mid.plaquette - 0.038242289410) < 1e-11);
    size_t n = 0;
    unsigned char *f = test_slurp("r.oq", &n);
    CHECK(f && fabs(le_double(f + 16) - 3 * 0.038242289410) < 3e-11);
    CHECK(v && memcmp(u, v, 256 * 72 * sizeof(double)) == 0);
    if (v) CHECK_OK(lattio_gauge_write("r.lime", LATTIO_GAUGE_ILDG, NULL, mid.dims, v));
    size_t n1 = 0, n2 = 0;
    unsigned char *a = ft_binary("t_dprec_ildg.lime", 0, &n1), *b = gt_binary("r.lime", &n2);
    CHECK(a && b && n1 == n2 && memcmp(a, b, n1) == 0);
    free(a), free(b), free(f);
    lattio_gauge_free(u), lattio_gauge_free(v);
}

int main(void)
{
    layout();
    real_roundtrip();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
