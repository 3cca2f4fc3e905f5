/* gauge_verify.c -- verification of one lattice file for `lattio verify`
 * and `lattio convert`: LIME structure, every binary record's SciDAC
 * checksum, metadata consistency, and for gauge fields the header checksum,
 * plaquette, link trace and unitarity. */
#include "gauge_tool.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void problem(verify_report *rep, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void problem(verify_report *rep, const char *fmt, ...)
{
    if (rep->nproblems >= VR_MAX_PROBLEMS) return;
    va_list ap;
    va_start(ap, fmt);
    char raw[sizeof rep->problems[0]];
    vsnprintf(raw, sizeof raw, fmt, ap); /* may quote a record type from the file */
    tool_escape(rep->problems[rep->nproblems++], sizeof rep->problems[0], raw);
    va_end(ap);
}

static void warning(verify_report *rep, const char *text)
{
    if (rep->nwarnings < VR_MAX_PROBLEMS)
        snprintf(rep->warnings[rep->nwarnings++], sizeof rep->warnings[0], "%s", text);
}

/* 1-based number of the record whose header is at `offset`; 0 if none. */
static int record_number(lattio_lime_reader *r, uint64_t offset)
{
    lattio_record_info info;
    lattio_lime_reader_rewind(r);
    for (int n = 1; lattio_lime_reader_next(r, &info) == LATTIO_OK; n++)
        if (info.offset == offset) return n;
    return 0;
}

static void structure(verify_report *rep)
{
    lattio_problem probs[VR_MAX_PROBLEMS];
    size_t count = 0;
    const int rc = lattio_lime_check(rep->path, probs, VR_MAX_PROBLEMS, &count, &rep->nrecords);
    if (rc < 0 && count == 0)
        problem(rep, "%s (%s)", lattio_strerror(rc), lattio_error_name(rc));
    for (size_t i = 0; i < count && i < VR_MAX_PROBLEMS; i++) {
        char line[VR_TEXT];
        snprintf(line, sizeof line, "record %d at offset %" PRIu64 ": %s (%s)",
                 probs[i].record + 1, probs[i].offset, probs[i].message,
                 lattio_error_name(probs[i].status));
        if (probs[i].status == LATTIO_ERR_MBME) warning(rep, line);
        else problem(rep, "%s", line);
    }
}

static int is_gauge(const lattio_field_info *fi)
{
    const uint64_t n = (uint64_t)lattio_field_gauge_colors(fi);
    return n && fi->nd == 4 && (fi->precision == 32 || fi->precision == 64) && fi->recordtype == 0 &&
           fi->typesize * fi->datacount == (uint64_t)fi->precision * n * n;
}

/* The checks of rep->stats (computed already). */
static void stats_checks(verify_report *rep)
{
    rep->has_gauge = 1;
    if (!(rep->stats.unitarity <= LATTIO_GAUGE_UNITARITY_TOL))
        problem(rep, "links not unitary: max |U^+U - 1| = %.3g > %g (ERR_UNITARITY)",
                rep->stats.unitarity, LATTIO_GAUGE_UNITARITY_TOL);
    const lattio_gauge_info *in = &rep->info;
    if (in->has_plaquette && !(fabs(in->plaquette - rep->stats.plaquette) <= LATTIO_GAUGE_HEADER_TOL))
        problem(rep, "plaquette %.12f differs from the header's %.12f (ERR_PLAQUETTE)",
                rep->stats.plaquette, in->plaquette);
    if (in->has_link_trace &&
        !(fabs(in->link_trace - rep->stats.link_trace) <= LATTIO_GAUGE_HEADER_TOL))
        problem(rep, "link trace %.12f differs from the header's %.12f (ERR_PLAQUETTE)",
                rep->stats.link_trace, in->link_trace);
}

static void gauge_checks(verify_report *rep, const double *u)
{
    const int nc = rep->info.colors ? rep->info.colors : 3;
    if (lattio_gauge_stats_compute_nc(u, rep->info.dims, nc, &rep->stats) != LATTIO_OK) return;
    stats_checks(rep);
}

