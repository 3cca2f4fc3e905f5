/* report.c -- the verification report: its notes (problems with their
 * status, warnings), field entries, metadata, and its JSON form. */
#include "ops_internal.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lattio_verify_report_init(lattio_verify_report *rep) { memset(rep, 0, sizeof *rep); }

void lattio_verify_report_free(lattio_verify_report *rep)
{
    free(rep->path);
    free(rep->meta_file_xml);
    free(rep->meta_record_xml);
    free(rep->meta_lfn);
    lattio_text_records_free(rep->meta_other, rep->meta_n_other);
    free(rep->meta_nersc_header);
    free(rep->fields);
    memset(rep, 0, sizeof *rep);
}

int lattio_ops_reset(lattio_verify_report *rep, const char *path)
{
    lattio_verify_report_free(rep);
    rep->path = strdup(path ? path : "");
    return rep->path ? LATTIO_OK : LATTIO_ERR_NOMEM;
}

static void note(char *dst, const char *fmt, va_list ap)
{
    char raw[LATTIO_VERIFY_TEXT];
    vsnprintf(raw, sizeof raw, fmt, ap); /* may quote a record type or name from the file */
    lattio_text_escape(dst, LATTIO_VERIFY_TEXT, raw);
}

void lattio_ops_problem(lattio_verify_report *rep, int status, const char *fmt, ...)
{
    if (rep->status == LATTIO_OK) rep->status = status < 0 ? status : LATTIO_ERR_VERIFY;
    if (rep->nproblems >= LATTIO_VERIFY_MAX_NOTES) {
        rep->dropped++;
        return;
    }
    rep->problem_status[rep->nproblems] = status;
    va_list ap;
    va_start(ap, fmt);
    note(rep->problems[rep->nproblems++], fmt, ap);
    va_end(ap);
}

void lattio_ops_warning(lattio_verify_report *rep, const char *fmt, ...)
{
    if (rep->nwarnings >= LATTIO_VERIFY_MAX_NOTES) {
        rep->dropped++;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    note(rep->warnings[rep->nwarnings++], fmt, ap);
    va_end(ap);
}

const char *lattio_ops_detail(char *buf, size_t size)
{
    char d[256];
    if (lattio_last_detail(d, sizeof d) <= 0 || !d[0]) return "";
    snprintf(buf, size, ": %s", d);
    return buf;
}

lattio_verify_field *lattio_ops_field(lattio_verify_report *rep)
{
    if (rep->nfields == rep->fields_cap) {
        const int cap = rep->fields_cap ? 2 * rep->fields_cap : 16;
        lattio_verify_field *f =
            rep->nfields < INT_MAX / 2 ? realloc(rep->fields, (size_t)cap * sizeof *f) : NULL;
        if (!f) return NULL;
        rep->fields = f, rep->fields_cap = cap;
    }
    lattio_verify_field *v = &rep->fields[rep->nfields++];
    memset(v, 0, sizeof *v);
    return v;
}

static char *copy(const char *s) { return s ? strdup(s) : NULL; }

void lattio_ops_meta(lattio_verify_report *rep, const lattio_field_info *fi)
{
    free(rep->meta_file_xml);
    free(rep->meta_record_xml);
    free(rep->meta_lfn);
    rep->meta_file_xml = copy(fi->file_xml);
    rep->meta_record_xml = copy(fi->record_xml);
    rep->meta_lfn = copy(fi->lfn);
    snprintf(rep->meta_date, sizeof rep->meta_date, "%s", fi->date);
}

void lattio_ops_stats_checks(lattio_verify_report *rep, const char *where)
{
    const char *pre = where ? where : "", *sep = where ? ": " : "";
    rep->has_gauge = 1;
    if (!(rep->stats.unitarity <= LATTIO_GAUGE_UNITARITY_TOL))
        lattio_ops_problem(rep, LATTIO_ERR_UNITARITY,
                           "%s%slinks not unitary: max |U^+U - 1| = %.3g > %g (ERR_UNITARITY)", pre, sep,
                           rep->stats.unitarity, LATTIO_GAUGE_UNITARITY_TOL);
    const lattio_gauge_info *in = &rep->info;
    if (in->has_plaquette && !(fabs(in->plaquette - rep->stats.plaquette) <= LATTIO_GAUGE_HEADER_TOL))
        lattio_ops_problem(rep, LATTIO_ERR_PLAQUETTE,
                           "plaquette %.12f differs from the header's %.12f (ERR_PLAQUETTE)",
                           rep->stats.plaquette, in->plaquette);
    if (in->has_link_trace && !(fabs(in->link_trace - rep->stats.link_trace) <= LATTIO_GAUGE_HEADER_TOL))
        lattio_ops_problem(rep, LATTIO_ERR_PLAQUETTE,
                           "link trace %.12f differs from the header's %.12f (ERR_PLAQUETTE)",
                           rep->stats.link_trace, in->link_trace);
}

const char *lattio_verify_format_name(const lattio_verify_report *rep)
{
    static const char *const lime[] = {"unknown", "lime", "ildg", "scidac"};
    if (rep->format) return lattio_gauge_format_name(rep->format);
    if (rep->is_hdf5) return "hdf5";
    return rep->lime >= 0 && rep->lime <= 3 ? lime[rep->lime] : "unknown";
}

/* --- JSON ------------------------------------------------------------------ */

const char *lattio_gauge_checksum_name(int kind)
{
    static const char *const names[] = {"none", "nersc", "milc", "scidac"};
    return kind >= 0 && kind <= 3 ? names[kind] : "none";
}

static void json_hex(FILE *f, const char *key, uint32_t v, int comma)
{
    fprintf(f, "\"%s\": \"%08x\"%s", key, (unsigned)v, comma ? ", " : "");
}

static void json_field(FILE *f, const lattio_verify_field *v)
{
    fprintf(f, "{\"record\": %d, \"type\": ", v->record);
    lattio_json_string(f, v->type);
    fprintf(f, ", \"offset\": %" PRIu64 ", \"length\": %" PRIu64 ", \"site_bytes\": %" PRIu64 ", ", v->offset,
            v->length, v->site_bytes);
    json_hex(f, "suma", v->computed.suma, 1);
    json_hex(f, "sumb", v->computed.sumb, 1);
    if (v->has_stored) {
        json_hex(f, "stored_suma", v->stored.suma, 1);
        json_hex(f, "stored_sumb", v->stored.sumb, 1);
    }
    fprintf(f, "\"read\": %s, \"ok\": %s}", v->io_failed ? "false" : "true", v->ok ? "true" : "false");
}

static void json_gauge(FILE *f, const lattio_verify_report *rep)
{
    const lattio_gauge_info *in = &rep->info;
    fprintf(f, ", \"dims\": [%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 "], \"precision\": %d", in->dims[0],
            in->dims[1], in->dims[2], in->dims[3], in->precision);
    fprintf(f, ", \"little_endian\": %s, \"rows\": %d, \"colors\": %d", in->little_endian ? "true" : "false",
            in->rows, in->colors ? in->colors : 3);
    fprintf(f, ", \"checksum\": {\"kind\": \"%s\", \"present\": %s", lattio_gauge_checksum_name(in->checksum_kind),
            in->has_checksum ? "true" : "false");
    fprintf(f, ", \"stored\": [\"%08x\", \"%08x\"], \"computed\": [\"%08x\", \"%08x\"]}", (unsigned)in->stored[0],
            (unsigned)in->stored[1], (unsigned)in->computed[0], (unsigned)in->computed[1]);
    /* strict JSON has no NaN or infinity: those values are null, and
     * "nonfinite" names them (the field's numbers are damaged) */
    const struct {
        const char *key;
        int present;
        double v;
    } nums[] = {{"header_plaquette", in->has_plaquette, in->plaquette},
                {"header_link_trace", in->has_link_trace, in->link_trace},
                {"plaquette", rep->has_gauge, rep->stats.plaquette},
                {"link_trace", rep->has_gauge, rep->stats.link_trace},
                {"unitarity", rep->has_gauge, rep->stats.unitarity}};
    const size_t n = sizeof nums / sizeof nums[0];
    for (size_t i = 0; i < n; i++) {
        if (!nums[i].present) continue;
        if (isfinite(nums[i].v)) fprintf(f, ", \"%s\": %.17g", nums[i].key, nums[i].v);
        else fprintf(f, ", \"%s\": null", nums[i].key);
    }
    fputs(", \"nonfinite\": [", f);
    for (size_t i = 0, k = 0; i < n; i++)
        if (nums[i].present && !isfinite(nums[i].v)) fprintf(f, "%s\"%s\"", k++ ? ", " : "", nums[i].key);
    fputc(']', f);
}

