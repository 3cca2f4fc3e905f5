/* recordset.c -- the ILDG/SciDAC record set of one field, read from the LIME
 * index and the XML payloads (every dialect in the wild), with consistency
 * checks. */
#include "field_internal.h"

#include <stdio.h>
#include <string.h>

#define MAX_RECORDS 100000 /* a record index longer than this is not a field file */

/* Where the records of one field are, as indices into the file's records. */
typedef struct field_records {
    int binary, private_file, file_xml, private_record, record_xml, ildg_format, lfn, checksum, etmc;
} field_records;

int lattio_field_is_binary_type(const char *type)
{
    return strcmp(type, "scidac-binary-data") == 0 || strcmp(type, "ildg-binary-data") == 0;
}

int lattio_field_read_index(lattio_lime_reader *r, lattio_record_info **recs, int *n)
{
    *recs = NULL;
    *n = 0;
    const lattio_record_info *kept;
    int count;
    RETURN_IF_ERROR(lattio_lime_reader_index(r, MAX_RECORDS, &kept, &count));
    if (count == 0) return LATTIO_OK;
    *recs = lattio_malloc((size_t)count * sizeof **recs); /* the callers own a copy */
    RETURN_IF(!*recs, LATTIO_ERR_NOMEM);
    memcpy(*recs, kept, (size_t)count * sizeof **recs);
    *n = count;
    return LATTIO_OK;
}

int lattio_field_count(lattio_lime_reader *r, int *count)
{
    RETURN_IF(!r || !count, LATTIO_ERR_ARG);
    lattio_record_info *recs;
    int n;
    const int rc = lattio_field_read_index(r, &recs, &n);
    *count = 0;
    for (int i = 0; rc == LATTIO_OK && i < n; i++) *count += lattio_field_is_binary_type(recs[i].type);
    lattio_free(recs);
    return rc;
}

/* Index of the last record of `type` strictly between lo and hi; -1 if none. */
static int find_meta(const lattio_record_info *recs, int lo, int hi, const char *type)
{
    for (int i = hi - 1; i > lo; i--)
        if (strcmp(recs[i].type, type) == 0) return i;
    return -1;
}

static int find_first(const lattio_record_info *recs, int n, const char *type)
{
    for (int i = 0; i < n; i++)
        if (strcmp(recs[i].type, type) == 0) return i;
    return -1;
}

/* The metadata between two binary records opens one record set: a second
 * scidac-private-record-xml there announces a field whose binary record
 * is missing (removed, or the file spliced), and the field after it would
 * be read with the wrong metadata.  (ildg-format may come twice: Grid
 * writes a superseded copy first.) */
static int one_record_set(const lattio_record_info *recs, int lo, int hi, int index)
{
    int opened = 0;
    for (int i = lo + 1; i < hi; i++) opened += strcmp(recs[i].type, "scidac-private-record-xml") == 0;
    if (opened <= 1) return LATTIO_OK;
    lattio_detail_set("field %d: records %d to %d hold %d record sets' metadata but one binary record: "
                      "a binary record before record %d is missing",
                      index + 1, lo + 2, hi + 1, opened, hi + 1);
    return LATTIO_FAIL(LATTIO_ERR_BAD_METADATA, "binary record missing");
}

int lattio_field_is_etmc_format(const char *type)
{
    return strcmp(type, "etmc-propagator-format") == 0 || strcmp(type, "etmc-source-format") == 0;
}

/* tmLQCD's format record for binary record b: the last etmc-*-format
 * before it, when the binary records between them leave it a flavour to
 * give (it is read to count them; -1 when none).  Looked for only where
 * no SciDAC private record or ILDG format describes the record. */
static int find_etmc(lattio_lime_reader *r, const lattio_record_info *recs, int b, int *etmc)
{
    *etmc = -1;
    int at = -1, between = 0;
    for (int i = b - 1; i >= 0 && at < 0; i--) {
        if (lattio_field_is_etmc_format(recs[i].type)) at = i;
        else if (lattio_field_is_binary_type(recs[i].type)) between++;
    }
    if (at < 0) return LATTIO_OK;
    if (between == 0) {
        *etmc = at;
        return LATTIO_OK;
    }
    char *x;
    size_t n;
    RETURN_IF_ERROR(lattio_field_read_text(r, recs, at, &x, &n));
    int64_t flavours = 1;
    const int rc = lattio_xml_int(x, n, "flavours", &flavours);
    lattio_free(x);
    if (rc == LATTIO_OK && flavours > between) *etmc = at;
    return LATTIO_OK;
}

