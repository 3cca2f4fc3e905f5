/* verify.c -- the verification of one lattice file (MPI-free): LIME
 * structure, every binary record's SciDAC checksum, metadata consistency,
 * QIO volume sets over all their volumes, and for gauge fields the header
 * checksum, plaquette, link trace and unitarity.  The collective
 * verification (src/ops/mpi) runs these checks with its own reader of
 * binary records. */
#include "ops_internal.h"
#include "field/field_internal.h" /* lattio_field_is_binary_type */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* How one file is verified: the report, where a gauge field goes, and the
 * caller's reader of binary records. */
typedef struct verify_ctx {
    lattio_verify_report *rep;
    double **u;
    lattio_ops_reader reader;
    void *arg;
} verify_ctx;

/* ": <the system's reason>" of the last I/O failure, or "". */
static const char *errno_suffix(char *buf, size_t size)
{
    const int e = lattio_last_errno();
    if (!e || size < 3) return "";
    snprintf(buf, size, ": %s", strerror(e));
    return buf;
}

static void structure(lattio_verify_report *rep)
{
    lattio_problem probs[LATTIO_VERIFY_MAX_NOTES];
    size_t count = 0;
    const int rc = lattio_lime_check(rep->path, probs, LATTIO_VERIFY_MAX_NOTES, &count, &rep->nrecords);
    if (rc < 0 && count == 0) lattio_ops_problem(rep, rc, "%s (%s)", lattio_strerror(rc), lattio_error_name(rc));
    for (size_t i = 0; i < count && i < LATTIO_VERIFY_MAX_NOTES; i++) {
        char line[LATTIO_VERIFY_TEXT];
        snprintf(line, sizeof line, "record %d at offset %" PRIu64 ": %s (%s)", probs[i].record + 1,
                 probs[i].offset, probs[i].message, lattio_error_name(probs[i].status));
        if (probs[i].status == LATTIO_ERR_MBME) lattio_ops_warning(rep, "%s", line);
        else lattio_ops_problem(rep, probs[i].status, "%s", line);
    }
}

static int is_gauge(const lattio_field_info *fi)
{
    const uint64_t n = (uint64_t)lattio_field_gauge_colors(fi);
    return n && fi->nd == 4 && (fi->precision == 32 || fi->precision == 64) && fi->recordtype == 0 &&
           fi->typesize * fi->datacount == (uint64_t)fi->precision * n * n;
}

static void gauge_checks(lattio_verify_report *rep, const double *u)
{
    const int nc = rep->info.colors ? rep->info.colors : 3;
    if (lattio_gauge_stats_compute_nc(u, rep->info.dims, nc, &rep->stats) != LATTIO_OK) return;
    lattio_ops_stats_checks(rep, NULL);
}

/* Describe a LIME gauge field in rep->info (as lattio_gauge_read would). */
static void lime_gauge_info(lattio_verify_report *rep, const lattio_field_info *fi, const lattio_verify_field *v)
{
    lattio_gauge_info *in = &rep->info;
    in->format = strcmp(fi->binary.type, "ildg-binary-data") == 0 || fi->has_ildg_format ? LATTIO_GAUGE_ILDG
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
    lattio_ops_meta(rep, fi);
}

/* The read's verdict on field entry v in words. */
static void read_problems(lattio_verify_report *rep, const lattio_verify_field *v, int rc, int has_checksum)
{
    char why[200];
    if (rc == LATTIO_ERR_CHECKSUM)
        lattio_ops_problem(rep, rc,
                           "record %d (%s) at offset %" PRIu64 ": SciDAC checksum %x %x, stored %x %x (ERR_CHECKSUM)",
                           v->record, v->type, v->offset, (unsigned)v->computed.suma, (unsigned)v->computed.sumb,
                           (unsigned)v->stored.suma, (unsigned)v->stored.sumb);
    else if (rc != LATTIO_OK) /* an I/O error carries the system's reason */
        lattio_ops_problem(rep, rc, "record %d (%s): %s (%s)%s", v->record, v->type, lattio_strerror(rc),
                           lattio_error_name(rc), v->io_failed ? errno_suffix(why, sizeof why) : "");
    else if (!has_checksum)
        lattio_ops_problem(rep, LATTIO_ERR_NO_CHECKSUM, "record %d (%s): no scidac-checksum record (ERR_NO_CHECKSUM)",
                           v->record, v->type);
}

/* tmLQCD's lz slip, corrected from the record's length (recordset.c): said,
 * as the checksum then stands behind the lattice's size. */
