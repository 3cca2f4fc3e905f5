/* recordset_checks.c -- consistency checks of the record set reader on
 * small files written here, each giving its specific status: binary length
 * against the metadata (ERR_FIELD_LENGTH), precision against element size
 * (ERR_FIELD_PRECISION), dims between records (ERR_FIELD_DIMS), missing or
 * bad metadata (ERR_BAD_METADATA, ERR_BAD_XML), no checksum
 * (ERR_NO_CHECKSUM from verify, sum still computed); a Grid-like set (extra
 * record types, ildg-format written twice, malformed attribute quote, no
 * <field>) is accepted; a set built with lattio_field_payload verifies. */
#include "fieldtest.h"

#define SITES 16 /* 2^4 */
#define ILDG(prec, lt)                                                                     \
    "<?xml version=\"1.0\"?><ildgFormat><field>su3gauge</field><precision>" #prec          \
    "</precision><lx>2</lx><ly>2</ly><lz>2</lz><lt>" #lt "</lt></ildgFormat>"

typedef struct rec {
    const char *type;
    const char *text; /* NULL: the binary record */
    size_t binary_len;
} rec;

static unsigned char data[SITES * 576];

static void write_file(const char *name, const rec *recs, int n)
{
    lattio_lime_writer *w = NULL;
    CHECK_OK(lattio_lime_writer_open(name, LATTIO_LIME_CREATE, &w));
    for (int i = 0; i < n; i++) {
        const void *p = recs[i].text ? (const void *)recs[i].text : data;
        const size_t len = recs[i].text ? strlen(recs[i].text) : recs[i].binary_len;
        CHECK_OK(lattio_lime_writer_record(w, recs[i].type, p, len, i == 0, i == n - 1));
    }
    CHECK_OK(lattio_lime_writer_close(w));
}

static int read_status(const char *name, lattio_field_info *fi_out)
{
    lattio_lime_reader *r = NULL;
    lattio_field_info fi;
    if (fi_out) memset(fi_out, 0, sizeof *fi_out);
    CHECK_OK(lattio_lime_reader_open(name, &r));
    const int rc = lattio_field_info_read(r, 0, &fi);
    if (rc == LATTIO_OK && fi_out) *fi_out = fi;
    else if (rc == LATTIO_OK) lattio_field_info_free(&fi);
    lattio_lime_reader_close(r);
    return rc;
}

static int case_status(const rec *recs, int n)
{
    write_file("case.lime", recs, n);
    return read_status("case.lime", NULL);
}

static void errors(void)
{
    const rec short_bin[] = {{"ildg-format", ILDG(64, 2), 0}, {"ildg-binary-data", NULL, SITES * 576 - 8}};
    CHECK_STATUS(case_status(short_bin, 2), LATTIO_ERR_FIELD_LENGTH);
    const rec f32_bin[] = {{"ildg-format", ILDG(32, 2), 0}, {"ildg-binary-data", NULL, SITES * 576}};
    CHECK_STATUS(case_status(f32_bin, 2), LATTIO_ERR_FIELD_LENGTH);
    const rec prec48[] = {{"ildg-format", ILDG(48, 2), 0}, {"ildg-binary-data", NULL, SITES * 576}};
    CHECK_STATUS(case_status(prec48, 2), LATTIO_ERR_FIELD_PRECISION);
    const rec mixed[] = {
        {"scidac-private-record-xml", "<scidacRecord><precision>F</precision><typesize>72</typesize><datacount>4</datacount></scidacRecord>", 0},
        {"ildg-format", ILDG(64, 2), 0}, {"ildg-binary-data", NULL, SITES * 576}};
    CHECK_STATUS(case_status(mixed, 3), LATTIO_ERR_FIELD_PRECISION);
    const rec odd_size[] = {
        {"scidac-private-file-xml", "<scidacFile><dims>2 2 2 2</dims></scidacFile>", 0},
        {"scidac-private-record-xml", "<scidacRecord><precision>D</precision><typesize>12</typesize><datacount>1</datacount></scidacRecord>", 0},
        {"scidac-binary-data", NULL, SITES * 12}};
    CHECK_STATUS(case_status(odd_size, 3), LATTIO_ERR_FIELD_PRECISION);
    const rec dims[] = {{"scidac-private-file-xml", "<scidacFile><dims>2 2 2 4 </dims></scidacFile>", 0},
                        {"ildg-format", ILDG(64, 2), 0}, {"ildg-binary-data", NULL, SITES * 576}};
    CHECK_STATUS(case_status(dims, 3), LATTIO_ERR_FIELD_DIMS);
    const rec no_lx[] = {{"ildg-format", "<ildgFormat><precision>64</precision></ildgFormat>", 0},
                         {"ildg-binary-data", NULL, SITES * 576}};
    CHECK_STATUS(case_status(no_lx, 2), LATTIO_ERR_BAD_METADATA);
    const rec bare[] = {{"scidac-binary-data", NULL, 64}};
    CHECK_STATUS(case_status(bare, 1), LATTIO_ERR_BAD_METADATA);
    const rec bad_sum[] = {{"ildg-format", ILDG(64, 2), 0}, {"ildg-binary-data", NULL, SITES * 576},
                           {"scidac-checksum", "<scidacChecksum><suma>zz</suma><sumb>1</sumb></scidacChecksum>", 0}};
    CHECK_STATUS(case_status(bad_sum, 3), LATTIO_ERR_BAD_XML);
    const rec none[] = {{"xlf-info", "x", 0}};
    CHECK_STATUS(case_status(none, 1), LATTIO_ERR_NOT_FOUND);
}