/* Locate the records of field `index`. */
static int locate(lattio_lime_reader *r, const lattio_record_info *recs, int n, int index, field_records *fr)
{
    int seen = -1, prev = -1;
    fr->binary = -1;
    for (int i = 0; i < n && fr->binary < 0; i++) {
        if (!lattio_field_is_binary_type(recs[i].type)) continue;
        if (++seen == index) fr->binary = i;
        else prev = i;
    }
    if (fr->binary < 0) return LATTIO_ERR_NOT_FOUND;
    const int b = fr->binary;
    RETURN_IF_ERROR(one_record_set(recs, prev, b, index));
    fr->private_record = find_meta(recs, prev, b, "scidac-private-record-xml");
    fr->record_xml = find_meta(recs, prev, b, "scidac-record-xml");
    fr->ildg_format = find_meta(recs, prev, b, "ildg-format");
    fr->lfn = find_meta(recs, prev, b, "ildg-data-lfn");
    fr->etmc = -1;
    if (fr->private_record < 0 && fr->ildg_format < 0) RETURN_IF_ERROR(find_etmc(r, recs, b, &fr->etmc));
    fr->private_file = find_first(recs, n, "scidac-private-file-xml");
    fr->file_xml = find_first(recs, n, "scidac-file-xml");
    fr->checksum = -1;
    for (int i = b + 1; i < n && !lattio_field_is_binary_type(recs[i].type); i++) {
        if (strcmp(recs[i].type, "scidac-checksum") != 0) continue;
        if (fr->checksum >= 0) { /* two: one of them belongs to another field, or contradicts */
            lattio_detail_set("field %d: records %d and %d are both scidac-checksum records after its binary record",
                              index + 1, fr->checksum + 1, i + 1);
            return LATTIO_FAIL(LATTIO_ERR_BAD_METADATA, "second checksum");
        }
        fr->checksum = i;
    }
    return LATTIO_OK;
}

int lattio_field_select_record(lattio_lime_reader *r, const lattio_record_info *recs, int i)
{
    return lattio_lime_reader_goto(r, &recs[i]);
}

int lattio_field_read_text(lattio_lime_reader *r, const lattio_record_info *recs, int i,
                           char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    const uint64_t n = recs[i].length;
    if (n > LATTIO_FIELD_XML_MAX) {
        lattio_detail_set("%llu bytes, more than metadata may have (%llu)", (unsigned long long)n,
                          (unsigned long long)LATTIO_FIELD_XML_MAX);
        return LATTIO_FAIL(LATTIO_ERR_BAD_METADATA, "metadata record too long");
    }
    RETURN_IF_ERROR(lattio_field_select_record(r, recs, i));
    char *t = lattio_malloc((size_t)n + 1);
    RETURN_IF(!t, LATTIO_ERR_NOMEM);
    const int rc = n ? lattio_lime_reader_read_at(r, 0, t, (size_t)n) : LATTIO_OK;
    if (rc < 0) {
        lattio_free(t);
        return rc;
    }
    t[n] = '\0';
    *text = t;
    *len = (size_t)n;
    return LATTIO_OK;
}

/* --- payload parsers ------------------------------------------------------ */

/* `rc` of reading element <tag>, with what went wrong noted as the detail
 * (read_part adds the record); `status` replaces a failure other than
 * ERR_NOMEM when not 0. */
static int element(const char *tag, int rc, int status)
{
    if (rc == LATTIO_OK || rc == LATTIO_ERR_NOMEM) return rc;
    lattio_detail_set("element <%s> %s", tag,
                      rc == LATTIO_ERR_NOT_FOUND ? "is missing"
                      : rc == LATTIO_ERR_OVERFLOW ? "is out of range or too long"
                                                  : "is malformed or not a number");
    if (status) return status;
    return rc == LATTIO_ERR_OVERFLOW ? LATTIO_FAIL(LATTIO_ERR_BAD_XML, "number out of range") : rc; /* the file's */
}

/* A value of element <tag> outside what it may hold: `status`, noted. */
static int bad_value(const char *tag, int64_t v, const char *want, int status)
{
    lattio_detail_set("element <%s> is %lld, %s", tag, (long long)v, want);
    return LATTIO_FAIL(status, tag);
}

/* A required integer element: ERR_BAD_METADATA when absent. */
static int req_int(const char *x, size_t n, const char *tag, int64_t *v)
{
    const int rc = lattio_xml_int(x, n, tag, v);
    return element(tag, rc, rc == LATTIO_ERR_NOT_FOUND ? LATTIO_ERR_BAD_METADATA : 0);
}

/* An optional integer element: OK with *v untouched when absent. */
static int opt_int(const char *x, size_t n, const char *tag, int64_t *v)
{
    const int rc = lattio_xml_int(x, n, tag, v);
    return rc == LATTIO_ERR_NOT_FOUND ? LATTIO_OK : element(tag, rc, 0);
}

