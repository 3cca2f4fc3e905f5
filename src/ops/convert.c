/* convert.c -- the conversion this process does alone (MPI-free): a gauge
 * configuration between any two formats (IN verified, OUT written under a
 * temporary name, read back, verified and compared, then renamed), and
 * QIO volume sets joined or split (the field layer's calls, OUT read
 * back); the pieces the collective conversion shares (src/ops/mpi). */
#include "ops_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

double lattio_ops_max_diff(const double *a, const double *b, uint64_t n)
{
    double worst = 0;
    for (uint64_t i = 0; i < n; i++) {
        const double d = fabs(a[i] - b[i]);
        if (!(d <= worst)) worst = isnan(d) ? INFINITY : d;
    }
    return worst;
}

int lattio_ops_convert_precision(const lattio_convert_options *o, int in_precision)
{
    return o->format == LATTIO_GAUGE_MILC ? 32 : o->format == LATTIO_GAUGE_OPENQCD ? 64
           : o->precision ? o->precision : in_precision;
}

void lattio_ops_convert_meta(const lattio_verify_report *v, lattio_field_desc *d)
{
    if (v->meta_file_xml) d->file_xml = v->meta_file_xml;
    if (v->meta_record_xml) d->record_xml = v->meta_record_xml;
    if (v->meta_lfn) d->lfn = v->meta_lfn;
    if (v->meta_date[0]) d->date = v->meta_date;
}

void lattio_ops_convert_carry(lattio_convert_report *rep, int format, const lattio_text_record **other, int *n,
                              const char **nersc_header)
{
    const lattio_verify_report *in = &rep->in_check;
    const int lime = format == LATTIO_GAUGE_ILDG || format == LATTIO_GAUGE_SCIDAC;
    *other = lime ? in->meta_other : NULL;
    *n = lime ? in->meta_n_other : 0;
    *nersc_header = format == LATTIO_GAUGE_NERSC ? in->meta_nersc_header : NULL;
    if (!lime && in->meta_n_other)
        lattio_ops_warning(&rep->in_check, "%d of IN's other writers' records (%s%s) not written: OUT's format "
                           "holds no LIME records", in->meta_n_other, in->meta_other[0].type,
                           in->meta_n_other > 1 ? ", ..." : "");
    if (in->meta_other_left)
        lattio_ops_warning(&rep->in_check, "%d more of IN's records of other writers not written: beyond the first "
                           "16, not text, of a type no writer takes, or after the field", in->meta_other_left);
    if (in->meta_nersc_left || (in->meta_nersc_header && format != LATTIO_GAUGE_NERSC))
        lattio_ops_warning(&rep->in_check, "IN's NERSC header lines not written: %s",
                           format != LATTIO_GAUGE_NERSC ? "OUT is not NERSC"
                                                        : "lines a NERSC writer cannot take (keys of other "
                                                          "characters, lines of 128 bytes or more)");
}

void lattio_ops_convert_h5_target(const lattio_convert_options *o, const char *tmp, char *target, size_t size)
{
    snprintf(target, size, "%s:%s", tmp, o->h5_path ? o->h5_path : "/lattice");
}

int lattio_ops_convert_compare(lattio_convert_report *rep, double d, int rows)
{
    const lattio_verify_report *in = &rep->in_check, *out = &rep->out_check;
    const int exact = rep->precision == 64 && rows == 3 && in->info.precision == 64;
    const double link_tol = exact ? 0 : rows == 2 ? 1e-5 : rep->precision == 32 ? 2e-7 : 1e-15;
    const double plaq_tol = exact ? 1e-12 : 1e-6;
    rep->max_diff = d;
    if (memcmp(in->info.dims, out->info.dims, sizeof in->info.dims) != 0) {
        lattio_ops_convert_problem(rep, 1, LATTIO_ERR_VERIFY, "dimensions differ from IN's (ERR_VERIFY)");
    } else if (!(d <= link_tol)) {
        lattio_ops_convert_problem(rep, 1, LATTIO_ERR_VERIFY, "links differ from IN's by %.3g > %g (ERR_VERIFY)",
                                   d, link_tol);
    } else if (!(fabs(in->stats.plaquette - out->stats.plaquette) <= plaq_tol)) {
        lattio_ops_convert_problem(rep, 1, LATTIO_ERR_VERIFY, "plaquette %.15f, IN's %.15f (ERR_VERIFY)",
                                   out->stats.plaquette, in->stats.plaquette);
    }
    return rep->status;
}

