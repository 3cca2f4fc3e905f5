/* recordset_tmlqcd.c -- tmLQCD's propagator files (tests/data/real/tmlqcd,
 * written by tmLQCD on real C-LIME and Lemon): every binary record takes its
 * dims, precision and flavours from the etmc-propagator-format before it
 * (a two-flavour record gives two), checksums and offsets as EXPECTED.md,
 * and lattio_lime_check accepts tmLQCD's record layout.  Written here: the
 * lz tmLQCD prints as lx (the length gives lz; a length that fits no lz,
 * or an lz that is not lx, stays ERR_FIELD_LENGTH), hostile format records
 * (each its status), a binary record no format record describes, and the
 * MB/ME damage the layout exception does not cover. */
#include "fieldtest.h"

static lattio_lime_reader *open_real(const char *file)
{
    lattio_lime_reader *r = NULL;
    CHECK_OK(lattio_lime_reader_open(test_data(file), &r));
    return r;
}

static void check_fermion(const lattio_field_info *fi, int prec, int etmc_record, int flavours)
{
    CHECK_INT(fi->nd, 4);
    CHECK(fi->dims[0] == 2 && fi->dims[1] == 2 && fi->dims[2] == 2 && fi->dims[3] == 4);
    CHECK_INT(fi->precision, prec);
    CHECK_STR(fi->datatype, prec == 64 ? "USQCD_D3_DiracFermion" : "USQCD_F3_DiracFermion");
    CHECK_U64(fi->typesize, 24 * (uint64_t)prec / 8);
    CHECK_U64(fi->datacount, 1);
    CHECK(fi->spins == 4 && fi->colors == 3 && fi->kind == LATTIO_FIELD_GENERIC);
    CHECK_INT(fi->etmc_record, etmc_record);
    CHECK_INT(fi->etmc_flavours, flavours);
    CHECK_U64(fi->etmc_lz_written, 0);
    CHECK(fi->has_checksum && !fi->has_private_record && !fi->has_ildg_format);
}

/* No problem from the structure check: tmLQCD's layout is accepted. */
static void check_layout(const char *file, size_t nrecords)
{
    lattio_problem probs[4];
    size_t count = 9, n = 0;
    CHECK_OK(lattio_lime_check(test_data(file), probs, 4, &count, &n));
    CHECK_U64(count, 0);
    CHECK_U64(n, nrecords);
}

static void twelve_components(void)
{
    lattio_lime_reader *r = open_real("tmlqcd/source.0001.00.inverted");
    int n;
    CHECK_OK(lattio_field_count(r, &n));
    CHECK_INT(n, 12);
    for (int k = 0; k < 12; k++) {
        lattio_field_info fi;
        CHECK_OK(lattio_field_info_read(r, k, &fi));
        check_fermion(&fi, 64, 3 + 3 * k, 1);
        CHECK_U64(fi.binary.offset, 816 + 6928 * (uint64_t)k);
        CHECK_U64(fi.binary.length, 32 * 192);
        if (k == 0) CHECK(fi.stored.suma == 0x42d09d47u && fi.stored.sumb == 0x1f5b8f2fu);
        if (k == 11) CHECK(fi.stored.suma == 0xf135018au && fi.stored.sumb == 0x9677b8e3u);
        lattio_field_info_free(&fi);
    }
    lattio_lime_reader_close(r);
    check_layout("tmlqcd/source.0001.00.inverted", 38);
}

static void two_flavours(void)
{
    /* records: 1 propagator-type, 2 inverter-info, 3 format, 4 and 6
     * binary, 8 propagator-type, 9 inverter-info, 10 format, 11 and 13,
     * 15 format, 16 and 18, 20 format, 21 and 23 */
    static const int format_of[8] = {3, 3, 10, 10, 15, 15, 20, 20};
    lattio_lime_reader *r = open_real("tmlqcd/source.0001.00.hinverted");
    int n;
    CHECK_OK(lattio_field_count(r, &n));
    CHECK_INT(n, 8);
    for (int k = 0; k < 8; k++) {
        lattio_field_info fi;
        CHECK_OK(lattio_field_info_read(r, k, &fi));
        check_fermion(&fi, 32, format_of[k], 2);
        if (k == 1) CHECK(fi.stored.suma == 0xc1ed06eau && fi.stored.sumb == 0x4f86c80du);
        lattio_field_info_free(&fi);
    }
    lattio_lime_reader_close(r);
    check_layout("tmlqcd/source.0001.00.hinverted", 24);
}

