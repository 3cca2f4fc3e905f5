/* verify_report.c -- the report `lattio verify` and `lattio convert` fill
 * (reset, one entry per field, metadata) and its printing as text or JSON.
 * The checks that fill it (gauge_verify.c, h5_tool.c, verify_mpi.c) build
 * on it. */
#include "gauge_tool.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void verify_report_reset(verify_report *rep, const char *path)
{
    free(rep->meta_file_xml);
    free(rep->meta_record_xml);
    free(rep->meta_lfn);
    free(rep->fields);
    memset(rep, 0, sizeof *rep);
    rep->path = path;
}

vr_field *verify_report_field(verify_report *rep)
{
    if (rep->nfields == rep->fields_cap) {
        const int cap = rep->fields_cap ? 2 * rep->fields_cap : 16;
        vr_field *f = rep->nfields < INT_MAX / 2 ? realloc(rep->fields, (size_t)cap * sizeof *f) : NULL;
        if (!f) return NULL;
        rep->fields = f, rep->fields_cap = cap;
    }
    vr_field *v = &rep->fields[rep->nfields++];
    memset(v, 0, sizeof *v);
    return v;
}

static char *copy(const char *s) { return s ? strdup(s) : NULL; }

void verify_report_meta(verify_report *rep, const lattio_field_info *fi)
{
    free(rep->meta_file_xml);
    free(rep->meta_record_xml);
    free(rep->meta_lfn);
    rep->meta_file_xml = copy(fi->file_xml);
    rep->meta_record_xml = copy(fi->record_xml);
    rep->meta_lfn = copy(fi->lfn);
    snprintf(rep->meta_date, sizeof rep->meta_date, "%s", fi->date);
}

static const char *checksum_name(int kind)
{
    static const char *const names[] = {"none", "nersc", "milc", "scidac"};
    return kind >= 0 && kind <= 3 ? names[kind] : "none";
}

static void text_gauge(FILE *f, const verify_report *rep)
{
    const lattio_gauge_info *in = &rep->info;
    fprintf(f, "%s: %s gauge field %" PRIu64 "x%" PRIu64 "x%" PRIu64 "x%" PRIu64 ", %d-bit", rep->path,
            lattio_gauge_format_name(in->format), in->dims[0], in->dims[1], in->dims[2],
            in->dims[3], in->precision);
    if (in->format == LATTIO_GAUGE_NERSC) fprintf(f, ", %d rows", in->rows);
    if (in->colors && in->colors != 3) fprintf(f, ", SU(%d)", in->colors);
    fputc('\n', f);
    if (in->checksum_kind == LATTIO_GSUM_NERSC || in->checksum_kind == LATTIO_GSUM_MILC)
        fprintf(f, "%s: %s checksum %08x %08x, computed %08x %08x\n", rep->path,
                checksum_name(in->checksum_kind), (unsigned)in->stored[0],
                (unsigned)in->stored[1], (unsigned)in->computed[0], (unsigned)in->computed[1]);
    if (!rep->has_gauge) return;
    fprintf(f, "%s: plaquette %.12f", rep->path, rep->stats.plaquette);
    if (in->has_plaquette) fprintf(f, " (header %.12f)", in->plaquette);
    fprintf(f, ", link trace %.12f", rep->stats.link_trace);
    if (in->has_link_trace) fprintf(f, " (header %.12f)", in->link_trace);
    fprintf(f, ", unitarity %.3g\n", rep->stats.unitarity);
}

void verify_print_text(FILE *f, const verify_report *rep)
{
    if (rep->is_lime) fprintf(f, "%s: LIME, %zu records, %d binary\n", rep->path, rep->nrecords, rep->nfields);
    if (rep->is_hdf5)
        fprintf(f, "%s: HDF5, %zu lattice field%s\n", rep->path, rep->nrecords, rep->nrecords == 1 ? "" : "s");
    const char *what = rep->is_hdf5 ? "field" : "record";
    for (int i = 0; i < rep->nfields; i++) {
        const vr_field *v = &rep->fields[i];
        if (v->io_failed) /* a broken disk, not a broken file: no checksum to show */
            fprintf(f, "%s: %s %d (%s), %" PRIu64 " bytes: not read (I/O error)\n", rep->path, what,
                    v->record, v->type, v->length);
        else if (rep->is_hdf5 && !v->has_stored)
            fprintf(f, "%s: %s %d (%s), %" PRIu64 " bytes: %s\n", rep->path, what, v->record, v->type,
                    v->length, v->ok ? "ok" : "FAILED");
        else
            fprintf(f, "%s: %s %d (%s), %" PRIu64 " bytes: checksum %x %x %s\n", rep->path, what,
                    v->record, v->type, v->length, (unsigned)v->computed.suma,
                    (unsigned)v->computed.sumb, v->ok ? "ok" : "FAILED");
    }
    if (rep->format) text_gauge(f, rep);
    for (int i = 0; i < rep->nwarnings; i++) fprintf(f, "%s: warning: %s\n", rep->path, rep->warnings[i]);
    for (int i = 0; i < rep->nproblems; i++) fprintf(f, "%s: %s\n", rep->path, rep->problems[i]);
    fprintf(f, "%s: %s\n", rep->path, rep->nproblems ? "FAILED" : "ok");
}