int lattio_ops_lime_fields(const char *path, lattio_ops_cfield **list, int *count, int *gauge_one)
{
    lattio_lime_reader *r = NULL;
    int n = 0, rc = lattio_lime_reader_open(path, &r);
    *list = NULL, *count = 0, *gauge_one = 0;
    if (rc == LATTIO_OK) rc = lattio_field_count(r, &n);
    if (rc == LATTIO_OK && !(*list = calloc(n ? (size_t)n : 1, sizeof **list))) rc = LATTIO_ERR_NOMEM;
    for (int i = 0; rc == LATTIO_OK && i < n; i++) {
        lattio_field_info fi;
        if ((rc = lattio_field_info_read(r, i, &fi)) != LATTIO_OK) break;
        lattio_ops_cfield *f = &(*list)[i];
        f->index = i, f->nd = fi.nd, f->precision = fi.precision;
        memcpy(f->dims, fi.dims, sizeof f->dims);
        if (fi.precision == 32 || fi.precision == 64) f->elements = fi.typesize * fi.datacount / (uint64_t)(fi.precision / 8);
        else rc = LATTIO_ERR_UNSUPPORTED; /* integer data: verify says so */
        *gauge_one = n == 1 && (fi.kind == LATTIO_FIELD_ILDG_GAUGE || fi.kind == LATTIO_FIELD_SU3_GAUGE);
        lattio_field_info_free(&fi);
    }
    lattio_lime_reader_close(r);
    *count = n;
    return rc;
}

int lattio_ops_fields_count(const char *in)
{
    int format = 0, count = 0, gauge_one = 0;
    lattio_ops_cfield *list = NULL;
    if (lattio_h5_is_target(in) || lattio_gauge_detect(in, &format) != LATTIO_OK || format != LATTIO_GAUGE_ILDG)
        return 0;
    const int rc = lattio_ops_lime_fields(in, &list, &count, &gauge_one);
    free(list);
    /* what cannot be listed is the gauge conversion's to report (its verification names it) */
    return rc == LATTIO_OK && count > 0 && !gauge_one ? count : 0;
}

int lattio_ops_fields_refused(lattio_convert_report *rep, int count, int format)
{
    if (format == LATTIO_GAUGE_SCIDAC || format == LATTIO_GAUGE_HDF5) return LATTIO_OK;
    rep->kind = LATTIO_CONVERT_FIELDS;
    lattio_ops_convert_problem(rep, 0, LATTIO_ERR_UNSUPPORTED,
                               "holds %d field%s that %s not one gauge configuration: convert to scidac or hdf5 (ERR_UNSUPPORTED)",
                               count, count == 1 ? "" : "s", count == 1 ? "is" : "are");
    return rep->status;
}

static int is_volumes(const char *in, const lattio_convert_options *o)
{
    return o->split.volfmt || (!o->format && lattio_volumes_probe(in));
}

/* An HDF5 input this process converts: one gauge field, read by the
 * serial HDF5 calls (a library without them, or any other HDF5 field:
 * the MPI library's lattio_convert). */