verify_field_fn verify_field_hook;

/* Describe a LIME gauge field in rep->info (as lattio_gauge_read would). */
static void lime_gauge_info(verify_report *rep, const lattio_field_info *fi, const vr_field *v)
{
    lattio_gauge_info *in = &rep->info;
    in->format = strcmp(fi->binary.type, "ildg-binary-data") == 0 || fi->has_ildg_format
                     ? LATTIO_GAUGE_ILDG
                     : LATTIO_GAUGE_SCIDAC;
    memcpy(in->dims, fi->dims, sizeof in->dims);
    in->volume = fi->volume;
    in->precision = fi->precision;
    in->rows = in->colors = lattio_field_gauge_colors(fi);
    in->checksum_kind = LATTIO_GSUM_SCIDAC;
    in->has_checksum = v->has_stored;
    in->stored[0] = v->stored.suma, in->stored[1] = v->stored.sumb;
    in->computed[0] = v->computed.suma, in->computed[1] = v->computed.sumb;
    in->binary = fi->binary;
    rep->format = in->format;
    verify_report_meta(rep, fi);
}

/* Checksum one field; the first gauge field is also read into *u. */
static void lime_field(verify_report *rep, lattio_lime_reader *r, const lattio_field_info *fi,
                       double **u)
{
    vr_field *v = verify_report_field(rep);
    if (!v) {
        problem(rep, "field at offset %" PRIu64 ": out of memory (ERR_NOMEM)", fi->binary.offset);
        return;
    }
    v->record = record_number(r, fi->binary.offset);
    snprintf(v->type, sizeof v->type, "%s", fi->binary.type);
    v->offset = fi->binary.offset, v->length = fi->binary.length;
    v->site_bytes = fi->typesize * fi->datacount;
    v->has_stored = fi->has_checksum, v->stored = fi->stored;
    const int gauge = !rep->has_gauge && rep->format == 0 && is_gauge(fi);
    double *buf = NULL;
    lattio_gauge_stats par;
    int rc = verify_field_hook && !u ? verify_field_hook(rep->path, fi, gauge, &v->computed, &par)
                                     : VR_SERIAL;
    const int parallel = rc != VR_SERIAL;
    if (!parallel) {
        const int nc = lattio_field_gauge_colors(fi);
        if (gauge) buf = lattio_gauge_alloc_nc(fi->volume, nc);
        rc = lattio_field_read_double(r, fi, buf, buf ? fi->volume * 8 * (uint64_t)(nc * nc) : 0, &v->computed);
    }
    v->ok = rc == LATTIO_OK && fi->has_checksum;
    v->io_failed = tool_is_io_status(rc);
    if (rc == LATTIO_ERR_CHECKSUM)
        problem(rep, "record %d (%s) at offset %" PRIu64 ": SciDAC checksum %x %x, stored %x %x (ERR_CHECKSUM)",
                v->record, v->type, v->offset, (unsigned)v->computed.suma,
                (unsigned)v->computed.sumb, (unsigned)v->stored.suma, (unsigned)v->stored.sumb);
    else if (rc != LATTIO_OK) /* an I/O error carries the system's reason */
        problem(rep, "record %d (%s): %s (%s)%s", v->record, v->type, lattio_strerror(rc),
                lattio_error_name(rc), v->io_failed ? tool_errno_suffix() : "");
    else if (!fi->has_checksum)
        problem(rep, "record %d (%s): no scidac-checksum record (ERR_NO_CHECKSUM)", v->record, v->type);
    if ((buf || (parallel && gauge)) && (rc == LATTIO_OK || rc == LATTIO_ERR_CHECKSUM)) {
        lime_gauge_info(rep, fi, v);
        if (buf) {
            gauge_checks(rep, buf);
        } else {
            rep->stats = par;
            stats_checks(rep);
        }
    }
    if (buf && u && rep->has_gauge) *u = buf;
    else lattio_gauge_free(buf);
}

/* A record that announces a binary record after it (ILDG's format record,
 * SciDAC's record XML). */
