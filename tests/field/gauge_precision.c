/* 64 -> 32 -> 64: every value comes back as the nearest float of the
 * original (single rounding, no double rounding through other formats),
 * through ILDG, SciDAC, NERSC and MILC; the 32-bit ILDG payload is the
 * big-endian float of each double. */
#include "gaugetest.h"

static void through(int format)
{
    lattio_gauge_info in, mid, out;
    double *u = gt_read(test_data("t_dprec_ildg.lime"), &in, LATTIO_OK);
    if (!u) return;
    lattio_gauge_write_options opt;
    lattio_gauge_write_options_default(&opt, format);
    opt.precision = 32;
    CHECK_OK(lattio_gauge_write("p32", format, &opt, in.dims, u));
    double *v = gt_read("p32", &mid, LATTIO_OK);
    CHECK_INT(mid.precision, 32);
    CHECK_INT(mid.format, format);
    opt.precision = 64;
    if (v) CHECK_OK(lattio_gauge_write("p64.lime", LATTIO_GAUGE_ILDG, &opt, mid.dims, v));
    double *w = gt_read("p64.lime", &out, LATTIO_OK);
    size_t same = 0;
    for (size_t i = 0; w && i < 256 * 72; i++) same += w[i] == (double)(float)u[i];
    CHECK_U64(same, 256 * 72);
    lattio_gauge_free(u), lattio_gauge_free(v), lattio_gauge_free(w);
}

static void payload32(void)
{
    lattio_gauge_info in;
    double *u = gt_read(test_data("t_dprec_ildg.lime"), &in, LATTIO_OK);
    lattio_gauge_write_options opt;
    lattio_gauge_write_options_default(&opt, LATTIO_GAUGE_ILDG);
    opt.precision = 32;
    if (u) CHECK_OK(lattio_gauge_write("x32.lime", LATTIO_GAUGE_ILDG, &opt, in.dims, u));
    size_t n = 0;
    unsigned char *b = gt_binary("x32.lime", &n);
    CHECK_U64(n, 256 * 288);
    size_t same = 0;
    for (size_t i = 0; b && u && i < 256 * 72; i++) {
        const float f = (float)u[i];
        uint32_t bits;
        memcpy(&bits, &f, 4);
        const unsigned char be[4] = {bits >> 24, bits >> 16 & 255, bits >> 8 & 255, bits & 255};
        same += memcmp(b + 4 * i, be, 4) == 0;
    }
    CHECK_U64(same, 256 * 72);
    free(b);
    lattio_gauge_free(u);
}

int main(void)
{
    through(LATTIO_GAUGE_ILDG);
    through(LATTIO_GAUGE_SCIDAC);
    through(LATTIO_GAUGE_NERSC);
    through(LATTIO_GAUGE_MILC);
    payload32();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