static int h5_serial_gauge(const char *in)
{
    char file[4096];
    lattio_h5_entry *list = NULL;
    int count = 0;
    const int rc = lattio_h5_serial_available() ? lattio_h5_fields_serial(in, 4, file, sizeof file, &list, &count)
                                                : LATTIO_ERR_HDF5_UNAVAILABLE;
    const int one = rc == LATTIO_OK && count == 1 && list[0].gauge;
    free(list);
    /* a damaged or unreadable file is the conversion's to report here (its
     * verification names it); a group of fields (the MPI library's
     * lattio_ops_h5_fields lists it) or no HDF5 here is not */
    const int refused_here = rc != LATTIO_OK && rc != LATTIO_ERR_HDF5_UNAVAILABLE && rc != LATTIO_ERR_HDF5_LAYOUT &&
                             rc != LATTIO_ERR_HDF5_NOT_FOUND;
    return one || refused_here;
}

int lattio_convert_needs_mpi(const char *in, const lattio_convert_options *o)
{
    lattio_convert_options d;
    if (!o) lattio_convert_options_default(&d), o = &d;
    if (!in || is_volumes(in, o)) return 0; /* joins and splits */
    if (o->format == LATTIO_GAUGE_HDF5) return 1;
    if (lattio_h5_is_target(in)) return !h5_serial_gauge(in);
    return o->format == LATTIO_GAUGE_SCIDAC && lattio_ops_fields_count(in) > 0;
}

/* --- QIO volume sets ------------------------------------------------------- */

/* The failure of a join or split, naming the side at fault: OUT for what
 * writing it met (its temporaries, renames, what is in its way, an
 * interrupted publication), else IN. */
static int volumes_failed(lattio_convert_report *rep, const char *what, int rc)
{
    static const int output_side[] = {LATTIO_ERR_WRITE,       LATTIO_ERR_CLOSE,          LATTIO_ERR_SYNC,
                                      LATTIO_ERR_RENAME,      LATTIO_ERR_SYNC_DIR,       LATTIO_ERR_NOT_REGULAR,
                                      LATTIO_ERR_OUTPUT_IS_INPUT, LATTIO_ERR_INTERRUPTED};
    int out = 0;
    for (size_t i = 0; i < sizeof output_side / sizeof output_side[0]; i++) out |= rc == output_side[i];
    lattio_ops_convert_failed(rep, out, rc, what);
    return rep->status;
}

/* OUT (one file or a set) read back: every field's checksum holds.  Links
 * that are not unitary are IN's (QIO's test fields are not), not a fault
 * of the copy. */
static int read_back(lattio_convert_report *rep)
{
    lattio_verify_report *v = &rep->out_check;
    lattio_verify_file(rep->out, v, NULL);
    int ok = v->dropped == 0;
    for (int i = 0; i < v->nproblems; i++) ok &= v->problem_status[i] == LATTIO_ERR_UNITARITY;
    for (int i = 0; !ok && i < v->nproblems; i++)
        lattio_ops_convert_problem(rep, 1, v->problem_status[i], "reading back: %s", v->problems[i]);
    if (!ok && v->nproblems == 0) lattio_ops_convert_problem(rep, 1, v->status, "reading back: %s",
                                                             lattio_strerror(v->status));
    rep->nfields = v->nfields;
    return rep->status;
}

static int volumes(const char *in, const char *out, const lattio_convert_options *o, lattio_convert_report *rep)
{
    int rc;
    rep->kind = o->split.volfmt ? LATTIO_CONVERT_SPLIT : LATTIO_CONVERT_JOIN;
    if (o->split.volfmt) {
        rc = lattio_volumes_split(in, out, &o->split); /* its output rule: the set's */
        if (rc != LATTIO_OK) return volumes_failed(rep, "splitting", rc);
    } else {
        const char *inputs[1] = {in};
        rc = lattio_output_allowed(out, inputs, 1);
        if (rc == LATTIO_OK) rc = lattio_volumes_join(in, out);
        if (rc != LATTIO_OK) return volumes_failed(rep, "joining", rc);
    }
    return read_back(rep);
}

/* --- one gauge configuration ------------------------------------------------ */

typedef struct gauge_job {
    const char *in, *out;
    const lattio_convert_options *o;
    lattio_convert_report *rep;
    const lattio_ops_convert_hooks *h;
    double *u;    /* IN's links */
    int u_malloc; /* u from an HDF5 verification (free) or lattio_gauge_alloc'd */
    char tmp[4096], target[4096 + 300];
} gauge_job;