static void json_notes(FILE *f, const char *key, const char (*s)[LATTIO_VERIFY_TEXT], int n)
{
    fprintf(f, ", \"%s\": [", key);
    for (int i = 0; i < n; i++) {
        if (i) fputs(", ", f);
        lattio_json_string(f, s[i]);
    }
    fputc(']', f);
}

static void json_report(FILE *f, const lattio_verify_report *rep)
{
    fputs("{\"file\": ", f);
    lattio_json_string(f, rep->path ? rep->path : "");
    fprintf(f, ", \"ok\": %s, \"status\": \"%s\", \"lime\": %s, \"format\": \"%s\"",
            rep->status ? "false" : "true", rep->status ? lattio_error_name(rep->status) : "OK",
            rep->lime ? "true" : "false", lattio_verify_format_name(rep));
    if (rep->is_hdf5) fprintf(f, ", \"hdf5_layout\": \"%s\"", rep->h5_layout == LATTIO_H5_QLUA ? "qlua" : "qdp");
    if (rep->is_volumes) fprintf(f, ", \"volumes\": %zu", rep->nrecords);
    else if (rep->lime) fprintf(f, ", \"records\": %zu", rep->nrecords);
    fputs(", \"binary_records\": [", f);
    for (int i = 0; i < rep->nfields; i++) {
        if (i) fputs(", ", f);
        json_field(f, &rep->fields[i]);
    }
    fputc(']', f);
    if (rep->format) json_gauge(f, rep);
    json_notes(f, "warnings", (const char(*)[LATTIO_VERIFY_TEXT])rep->warnings, rep->nwarnings);
    json_notes(f, "problems", (const char(*)[LATTIO_VERIFY_TEXT])rep->problems, rep->nproblems);
    if (rep->dropped) fprintf(f, ", \"notes_dropped\": %d", rep->dropped);
    fputc('}', f);
}

int lattio_ops_json(void (*write)(FILE *, const void *), const void *arg, char **json)
{
    char *buf = NULL;
    size_t size = 0;
    *json = NULL;
    FILE *f = open_memstream(&buf, &size);
    if (!f) return LATTIO_ERR_NOMEM;
    write(f, arg);
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        free(buf);
        return LATTIO_ERR_NOMEM;
    }
    *json = buf;
    return LATTIO_OK;
}

static void json_write(FILE *f, const void *rep) { json_report(f, rep); }

int lattio_verify_report_json(const lattio_verify_report *rep, char **json)
{
    return lattio_ops_json(json_write, rep, json);
}