/* An optional text element: out keeps its value when the element is absent. */
static int opt_string(const char *x, size_t n, const char *tag, char *out, size_t size)
{
    char tmp[LATTIO_FIELD_TEXT_MAX];
    const int rc = lattio_xml_string(x, n, tag, tmp, size < sizeof tmp ? size : sizeof tmp);
    if (rc == LATTIO_OK) memcpy(out, tmp, strlen(tmp) + 1);
    return rc == LATTIO_ERR_NOT_FOUND ? LATTIO_OK : element(tag, rc, 0);
}

/* Store nd dims (x fastest) after validating them; extent i comes from
 * element tags[i] when tags has nd names, else from tags[0] (a list). */
static int set_dims(const char *const *tags, int ntags, int nd, const int64_t *d, int *nd_out,
                    uint64_t *dims)
{
    if (nd < 1 || nd > LATTIO_MAX_DIMS)
        return bad_value(tags[0], nd, "extents: too few or too many", LATTIO_ERR_BAD_METADATA);
    for (int i = 0; i < nd; i++) {
        if (d[i] <= 0)
            return bad_value(tags[ntags == nd ? i : 0], d[i], "an extent that is not positive",
                             LATTIO_ERR_BAD_METADATA);
        dims[i] = (uint64_t)d[i];
    }
    *nd_out = nd;
    return LATTIO_OK;
}

static int parse_private_file(const char *x, size_t n, int *nd, uint64_t *dims, int *volfmt_out)
{
    int64_t d[LATTIO_MAX_DIMS], spacetime = -1;
    int k;
    const int rc = lattio_xml_ints(x, n, "dims", d, LATTIO_MAX_DIMS, &k);
    RETURN_IF_ERROR(element("dims", rc, rc == LATTIO_ERR_NOT_FOUND || rc == LATTIO_ERR_OVERFLOW
                                            ? LATTIO_ERR_BAD_METADATA : 0));
    RETURN_IF_ERROR(opt_int(x, n, "spacetime", &spacetime));
    if (spacetime != -1 && spacetime != k)
        return bad_value("spacetime", spacetime, "not the number of <dims>", LATTIO_ERR_BAD_METADATA);
    int64_t volfmt = 0; /* QIO: 0 single file; 1 multifile, 2 partfile, 3 partfile in directories */
    RETURN_IF_ERROR(opt_int(x, n, "volfmt", &volfmt));
    if (volfmt < LATTIO_VOLFMT_SINGLE || volfmt > LATTIO_VOLFMT_PART_DIR)
        return bad_value("volfmt", volfmt, "not a QIO volume format (0 .. 3)", LATTIO_ERR_BAD_METADATA);
    *volfmt_out = (int)volfmt;
    static const char *const tag[1] = {"dims"};
    return set_dims(tag, 1, k, d, nd, dims);
}

/* ildg-format: dims, precision and the field name (tolerated when absent). */
static int parse_ildg_format(const char *x, size_t n, lattio_field_info *fi)
{
    static const char *const tags[4] = {"lx", "ly", "lz", "lt"};
    int64_t d[4], prec;
    for (int i = 0; i < 4; i++) RETURN_IF_ERROR(req_int(x, n, tags[i], &d[i]));
    RETURN_IF_ERROR(req_int(x, n, "precision", &prec));
    if (prec != 32 && prec != 64)
        return bad_value("precision", prec, "not 32 or 64", LATTIO_ERR_FIELD_PRECISION);
    char field[LATTIO_FIELD_TEXT_MAX] = "su3gauge";
    RETURN_IF_ERROR(opt_string(x, n, "field", field, sizeof field));
    int nc = 0, used = 0; /* su<N>gauge: Grid writes it for SU(N) */
    /* canonical digits only: "su04gauge", "su 4gauge", "su+4gauge" are not ILDG's */
    const int digit = field[0] == 's' && field[1] == 'u' && field[2] >= '1' && field[2] <= '9';
    if (!digit || sscanf(field, "su%2dgauge%n", &nc, &used) != 1 || field[used] || nc < 2 ||
        nc > LATTIO_GAUGE_MAX_COLORS) {
        lattio_detail_set("element <field> is '%s', not 'su<N>gauge' (N = 2 .. %d)", field, LATTIO_GAUGE_MAX_COLORS);
        return LATTIO_FAIL(LATTIO_ERR_BAD_METADATA, "ildg field");
    }
    fi->ildg_colors = nc;
    fi->precision = (int)prec;
    fi->has_ildg_format = 1;
    fi->kind = LATTIO_FIELD_ILDG_GAUGE;
    return set_dims(tags, 4, 4, d, &fi->nd, fi->dims);
}