static void no_checksum(void)
{
    const rec recs[] = {{"ildg-format", ILDG(64, 2), 0}, {"ildg-binary-data", NULL, SITES * 576}};
    write_file("nosum.lime", recs, 2);
    lattio_scidac_sum got = {0, 0}, want = {0, 0};
    CHECK_STATUS(lattio_field_verify("nosum.lime", 0, NULL, &got), LATTIO_ERR_NO_CHECKSUM);
    CHECK_OK(lattio_scidac_sum_sites(&want, data, 576, SITES, 0));
    CHECK_U64(got.suma, want.suma);
    CHECK_U64(got.sumb, want.sumb);
}

static void grid_like(void)
{
    char sum[256];
    lattio_scidac_sum s = {0, 0};
    CHECK_OK(lattio_scidac_sum_sites(&s, data, 576, SITES, 0));
    snprintf(sum, sizeof sum, "<scidacChecksum>\n  <suma>%x</suma>\n  <sumb>%x</sumb>\n</scidacChecksum>\n", (unsigned)s.suma, (unsigned)s.sumb);
    const rec recs[] = {
        {"grid-format", "<grid>x</grid>", 0},
        {"ildg-format", ILDG(64, 9), 0}, /* superseded by the second copy */
        {"scidac-private-record-xml", "<scidacRecord><version>1.1</version><recordtype>0</recordtype><datatype>G</datatype><precision>D</precision><typesize>144</typesize><datacount>4</datacount></scidacRecord>", 0},
        {"ildg-format", "<ildg:ildgFormat xmlns:ildg=\"http://www.lqcd.org/ildg>\n <ildg:precision>64</ildg:precision>\n"
                        " <ildg:lx>2</ildg:lx><ildg:ly>2</ildg:ly><ildg:lz>2</ildg:lz><ildg:lt>2</ildg:lt></ildg:ildgFormat>", 0},
        {"FieldNormMetaData", "<norm>1</norm>", 0},
        {"ildg-binary-data", NULL, SITES * 576},
        {"scidac-checksum", sum, 0}};
    write_file("grid.lime", recs, 7);
    lattio_field_info fi;
    CHECK_OK(read_status("grid.lime", &fi));
    CHECK_INT(fi.kind, LATTIO_FIELD_ILDG_GAUGE);
    CHECK_U64(fi.dims[3], 2);
    CHECK_STR(fi.record_version, "1.1");
    lattio_field_info_free(&fi);
    CHECK_OK(lattio_field_verify("grid.lime", 0, NULL, NULL));
}

/* A record set built by lattio_field_payload is read back and verifies. */
static void round_trip(void)
{
    lattio_field_info fi;
    memset(&fi, 0, sizeof fi);
    fi.nd = 4;
    for (int d = 0; d < 4; d++) fi.dims[d] = 2;
    fi.precision = 64, fi.colors = 3, fi.typesize = 144, fi.datacount = 4;
    strcpy(fi.datatype, "USQCD_D3_ColorMatrix");
    fi.lfn = "lfn://x";
    CHECK_OK(lattio_scidac_sum_sites(&fi.stored, data, 576, SITES, 0));
    char p[7][1024];
    size_t len[7];
    for (int k = 0; k < 7; k++) CHECK_OK(lattio_field_payload(&fi, k, p[k], sizeof p[k], &len[k]));
    lattio_lime_writer *w = NULL;
    CHECK_OK(lattio_lime_writer_open("rt.lime", LATTIO_LIME_CREATE, &w));
    for (int k = 0; k < 7; k++) {
        if (k == 6) CHECK_OK(lattio_lime_writer_record(w, "ildg-binary-data", data, sizeof data, 0, 0));
        CHECK_OK(lattio_lime_writer_record(w, lattio_field_record_type(k), p[k], len[k],
                                           k == 0 || k == 2, k == 1 || k == 6));
    }
    CHECK_OK(lattio_lime_writer_close(w));
    CHECK_OK(lattio_lime_check("rt.lime", NULL, 0, &(size_t){0}, NULL));
    lattio_field_info back;
    CHECK_OK(lattio_field_verify("rt.lime", 0, &back, NULL));
    CHECK_INT(back.kind, LATTIO_FIELD_ILDG_GAUGE);
    CHECK_STR(back.lfn, "lfn://x");
    CHECK_STR(back.record_version, "1.1");
    lattio_field_info_free(&back);
}

int main(void)
{
    for (size_t i = 0; i < sizeof data; i++) data[i] = (unsigned char)(i * 131 + 7);
    errors();
    no_checksum();
    grid_like();
    round_trip();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