static int verify_path(const gauge_job *j, const char *path, lattio_verify_report *v, double **u)
{
    /* HDF5 over the hooks' communicator, else on this process (lattio_verify_file) */
    if (!lattio_h5_is_target(path) || !j->h || !j->h->verify_h5) return lattio_verify_file(path, v, u);
    return j->h->verify_h5(j->h->arg, path, v, u);
}

static void free_links(gauge_job *j, double *u, int from_h5)
{
    if (from_h5) free(u);
    else lattio_gauge_free(u);
    if (u == j->u) j->u = NULL;
}

/* IN verified, holding one gauge field OUT's format can take. */
static int gauge_input(gauge_job *j)
{
    lattio_convert_report *rep = j->rep;
    j->u_malloc = lattio_h5_is_target(j->in);
    verify_path(j, j->in, &rep->in_check, &j->u);
    rep->in_format = rep->in_check.format;
    if (rep->in_check.status != LATTIO_OK || !j->u) {
        lattio_ops_convert_take(rep, 0, &rep->in_check, LATTIO_ERR_UNSUPPORTED,
                                "no gauge field to convert (ERR_UNSUPPORTED)");
        return rep->status;
    }
    const int colors = rep->in_check.info.colors;
    const int su3_only = j->o->format == LATTIO_GAUGE_MILC || j->o->format == LATTIO_GAUGE_OPENQCD;
    if (su3_only && colors && colors != 3)
        lattio_ops_convert_problem(rep, 0, LATTIO_ERR_UNSUPPORTED, "an SU(%d) field; %s holds SU(3) gauge fields only (ERR_UNSUPPORTED)",
                                   colors, lattio_gauge_format_name(j->o->format));
    return rep->status;
}

static int gauge_write(gauge_job *j)
{
    const lattio_verify_report *in = &j->rep->in_check;
    lattio_gauge_write_options opt;
    lattio_gauge_write_options_default(&opt, j->o->format);
    lattio_ops_convert_carry(j->rep, j->o->format, &opt.other, &opt.n_other, &opt.nersc_header);
    if (j->o->format == LATTIO_GAUGE_HDF5) {
        lattio_ops_convert_h5_target(j->o, j->tmp, j->target, sizeof j->target);
        if (!j->h || !j->h->write_h5) return LATTIO_ERR_UNSUPPORTED;
        return j->h->write_h5(j->h->arg, j->target, j->o, j->rep->precision, in, j->u);
    }
    snprintf(j->target, sizeof j->target, "%s", j->tmp);
    opt.precision = j->rep->precision;
    opt.nersc_rows = j->o->nersc_rows ? j->o->nersc_rows : 3;
    opt.colors = in->info.colors;
    opt.file_xml = in->meta_file_xml; /* IN's metadata, where both formats have them */
    opt.record_xml = in->meta_record_xml;
    opt.lfn = in->meta_lfn;
    opt.date = in->meta_date[0] ? in->meta_date : NULL;
    return lattio_gauge_write(j->tmp, j->o->format, &opt, in->info.dims, j->u);
}

/* OUT's temporary read back and compared with IN. */
static int gauge_check(gauge_job *j)
{
    lattio_convert_report *rep = j->rep;
    double *v = NULL;
    const int h5 = lattio_h5_is_target(j->target);
    verify_path(j, j->target, &rep->out_check, &v);
    free(rep->out_check.path); /* problems name OUT, not its temporary */
    rep->out_check.path = strdup(rep->out);
    const lattio_verify_report *in = &rep->in_check, *out = &rep->out_check;
    if (out->status != LATTIO_OK || !v) {
        lattio_ops_convert_take(rep, 1, out, LATTIO_ERR_VERIFY, "written file holds no gauge field (ERR_VERIFY)");
    } else {
        const uint64_t nc = in->info.colors ? (uint64_t)in->info.colors : 3;
        const uint64_t oc = out->info.colors ? (uint64_t)out->info.colors : 3;
        const int same = memcmp(in->info.dims, out->info.dims, sizeof in->info.dims) == 0 && oc == nc;
        const double d = same ? lattio_ops_max_diff(j->u, v, in->info.volume * 8 * nc * nc) : INFINITY;
        lattio_ops_convert_compare(rep, d, j->o->format == LATTIO_GAUGE_NERSC ? j->o->nersc_rows : 3);
    }
    free_links(j, v, h5);
    return rep->status;
}