static void split_and_gauge(void)
{
    lattio_lime_reader *r = open_real("tmlqcd/source.0001.00.05.inverted");
    lattio_field_info fi;
    CHECK_OK(lattio_field_info_read(r, 0, &fi));
    check_fermion(&fi, 32, 5, 1);
    CHECK(fi.stored.suma == 0xc704070eu && fi.stored.sumb == 0x0a1c6392u);
    lattio_field_info_free(&fi);
    lattio_lime_reader_close(r);
    check_layout("tmlqcd/source.0001.00.05.inverted", 7);
    r = open_real("tmlqcd/conf.0001");
    CHECK_OK(lattio_field_info_read(r, 0, &fi));
    CHECK(fi.kind == LATTIO_FIELD_ILDG_GAUGE && fi.etmc_record == 0 && fi.precision == 64);
    CHECK(fi.stored.suma == 0xebdb3e4du && fi.stored.sumb == 0x102c4c05u);
    lattio_field_info_free(&fi);
    lattio_lime_reader_close(r);
    check_layout("tmlqcd/conf.0001", 4);
}

/* --- files written here ---------------------------------------------------- */

typedef struct rec {
    const char *type;
    const char *text; /* NULL: a binary record of binary_len bytes */
    size_t binary_len;
    int mb, me;
} rec;

static unsigned char zeros[2 * 2 * 4 * 4 * 192];

static void write_file(const char *name, const rec *recs, int n)
{
    lattio_lime_writer *w = NULL;
    CHECK_OK(lattio_lime_writer_open(name, LATTIO_LIME_CREATE, &w));
    for (int i = 0; i < n; i++) {
        const void *p = recs[i].text ? (const void *)recs[i].text : zeros;
        const size_t len = recs[i].text ? strlen(recs[i].text) : recs[i].binary_len;
        CHECK_OK(lattio_lime_writer_record(w, recs[i].type, p, len, recs[i].mb, recs[i].me));
    }
    CHECK_OK(lattio_lime_writer_close(w));
}

/* Field `index` of a file of tmLQCD's shape: a format record with body
 * `fmt`, then `nbin` binary records of `len` bytes, each with a checksum. */
static int etmc_status(const char *type, const char *fmt, size_t len, int nbin, int index, lattio_field_info *out)
{
    char body[512];
    snprintf(body, sizeof body, "<?xml version=\"1.0\"?>\n<etmcFormat>\n%s</etmcFormat>", fmt);
    rec recs[8] = {{type, body, 0, 1, 1}};
    int n = 1;
    for (int b = 0; b < nbin && n < 7; b++) {
        recs[n++] = (rec){"scidac-binary-data", NULL, len, 1, 0};
        recs[n++] = (rec){"scidac-checksum", "<scidacChecksum><suma>0</suma><sumb>0</sumb></scidacChecksum>", 0, 0, 1};
    }
    write_file("etmc.lime", recs, n);
    lattio_lime_reader *r = NULL;
    lattio_field_info fi;
    CHECK_OK(lattio_lime_reader_open("etmc.lime", &r));
    const int rc = lattio_field_info_read(r, index, &fi);
    lattio_lime_reader_close(r);
    if (rc == LATTIO_OK && out) *out = fi;
    else if (rc == LATTIO_OK) lattio_field_info_free(&fi);
    return rc;
}

#define FMT(field, prec, flav, lx, lz) \
    "<field>" field "</field><precision>" #prec "</precision><flavours>" #flav "</flavours>" \
    "<lx>" #lx "</lx><ly>2</ly><lz>" #lz "</lz><lt>4</lt>"

static void lz_as_lx(void)
{
    /* a 2x2x3x4 lattice: tmLQCD writes <lz>2</lz> (its lx) */
    lattio_field_info fi;
    CHECK_OK(etmc_status("etmc-propagator-format", FMT("diracFermion", 64, 1, 2, 2), 2 * 2 * 3 * 4 * 192, 1, 0, &fi));
    CHECK(fi.dims[0] == 2 && fi.dims[1] == 2 && fi.dims[2] == 3 && fi.dims[3] == 4);
    CHECK_U64(fi.etmc_lz_written, 2);
    CHECK_U64(fi.volume, 48);
    lattio_field_info_free(&fi);
    /* the source format prints lz as it is: no correction */
    CHECK_STATUS(etmc_status("etmc-source-format", FMT("diracFermion", 64, 1, 2, 2), 2 * 2 * 3 * 4 * 192, 1, 0, NULL),
                 LATTIO_ERR_FIELD_LENGTH);
    /* an lz that is not lx is not tmLQCD's slip */
    CHECK_STATUS(etmc_status("etmc-propagator-format", FMT("diracFermion", 64, 1, 2, 4), 2 * 2 * 3 * 4 * 192, 1, 0, NULL),
                 LATTIO_ERR_FIELD_LENGTH);
    /* a length that holds no whole number of planes */
    CHECK_STATUS(etmc_status("etmc-propagator-format", FMT("diracFermion", 64, 1, 2, 2), 2 * 2 * 4 * 192 * 5 / 2, 1, 0, NULL),
                 LATTIO_ERR_FIELD_LENGTH);
}