static int announces_field(const char *type)
{
    return strcmp(type, "ildg-format") == 0 || strcmp(type, "scidac-private-record-xml") == 0 ||
           strcmp(type, "scidac-record-xml") == 0;
}

static int is_binary(const char *type)
{
    return strcmp(type, "ildg-binary-data") == 0 || strcmp(type, "scidac-binary-data") == 0;
}

/* Metadata announcing a field whose binary record is not in the file (a
 * file cut just before it) is a failure, not a warning. */
static void announced_fields(verify_report *rep, lattio_lime_reader *r)
{
    lattio_record_info info;
    int pending = 0;
    char type[LATTIO_LIME_TYPE_MAX + 1] = "";
    if (lattio_lime_reader_rewind(r) != LATTIO_OK) return;
    for (int k = 1; lattio_lime_reader_next(r, &info) == LATTIO_OK; k++) {
        if (is_binary(info.type)) pending = 0;
        else if (announces_field(info.type) && !pending) {
            pending = k;
            snprintf(type, sizeof type, "%s", info.type);
        }
    }
    if (pending)
        problem(rep, "record %d (%s) announces a lattice field, but no binary record follows it: "
                "the file is cut or incomplete (ERR_BAD_METADATA)", pending, type);
}

static void lime_fields(verify_report *rep, double **u)
{
    lattio_lime_reader *r;
    int rc = lattio_lime_reader_open(rep->path, &r), count = 0;
    if (rc == LATTIO_OK) rc = lattio_field_count(r, &count);
    for (int i = 0; rc == LATTIO_OK && i < count; i++) {
        lattio_field_info fi;
        const int st = lattio_field_info_read(r, i, &fi);
        if (st != LATTIO_OK) {
            char where[256];
            const int n = lattio_last_detail(where, sizeof where);
            problem(rep, "field %d: metadata: %s%s%s (%s)", i + 1, where, n ? ": " : "",
                    lattio_strerror(st), lattio_error_name(st));
            continue;
        }
        lime_field(rep, r, &fi, u);
        lattio_field_info_free(&fi);
    }
    if (rc != LATTIO_OK) problem(rep, "%s (%s)", lattio_strerror(rc), lattio_error_name(rc));
    if (rc == LATTIO_OK) announced_fields(rep, r);
    lattio_lime_reader_close(r);
}

static void plain_gauge(verify_report *rep, double **u)
{
    double *buf = NULL;
    const int rc = lattio_gauge_read(rep->path, &rep->info, &buf);
    const lattio_gauge_info *in = &rep->info;
    if (rc == LATTIO_ERR_CHECKSUM && in->checksum_kind == LATTIO_GSUM_NERSC)
        problem(rep, "NERSC header CHECKSUM %08x, computed %08x (ERR_CHECKSUM)",
                (unsigned)in->stored[0], (unsigned)in->computed[0]);
    else if (rc == LATTIO_ERR_CHECKSUM)
        problem(rep, "MILC checksums sum29 %x sum31 %x, computed %x %x (ERR_CHECKSUM)",
                (unsigned)in->stored[0], (unsigned)in->stored[1], (unsigned)in->computed[0],
                (unsigned)in->computed[1]);
    else if (rc != LATTIO_OK)
        problem(rep, "%s%s%s (%s)", in->problem, in->problem[0] ? ": " : "", lattio_strerror(rc),
                lattio_error_name(rc));
    if (rc == LATTIO_OK && in->checksum_kind == LATTIO_GSUM_NERSC && !in->has_checksum)
        problem(rep, "NERSC header has no CHECKSUM (ERR_NO_CHECKSUM)");
    if (buf) gauge_checks(rep, buf);
    if (buf && u) *u = buf;
    else lattio_gauge_free(buf);
}

/* One field of a QIO volume set: every volume's part checksummed (a
 * gauge field's values kept for its observables). */