static void etmc_note(lattio_verify_report *rep, const lattio_field_info *fi, int record)
{
    if (!fi->etmc_lz_written) return;
    lattio_ops_warning(rep, "record %d: etmc-propagator-format record %d gives lz %" PRIu64 ", tmLQCD's lx; "
                       "the binary record's length gives lz %" PRIu64 ", read as that",
                       record, fi->etmc_record, fi->etmc_lz_written, fi->dims[2]);
}

/* Other writers' records before the gauge field's binary record (field
 * `field`, record `record`), kept for a conversion. */
static void other_records(lattio_verify_report *rep, lattio_lime_reader *r, int field, int record)
{
    lattio_text_records_free(rep->meta_other, rep->meta_n_other);
    rep->meta_other = NULL, rep->meta_n_other = rep->meta_other_left = 0;
    const int rc = lattio_field_other_records(r, field, &rep->meta_other, &rep->meta_n_other, &rep->meta_other_left);
    if (rc != LATTIO_OK)
        lattio_ops_problem(rep, rc, "other writers' records before record %d: %s (%s)", record, lattio_strerror(rc),
                           lattio_error_name(rc));
}

/* Checksum one field (record number `record`); the first gauge field is
 * also read into *c->u. */

static void lime_field(verify_ctx *c, lattio_lime_reader *r, const lattio_field_info *fi, int record)
{
    lattio_verify_report *rep = c->rep;
    lattio_verify_field *v = lattio_ops_field(rep);
    if (!v) {
        lattio_ops_problem(rep, LATTIO_ERR_NOMEM, "field at offset %" PRIu64 ": out of memory (ERR_NOMEM)",
                           fi->binary.offset);
        return;
    }
    v->record = record;
    etmc_note(rep, fi, record);
    lattio_text_escape(v->type, sizeof v->type, fi->binary.type);
    v->offset = fi->binary.offset, v->length = fi->binary.length;
    v->site_bytes = fi->typesize * fi->datacount;
    v->has_stored = fi->has_checksum, v->stored = fi->stored;
    const int gauge = !rep->has_gauge && rep->format == 0 && is_gauge(fi);
    double *buf = NULL;
    lattio_gauge_stats par;
    int rc = c->reader && !c->u ? c->reader(c->arg, rep->path, fi, gauge, &v->computed, &par) : LATTIO_OPS_SERIAL;
    const int parallel = rc != LATTIO_OPS_SERIAL;
    if (!parallel) {
        const int nc = lattio_field_gauge_colors(fi);
        if (gauge) buf = lattio_gauge_alloc_nc(fi->volume, nc);
        rc = lattio_field_read_double(r, fi, buf, buf ? fi->volume * 8 * (uint64_t)(nc * nc) : 0, &v->computed);
    }
    v->ok = rc == LATTIO_OK && fi->has_checksum;
    v->io_failed = lattio_status_is_io(rc);
    read_problems(rep, v, rc, fi->has_checksum);
    if ((buf || (parallel && gauge)) && (rc == LATTIO_OK || rc == LATTIO_ERR_CHECKSUM)) {
        lime_gauge_info(rep, fi, v);
        other_records(rep, r, fi->index, record);
        if (buf) {
            gauge_checks(rep, buf);
        } else {
            rep->stats = par;
            lattio_ops_stats_checks(rep, NULL);
        }
    }
    if (buf && c->u && rep->has_gauge && !*c->u) *c->u = buf;
    else lattio_gauge_free(buf);
}

/* A record that announces a binary record after it (ILDG's format record,
 * SciDAC's record XML, tmLQCD's format records: lattio_field_is_etmc_format). */
static int announces_field(const char *type)
{
    return strcmp(type, "ildg-format") == 0 || strcmp(type, "scidac-private-record-xml") == 0 ||
           strcmp(type, "scidac-record-xml") == 0 || lattio_field_is_etmc_format(type);
}

/* The file's records in one pass: their flavour (ILDG, SciDAC or plain
 * LIME), each binary record's number (in order, *numbers malloc'd) and
 * metadata announcing a field whose binary record is not in the file (a
 * file cut just before it): a failure, not a warning. */
