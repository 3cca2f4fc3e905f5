/* info.c -- describe a LIME file: its records numbered as C-LIME's
 * lime_contents numbers them (with the text it shows of each), its
 * lattice fields with their metadata and the shape a reader gives them,
 * and where a damaged file stops; the JSON form `lattio info --json`
 * prints and Python's lattio.info parses. */
#include "ops_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lattio_info_report_init(lattio_info_report *rep)
{
    memset(rep, 0, sizeof *rep);
    rep->error_field = -1;
}

void lattio_info_report_free(lattio_info_report *rep)
{
    for (size_t i = 0; i < rep->nrecords; i++) free(rep->records[i].text);
    for (int i = 0; i < rep->nvolumes; i++) free(rep->volumes[i].path);
    free(rep->volumes);
    free(rep->records);
    free(rep->fields);
    free(rep->path);
    lattio_info_report_init(rep);
}

static void stop(lattio_info_report *rep, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void stop(lattio_info_report *rep, int status, const char *fmt, ...)
{
    char raw[LATTIO_VERIFY_TEXT], detail[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    size_t n = strlen(raw);
    snprintf(raw + n, sizeof raw - n, "%s", lattio_ops_detail(detail, sizeof detail));
    rep->status = status;
    lattio_text_escape(rep->problem, sizeof rep->problem, raw);
}

/* The payload as lime_contents shows it, or NULL (*status: a read error). */
static char *record_text(lattio_lime_reader *r, const lattio_record_info *ri, int *status)
{
    *status = LATTIO_OK;
    if (ri->length >= LATTIO_INFO_TEXT_LIMIT) return NULL;
    char *buf = malloc((size_t)ri->length + 1);
    if (!buf) return *status = LATTIO_ERR_NOMEM, NULL;
    for (size_t have = 0, got = 0; have < ri->length && *status == LATTIO_OK; have += got) {
        const int rc = lattio_lime_reader_read(r, buf + have, (size_t)ri->length - have, &got);
        *status = rc < 0 ? rc : got == 0 ? LATTIO_ERR_TRUNCATED_PAYLOAD : LATTIO_OK;
    }
    for (size_t i = 0; *status == LATTIO_OK && i < ri->length; i++)
        if ((unsigned char)buf[i] & 0x80) *status = 1; /* binary: no text */
    if (*status != LATTIO_OK) {
        if (*status > 0) *status = LATTIO_OK;
        free(buf);
        return NULL;
    }
    buf[ri->length] = '\0';
    return buf;
}

static lattio_info_record *new_record(lattio_info_report *rep)
{
    if (rep->nrecords == rep->records_cap) {
        const size_t cap = rep->records_cap ? 2 * rep->records_cap : 16;
        lattio_info_record *p = realloc(rep->records, cap * sizeof *p);
        if (!p) return NULL;
        rep->records = p, rep->records_cap = cap;
    }
    lattio_info_record *e = &rep->records[rep->nrecords++];
    memset(e, 0, sizeof *e);
    return e;
}

static void walk(lattio_info_report *rep, lattio_lime_reader *r, int flags)
{
    int message = 0, record = 0, rc;
    uint64_t next = 0;
    lattio_record_info ri;
    while ((rc = lattio_lime_reader_next(r, &ri)) == LATTIO_OK) {
        lattio_info_record *e = new_record(rep);
        if (!e) return stop(rep, LATTIO_ERR_NOMEM, "%s", "");
        if (ri.mb || message == 0) message++, record = 0;
        e->number = (int)rep->nrecords, e->message = message, e->record = ++record, e->rec = ri;
        next = ri.data_offset + ri.length + ri.padding;
        if (flags & LATTIO_INFO_TEXT) e->text = record_text(r, &ri, &rc);
        if (rc != LATTIO_OK) {
            rep->error_record = e->number, rep->error_offset = ri.data_offset;
            return stop(rep, rc, "reading the payload of record %d", e->number);
        }
    }
    if (rc == LATTIO_ERR_EOF) return;
    rep->error_record = (int)rep->nrecords + 1, rep->error_offset = next;
    if (rc == LATTIO_ERR_TRAILING_BYTES)
        stop(rep, rc, "at offset %" PRIu64 ", after record %zu", next, rep->nrecords);
    else
        stop(rep, rc, "at record %zu, offset %" PRIu64, rep->nrecords + 1, next);
}

/* The 1-based number of the record whose header is at `offset` (0: not
 * listed); the records are in file order. */
static int number_at(const lattio_info_report *rep, uint64_t offset)
{
    size_t lo = 0, hi = rep->nrecords;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (rep->records[mid].rec.offset < offset) lo = mid + 1;
        else hi = mid;
    }
    return lo < rep->nrecords && rep->records[lo].rec.offset == offset ? rep->records[lo].number : 0;
}

/* The array a reader gives field f: the lattice slowest first (t z y x),
 * then the site's axes. */
static void reader_shape(lattio_info_field *f)
{
    static const char *const lattice[] = {"x", "y", "z", "t"};
    size_t n = 0;
    f->rank = 0;
    for (int i = f->nd - 1; i >= 0; i--) {
        f->shape[f->rank++] = f->dims[i];
        if (f->nd == 4) n += (size_t)snprintf(f->axes + n, sizeof f->axes - n, "%s%s", n ? " " : "", lattice[i]);
        else n += (size_t)snprintf(f->axes + n, sizeof f->axes - n, "%sd%d", n ? " " : "", i);
    }
    for (int i = 0; i < f->site.rank; i++) f->shape[f->rank++] = f->site.shape[i];
    if (f->site.axes[0]) snprintf(f->axes + n, sizeof f->axes - n, " %s", f->site.axes);
}

int lattio_info_field_of(const lattio_field_info *fi, int record, lattio_info_field *f)
{
    memset(f, 0, sizeof *f);
    const int rc = lattio_field_site_of(fi, &f->site);
    if (rc != LATTIO_OK) return rc;
    f->index = fi->index, f->record = record, f->binary = fi->binary;
    memcpy(f->datatype, fi->datatype, sizeof f->datatype);
    f->precision = fi->precision, f->colors = fi->colors, f->spins = fi->spins, f->nd = fi->nd;
    f->typesize = fi->typesize, f->datacount = fi->datacount;
    memcpy(f->dims, fi->dims, sizeof f->dims);
    f->has_checksum = fi->has_checksum, f->stored = fi->stored;
    f->etmc_record = fi->etmc_record, f->etmc_flavours = fi->etmc_flavours, f->etmc_lz_written = fi->etmc_lz_written;
    reader_shape(f);
    return LATTIO_OK;
}

static void fields(lattio_info_report *rep, lattio_lime_reader *r)
{
    int count = 0, rc = lattio_field_count(r, &count);
    if (rc == LATTIO_OK && !(rep->fields = calloc(count ? (size_t)count : 1, sizeof *rep->fields)))
        rc = LATTIO_ERR_NOMEM;
    if (rc != LATTIO_OK) return stop(rep, rc, "%s", "");
    rep->fields_cap = count;
    for (int i = 0; i < count; i++) {
        lattio_field_info fi;
        rc = lattio_field_info_read(r, i, &fi); /* on error fi is freed */
        if (rc == LATTIO_OK) {
            rc = lattio_info_field_of(&fi, number_at(rep, fi.binary.offset), &rep->fields[i]);
            lattio_field_info_free(&fi);
        }
        rep->nfields += rc == LATTIO_OK;
        if (rc != LATTIO_OK) return rep->error_field = i, stop(rep, rc, "(field %d)", i);
    }
}

/* --- QIO volume sets ----------------------------------------------------- */

static int set_volumes(lattio_info_report *rep, const lattio_volumes *v, const lattio_volumes_info *vi)
{
    if (!(rep->volumes = calloc(vi->volumes ? (size_t)vi->volumes : 1, sizeof *rep->volumes))) return LATTIO_ERR_NOMEM;
    for (int i = 0; i < vi->volumes; i++) {
        lattio_info_volume *e = &rep->volumes[i];
        const char *p = NULL;
        int rc = lattio_volumes_volume(v, i, &e->number, &e->sites, &p);
        if (rc == LATTIO_OK && !(e->path = strdup(p))) rc = LATTIO_ERR_NOMEM;
        if (rc != LATTIO_OK) return rc;
        rep->nvolumes = i + 1;
    }
    return LATTIO_OK;
}

static int set_fields(lattio_info_report *rep, lattio_volumes *v, const lattio_volumes_info *vi)
{
    if (!(rep->fields = calloc(vi->fields ? (size_t)vi->fields : 1, sizeof *rep->fields))) return LATTIO_ERR_NOMEM;
    rep->fields_cap = vi->fields;
    for (int i = 0; i < vi->fields; i++) {
        lattio_field_info fi;
        int rc = lattio_volumes_field_info(v, i, &fi);
        if (rc != LATTIO_OK) return rep->error_field = i, rc;
        fi.binary.length = fi.typesize * fi.datacount * lattio_field_record_sites(&fi); /* over all volumes */
        rc = lattio_info_field_of(&fi, 0, &rep->fields[i]);
        lattio_field_info_free(&fi);
        if (rc != LATTIO_OK) return rep->error_field = i, rc;
        rep->nfields = i + 1;
    }
    return LATTIO_OK;
}

static int volume_set(lattio_info_report *rep)
{
    lattio_volumes *v = NULL;
    lattio_volumes_info vi;
    int rc = lattio_volumes_open(rep->path, &v);
    if (rc == LATTIO_OK) rc = lattio_volumes_describe(v, &vi);
    if (rc == LATTIO_OK) rep->volfmt = vi.volfmt;
    if (rc == LATTIO_OK) rc = set_volumes(rep, v, &vi);
    if (rc == LATTIO_OK) rc = set_fields(rep, v, &vi);
    lattio_volumes_close(v);
    if (rc == LATTIO_OK) return LATTIO_OK;
    if (rep->error_field >= 0) stop(rep, rc, "(field %d)", rep->error_field);
    else stop(rep, rc, "%s", "");
    return rep->status;
}

int lattio_info_file(const char *path, int flags, lattio_info_report *rep)
{
    lattio_info_report_free(rep);
    if (!path) return rep->status = LATTIO_ERR_ARG;
    if (!(rep->path = strdup(path))) return rep->status = LATTIO_ERR_NOMEM;
    if (lattio_volumes_probe(path)) return volume_set(rep);
    lattio_lime_reader *r = NULL;
    const int rc = lattio_lime_reader_open(path, &r);
    if (rc != LATTIO_OK) return stop(rep, rc, "%s", ""), rep->status;
    walk(rep, r, flags);
    if (rep->status == LATTIO_OK && (flags & LATTIO_INFO_FIELDS)) fields(rep, r);
    lattio_lime_reader_close(r);
    return rep->status;
}

/* --- JSON ----------------------------------------------------------------- */

static void json_record(FILE *f, const lattio_info_record *e)
{
    const lattio_record_info *r = &e->rec;
    fprintf(f, "{\"number\": %d, \"message\": %d, \"record\": %d, \"offset\": %" PRIu64 ", \"data_offset\": %" PRIu64
               ", \"type\": ", e->number, e->message, e->record, r->offset, r->data_offset);
    lattio_json_string(f, r->type);
    fprintf(f, ", \"length\": %" PRIu64 ", \"padding\": %u, \"mb\": %s, \"me\": %s, \"data\": ", r->length,
            (unsigned)r->padding, r->mb ? "true" : "false", r->me ? "true" : "false");
    if (e->text) lattio_json_string(f, e->text);
    else fputs("null", f);
    fputc('}', f);
}

static void json_shape(FILE *f, const lattio_info_field *x)
{
    fputs(", \"shape\": [", f);
    for (int i = 0; i < x->rank; i++) fprintf(f, "%s%" PRIu64, i ? ", " : "", x->shape[i]);
    fputs("], \"axes\": [", f);
    char axes[sizeof x->axes];
    snprintf(axes, sizeof axes, "%s", x->axes);
    int k = 0;
    for (char *save = NULL, *a = strtok_r(axes, " ", &save); a; a = strtok_r(NULL, " ", &save))
        fprintf(f, "%s\"%s\"", k++ ? ", " : "", a);
    fputc(']', f);
}

static void json_field(FILE *f, const lattio_info_field *x)
{
    fprintf(f, "{\"index\": %d, \"record\": %d, \"offset\": %" PRIu64 ", \"length\": %" PRIu64 ", \"type\": \"%s\", \"datatype\": ",
            x->index, x->record, x->binary.offset, x->binary.length, x->site.type ? x->site.type : "untyped");
    lattio_json_string(f, x->datatype);
    fprintf(f, ", \"precision\": %d, \"colors\": %d, \"spins\": %d, \"typesize\": %" PRIu64 ", \"datacount\": %" PRIu64
               ", \"complex\": %s", x->precision, x->colors, x->spins, x->typesize, x->datacount,
            x->site.is_complex ? "true" : "false");
    json_shape(f, x);
    if (x->etmc_record)
        fprintf(f, ", \"etmc\": {\"record\": %d, \"flavours\": %d, \"lz_written\": %" PRIu64 "}", x->etmc_record,
                x->etmc_flavours, x->etmc_lz_written);
    if (x->has_checksum) fprintf(f, ", \"checksum\": [\"%08x\", \"%08x\"]}", x->stored.suma, x->stored.sumb);
    else fputs(", \"checksum\": null}", f);
}

static void json_error(FILE *f, const lattio_info_report *rep)
{
    fprintf(f, ", \"error\": {\"status\": \"%s\", \"code\": %d, \"message\": ", lattio_error_name(rep->status),
            rep->status);
    lattio_json_string(f, lattio_strerror(rep->status));
    fprintf(f, ", \"record\": %d, \"offset\": %" PRIu64 ", \"field\": %d, \"detail\": ", rep->error_record,
            rep->error_offset, rep->error_field);
    lattio_json_string(f, rep->problem);
    fputc('}', f);
}

static void json_set(FILE *f, const lattio_info_report *rep)
{
    fputs(", \"set\": ", f);
    lattio_json_string(f, rep->path);
    fprintf(f, ", \"volfmt\": %d, \"format\": \"%s\", \"volumes\": [", rep->volfmt, lattio_volfmt_name(rep->volfmt));
    for (int i = 0; i < rep->nvolumes; i++) {
        fprintf(f, "%s{\"number\": %d, \"sites\": %" PRIu64 ", \"path\": ", i ? ", " : "", rep->volumes[i].number,
                rep->volumes[i].sites);
        lattio_json_string(f, rep->volumes[i].path);
        fputc('}', f);
    }
    fputc(']', f);
}

static void json_report(FILE *f, const void *arg)
{
    const lattio_info_report *rep = arg;
    fputs("{\"file\": ", f);
    lattio_json_string(f, rep->path ? rep->path : "");
    if (rep->volfmt) json_set(f, rep);
    fputs(", \"records\": [", f);
    for (size_t i = 0; i < rep->nrecords; i++) {
        fputs(i ? ",\n  " : "\n  ", f);
        json_record(f, &rep->records[i]);
    }
    fputs("\n]", f);
    if (rep->fields) {
        fputs(", \"fields\": [", f);
        for (int i = 0; i < rep->nfields; i++) {
            fputs(i ? ",\n  " : "\n  ", f);
            json_field(f, &rep->fields[i]);
        }
        fputs("\n]", f);
    }
    if (rep->status != LATTIO_OK) json_error(f, rep);
    fputc('}', f);
}

int lattio_info_report_json(const lattio_info_report *rep, char **json)
{
    return lattio_ops_json(json_report, rep, json);
}
