/* t_nersc.cfg through lattio_gauge_read: header facts, checksum 717938df
 * stored and recomputed, plaquette and link trace as EXPECTED.md says
 * (typed in here), and its first two rows equal t_dprec_ildg.lime's
 * exactly (the same configuration), the rebuilt third row within 1e-7. */
#include "gaugetest.h"

int main(void)
{
    lattio_gauge_info in, ild;
    double *u = gt_read(test_data("t_nersc.cfg"), &in, LATTIO_OK);
    double *w = gt_read(test_data("t_dprec_ildg.lime"), &ild, LATTIO_OK);
    CHECK(u && w);
    if (!u || !w) return test_finish();
    CHECK_INT(in.format, LATTIO_GAUGE_NERSC);
    CHECK_INT(in.rows, 2);
    CHECK_INT(in.precision, 32);
    CHECK_INT(in.little_endian, 0);
    CHECK_U64(in.data_offset, 586);
    CHECK_U64(in.data_length, 49738 - 586);
    for (int d = 0; d < 4; d++) CHECK_U64(in.dims[d], 4);
    CHECK_INT(in.checksum_kind, LATTIO_GSUM_NERSC);
    CHECK(in.has_checksum);
    CHECK_U64(in.stored[0], 0x717938df);
    CHECK_U64(in.computed[0], 0x717938df);
    CHECK(in.has_plaquette && fabs(in.plaquette - 0.0382422893) < 1e-12);
    CHECK(in.has_link_trace && fabs(in.link_trace - 0.4630322094) < 1e-12);
    lattio_gauge_stats st;
    CHECK_OK(lattio_gauge_stats_compute(u, in.dims, &st));
    CHECK(fabs(st.plaquette - 0.0382422893) < 1e-10);
    CHECK(fabs(st.link_trace - 0.4630322098) < 1e-10);
    CHECK(st.unitarity < 1e-6);
    CHECK_OK(lattio_gauge_check_header(&in, &st));
    CHECK_INT(ild.format, LATTIO_GAUGE_ILDG);
    CHECK_U64(ild.computed[0], 0xe6ca40a6);
    size_t rows01_equal = 0, n = 0;
    double worst3 = 0;
    for (uint64_t l = 0; l < 256 * 4; l++)
        for (int k = 0; k < 18; k++, n++) {
            const double a = u[l * 18 + k], b = w[l * 18 + k];
            if (k < 12) rows01_equal += memcmp(&a, &b, sizeof a) == 0;
            else if (fabs(a - b) > worst3) worst3 = fabs(a - b);
        }
    CHECK_U64(rows01_equal, 256 * 4 * 12);
    CHECK(worst3 < 1e-7);
    /* a header value moved by 1e-5 fails the comparison */
    in.plaquette += 1e-5;
    CHECK_STATUS(lattio_gauge_check_header(&in, &st), LATTIO_ERR_PLAQUETTE);
    lattio_gauge_free(u);
    lattio_gauge_free(w);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
