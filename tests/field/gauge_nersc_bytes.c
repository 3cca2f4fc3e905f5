/* NERSC written by lattio against the real file: t_dprec_ildg.lime written
 * as 4D_SU3_GAUGE IEEE32BIG stores exactly t_nersc.cfg's link bytes and its
 * checksum 717938df; t_nersc.cfg written as ILDG in 32 bits, read back and
 * written in 64 bits gives t_dprec_ildg.lime's binary payload bit for bit
 * (QIO's nersc2ildg stored the rebuilt third row rounded to single
 * precision: it equals lattio's double reconstruction rounded to float). */
#include "gaugetest.h"

static void nersc_from_ildg(void)
{
    lattio_gauge_info in, back;
    double *u = gt_read(test_data("t_dprec_ildg.lime"), &in, LATTIO_OK);
    if (!u) return;
    lattio_gauge_write_options opt;
    lattio_gauge_write_options_default(&opt, LATTIO_GAUGE_NERSC);
    opt.precision = 32;
    opt.nersc_rows = 2;
    CHECK_OK(lattio_gauge_write("out.nersc", LATTIO_GAUGE_NERSC, &opt, in.dims, u));
    size_t n_ours = 0, n_real = 0;
    unsigned char *ours = test_slurp("out.nersc", &n_ours);
    unsigned char *real = test_slurp(test_data("t_nersc.cfg"), &n_real);
    CHECK(ours && real);
    const char *end = ours ? strstr((const char *)ours, "END_HEADER\n") : NULL;
    CHECK(end != NULL);
    if (ours && real && end) {
        const size_t h = (size_t)(end - (const char *)ours) + 11;
        CHECK_U64(n_ours - h, n_real - 586);
        CHECK(n_ours - h == n_real - 586 && memcmp(ours + h, real + 586, n_real - 586) == 0);
        CHECK(strstr((const char *)ours, "CHECKSUM = 717938df\n") != NULL);
        CHECK(strstr((const char *)ours, "DATATYPE = 4D_SU3_GAUGE\n") != NULL);
        CHECK(strstr((const char *)ours, "FLOATING_POINT = IEEE32BIG\n") != NULL);
    }
    double *v = gt_read("out.nersc", &back, LATTIO_OK);
    CHECK_U64(back.computed[0], 0x717938df);
    free(ours);
    free(real);
    lattio_gauge_free(u);
    lattio_gauge_free(v);
}

static void ildg_from_nersc(void)
{
    lattio_gauge_info in;
    double *u = gt_read(test_data("t_nersc.cfg"), &in, LATTIO_OK);
    if (!u) return;
    lattio_gauge_write_options opt;
    lattio_gauge_write_options_default(&opt, LATTIO_GAUGE_ILDG);
    opt.precision = 32;
    CHECK_OK(lattio_gauge_write("out32.lime", LATTIO_GAUGE_ILDG, &opt, in.dims, u));
    lattio_gauge_info mid;
    double *v = gt_read("out32.lime", &mid, LATTIO_OK);
    CHECK_INT(mid.precision, 32);
    if (v) CHECK_OK(lattio_gauge_write("out.lime", LATTIO_GAUGE_ILDG, NULL, mid.dims, v));
    lattio_gauge_free(v);
    size_t n1 = 0, n2 = 0;
    unsigned char *ours = gt_binary("out.lime", &n1);
    unsigned char *real = ft_binary("t_dprec_ildg.lime", 0, &n2);
    CHECK(ours && real && n1 == 147456 && n2 == n1 && memcmp(ours, real, n1) == 0);
    lattio_field_info fi;
    lattio_scidac_sum sum;
    CHECK_OK(lattio_field_verify("out.lime", 0, &fi, &sum));
    CHECK_U64(sum.suma, 0xe6ca40a6);
    CHECK_U64(sum.sumb, 0x59cdeef1);
    CHECK_INT(fi.kind, LATTIO_FIELD_ILDG_GAUGE);
    CHECK_INT(fi.precision, 64);
    lattio_field_info_free(&fi);
    free(ours);
    free(real);
    lattio_gauge_free(u);
}

/* The header of the file a save comes from (opt.nersc_header): lattio's
 * own keys take its values, other keys follow them, the computed keys stay
 * lattio's, the binary data is unchanged; a malformed line is ERR_ARG and
 * no file. */
static void header_kept(void)
{
    lattio_gauge_info in;
    double *u = gt_read(test_data("t_nersc.cfg"), &in, LATTIO_OK);
    if (!u) return;
    lattio_gauge_write_options opt;
    lattio_gauge_write_options_default(&opt, LATTIO_GAUGE_NERSC);
    opt.precision = 32;
    opt.nersc_rows = 2;
    opt.nersc_header = "ENSEMBLE_ID = szin\nSEQUENCE_NUMBER = 17\nCREATOR = someone\n"
                       "BOUNDARY_4 = ANTIPERIODIC\nMY_OWN_KEY = 1 2 3\nCHECKSUM = 00000000\nPLAQUETTE = 9";
    CHECK_OK(lattio_gauge_write("kept.nersc", LATTIO_GAUGE_NERSC, &opt, in.dims, u));
    size_t n = 0;
    char *h = (char *)test_slurp("kept.nersc", &n);
    CHECK(h != NULL);
    if (h) {
        const char *want[] = {"ENSEMBLE_ID = szin\n", "SEQUENCE_NUMBER = 17\n", "CREATOR = someone\n",
                              "BOUNDARY_4 = ANTIPERIODIC\n", "BOUNDARY_1 = PERIODIC\n", "MY_OWN_KEY = 1 2 3\n",
                              "CHECKSUM = 717938df\n"};
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) CHECK(strstr(h, want[i]) != NULL);
        CHECK(strstr(h, "CHECKSUM = 00000000") == NULL && strstr(h, "PLAQUETTE = 9") == NULL);
        CHECK(strstr(h, "MY_OWN_KEY") < strstr(h, "FLOATING_POINT"));
        CHECK(strstr(h, "ENSEMBLE_ID") && strstr(strstr(h, "ENSEMBLE_ID") + 1, "ENSEMBLE_ID") == NULL);
    }
    free(h);
    double *v = gt_read("kept.nersc", &in, LATTIO_OK); /* the stored checksum holds */
    lattio_gauge_free(v);
    static const char *const bad[] = {"NO EQUALS SIGN", "BAD KEY! = 1", " = empty key",
                                      "LONG = xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                                      "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        opt.nersc_header = bad[i];
        remove("bad.nersc");
        CHECK_INT(lattio_gauge_write("bad.nersc", LATTIO_GAUGE_NERSC, &opt, in.dims, u), LATTIO_ERR_ARG);
        FILE *f = fopen("bad.nersc", "rb");
        CHECK(f == NULL);
        if (f) fclose(f);
    }
    lattio_gauge_free(u);
}

int main(void)
{
    nersc_from_ildg();
    ildg_from_nersc();
    header_kept();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
