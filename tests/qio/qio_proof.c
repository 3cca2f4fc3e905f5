/* qio_proof.c -- lattio's files read by USQCD's QIO, built from its own
 * sources (scripts/qio-proof.sh), and QIO's read by lattio.  lattio writes
 * a multi-record file of three Dirac fermions (double), a single-precision
 * Dirac propagator and an SU(2) ILDG gauge field; QIO's reader must find
 * in each record the datatype, precision, colors, spins, typesize and
 * datacount lattio wrote, accept every checksum (QIO_read_record_data
 * compares them) and hand over the values written.  Then QIO writes two
 * fermion fields through its own writer and lattio must read them with
 * their types, checksums and values, and lattio's own writing of the same
 * fields with QIO's texts and date is QIO's file byte for byte.  Built only when QIO is found
 * (-DQIO_DIR=...); the suite without QIO does not have this test. */
#include "testutil.h"

#include <qio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t DIMS[4] = {4, 2, 2, 6}; /* lx, ly, lz, lt */
#define VOL (4 * 2 * 2 * 6)

/* --- QIO's layout of one node: site index = lattio's site rank ----------- */

static int latsize[4] = {4, 2, 2, 6};
static int node_number(const int c[]) { (void)c; return 0; }
static int node_index(const int c[]) { return c[0] + latsize[0] * (c[1] + latsize[1] * (c[2] + latsize[2] * c[3])); }
static void get_coords(int c[], int node, int index)
{
    (void)node;
    for (int d = 0; d < 4; d++) c[d] = index % latsize[d], index /= latsize[d];
}
static int num_sites(int node) { (void)node; return VOL; }

static QIO_Layout layout(void)
{
    QIO_Layout l;
    memset(&l, 0, sizeof l);
    l.node_number = node_number, l.node_index = node_index, l.get_coords = get_coords, l.num_sites = num_sites;
    l.latsize = latsize, l.latdim = 4, l.volume = VOL, l.sites_on_node = VOL;
    l.this_node = 0, l.number_of_nodes = 1;
    return l;
}

/* What a record must say, and its values (native doubles, file order). */
typedef struct expect {
    const char *datatype, *precision;
    int colors, spins;
    size_t typesize;
    int datacount;
    const double *values; /* typesize * datacount / word reals per site */
} expect;

typedef struct sink {
    unsigned char *bytes;
    size_t datum;
} sink;

static void put(char *buf, size_t index, int count, void *arg)
{
    (void)count;
    sink *s = arg;
    memcpy(s->bytes + index * s->datum, buf, s->datum);
}

/* QIO reads every record of path; each must be the next of want. */
static void qio_reads(const char *path, const expect *want, int n)
{
    QIO_Layout l = layout();
    QIO_Iflag iflag = {QIO_SERIAL, QIO_UNKNOWN};
    QIO_String *xml = QIO_string_create();
    QIO_Reader *in = QIO_open_read(xml, path, &l, NULL, &iflag);
    CHECK(in != NULL);
    if (!in) return;
    int k = 0;
    for (;; k++) {
        QIO_RecordInfo ri;
        QIO_String *rxml = QIO_string_create();
        const int st = QIO_read_record_info(in, &ri, rxml);
        QIO_string_destroy(rxml);
        if (st == QIO_EOF) break;
        CHECK_INT(st, QIO_SUCCESS);
        if (st != QIO_SUCCESS || k >= n) break;
        const expect *e = &want[k];
        CHECK_STR(QIO_get_datatype(&ri), e->datatype);
        CHECK_STR(QIO_get_precision(&ri), e->precision);
        CHECK_INT(QIO_get_colors(&ri), e->colors);
        CHECK_INT(QIO_get_spins(&ri), e->spins);
        CHECK_U64(QIO_get_typesize(&ri), e->typesize);
        CHECK_INT(QIO_get_datacount(&ri), e->datacount);
        const int word = e->precision[0] == 'F' ? 4 : 8;
        sink s = {malloc(VOL * e->typesize * (size_t)e->datacount), e->typesize * (size_t)e->datacount};
        CHECK_INT(QIO_read_record_data(in, put, s.datum, word, &s), QIO_SUCCESS); /* checksum compared by QIO */
        const size_t reals = VOL * s.datum / (size_t)word;
        int same = s.bytes != NULL;
        for (size_t i = 0; same && i < reals; i++) {
            double v;
            if (word == 4) {
                float f;
                memcpy(&f, s.bytes + 4 * i, 4);
                v = f;
                same = v == (double)(float)e->values[i];
            } else {
                memcpy(&v, s.bytes + 8 * i, 8);
                same = v == e->values[i];
            }
        }
        CHECK(same);
        free(s.bytes);
    }
    CHECK_INT(k, n);
    QIO_close_read(in);
    QIO_string_destroy(xml);
}

/* --- lattio writes, QIO reads ------------------------------------------- */

static lattio_layout whole(size_t site_bytes)
{
    const uint64_t g[4] = {DIMS[3], DIMS[2], DIMS[1], DIMS[0]}, lo[4] = {0, 0, 0, 0};
    lattio_layout l;
    CHECK_OK(lattio_layout_init(&l, 4, g, lo, g, site_bytes));
    return l;
}

static void fill(double *v, size_t n, double seed)
{
    for (size_t i = 0; i < n; i++) v[i] = seed + 0.001 * (double)i - 0.25 * (double)(i % 7);
}