static void json_hex(FILE *f, const char *key, uint32_t v, int comma)
{
    fprintf(f, "\"%s\": \"%08x\"%s", key, (unsigned)v, comma ? ", " : "");
}

static void json_field(FILE *f, const vr_field *v)
{
    fprintf(f, "{\"record\": %d, \"type\": ", v->record);
    tool_json_string(f, v->type);
    fprintf(f, ", \"offset\": %" PRIu64 ", \"length\": %" PRIu64 ", \"site_bytes\": %" PRIu64 ", ",
            v->offset, v->length, v->site_bytes);
    json_hex(f, "suma", v->computed.suma, 1);
    json_hex(f, "sumb", v->computed.sumb, 1);
    if (v->has_stored) {
        json_hex(f, "stored_suma", v->stored.suma, 1);
        json_hex(f, "stored_sumb", v->stored.sumb, 1);
    }
    fprintf(f, "\"read\": %s, \"ok\": %s}", v->io_failed ? "false" : "true", v->ok ? "true" : "false");
}

static void json_gauge(FILE *f, const verify_report *rep)
{
    const lattio_gauge_info *in = &rep->info;
    fprintf(f, ", \"dims\": [%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 "], \"precision\": %d",
            in->dims[0], in->dims[1], in->dims[2], in->dims[3], in->precision);
    fprintf(f, ", \"little_endian\": %s, \"rows\": %d, \"colors\": %d", in->little_endian ? "true" : "false",
            in->rows, in->colors ? in->colors : 3);
    fprintf(f, ", \"checksum\": {\"kind\": \"%s\", \"present\": %s", checksum_name(in->checksum_kind),
            in->has_checksum ? "true" : "false");
    fprintf(f, ", \"stored\": [\"%08x\", \"%08x\"], \"computed\": [\"%08x\", \"%08x\"]}",
            (unsigned)in->stored[0], (unsigned)in->stored[1], (unsigned)in->computed[0],
            (unsigned)in->computed[1]);
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

static void json_strings(FILE *f, const char *key, const char (*s)[VR_TEXT], int n)
{
    fprintf(f, ", \"%s\": [", key);
    for (int i = 0; i < n; i++) {
        if (i) fputs(", ", f);
        tool_json_string(f, s[i]);
    }
    fputc(']', f);
}

void verify_print_json(FILE *f, const verify_report *rep)
{
    fputs("{\"file\": ", f);
    tool_json_string(f, rep->path);
    fprintf(f, ", \"ok\": %s, \"lime\": %s, \"format\": \"%s\"", rep->nproblems ? "false" : "true",
            rep->is_lime ? "true" : "false",
            rep->format ? lattio_gauge_format_name(rep->format) : rep->is_lime ? "lime" : rep->is_hdf5 ? "hdf5" : "unknown");
    if (rep->is_hdf5) fprintf(f, ", \"hdf5_layout\": \"%s\"", rep->h5_layout == LATTIO_H5_QLUA ? "qlua" : "qdp");
    if (rep->is_lime) fprintf(f, ", \"records\": %zu", rep->nrecords);
    fputs(", \"binary_records\": [", f);
    for (int i = 0; i < rep->nfields; i++) {
        if (i) fputs(", ", f);
        json_field(f, &rep->fields[i]);
    }
    fputc(']', f);
    if (rep->format) json_gauge(f, rep);
    json_strings(f, "warnings", (const char(*)[VR_TEXT])rep->warnings, rep->nwarnings);
    json_strings(f, "problems", (const char(*)[VR_TEXT])rep->problems, rep->nproblems);
    fputc('}', f);
}