static void volume_field(verify_report *rep, lattio_volumes *v, const lattio_field_info *fi, double **u)
{
    vr_field *f = verify_report_field(rep);
    if (!f) {
        problem(rep, "field %d: out of memory (ERR_NOMEM)", fi->index + 1);
        return;
    }
    f->record = fi->index + 1;
    snprintf(f->type, sizeof f->type, "%s", fi->binary.type);
    f->site_bytes = fi->typesize * fi->datacount;
    f->length = f->site_bytes * lattio_field_record_sites(fi);
    f->has_stored = fi->has_checksum, f->stored = fi->stored;
    const int gauge = !rep->has_gauge && is_gauge(fi);
    const int nc = lattio_field_gauge_colors(fi);
    double *buf = gauge ? lattio_gauge_alloc_nc(fi->volume, nc) : NULL;
    const int rc = buf ? lattio_volumes_read_values(v, fi->index, LATTIO_REAL_F64_NATIVE, buf,
                                                    fi->volume * 8 * (uint64_t)(nc * nc), &f->computed)
                       : lattio_volumes_read_bytes(v, fi->index, NULL, &f->computed);
    f->ok = rc == LATTIO_OK && fi->has_checksum;
    f->io_failed = tool_is_io_status(rc);
    char detail[256];
    const int n = rc == LATTIO_OK ? 0 : lattio_last_detail(detail, sizeof detail);
    if (rc != LATTIO_OK)
        problem(rep, "field %d (%s): %s%s%s (%s)", f->record, f->type, n ? detail : "", n ? ": " : "",
                lattio_strerror(rc), lattio_error_name(rc));
    else if (!fi->has_checksum)
        problem(rep, "field %d (%s): no scidac-checksum record (ERR_NO_CHECKSUM)", f->record, f->type);
    if (buf && (rc == LATTIO_OK || rc == LATTIO_ERR_CHECKSUM)) {
        lime_gauge_info(rep, fi, f);
        gauge_checks(rep, buf);
    }
    if (buf && u && rep->has_gauge && !*u) *u = buf;
    else lattio_gauge_free(buf);
}

/* A QIO volume set: its volumes checked as they open, every field's checksum. */
static void volume_fields(verify_report *rep, double **u)
{
    lattio_volumes *v;
    lattio_volumes_info vi;
    int rc = lattio_volumes_open(rep->path, &v);
    if (rc == LATTIO_OK) rc = lattio_volumes_describe(v, &vi);
    if (rc != LATTIO_OK) {
        char detail[256];
        const int n = lattio_last_detail(detail, sizeof detail);
        problem(rep, "%s%s%s (%s)", n ? detail : "", n ? ": " : "", lattio_strerror(rc), lattio_error_name(rc));
        return;
    }
    rep->is_lime = 1;
    rep->nrecords = (size_t)vi.volumes;
    for (int i = 0; i < vi.fields; i++) {
        lattio_field_info fi;
        if (lattio_volumes_field_info(v, i, &fi) != LATTIO_OK) continue;
        volume_field(rep, v, &fi, u);
        lattio_field_info_free(&fi);
    }
    lattio_volumes_close(v);
}

int verify_file(const char *path, verify_report *rep, double **u)
{
    if (u) *u = NULL;
    if (lattio_volumes_probe(path)) {
        verify_report_reset(rep, path);
        volume_fields(rep, u);
        return rep->nproblems == 0;
    }
    if (h5_tool_target(path)) { /* this process alone */
        tool_mpi_ensure();
        lattio_layout l;
        double *local = NULL;
        const int ok = verify_h5(path, rep, MPI_COMM_SELF, &l, u ? &local : NULL);
        if (u) *u = local; /* one rank: the whole field in ILDG order */
        return ok;
    }
    verify_report_reset(rep, path);
    int format;
    const int rc = lattio_gauge_detect(path, &format);
    if (rc != LATTIO_OK) {
        problem(rep, "%s (%s)", lattio_strerror(rc), lattio_error_name(rc));
        return 0;
    }
    rep->is_lime = format == LATTIO_GAUGE_ILDG;
    if (rep->is_lime) {
        structure(rep);
        lime_fields(rep, u);
    } else {
        rep->format = format;
        plain_gauge(rep, u);
    }
    return rep->nproblems == 0;
}

/* --- printing ------------------------------------------------------------- */