static int index_records(lattio_verify_report *rep, lattio_lime_reader *r, int **numbers, int *nbinary)
{
    lattio_record_info info;
    int pending = 0, cap = 0, ildg = 0, scidac = 0;
    char type[LATTIO_LIME_TYPE_MAX + 1] = "";
    *numbers = NULL, *nbinary = 0;
    int rc = lattio_lime_reader_rewind(r);
    for (int k = 1; rc == LATTIO_OK && lattio_lime_reader_next(r, &info) == LATTIO_OK; k++) {
        ildg |= strcmp(info.type, "ildg-format") == 0;
        scidac |= strcmp(info.type, "scidac-binary-data") == 0 || strcmp(info.type, "scidac-private-file-xml") == 0;
        if (announces_field(info.type) && !pending) {
            pending = k;
            snprintf(type, sizeof type, "%s", info.type);
        }
        if (!lattio_field_is_binary_type(info.type)) continue;
        pending = 0;
        if (*nbinary == cap) {
            cap = cap ? 2 * cap : 16;
            int *more = realloc(*numbers, (size_t)cap * sizeof *more);
            if (!more) rc = LATTIO_ERR_NOMEM;
            else *numbers = more;
        }
        if (rc == LATTIO_OK) (*numbers)[(*nbinary)++] = k;
    }
    rep->lime = ildg ? 2 : scidac ? 3 : 1;
    if (pending)
        lattio_ops_problem(rep, LATTIO_ERR_BAD_METADATA,
                           "record %d (%s) announces a lattice field, but no binary record follows it: "
                           "the file is cut or incomplete (ERR_BAD_METADATA)",
                           pending, type);
    return rc;
}

static void lime_fields(verify_ctx *c)
{
    lattio_verify_report *rep = c->rep;
    lattio_lime_reader *r;
    int *numbers = NULL, nbinary = 0, count = 0;
    int rc = lattio_lime_reader_open(rep->path, &r);
    if (rc == LATTIO_OK) rc = index_records(rep, r, &numbers, &nbinary);
    if (rc == LATTIO_OK) rc = lattio_field_count(r, &count);
    for (int i = 0; rc == LATTIO_OK && i < count; i++) {
        lattio_field_info fi;
        const int st = lattio_field_info_read(r, i, &fi);
        if (st != LATTIO_OK) {
            char where[256];
            const int n = lattio_last_detail(where, sizeof where);
            lattio_ops_problem(rep, st, "field %d: metadata: %s%s%s (%s)", i + 1, where, n ? ": " : "",
                               lattio_strerror(st), lattio_error_name(st));
            continue;
        }
        lime_field(c, r, &fi, i < nbinary ? numbers[i] : 0);
        lattio_field_info_free(&fi);
    }
    if (rc != LATTIO_OK) lattio_ops_problem(rep, rc, "%s (%s)", lattio_strerror(rc), lattio_error_name(rc));
    free(numbers);
    lattio_lime_reader_close(r);
}

static void plain_gauge(verify_ctx *c)
{
    lattio_verify_report *rep = c->rep;
    double *buf = NULL;
    const int rc = lattio_gauge_read(rep->path, &rep->info, &buf);
    const lattio_gauge_info *in = &rep->info;
    if (rc == LATTIO_ERR_CHECKSUM && in->checksum_kind == LATTIO_GSUM_NERSC)
        lattio_ops_problem(rep, rc, "NERSC header CHECKSUM %08x, computed %08x (ERR_CHECKSUM)",
                           (unsigned)in->stored[0], (unsigned)in->computed[0]);
    else if (rc == LATTIO_ERR_CHECKSUM)
        lattio_ops_problem(rep, rc, "MILC checksums sum29 %x sum31 %x, computed %x %x (ERR_CHECKSUM)",
                           (unsigned)in->stored[0], (unsigned)in->stored[1], (unsigned)in->computed[0],
                           (unsigned)in->computed[1]);
    else if (rc != LATTIO_OK)
        lattio_ops_problem(rep, rc, "%s%s%s (%s)", in->problem, in->problem[0] ? ": " : "", lattio_strerror(rc),
                           lattio_error_name(rc));
    if (rc == LATTIO_OK && in->checksum_kind == LATTIO_GSUM_NERSC && !in->has_checksum)
        lattio_ops_problem(rep, LATTIO_ERR_NO_CHECKSUM, "NERSC header has no CHECKSUM (ERR_NO_CHECKSUM)");
    if (in->format == LATTIO_GAUGE_NERSC && buf) /* its lines, for a conversion to write back */
        lattio_gauge_nersc_header(rep->path, &rep->meta_nersc_header, &rep->meta_nersc_left);
    if (buf) gauge_checks(rep, buf);
    if (buf && c->u) *c->u = buf;
    else lattio_gauge_free(buf);
}

/* One field of a QIO volume set: every volume's part checksummed (a
 * gauge field's values kept for its observables). */
