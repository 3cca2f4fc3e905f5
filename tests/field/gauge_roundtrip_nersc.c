/* ILDG -> NERSC (3x3) -> ILDG keeps the binary payload bit for bit in the
 * same precision: t_dprec_ildg.lime in 64 bits, lat.sample.l4444.ildg in 32
 * bits, big- and little-endian NERSC; the NERSC link data equal the ILDG
 * payload byte for byte when big-endian (same order, same representation). */
#include "gaugetest.h"

static void roundtrip(const char *file, int precision, int little)
{
    lattio_gauge_info in, mid, out;
    double *u = gt_read(test_data(file), &in, LATTIO_OK);
    if (!u) return;
    CHECK_INT(in.precision, precision);
    lattio_gauge_write_options opt;
    lattio_gauge_write_options_default(&opt, LATTIO_GAUGE_NERSC);
    opt.precision = precision;
    opt.little_endian = little;
    CHECK_OK(lattio_gauge_write("mid.nersc", LATTIO_GAUGE_NERSC, &opt, in.dims, u));
    double *v = gt_read("mid.nersc", &mid, LATTIO_OK);
    CHECK_INT(mid.rows, 3);
    CHECK_INT(mid.little_endian, little);
    CHECK_INT(mid.precision, precision);
    CHECK(v && memcmp(u, v, gt_volume(&in) * 72 * sizeof(double)) == 0);
    if (v) CHECK_OK(lattio_gauge_write("back.lime", LATTIO_GAUGE_ILDG, &opt, mid.dims, v));
    size_t n1 = 0, n2 = 0, nn = 0;
    unsigned char *a = ft_binary(file, 0, &n1), *b = gt_binary("back.lime", &n2);
    CHECK(a && b && n1 == n2 && memcmp(a, b, n1) == 0);
    double *w = gt_read("back.lime", &out, LATTIO_OK);
    CHECK_U64(out.computed[0], in.stored[0]);
    CHECK_U64(out.computed[1], in.stored[1]);
    unsigned char *nersc = test_slurp("mid.nersc", &nn);
    if (!little && nersc && a)
        CHECK(nn == mid.data_offset + n1 && memcmp(nersc + mid.data_offset, a, n1) == 0);
    free(a), free(b), free(nersc);
    lattio_gauge_free(u), lattio_gauge_free(v), lattio_gauge_free(w);
}

int main(void)
{
    roundtrip("t_dprec_ildg.lime", 64, 0);
    roundtrip("t_dprec_ildg.lime", 64, 1);
    roundtrip("lat.sample.l4444.ildg", 32, 0);
    roundtrip("lat.sample.l4444.ildg", 32, 1);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