/* a * b, or 0 when it overflows */
static uint64_t mul_or_zero(uint64_t a, uint64_t b)
{
    return a && b > UINT64_MAX / a ? 0 : a * b;
}

/* tmLQCD's etmc-propagator-format gives <lz> as lx: where the written lz
 * equals lx and the binary record's length holds a whole number of other
 * lz planes, that number is lz (the written one kept). */
static void etmc_lz(lattio_field_info *fi)
{
    const uint64_t plane = mul_or_zero(mul_or_zero(fi->dims[0], fi->dims[1]), mul_or_zero(fi->dims[3], fi->typesize));
    if (fi->dims[2] != fi->dims[0] || !plane || fi->binary.length % plane) return;
    const uint64_t lz = fi->binary.length / plane;
    if (lz == 0 || lz == fi->dims[2]) return;
    fi->etmc_lz_written = fi->dims[2];
    fi->dims[2] = lz;
}

/* tmLQCD's etmc-propagator-format or etmc-source-format (`source`): a
 * Dirac fermion's dims, precision and flavours. */
static int parse_etmc_format(const char *x, size_t n, lattio_field_info *fi, int source)
{
    static const char *const tags[4] = {"lx", "ly", "lz", "lt"};
    int64_t d[4], prec, flavours = 1, spin = 4, colour = 3;
    char field[LATTIO_FIELD_TEXT_MAX] = "";
    for (int i = 0; i < 4; i++) RETURN_IF_ERROR(req_int(x, n, tags[i], &d[i]));
    RETURN_IF_ERROR(req_int(x, n, "precision", &prec));
    RETURN_IF_ERROR(opt_int(x, n, "flavours", &flavours));
    RETURN_IF_ERROR(opt_int(x, n, "spin", &spin));
    RETURN_IF_ERROR(opt_int(x, n, "colour", &colour));
    RETURN_IF_ERROR(opt_string(x, n, "field", field, sizeof field));
    if (prec != 32 && prec != 64) return bad_value("precision", prec, "not 32 or 64", LATTIO_ERR_FIELD_PRECISION);
    if (flavours < 1 || flavours > 2) return bad_value("flavours", flavours, "not 1 or 2", LATTIO_ERR_BAD_METADATA);
    if (strcmp(field, "diracFermion") != 0 || spin != 4 || colour != 3) {
        lattio_detail_set("element <field> is '%s' with %lld spins and %lld colours, not tmLQCD's "
                          "diracFermion with 4 and 3", field, (long long)spin, (long long)colour);
        return LATTIO_FAIL(LATTIO_ERR_UNSUPPORTED, "etmc field");
    }
    RETURN_IF_ERROR(set_dims(tags, 4, 4, d, &fi->nd, fi->dims));
    fi->precision = (int)prec;
    fi->precision_code = prec == 64 ? 'D' : 'F';
    snprintf(fi->datatype, sizeof fi->datatype, "USQCD_%c3_DiracFermion", fi->precision_code);
    fi->spins = 4;
    fi->colors = 3;
    fi->typesize = 24 * (uint64_t)prec / 8;
    fi->datacount = 1;
    fi->etmc_flavours = (int)flavours;
    if (!source) etmc_lz(fi);
    return LATTIO_OK;
}

static int code_precision(char code)
{
    return code == 'F' ? 32 : code == 'D' ? 64 : 0;
}

/* A non-negative integer of element <tag> that fits an int. */
static int small_int(const char *tag, int64_t v, int *out)
{
    if (v < 0 || v > INT32_MAX) return bad_value(tag, v, "out of range", LATTIO_ERR_BAD_METADATA);
    *out = (int)v;
    return LATTIO_OK;
}

/* A subset record's hypercube: <hyperlower> and <hyperupper>, one
 * coordinate per dimension (checked against the dims in check_length). */
static int parse_hypercube(const char *x, size_t n, lattio_field_info *fi)
{
    int64_t lo[LATTIO_MAX_DIMS], hi[LATTIO_MAX_DIMS];
    int nlo = 0, nhi = 0;
    int rc = lattio_xml_ints(x, n, "hyperlower", lo, LATTIO_MAX_DIMS, &nlo);
    RETURN_IF_ERROR(element("hyperlower", rc, LATTIO_ERR_BAD_METADATA));
    rc = lattio_xml_ints(x, n, "hyperupper", hi, LATTIO_MAX_DIMS, &nhi);
    RETURN_IF_ERROR(element("hyperupper", rc, LATTIO_ERR_BAD_METADATA));
    if (nlo != nhi)
        return bad_value("hyperupper", nhi, "not as many coordinates as <hyperlower>", LATTIO_ERR_BAD_METADATA);
    for (int i = 0; i < nlo; i++) {
        if (lo[i] < 0 || hi[i] < lo[i])
            return bad_value("hyperupper", hi[i], "below <hyperlower> or negative", LATTIO_ERR_BAD_METADATA);
        fi->hyper_lower[i] = (uint64_t)lo[i];
        fi->hyper_upper[i] = (uint64_t)hi[i];
    }
    fi->hyper_nd = nlo;
    return LATTIO_OK;
}

