/* Format detection from content: every real file, files lattio wrote in
 * each format, and names from/to strings. */
#include "gaugetest.h"

int main(void)
{
    static const char *const lime[] = {"unity.lime", "t_dprec_ildg.lime", "lat.sample.l4444.ildg",
                                       "t_qio.intel-scalar.lime", "lime_writer_test1.lime"};
    int f;
    for (size_t i = 0; i < 5; i++) {
        CHECK_OK(lattio_gauge_detect(test_data(lime[i]), &f));
        CHECK_INT(f, LATTIO_GAUGE_ILDG);
    }
    CHECK_OK(lattio_gauge_detect(test_data("t_nersc.cfg"), &f));
    CHECK_INT(f, LATTIO_GAUGE_NERSC);
    lattio_gauge_info in;
    double *u = gt_read(test_data("unity.lime"), &in, LATTIO_OK);
    if (!u) return test_finish();
    for (int fmt = LATTIO_GAUGE_ILDG; fmt <= LATTIO_GAUGE_OPENQCD; fmt++) {
        lattio_gauge_write_options opt;
        lattio_gauge_write_options_default(&opt, fmt);
        for (int little = 0; little < 2; little++) {
            opt.little_endian = little;
            CHECK_OK(lattio_gauge_write("x", fmt, &opt, in.dims, u));
            CHECK_OK(lattio_gauge_detect("x", &f));
            CHECK_INT(f, fmt == LATTIO_GAUGE_SCIDAC ? LATTIO_GAUGE_ILDG : fmt);
            lattio_gauge_info back;
            double *v = gt_read("x", &back, LATTIO_OK);
            CHECK_INT(back.format, fmt);
            CHECK(v && memcmp(u, v, 256 * 72 * 8) == 0);
            lattio_gauge_free(v);
        }
        static const char *const names[] = {"", "ildg", "scidac", "nersc", "milc", "openqcd"};
        CHECK_STR(lattio_gauge_format_name(fmt), names[fmt]);
        CHECK_INT(lattio_gauge_format_from_name(lattio_gauge_format_name(fmt)), fmt);
    }
    CHECK_INT(lattio_gauge_format_from_name("lime"), LATTIO_GAUGE_UNKNOWN);
    CHECK_STATUS(lattio_gauge_detect("missing", &f), LATTIO_ERR_OPEN);
    lattio_gauge_free(u);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
