/* xml_writer.c -- the QIO record set payloads for a 6x4x8x10 double
 * precision gauge field, byte for byte against templates typed in here
 * (with the trailing NUL QIO counts); the payloads of t_dprec_ildg.lime and
 * lat.sample.l4444.ildg reproduced byte for byte from their parsed
 * description; escaping of text values; size queries and small buffers. */
#include "fieldtest.h"

#define DECL "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"

static const char *const tmpl[7] = {
    DECL "<scidacFile><version>1.1</version><spacetime>4</spacetime><dims>6 4 8 10 </dims>"
         "<volfmt>0</volfmt></scidacFile>",
    "<info>free &amp; user text</info>",
    DECL "<scidacRecord><version>1.1</version><date>Mon Nov 23 12:00:00 2026 UTC</date>"
         "<recordtype>0</recordtype><datatype>USQCD_D3_ColorMatrix</datatype>"
         "<precision>D</precision><colors>3</colors><typesize>144</typesize>"
         "<datacount>4</datacount></scidacRecord>",
    "<rec>x</rec>",
    DECL "<ildgFormat xmlns=\"http://www.lqcd.org/ildg\" "
         "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
         "xsi:schemaLocation=\"http://www.lqcd.org/ildg/filefmt.xsd\"><version>1.0</version>"
         "<field>su3gauge</field><precision>64</precision><lx>6</lx><ly>4</ly><lz>8</lz>"
         "<lt>10</lt></ildgFormat>",
    "lfn://lattio/test/6x4x8x10",
    DECL "<scidacChecksum><version>1.0</version><suma>abc</suma><sumb>deadbeef</sumb>"
         "</scidacChecksum>",
};

static const char *const types[7] = {"scidac-private-file-xml", "scidac-file-xml",
                                     "scidac-private-record-xml", "scidac-record-xml",
                                     "ildg-format", "ildg-data-lfn", "scidac-checksum"};

static void templates(void)
{
    lattio_field_info fi;
    memset(&fi, 0, sizeof fi);
    fi.nd = 4;
    fi.dims[0] = 6, fi.dims[1] = 4, fi.dims[2] = 8, fi.dims[3] = 10;
    fi.precision = 64;
    fi.colors = 3;
    fi.typesize = 144;
    fi.datacount = 4;
    strcpy(fi.datatype, "USQCD_D3_ColorMatrix");
    strcpy(fi.date, "Mon Nov 23 12:00:00 2026 UTC");
    fi.file_xml = "<info>free &amp; user text</info>";
    fi.record_xml = "<rec>x</rec>";
    fi.lfn = "lfn://lattio/test/6x4x8x10";
    fi.stored.suma = 0xabc, fi.stored.sumb = 0xdeadbeef;
    char buf[1024];
    for (int k = 0; k < 7; k++) {
        size_t len = 0, qlen = 0;
        CHECK_STR(lattio_field_record_type(k), types[k]);
        CHECK_OK(lattio_field_payload(&fi, k, NULL, 0, &qlen));
        CHECK_OK(lattio_field_payload(&fi, k, buf, sizeof buf, &len));
        CHECK_U64(len, strlen(tmpl[k]) + 1);
        CHECK_U64(qlen, len);
        CHECK(memcmp(buf, tmpl[k], strlen(tmpl[k]) + 1) == 0);
        if (memcmp(buf, tmpl[k], strlen(tmpl[k]) + 1)) fprintf(stderr, "got  %s\nwant %s\n", buf, tmpl[k]);
        CHECK_STATUS(lattio_field_payload(&fi, k, buf, len - 1, &len), LATTIO_ERR_OVERFLOW);
    }
    CHECK(lattio_field_record_type(7) == NULL);
    CHECK_STATUS(lattio_field_payload(&fi, 7, buf, sizeof buf, &(size_t){0}), LATTIO_ERR_ARG);
    /* escaping of text values, and no ILDG format for a 3-D field */
    strcpy(fi.datatype, "A<B&C");
    size_t len;
    CHECK_OK(lattio_field_payload(&fi, LATTIO_REC_PRIVATE_RECORD_XML, buf, sizeof buf, &len));
    CHECK(strstr(buf, "<datatype>A&lt;B&amp;C</datatype>") != NULL);
    fi.nd = 3;
    CHECK_STATUS(lattio_field_payload(&fi, LATTIO_REC_ILDG_FORMAT, buf, sizeof buf, &len), LATTIO_ERR_ARG);
    CHECK_OK(lattio_field_payload(&fi, LATTIO_REC_PRIVATE_FILE_XML, buf, sizeof buf, &len));
    CHECK(strstr(buf, "<spacetime>3</spacetime><dims>6 4 8 </dims>") != NULL);
    fi.date[0] = '\0'; /* the current date, asctime style */
    CHECK_OK(lattio_field_payload(&fi, LATTIO_REC_PRIVATE_RECORD_XML, buf, sizeof buf, &len));
    CHECK(strstr(buf, " UTC</date>") != NULL);
}

/* The real file's payloads of these types, regenerated from its description. */
static void reproduce(const char *file, int ildg)
{
    static const int recs[5] = {LATTIO_REC_PRIVATE_FILE_XML, LATTIO_REC_PRIVATE_RECORD_XML,
                                LATTIO_REC_ILDG_FORMAT, LATTIO_REC_ILDG_LFN, LATTIO_REC_CHECKSUM};
    lattio_lime_reader *r = NULL;
    lattio_field_info fi;
    CHECK_OK(lattio_lime_reader_open(test_data(file), &r));
    CHECK_OK(lattio_field_info_read(r, 0, &fi));
    for (int k = 0; k < 5; k++) {
        if (!ildg && (recs[k] == LATTIO_REC_ILDG_FORMAT || recs[k] == LATTIO_REC_ILDG_LFN)) continue;
        lattio_record_info info;
        char want[1024], got[1024];
        size_t len = 0;
        CHECK_OK(lattio_lime_reader_find(r, lattio_field_record_type(recs[k]), 0, &info));
        CHECK_OK(lattio_lime_reader_read_at(r, 0, want, info.length));
        CHECK_OK(lattio_field_payload(&fi, recs[k], got, sizeof got, &len));
        CHECK_U64(len, info.length);
        CHECK(len == info.length && memcmp(got, want, len) == 0);
    }
    lattio_field_info_free(&fi);
    lattio_lime_reader_close(r);
}

int main(void)
{
    templates();
    reproduce("t_dprec_ildg.lime", 1);
    reproduce("lat.sample.l4444.ildg", 1);
    reproduce("t_qio.intel-scalar.lime", 0);
    return test_finish();
}