static int parse_private_record(const char *x, size_t n, lattio_field_info *fi)
{
    char prec[8] = "";
    int64_t recordtype = 0, colors = 0, spins = 0, typesize = -1, datacount = -1;
    RETURN_IF_ERROR(opt_string(x, n, "version", fi->record_version, sizeof fi->record_version));
    RETURN_IF_ERROR(opt_string(x, n, "date", fi->date, sizeof fi->date));
    RETURN_IF_ERROR(opt_string(x, n, "datatype", fi->datatype, sizeof fi->datatype));
    RETURN_IF_ERROR(opt_string(x, n, "precision", prec, sizeof prec));
    RETURN_IF_ERROR(opt_int(x, n, "globaldata", &recordtype));
    RETURN_IF_ERROR(opt_int(x, n, "recordtype", &recordtype));
    RETURN_IF_ERROR(opt_int(x, n, "colors", &colors));
    RETURN_IF_ERROR(opt_int(x, n, "spins", &spins));
    RETURN_IF_ERROR(opt_int(x, n, "typesize", &typesize));
    RETURN_IF_ERROR(opt_int(x, n, "datacount", &datacount));
    if (typesize <= 0)
        return bad_value("typesize", typesize, "missing or not positive", LATTIO_ERR_BAD_METADATA);
    if (datacount <= 0)
        return bad_value("datacount", datacount, "missing or not positive", LATTIO_ERR_BAD_METADATA);
    if (recordtype < 0 || recordtype > 2)
        return bad_value("recordtype", recordtype, "not 0, 1 or 2", LATTIO_ERR_BAD_METADATA);
    if (strlen(prec) != 1 || !strchr("FDIS", prec[0])) {
        lattio_detail_set("element <precision> is '%s', not F, D, I or S", prec);
        return LATTIO_FAIL(LATTIO_ERR_BAD_METADATA, "SciDAC precision");
    }
    RETURN_IF_ERROR(small_int("colors", colors, &fi->colors));
    RETURN_IF_ERROR(small_int("spins", spins, &fi->spins));
    fi->recordtype = (int)recordtype;
    if (recordtype == 2) RETURN_IF_ERROR(parse_hypercube(x, n, fi));
    fi->precision_code = prec[0];
    fi->typesize = (uint64_t)typesize;
    fi->datacount = (uint64_t)datacount;
    fi->has_private_record = 1;
    return LATTIO_OK;
}

static int parse_checksum(const char *x, size_t n, lattio_scidac_sum *sum)
{
    int rc = lattio_xml_hex32(x, n, "suma", &sum->suma);
    RETURN_IF_ERROR(element("suma", rc, rc == LATTIO_ERR_NOT_FOUND ? LATTIO_ERR_BAD_XML : 0));
    rc = lattio_xml_hex32(x, n, "sumb", &sum->sumb);
    return element("sumb", rc, rc == LATTIO_ERR_NOT_FOUND ? LATTIO_ERR_BAD_XML : 0);
}

/* A payload as a string: trailing NULs (QIO counts one) dropped. */
static void strip_nuls(char *t, size_t *len)
{
    while (*len > 0 && t[*len - 1] == '\0') (*len)--;
}

/* --- putting the field together ------------------------------------------ */

/* The dims of the private file XML (when present) against fi's. */
static int merge_file_dims(lattio_field_info *fi, const char *x, size_t n)
{
    int nd = 0;
    uint64_t dims[LATTIO_MAX_DIMS] = {0};
    RETURN_IF_ERROR(parse_private_file(x, n, &nd, dims, &fi->volfmt));
    fi->has_private_file = 1;
    if (fi->nd == 0) {
        fi->nd = nd;
        memcpy(fi->dims, dims, sizeof dims);
        return LATTIO_OK;
    }
    RETURN_IF(nd != fi->nd, LATTIO_ERR_FIELD_DIMS);
    for (int i = 0; i < nd; i++) RETURN_IF(dims[i] != fi->dims[i], LATTIO_ERR_FIELD_DIMS);
    return LATTIO_OK;
}

enum { PART_ILDG, PART_PRIVATE_RECORD, PART_PRIVATE_FILE, PART_CHECKSUM, PART_LFN,
       PART_FILE_XML, PART_RECORD_XML, PART_ETMC_PROPAGATOR, PART_ETMC_SOURCE };