static int gauge(gauge_job *j)
{
    lattio_convert_report *rep = j->rep;
    const char *inputs[1] = {j->in};
    int fd = -1, rc = lattio_output_allowed(j->out, inputs, 1);
    rep->kind = LATTIO_CONVERT_GAUGE;
    rep->out_format = j->o->format;
    rep->h5_layout = j->o->h5_layout ? j->o->h5_layout : LATTIO_H5_QDP;
    if (rc != LATTIO_OK)
        return lattio_ops_convert_failed(rep, 1, rc, NULL), rc;
    if (gauge_input(j) != LATTIO_OK) return rep->status;
    rep->precision = lattio_ops_convert_precision(j->o, rep->in_check.info.precision);
    rc = lattio_temp_open(j->out, j->tmp, sizeof j->tmp, &fd);
    if (rc == LATTIO_OK) close(fd); /* the writers replace the reserved name */
    if (rc == LATTIO_OK) rc = gauge_write(j);
    if (rc != LATTIO_OK)
        lattio_ops_convert_failed(rep, 1, rc, "writing");
    else if (gauge_check(j) == LATTIO_OK && (rc = lattio_temp_publish(j->tmp, j->out)) != LATTIO_OK)
        lattio_ops_convert_failed(rep, 1, rc, NULL);
    if (rep->status != LATTIO_OK && j->tmp[0]) unlink(j->tmp);
    return rep->status;
}

int lattio_ops_convert(const char *in, const char *out, const lattio_convert_options *o,
                       lattio_convert_report *rep, const lattio_ops_convert_hooks *h)
{
    lattio_convert_options d;
    if (!o) lattio_convert_options_default(&d), o = &d;
    if (!in || !out) return lattio_ops_convert_reset(rep, in, out), rep->status = LATTIO_ERR_ARG;
    if (lattio_ops_convert_reset(rep, in, out) != LATTIO_OK) return rep->status = LATTIO_ERR_NOMEM;
    if (is_volumes(in, o)) return volumes(in, out, o, rep);
    lattio_convert_options g = *o;
    if (!g.format) g.format = LATTIO_GAUGE_ILDG;
    const int fields = lattio_ops_fields_count(in);
    if (fields > 0 && lattio_ops_fields_refused(rep, fields, g.format) != LATTIO_OK) return rep->status;
    /* lattio_convert_needs_mpi's rule, with the fields listed once: HDF5
     * written, HDF5 read but one gauge field by the serial calls, or fields
     * (not refused above: to SciDAC or HDF5) */
    if (!h && (g.format == LATTIO_GAUGE_HDF5 || (lattio_h5_is_target(in) && !h5_serial_gauge(in)) || fields > 0)) {
        lattio_ops_convert_problem(rep, 0, LATTIO_ERR_UNSUPPORTED,
                                   "writing HDF5, HDF5 other than one gauge field, and files of fields other than one "
                                   "gauge configuration are converted by the MPI library (lattio_convert) (ERR_UNSUPPORTED)");
        return rep->status;
    }
    gauge_job j = {.in = in, .out = out, .o = &g, .rep = rep, .h = h};
    gauge(&j);
    free_links(&j, j.u, j.u_malloc);
    return rep->status;
}

int lattio_convert_file(const char *in, const char *out, const lattio_convert_options *o,
                        lattio_convert_report *rep)
{
    return lattio_ops_convert(in, out, o, rep, NULL);
}