static void lattio_writes_qio_reads(void)
{
    static double ferm[3][VOL * 24], prop[VOL * 288];
    for (int f = 0; f < 3; f++) fill(ferm[f], VOL * 24, f + 1);
    fill(prop, VOL * 288, 10);
    lattio_layout l = whole(24 * sizeof(double));
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, 24);
    d.datatype = "USQCD_D3_DiracFermion", d.colors = 3, d.spins = 4, d.verify = 1;
    const void *vals[3] = {ferm[0], ferm[1], ferm[2]};
    CHECK_OK(lattio_fields_write_serial("fermions.lime", &d, &l, 3, vals));
    const expect fe[3] = {{"USQCD_D3_DiracFermion", "D", 3, 4, 192, 1, ferm[0]},
                          {"USQCD_D3_DiracFermion", "D", 3, 4, 192, 1, ferm[1]},
                          {"USQCD_D3_DiracFermion", "D", 3, 4, 192, 1, ferm[2]}};
    qio_reads("fermions.lime", fe, 3);

    l = whole(288 * sizeof(double));
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F32_BE, 288);
    d.datatype = "USQCD_F3_DiracPropagator", d.colors = 3, d.spins = 4, d.verify = 1;
    CHECK_OK(lattio_field_write_serial("prop.lime", &d, &l, prop));
    const expect pe = {"USQCD_F3_DiracPropagator", "F", 3, 4, 1152, 1, prop};
    qio_reads("prop.lime", &pe, 1);

    static double su2[VOL * 32];
    fill(su2, VOL * 32, 0.5);
    lattio_gauge_write_options o;
    lattio_gauge_write_options_default(&o, LATTIO_GAUGE_ILDG);
    o.colors = 2;
    CHECK_OK(lattio_gauge_write("su2.ildg", LATTIO_GAUGE_ILDG, &o, DIMS, su2));
    const expect ge = {"USQCD_D2_ColorMatrix", "D", 2, 0, 64, 4, su2};
    qio_reads("su2.ildg", &ge, 1);
}

/* --- QIO writes, lattio reads -------------------------------------------- */

static double qferm[2][VOL * 24];
static char qio_date[LATTIO_FIELD_TEXT_MAX];

static void get(char *buf, size_t index, int count, void *arg)
{
    (void)count;
    memcpy(buf, (const double *)arg + index * 24, 24 * sizeof(double));
}

static void qio_writes_lattio_reads(void)
{
    for (int f = 0; f < 2; f++) fill(qferm[f], VOL * 24, 20 + f);
    QIO_Layout l = layout();
    QIO_Oflag oflag = {QIO_SERIAL, QIO_TRUNC, QIO_ILDGNO, NULL};
    QIO_String *fxml = QIO_string_create();
    QIO_string_set(fxml, "<eigenvectors/>");
    QIO_Writer *out = QIO_open_write(fxml, "qio.lime", QIO_SINGLEFILE, &l, NULL, &oflag);
    CHECK(out != NULL);
    for (int f = 0; out && f < 2; f++) {
        QIO_RecordInfo *ri = QIO_create_record_info(QIO_FIELD, NULL, NULL, 0, "USQCD_D3_DiracFermion", "D", 3, 4,
                                                    192, 1);
        QIO_String *rxml = QIO_string_create();
        QIO_string_set(rxml, "<vector/>");
        CHECK_INT(QIO_write(out, ri, rxml, get, 192, 8, qferm[f]), QIO_SUCCESS);
        QIO_destroy_record_info(ri);
        QIO_string_destroy(rxml);
    }
    if (out) QIO_close_write(out);
    QIO_string_destroy(fxml);

    lattio_lime_reader *r = NULL;
    CHECK_OK(lattio_lime_reader_open("qio.lime", &r));
    int count = 0;
    CHECK_OK(lattio_field_count(r, &count));
    CHECK_INT(count, 2);
    static double back[VOL * 24];
    for (int f = 0; r && f < count && f < 2; f++) {
        lattio_field_info fi;
        CHECK_OK(lattio_field_info_read(r, f, &fi));
        lattio_field_site s;
        CHECK_OK(lattio_field_site_of(&fi, &s));
        CHECK_STR(s.type, "fermion");
        CHECK_STR(s.axes, "spin color");
        CHECK(fi.has_checksum);
        lattio_scidac_sum sum;
        CHECK_OK(lattio_field_read_double(r, &fi, back, VOL * 24, &sum)); /* ERR_CHECKSUM otherwise */
        CHECK(memcmp(back, qferm[f], sizeof back) == 0);
        if (f == 0) snprintf(qio_date, sizeof qio_date, "%s", fi.date);
        lattio_field_info_free(&fi);
    }
    lattio_lime_reader_close(r);
}

/* lattio writes the same two fields with QIO's texts and date: the same
 * bytes as QIO's file. */
static void same_bytes_as_qio(void)
{
    lattio_layout l = whole(24 * sizeof(double));
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, 24);
    d.datatype = "USQCD_D3_DiracFermion", d.colors = 3, d.spins = 4;
    d.file_xml = "<eigenvectors/>", d.record_xml = "<vector/>", d.date = qio_date;
    const void *vals[2] = {qferm[0], qferm[1]};
    CHECK_OK(lattio_fields_write_serial("lattio.lime", &d, &l, 2, vals));
    size_t a = 0, b = 0;
    unsigned char *x = test_slurp("qio.lime", &a), *y = test_slurp("lattio.lime", &b);
    CHECK(x && y && a == b && memcmp(x, y, a) == 0);
    free(x), free(y);
}

int main(void)
{
    QIO_verbose(QIO_VERB_OFF);
    lattio_writes_qio_reads();
    qio_writes_lattio_reads();
    same_bytes_as_qio();
    return test_finish();
}