/* Interpret the payload x (n bytes, NUL-terminated at n) of one part;
 * *keep is set when fi now owns x. */
static int parse_part(lattio_field_info *fi, int part, char *x, size_t n, int *keep)
{
    *keep = 0;
    switch (part) {
    case PART_ILDG: return parse_ildg_format(x, n, fi);
    case PART_PRIVATE_RECORD: return parse_private_record(x, n, fi);
    case PART_PRIVATE_FILE: return merge_file_dims(fi, x, n);
    case PART_CHECKSUM:
        fi->has_checksum = 1;
        return parse_checksum(x, n, &fi->stored);
    case PART_ETMC_PROPAGATOR: return parse_etmc_format(x, n, fi, 0);
    case PART_ETMC_SOURCE: return parse_etmc_format(x, n, fi, 1);
    default: break;
    }
    strip_nuls(x, &n);
    x[n] = '\0';
    *keep = 1;
    if (part == PART_LFN) fi->lfn = x;
    else if (part == PART_FILE_XML) fi->file_xml = x;
    else fi->record_xml = x;
    return LATTIO_OK;
}

/* Read record recs[i] (none when i < 0) and interpret it as `part`. */
static int read_part(lattio_lime_reader *r, const lattio_record_info *recs, int i, int part,
                     lattio_field_info *fi)
{
    if (i < 0) return LATTIO_OK;
    char *x;
    size_t n;
    int keep;
    lattio_detail_clear();
    int rc = lattio_field_read_text(r, recs, i, &x, &n);
    if (rc == LATTIO_OK) {
        rc = parse_part(fi, part, x, n, &keep);
        if (!keep) lattio_free(x);
    }
    if (rc < 0) { /* name the record (numbered from 1, as the tools do) */
        char what[LATTIO_DETAIL_MAX];
        snprintf(what, sizeof what, "%s", lattio_detail_peek());
        lattio_detail_set("%s record %d at byte %llu: %s", recs[i].type, i + 1,
                          (unsigned long long)recs[i].offset,
                          what[0] ? what : lattio_strerror(rc));
    }
    return rc;
}

/* Element sizes and precision, from the private record or the ILDG gauge
 * convention, cross-checked. */
static int settle_sizes(lattio_field_info *fi)
{
    const int pcode = code_precision(fi->precision_code);
    if (fi->has_private_record && fi->has_ildg_format)
        RETURN_IF(pcode != fi->precision, LATTIO_ERR_FIELD_PRECISION);
    const uint64_t nc = fi->ildg_colors ? (uint64_t)fi->ildg_colors : 3;
    if (!fi->has_private_record && !fi->etmc_record) {
        RETURN_IF(!fi->has_ildg_format, LATTIO_ERR_BAD_METADATA);
        fi->typesize = 2 * nc * nc * (uint64_t)fi->precision / 8;
        fi->datacount = 4;
        fi->precision_code = fi->precision == 64 ? 'D' : 'F';
    }
    if (!fi->has_ildg_format) fi->precision = pcode;
    if (fi->precision) RETURN_IF(fi->typesize % (uint64_t)(fi->precision / 8), LATTIO_ERR_FIELD_PRECISION);
    if (fi->kind == LATTIO_FIELD_ILDG_GAUGE)
        RETURN_IF(fi->typesize * fi->datacount != 8 * nc * nc * (uint64_t)fi->precision / 8,
                  LATTIO_ERR_FIELD_PRECISION);
    return LATTIO_OK;
}

/* SciDAC's SU(N) gauge field: 4 colour matrices per site (QIO's
 * ColorMatrix, Grid's LorentzVector4_ColourMatrix<N>). */
static int is_su3_gauge(const lattio_field_info *fi)
{
    const uint64_t n = fi->colors ? (uint64_t)fi->colors : 3;
    return (strstr(fi->datatype, "ColorMatrix") || strstr(fi->datatype, "ColourMatrix")) && n >= 2 &&
           n <= LATTIO_GAUGE_MAX_COLORS && fi->datacount == 4 && fi->precision &&
           fi->typesize == 2 * n * n * (uint64_t)fi->precision / 8;
}

int lattio_field_gauge_colors(const lattio_field_info *fi)
{
    if (!fi || (fi->kind != LATTIO_FIELD_ILDG_GAUGE && fi->kind != LATTIO_FIELD_SU3_GAUGE)) return 0;
    return fi->ildg_colors ? fi->ildg_colors : fi->colors ? fi->colors : 3;
}