static void volume_field(verify_ctx *c, lattio_volumes *v, const lattio_field_info *fi)
{
    lattio_verify_report *rep = c->rep;
    lattio_verify_field *f = lattio_ops_field(rep);
    if (!f) {
        lattio_ops_problem(rep, LATTIO_ERR_NOMEM, "field %d: out of memory (ERR_NOMEM)", fi->index + 1);
        return;
    }
    f->record = fi->index + 1;
    lattio_text_escape(f->type, sizeof f->type, fi->binary.type);
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
    f->io_failed = lattio_status_is_io(rc);
    char detail[300];
    if (rc != LATTIO_OK)
        lattio_ops_problem(rep, rc, "field %d (%s)%s: %s (%s)", f->record, f->type,
                           lattio_ops_detail(detail, sizeof detail), lattio_strerror(rc), lattio_error_name(rc));
    else if (!fi->has_checksum)
        lattio_ops_problem(rep, LATTIO_ERR_NO_CHECKSUM, "field %d (%s): no scidac-checksum record (ERR_NO_CHECKSUM)",
                           f->record, f->type);
    if (buf && (rc == LATTIO_OK || rc == LATTIO_ERR_CHECKSUM)) {
        lime_gauge_info(rep, fi, f);
        gauge_checks(rep, buf);
    }
    if (buf && c->u && rep->has_gauge && !*c->u) *c->u = buf;
    else lattio_gauge_free(buf);
}

/* A QIO volume set: its volumes checked as they open, every field's checksum. */
static void volume_fields(verify_ctx *c)
{
    lattio_verify_report *rep = c->rep;
    lattio_volumes *v;
    lattio_volumes_info vi;
    int rc = lattio_volumes_open(rep->path, &v);
    if (rc == LATTIO_OK) rc = lattio_volumes_describe(v, &vi);
    if (rc != LATTIO_OK) {
        char detail[300];
        const char *d = lattio_ops_detail(detail, sizeof detail);
        lattio_ops_problem(rep, rc, "%s%s%s (%s)", d[0] ? d + 2 : "", d[0] ? ": " : "", lattio_strerror(rc),
                           lattio_error_name(rc));
        if (v) lattio_volumes_close(v);
        return;
    }
    rep->lime = 3;
    rep->is_volumes = 1;
    rep->nrecords = (size_t)vi.volumes;
    for (int i = 0; i < vi.fields; i++) {
        lattio_field_info fi;
        const int st = lattio_volumes_field_info(v, i, &fi);
        if (st != LATTIO_OK) {
            lattio_ops_problem(rep, st, "field %d: metadata: %s (%s)", i + 1, lattio_strerror(st),
                               lattio_error_name(st));
            continue;
        }
        volume_field(c, v, &fi);
        lattio_field_info_free(&fi);
    }
    lattio_volumes_close(v);
}

/* A LIME file without a binary record: a file whose records say it is
 * ILDG or SciDAC has lost its field (cut after its file-level records);
 * a plain LIME file just holds none. */
static void no_field(lattio_verify_report *rep)
{
    if (rep->nfields || rep->status != LATTIO_OK) return;
    if (rep->lime >= 2)
        lattio_ops_problem(rep, LATTIO_ERR_NOT_FOUND,
                           "no lattice field: %s records but no ildg-binary-data or scidac-binary-data record: "
                           "the file is cut or incomplete (ERR_NOT_FOUND)",
                           rep->lime == 2 ? "ILDG" : "SciDAC");
    else
        lattio_ops_warning(rep, "no lattice field (no ildg-binary-data or scidac-binary-data record): "
                                "only the LIME structure was checked");
}

int lattio_ops_verify(const char *path, lattio_verify_report *rep, double **gauge, lattio_ops_reader reader,
                      void *arg)
{
    if (gauge) *gauge = NULL;
    if (!rep) return LATTIO_ERR_ARG;
    const int rc = lattio_ops_reset(rep, path);
    if (rc != LATTIO_OK || !path) return rc == LATTIO_OK ? LATTIO_ERR_ARG : rc;
    verify_ctx c = {rep, gauge, reader, arg};
    if (lattio_volumes_probe(path)) {
        volume_fields(&c);
        return rep->status;
    }
    int format = 0;
    const int dr = lattio_h5_is_target(path) ? (format = LATTIO_GAUGE_HDF5, LATTIO_OK)
                                             : lattio_gauge_detect(path, &format);
    if (dr != LATTIO_OK) {
        char why[200];
        lattio_ops_problem(rep, dr, "%s (%s)%s", lattio_strerror(dr), lattio_error_name(dr),
                           lattio_status_is_io(dr) ? errno_suffix(why, sizeof why) : "");
    } else if (format == LATTIO_GAUGE_HDF5) {
        return lattio_ops_verify_h5_serial(path, rep, gauge);
    } else if (format == LATTIO_GAUGE_ILDG) {
        structure(rep);
        lime_fields(&c);
        no_field(rep);
    } else {
        rep->format = format;
        plain_gauge(&c);
    }
    return rep->status;
}

int lattio_verify_file(const char *path, lattio_verify_report *rep, double **gauge)
{
    return lattio_ops_verify(path, rep, gauge, NULL, NULL);
}
