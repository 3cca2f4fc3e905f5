/* scidac_xml.c -- the strict side: the payloads of the QIO record set
 * (formats.md, "SciDAC (QIO) records"), byte for byte as QIO writes them,
 * including the trailing NUL QIO counts in the length. */
#include "field_internal.h"
#include "xml.h"

#include <string.h>
#include <time.h>

#define XML_DECL "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"

static const char *const record_types[] = {
    "scidac-private-file-xml", "scidac-file-xml", "scidac-private-record-xml",
    "scidac-record-xml",       "ildg-format",     "ildg-data-lfn",
    "scidac-checksum"};

const char *lattio_field_record_type(int record)
{
    if (record < 0 || record >= (int)(sizeof record_types / sizeof record_types[0])) return NULL;
    return record_types[record];
}

static int put_private_file(lattio_strbuf *sb, const lattio_field_info *fi)
{
    RETURN_IF(fi->nd < 1 || fi->nd > LATTIO_MAX_DIMS, LATTIO_ERR_ARG);
    lattio_strbuf_puts(sb, XML_DECL "<scidacFile><version>1.1</version>");
    lattio_xml_put_int(sb, "spacetime", fi->nd);
    lattio_strbuf_puts(sb, "<dims>");
    for (int i = 0; i < fi->nd; i++) lattio_strbuf_printf(sb, "%llu ", (unsigned long long)fi->dims[i]);
    lattio_strbuf_puts(sb, "</dims>");
    lattio_xml_put_int(sb, "volfmt", fi->volfmt);
    return lattio_strbuf_puts(sb, "</scidacFile>");
}

/* QIO's date: asctime() of UTC followed by " UTC". */
void lattio_field_date_now(char *out, size_t size)
{
    const time_t now = time(NULL);
    struct tm tm;
    if (!gmtime_r(&now, &tm) || !strftime(out, size, "%a %b %e %H:%M:%S %Y UTC", &tm))
        out[0] = '\0';
}

static int put_private_record(lattio_strbuf *sb, const lattio_field_info *fi)
{
    const char p = fi->precision_code ? fi->precision_code : fi->precision == 32 ? 'F' : 'D';
    RETURN_IF(!strchr("FDIS", p) || !fi->datatype[0], LATTIO_ERR_ARG);
    const int v10 = strcmp(fi->record_version, "1.0") == 0; /* old style: globaldata */
    char date[LATTIO_FIELD_TEXT_MAX];
    if (fi->date[0]) memcpy(date, fi->date, sizeof date);
    else lattio_field_date_now(date, sizeof date);
    lattio_strbuf_puts(sb, XML_DECL "<scidacRecord>");
    lattio_xml_put_element(sb, "version", v10 ? "1.0" : "1.1");
    lattio_xml_put_element(sb, "date", date);
    lattio_xml_put_int(sb, v10 ? "globaldata" : "recordtype", fi->recordtype);
    lattio_xml_put_element(sb, "datatype", fi->datatype);
    lattio_xml_put_element(sb, "precision", (char[2]){p, '\0'});
    if (fi->colors > 0) lattio_xml_put_int(sb, "colors", fi->colors);
    if (fi->spins > 0) lattio_xml_put_int(sb, "spins", fi->spins);
    lattio_xml_put_int(sb, "typesize", (int64_t)fi->typesize);
    lattio_xml_put_int(sb, "datacount", (int64_t)fi->datacount);
    return lattio_strbuf_puts(sb, "</scidacRecord>");
}

static int put_ildg_format(lattio_strbuf *sb, const lattio_field_info *fi)
{
    RETURN_IF(fi->nd != 4, LATTIO_ERR_ARG);
    RETURN_IF(fi->precision != 32 && fi->precision != 64, LATTIO_ERR_ARG);
    lattio_strbuf_puts(sb, XML_DECL "<ildgFormat xmlns=\"http://www.lqcd.org/ildg\" "
                           "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                           "xsi:schemaLocation=\"http://www.lqcd.org/ildg/filefmt.xsd\">"
                           "<version>1.0</version>");
    lattio_strbuf_printf(sb, "<field>su%dgauge</field>", fi->colors > 0 ? fi->colors : 3);
    lattio_xml_put_int(sb, "precision", fi->precision);
    static const char *const tags[4] = {"lx", "ly", "lz", "lt"};
    for (int i = 0; i < 4; i++) lattio_xml_put_int(sb, tags[i], (int64_t)fi->dims[i]);
    return lattio_strbuf_puts(sb, "</ildgFormat>");
}

static int put_checksum(lattio_strbuf *sb, const lattio_field_info *fi)
{
    lattio_strbuf_puts(sb, XML_DECL "<scidacChecksum><version>1.0</version>");
    lattio_strbuf_printf(sb, "<suma>%lx</suma>", (unsigned long)fi->stored.suma);
    lattio_strbuf_printf(sb, "<sumb>%lx</sumb>", (unsigned long)fi->stored.sumb);
    return lattio_strbuf_puts(sb, "</scidacChecksum>");
}

static int build(lattio_strbuf *sb, const lattio_field_info *fi, int record)
{
    switch (record) {
    case LATTIO_REC_PRIVATE_FILE_XML: return put_private_file(sb, fi);
    case LATTIO_REC_FILE_XML: return lattio_strbuf_puts(sb, fi->file_xml ? fi->file_xml : "");
    case LATTIO_REC_PRIVATE_RECORD_XML: return put_private_record(sb, fi);
    case LATTIO_REC_RECORD_XML: return lattio_strbuf_puts(sb, fi->record_xml ? fi->record_xml : "");
    case LATTIO_REC_ILDG_FORMAT: return put_ildg_format(sb, fi);
    case LATTIO_REC_ILDG_LFN:
        RETURN_IF(!fi->lfn, LATTIO_ERR_ARG);
        return lattio_strbuf_puts(sb, fi->lfn);
    case LATTIO_REC_CHECKSUM: return put_checksum(sb, fi);
    default: return LATTIO_FAIL(LATTIO_ERR_ARG, "unknown record of the set");
    }
}

int lattio_field_payload(const lattio_field_info *fi, int record, char *out, size_t size,
                         size_t *length)
{
    RETURN_IF(!fi || !length || (!out && size), LATTIO_ERR_ARG);
    *length = 0;
    lattio_strbuf sb;
    lattio_strbuf_init(&sb);
    int rc = build(&sb, fi, record);
    if (rc == LATTIO_OK) rc = sb.status;
    if (rc == LATTIO_OK) {
        *length = sb.len + 1; /* QIO counts the NUL */
        if (out && size >= *length) memcpy(out, sb.data, *length);
        else if (out) rc = LATTIO_FAIL(LATTIO_ERR_OVERFLOW, "payload buffer too small");
    }
    lattio_strbuf_free(&sb);
    return rc;
}