/* ildg-format's su<N>gauge and the private record's colors must agree. */
static int check_gauge_colors(const lattio_field_info *fi)
{
    if (!fi->ildg_colors || !fi->colors || fi->colors == fi->ildg_colors) return LATTIO_OK;
    lattio_detail_set("ildg-format says su%dgauge, scidac-private-record-xml %d colors", fi->ildg_colors, fi->colors);
    return LATTIO_FAIL(LATTIO_ERR_BAD_METADATA, "colours disagree");
}

/* Volume and the binary record's length against the metadata: a lattice
 * field's record holds every site (a part of them in a QIO volume: `part`). */
static int check_length(lattio_field_info *fi, int part)
{
    RETURN_IF(fi->nd == 0, LATTIO_ERR_BAD_METADATA);
    uint64_t v = 1;
    for (int i = 0; i < fi->nd; i++) {
        RETURN_IF(fi->dims[i] > UINT64_MAX / v, LATTIO_ERR_OVERFLOW);
        v *= fi->dims[i];
    }
    fi->volume = v;
    RETURN_IF(fi->typesize > UINT64_MAX / fi->datacount, LATTIO_ERR_OVERFLOW);
    const uint64_t site = fi->typesize * fi->datacount;
    const uint64_t len = fi->binary.length;
    if (fi->recordtype == 1) RETURN_IF(len != site, LATTIO_ERR_FIELD_LENGTH);
    if (fi->recordtype == 2) {
        uint64_t box = 1;
        RETURN_IF(fi->hyper_nd != fi->nd, LATTIO_ERR_BAD_METADATA);
        for (int i = 0; i < fi->nd; i++) {
            RETURN_IF(fi->hyper_upper[i] >= fi->dims[i], LATTIO_ERR_BAD_METADATA);
            box *= fi->hyper_upper[i] - fi->hyper_lower[i] + 1;
        }
        RETURN_IF(len % site || len / site > box, LATTIO_ERR_FIELD_LENGTH);
        if (!part) RETURN_IF(len != site * box, LATTIO_ERR_FIELD_LENGTH);
    }
    if (fi->recordtype == 0) {
        if (part) RETURN_IF(len % site || len / site > v, LATTIO_ERR_FIELD_LENGTH);
        RETURN_IF(site > UINT64_MAX / v, LATTIO_ERR_OVERFLOW);
        if (!part) RETURN_IF(len != site * v, LATTIO_ERR_FIELD_LENGTH);
    }
    return LATTIO_OK;
}

static int read_parts(lattio_lime_reader *r, const lattio_record_info *recs,
                      const field_records *fr, lattio_field_info *fi)
{
    RETURN_IF_ERROR(read_part(r, recs, fr->ildg_format, PART_ILDG, fi));
    RETURN_IF_ERROR(read_part(r, recs, fr->private_file, PART_PRIVATE_FILE, fi));
    RETURN_IF_ERROR(read_part(r, recs, fr->private_record, PART_PRIVATE_RECORD, fi));
    RETURN_IF_ERROR(read_part(r, recs, fr->checksum, PART_CHECKSUM, fi));
    RETURN_IF_ERROR(read_part(r, recs, fr->lfn, PART_LFN, fi));
    RETURN_IF_ERROR(read_part(r, recs, fr->file_xml, PART_FILE_XML, fi));
    RETURN_IF_ERROR(read_part(r, recs, fr->record_xml, PART_RECORD_XML, fi));
    if (fr->etmc < 0 || fi->has_private_record || fi->has_ildg_format) return LATTIO_OK;
    fi->etmc_record = fr->etmc + 1;
    const int source = strcmp(recs[fr->etmc].type, "etmc-source-format") == 0;
    return read_part(r, recs, fr->etmc, source ? PART_ETMC_SOURCE : PART_ETMC_PROPAGATOR, fi);
}

/* The records that set a field's shape, named for a message ("ildg-format
 * record 2 at byte 408, ..."). */
static void shape_sources(const lattio_record_info *recs, const field_records *fr, char *out,
                          size_t size)
{
    const int which[4] = {fr->ildg_format, fr->private_file, fr->private_record, fr->etmc};
    size_t used = 0;
    out[0] = '\0';
    for (int k = 0; k < 4; k++) {
        if (which[k] < 0 || used >= size) continue;
        const int i = which[k];
        int w = snprintf(out + used, size - used, "%s%s record %d at byte %llu", used ? ", " : "",
                         recs[i].type, i + 1, (unsigned long long)recs[i].offset);
        used += w > 0 ? (size_t)w : 0;
    }
}

/* Sizes and length checked against the binary record; a failure names the
 * records the shape came from and what they imply. */
