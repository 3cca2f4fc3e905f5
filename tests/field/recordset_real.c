/* recordset_real.c -- the record set of every field in the real files is
 * read from the LIME index and the XML payloads of each dialect (QIO with
 * trailing NULs, MILC through QIO, tmLQCD pretty-printed without LFN, QIO's
 * generic SciDAC fields): dims, precision, kind, sizes, LFN, user XML,
 * binary record offset and length as EXPECTED.md gives them. */
#include "fieldtest.h"

static lattio_lime_reader *open_real(const char *file)
{
    lattio_lime_reader *r = NULL;
    CHECK_OK(lattio_lime_reader_open(test_data(file), &r));
    return r;
}

static void check_dims(const lattio_field_info *fi, uint64_t x, uint64_t y, uint64_t z, uint64_t t)
{
    CHECK_INT(fi->nd, 4);
    CHECK_U64(fi->dims[0], x);
    CHECK_U64(fi->dims[1], y);
    CHECK_U64(fi->dims[2], z);
    CHECK_U64(fi->dims[3], t);
    CHECK_U64(fi->volume, x * y * z * t);
}

static void tmlqcd(void)
{
    lattio_lime_reader *r = open_real("unity.lime");
    lattio_field_info fi;
    int n;
    CHECK_OK(lattio_field_count(r, &n));
    CHECK_INT(n, 1);
    CHECK_OK(lattio_field_info_read(r, 0, &fi));
    check_dims(&fi, 4, 4, 4, 4);
    CHECK_INT(fi.kind, LATTIO_FIELD_ILDG_GAUGE);
    CHECK_INT(fi.precision, 64);
    CHECK_U64(fi.typesize, 144);
    CHECK_U64(fi.datacount, 4);
    CHECK(fi.lfn == NULL && fi.file_xml == NULL && !fi.has_private_record && !fi.has_private_file);
    CHECK_U64(fi.binary.offset, 920);
    CHECK_U64(fi.binary.length, 147456);
    CHECK(fi.has_checksum && fi.stored.suma == 0x35b49a1bu && fi.stored.sumb == 0xb49a1b35u);
    CHECK_STATUS(lattio_field_info_read(r, 1, &fi), LATTIO_ERR_NOT_FOUND);
    lattio_lime_reader_close(r);
}

static void qio_ildg(const char *file, int prec, const char *lfn, uint64_t off, const char *datatype,
                     const char *record_xml_part)
{
    lattio_lime_reader *r = open_real(file);
    lattio_field_info fi;
    CHECK_OK(lattio_field_info_read(r, 0, &fi));
    check_dims(&fi, 4, 4, 4, 4);
    CHECK_INT(fi.kind, LATTIO_FIELD_ILDG_GAUGE);
    CHECK_INT(fi.precision, prec);
    CHECK_INT(fi.precision_code, prec == 64 ? 'D' : 'F');
    CHECK_U64(fi.typesize, 18 * prec / 8);
    CHECK_U64(fi.datacount, 4);
    CHECK_INT(fi.recordtype, 0);
    CHECK_STR(fi.record_version, "1.0");
    CHECK_STR(fi.datatype, datatype);
    CHECK_INT(fi.colors, 3);
    CHECK_STR(fi.lfn, lfn);
    CHECK(fi.record_xml && strstr(fi.record_xml, record_xml_part));
    CHECK(fi.file_xml && fi.file_xml[strlen(fi.file_xml) - 1] != '\0');
    CHECK(fi.has_private_file && fi.has_private_record && fi.has_ildg_format);
    CHECK_U64(fi.binary.offset, off);
    CHECK_U64(fi.binary.length, 73728 * (uint64_t)prec / 32);
    lattio_field_info_free(&fi);
    lattio_lime_reader_close(r);
}

static void qio_generic(void)
{
    static const uint64_t offs[3] = {1256, 6480, 44472}, lens[3] = {4096, 36864, 147456};
    static const uint64_t typesize[3] = {8, 72, 72}, datacount[3] = {1, 1, 4};
    lattio_lime_reader *r = open_real("t_qio.intel-scalar.lime");
    int n;
    CHECK_OK(lattio_field_count(r, &n));
    CHECK_INT(n, 3);
    for (int k = 0; k < 3; k++) {
        lattio_field_info fi;
        CHECK_OK(lattio_field_info_read(r, k, &fi));
        check_dims(&fi, 4, 4, 4, 8);
        CHECK_INT(fi.kind, LATTIO_FIELD_GENERIC);
        CHECK_INT(fi.index, k);
        CHECK_INT(fi.precision, 32);
        CHECK_STR(fi.datatype, "Lattice");
        CHECK_INT(fi.spins, 4);
        CHECK_U64(fi.typesize, typesize[k]);
        CHECK_U64(fi.datacount, datacount[k]);
        CHECK_U64(fi.binary.offset, offs[k]);
        CHECK_U64(fi.binary.length, lens[k]);
        CHECK(fi.record_xml && strstr(fi.record_xml, "<record_sally>"));
        CHECK(fi.file_xml && strstr(fi.file_xml, "<file_sally>"));
        CHECK_STR(fi.date, "Mon Nov 22 17:47:44 2004 UTC");
        lattio_field_info_free(&fi);
    }
    lattio_lime_reader_close(r);
}

int main(void)
{
    tmlqcd();
    qio_ildg("t_dprec_ildg.lime", 64, "lfn://foo.bar/jimmy", 1936, "QDP_D3_ColorMatrix",
             "NERSC Config Record Converted");
    qio_ildg("lat.sample.l4444.ildg", 32, "lfn://USQCD/MILC/test/lat.sample.l4444", 2184,
             "QDP_F3_ColorMatrix", "gauge.nloops = 3");
    qio_generic();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