static void hostile_formats(void)
{
    const size_t len = 2 * 2 * 2 * 4 * 192;
    const char *p = "etmc-propagator-format";
    CHECK_STATUS(etmc_status(p, FMT("diracFermion", 16, 1, 2, 2), len, 1, 0, NULL), LATTIO_ERR_FIELD_PRECISION);
    CHECK_STATUS(etmc_status(p, FMT("diracFermion", 64, 3, 2, 2), len, 1, 0, NULL), LATTIO_ERR_BAD_METADATA);
    CHECK_STATUS(etmc_status(p, FMT("diracFermion", 64, 0, 2, 2), len, 1, 0, NULL), LATTIO_ERR_BAD_METADATA);
    CHECK_STATUS(etmc_status(p, FMT("wilsonFermion", 64, 1, 2, 2), len, 1, 0, NULL), LATTIO_ERR_UNSUPPORTED);
    CHECK_STATUS(etmc_status(p, FMT("diracFermion", 64, 1, -2, 2), len, 1, 0, NULL), LATTIO_ERR_BAD_METADATA);
    CHECK_STATUS(etmc_status(p, FMT("diracFermion", 64, 1, 99999999999999999999, 2), len, 1, 0, NULL),
                 LATTIO_ERR_BAD_XML);
    CHECK_STATUS(etmc_status(p, "<field>diracFermion</field><precision>64</precision><lx>2</lx>", len, 1, 0, NULL),
                 LATTIO_ERR_BAD_METADATA);
    CHECK_STATUS(etmc_status(p, "<field>diracFermion<precision>64</precision>", len, 1, 0, NULL),
                 LATTIO_ERR_BAD_METADATA);
    CHECK_STATUS(etmc_status("etmc-source-format", FMT("diracFermion", 64, 1, 2, 2) "<spin>1</spin><colour>3</colour>",
                             len, 1, 0, NULL), LATTIO_ERR_UNSUPPORTED);
    /* 32-bit with twice the sites' length: tmLQCD's slip (lz 4) as far as
     * the lengths tell; the checksum decides (verify, test_tmlqcd.py) */
    lattio_field_info fi;
    CHECK_OK(etmc_status(p, FMT("diracFermion", 32, 1, 2, 2), len, 1, 0, &fi));
    CHECK(fi.dims[2] == 4 && fi.etmc_lz_written == 2);
    lattio_field_info_free(&fi);
    CHECK_STATUS(etmc_status(p, FMT("diracFermion", 32, 1, 2, 3), len, 1, 0, NULL), LATTIO_ERR_FIELD_LENGTH);
    /* one flavour, two binary records: the second is described by nothing */
    CHECK_OK(etmc_status(p, FMT("diracFermion", 64, 1, 2, 2), len, 2, 0, NULL));
    CHECK_STATUS(etmc_status(p, FMT("diracFermion", 64, 1, 2, 2), len, 2, 1, NULL), LATTIO_ERR_BAD_METADATA);
    /* two flavours: both; a third binary record: nothing */
    CHECK_OK(etmc_status(p, FMT("diracFermion", 64, 2, 2, 2), len, 3, 1, NULL));
    CHECK_STATUS(etmc_status(p, FMT("diracFermion", 64, 2, 2, 2), len, 3, 2, NULL), LATTIO_ERR_BAD_METADATA);
}

/* The structure check's count of problems in a file of `recs`. */
static size_t problems(const rec *recs, int n)
{
    write_file("flags.lime", recs, n);
    lattio_problem probs[4];
    size_t count = 0, nrec = 0;
    (void)lattio_lime_check("flags.lime", probs, 4, &count, &nrec);
    for (size_t i = 0; i < count && i < 4; i++) CHECK_INT(probs[i].status, LATTIO_ERR_MBME);
    return count;
}

static void layout_exception(void)
{
    const char *fmt = "<etmcFormat/>", *sum = "<scidacChecksum/>";
    /* tmLQCD's second component: format (MB=0) after a checksum (ME) */
    const rec ok[] = {{"propagator-type", "x", 0, 1, 1}, {"inverter-info", "x", 0, 1, 0},
                      {"etmc-propagator-format", fmt, 0, 0, 1}, {"scidac-binary-data", NULL, 8, 1, 0},
                      {"scidac-checksum", sum, 0, 0, 1}, {"etmc-propagator-format", fmt, 0, 0, 1},
                      {"scidac-binary-data", NULL, 8, 1, 0}, {"scidac-checksum", sum, 0, 0, 1}};
    CHECK_U64(problems(ok, 8), 0);
    /* any other record lacking MB after ME is still damage */
    const rec no_mb[] = {{"etmc-propagator-format", fmt, 0, 1, 1}, {"scidac-binary-data", NULL, 8, 0, 0},
                         {"scidac-checksum", sum, 0, 0, 1}};
    CHECK_U64(problems(no_mb, 3), 1);
    /* the format record opening a message while one is open, and a file
     * whose last message never ends */
    const rec open_msg[] = {{"inverter-info", "x", 0, 1, 0}, {"etmc-propagator-format", fmt, 0, 1, 0},
                            {"scidac-binary-data", NULL, 8, 1, 0}};
    CHECK_U64(problems(open_msg, 3), 3);
}

int main(void)
{
    twelve_components();
    two_flavours();
    split_and_gauge();
    lz_as_lx();
    hostile_formats();
    layout_exception();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