static int check_shape(const lattio_record_info *recs, const field_records *fr, lattio_field_info *fi,
                       int part)
{
    int rc = settle_sizes(fi);
    if (rc == LATTIO_OK) rc = check_length(fi, part);
    if (rc == LATTIO_OK || rc == LATTIO_ERR_NOMEM) return rc;
    char src[160], dims[96] = "";
    shape_sources(recs, fr, src, sizeof src);
    for (int i = 0, used = 0; i < fi->nd && used < (int)sizeof dims; i++) {
        int w = snprintf(dims + used, sizeof dims - (size_t)used, "%s%llu", i ? "x" : "",
                         (unsigned long long)fi->dims[i]);
        used += w > 0 ? w : 0;
    }
    lattio_detail_set("%s record %d at byte %llu holds %llu bytes; the metadata (%s) give dims %s, "
                      "%llu bytes per datum, %llu per site",
                      fi->binary.type, fr->binary + 1, (unsigned long long)fi->binary.offset,
                      (unsigned long long)fi->binary.length, src[0] ? src : "none",
                      dims[0] ? dims : "none", (unsigned long long)fi->typesize,
                      (unsigned long long)(fi->typesize * fi->datacount));
    return rc;
}

/* A single file's fields only; a QIO volume's private file XML names its
 * volume format, and lattio_volumes_open reads the set. */
static int check_single(const lattio_field_info *fi)
{
    if (fi->volfmt == LATTIO_VOLFMT_SINGLE) return LATTIO_OK;
    lattio_detail_set("scidac-private-file-xml: volfmt %d, one volume of a QIO %s set: open the set by its "
                      "base name (lattio_volumes_open, lattio info BASE)", fi->volfmt,
                      fi->volfmt == LATTIO_VOLFMT_MULTI ? "multifile" : "partfile");
    return LATTIO_FAIL(LATTIO_ERR_UNSUPPORTED, "a volume read as a single file");
}

int lattio_field_info_read(lattio_lime_reader *r, int index, lattio_field_info *fi)
{
    int rc = lattio_field_info_read_part(r, index, 0, fi);
    if (rc == LATTIO_ERR_FIELD_LENGTH) { /* a volume's part of a field is short of the lattice */
        char detail[LATTIO_DETAIL_MAX];
        snprintf(detail, sizeof detail, "%s", lattio_detail_peek());
        if (lattio_field_info_read_part(r, index, 1, fi) == LATTIO_OK) {
            const int single = check_single(fi);
            lattio_field_info_free(fi);
            if (single < 0) return single;
        }
        lattio_detail_set("%s", detail);
        return rc;
    }
    if (rc < 0) return rc;
    const int single = check_single(fi);
    if (single < 0) lattio_field_info_free(fi);
    return single;
}

int lattio_field_info_read_part(lattio_lime_reader *r, int index, int part, lattio_field_info *fi)
{
    RETURN_IF(!r || !fi || index < 0, LATTIO_ERR_ARG);
    memset(fi, 0, sizeof *fi);
    lattio_detail_clear();
    lattio_record_info *recs;
    int n;
    field_records fr;
    int rc = lattio_field_read_index(r, &recs, &n);
    if (rc == LATTIO_OK) rc = locate(r, recs, n, index, &fr);
    if (rc == LATTIO_OK) {
        fi->index = index;
        fi->binary = recs[fr.binary];
        rc = read_parts(r, recs, &fr, fi);
    }
    if (rc == LATTIO_OK) rc = check_shape(recs, &fr, fi, part);
    if (rc == LATTIO_OK) rc = check_gauge_colors(fi);
    if (rc == LATTIO_OK) rc = lattio_field_type_check(fi);
    lattio_free(recs);
    if (rc == LATTIO_OK && fi->kind == LATTIO_FIELD_GENERIC && is_su3_gauge(fi))
        fi->kind = LATTIO_FIELD_SU3_GAUGE;
    if (rc < 0) lattio_field_info_free(fi);
    return rc;
}

void lattio_field_info_free(lattio_field_info *fi)
{
    if (!fi) return;
    lattio_free(fi->lfn);
    lattio_free(fi->file_xml);
    lattio_free(fi->record_xml);
    fi->lfn = fi->file_xml = fi->record_xml = NULL;
}

int lattio_field_set_head(int ildg, int file_header, lattio_set_record *out)
{
    static const lattio_set_record all[LATTIO_SET_HEAD_MAX] = {
        {LATTIO_REC_PRIVATE_FILE_XML, 1, 0}, {LATTIO_REC_FILE_XML, 0, 1},
        {LATTIO_REC_PRIVATE_RECORD_XML, 1, 0}, {LATTIO_REC_RECORD_XML, 0, 0},
        {LATTIO_REC_ILDG_FORMAT, 0, 0}, {LATTIO_REC_ILDG_LFN, 0, 0}};
    int n = 0;
    for (int i = file_header ? 0 : 2; i < (ildg ? 6 : 4); i++) out[n++] = all[i];
    return n;
}
