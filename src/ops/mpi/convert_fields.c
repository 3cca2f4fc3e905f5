/* convert_fields.c -- the conversion of files that hold fields other than
 * one gauge configuration: every field of a SciDAC/QIO file (a
 * multi-record file, propagators, eigenvector sets) or of an HDF5 file or
 * group, to a SciDAC multi-record file or to HDF5 (one dataset per field,
 * QDP++ or Qlua layout).  Collective: each field is read over the ranks in
 * slabs of its slowest dimension (its stored checksum compared), written
 * by the parallel writers (verified after writing) with its metadata,
 * then OUT is read again and every value compared with IN's, before rank
 * 0 renames OUT into place.  One field is in memory at a time (twice
 * while OUT is compared). */
#include "ops_mpi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CF_MAX_FIELDS 1000000

/* What rank 0 tells every rank. */
typedef struct cf_plan {
    int status, count, in_h5;
    char in_file[4096];
    char tmp[4096]; /* OUT's temporary name */
} cf_plan;

/* One conversion of fields: its communicator, arguments, plan and list. */
typedef struct cf_job {
    MPI_Comm comm;
    int rank;
    const char *in, *out;
    const lattio_convert_options *o;
    lattio_convert_report *rep;
    cf_plan p;
    lattio_ops_cfield *fields;
    char where[LATTIO_VERIFY_TEXT - 64]; /* where it failed (this rank's) */
} cf_job;

/* --- IN's fields ---------------------------------------------------------- */

/* FILE:/PATH -> FILE and PATH (NULL: none), lattio_h5_split's rule: the
 * last ":/" unless the whole argument names a regular file. */
static const char *h5_object(const char *arg, char *file, size_t size)
{
    struct stat st;
    const char *sep = NULL;
    if (stat(arg, &st) != 0 || !S_ISREG(st.st_mode))
        for (const char *p = arg; (p = strstr(p, ":/")); p++) sep = p;
    snprintf(file, size, "%.*s", sep ? (int)(sep - arg) : (int)strlen(arg), arg);
    return sep ? sep + 1 : NULL;
}

static int under(const char *path, const char *object)
{
    if (!object || strcmp(object, "/") == 0) return 1;
    const size_t n = strlen(object);
    return strncmp(path, object, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* Natural order of object names: field2 before field10. */
static int by_name(const void *a, const void *b)
{
    const char *p = ((const lattio_ops_cfield *)a)->object, *q = ((const lattio_ops_cfield *)b)->object;
    while (*p && *q) {
        if (*p >= '0' && *p <= '9' && *q >= '0' && *q <= '9') {
            char *ep, *eq;
            const unsigned long long x = strtoull(p, &ep, 10), y = strtoull(q, &eq, 10);
            if (x != y) return x < y ? -1 : 1;
            p = ep, q = eq;
        } else if (*p != *q) {
            return (unsigned char)*p < (unsigned char)*q ? -1 : 1;
        } else {
            p++, q++;
        }
    }
    return *p ? 1 : *q ? -1 : 0;
}

int lattio_ops_h5_fields(const char *arg, char *file, size_t size, lattio_ops_cfield **list, int *count,
                         int *gauge_one)
{
    const char *object = h5_object(arg, file, size);
    int n = 0, m = 0, rc = lattio_h5_list(MPI_COMM_SELF, file, 0, NULL, 0, &n);
    lattio_h5_entry *e = NULL;
    *list = NULL, *count = 0, *gauge_one = 0;
    if (rc == LATTIO_OK && (!(e = calloc(n ? (size_t)n : 1, sizeof *e)) || !(*list = calloc(n ? (size_t)n : 1, sizeof **list))))
        rc = LATTIO_ERR_NOMEM;
    if (rc == LATTIO_OK) rc = lattio_h5_list(MPI_COMM_SELF, file, 0, e, n, &n);
    for (int i = 0; rc == LATTIO_OK && i < n; i++) {
        if (!under(e[i].path, object)) continue;
        lattio_ops_cfield *f = &(*list)[m++];
        snprintf(f->object, sizeof f->object, "%s", e[i].path);
        f->nd = e[i].nd, f->precision = e[i].precision, f->elements = e[i].elements;
        memcpy(f->dims, e[i].dims, sizeof f->dims);
        *gauge_one = e[i].gauge;
    }
    free(e);
    if (rc == LATTIO_OK) qsort(*list, (size_t)m, sizeof **list, by_name);
    *count = m;
    if (m != 1) *gauge_one = 0;
    return rc;
}

/* --- reading, writing, comparing ------------------------------------------ */

/* Local: the field a failure happened at, with the library's detail. */
static void note_failure(cf_job *j, const char *what, int i, const char *object)
{
    char detail[256];
    snprintf(j->where, sizeof j->where, " (%s %d%s%s%s)", what, i, object[0] ? " " : "", object,
             lattio_ops_detail(detail, sizeof detail));
}

/* Collective: field f of FILE (this rank's slab) into buf, native doubles. */
static int read_field(MPI_Comm comm, int h5, const char *file, lattio_file *lime, const lattio_ops_cfield *f,
                      const lattio_layout *l, double *buf, lattio_field_read_info *info)
{
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, f->elements);
    memset(info, 0, sizeof *info);
    if (!h5) return lattio_field_read(lime, f->index, &d, l, buf, info);
    char target[4096 + 300];
    snprintf(target, sizeof target, "%s:%s", file, f->object);
    lattio_h5_options o;
    lattio_h5_options_default(&o);
    o.layout = LATTIO_H5_AUTO;
    return lattio_h5_read(comm, target, &d, l, buf, &o, info, NULL);
}

/* The object of OUT's field i (HDF5). */
static void out_object(const cf_job *j, int i, char *name, size_t size)
{
    const char *base = j->o->h5_path ? j->o->h5_path : "/lattice";
    if (j->p.count == 1) snprintf(name, size, "%s", base);
    else snprintf(name, size, "%s%sfield%d", base, strcmp(base, "/") ? "/" : "", i);
}

static int out_h5(const cf_job *j) { return j->o->format == LATTIO_GAUGE_HDF5; }

/* The writer of OUT: a LIME file or an HDF5 writer. */
typedef struct cf_out {
    lattio_file *lime;
    lattio_h5_writer *h5;
} cf_out;

static int out_open(const cf_job *j, cf_out *o)
{
    memset(o, 0, sizeof *o);
    if (out_h5(j)) {
        lattio_h5_options ho;
        lattio_h5_options_default(&ho);
        ho.layout = j->o->h5_layout ? j->o->h5_layout : LATTIO_H5_QDP;
        return lattio_h5_writer_open(j->comm, j->p.tmp, j->fields[0].nd, &ho, &o->h5);
    }
    lattio_options opt;
    lattio_options_default(&opt);
    opt.in_place = 1; /* the temporary name is already one */
    return lattio_open(j->comm, j->p.tmp, LATTIO_MODE_CREATE, MPI_INFO_NULL, &opt, &o->lime);
}

/* IN's field metadata as OUT's descriptor (datatype at OUT's precision). */
static void out_desc(const lattio_ops_cfield *f, int precision, const lattio_field_info *in, lattio_field_desc *d,
                     char *datatype, size_t size)
{
    lattio_field_desc_default(d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE,
                              precision == 32 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE, f->elements);
    d->datacount = in->datacount && f->elements % in->datacount == 0 ? in->datacount : 1;
    d->datatype = in->datatype[0] ? in->datatype : NULL;
    /* a datatype of the field-type table names its precision: QIO's for OUT's */
    const lattio_field_type *t = lattio_field_type_of(in->datatype);
    const int colors = t && strchr(t->kinds, 'C') ? in->colors : 0;
    if (t && precision != f->precision && lattio_field_type_datatype(t, colors, precision, datatype, size) == LATTIO_OK)
        d->datatype = datatype;
    d->colors = in->colors, d->spins = in->spins;
    d->file_xml = in->file_xml, d->record_xml = in->record_xml, d->lfn = in->lfn;
    d->date = in->date[0] ? in->date : NULL;
    d->verify = 1, d->verify_retries = 1;
}

/* Collective: field i (read into buf, metadata in *ri) into OUT. */
static int out_add(const cf_job *j, cf_out *o, int i, const lattio_layout *l, const double *buf,
                   const lattio_field_read_info *ri)
{
    const lattio_ops_cfield *f = &j->fields[i];
    const int precision = j->o->precision ? j->o->precision : f->precision;
    lattio_field_desc d;
    char datatype[LATTIO_FIELD_TEXT_MAX];
    out_desc(f, precision, &ri->field, &d, datatype, sizeof datatype);
    if (!o->h5) d.other = j->rep->in_check.meta_other, d.n_other = j->rep->in_check.meta_n_other; /* with the first */
    lattio_field_write_info w;
    int rc;
    if (o->h5) {
        char name[LATTIO_FIELD_TEXT_MAX * 4 + 300];
        out_object(j, i, name, sizeof name);
        rc = lattio_h5_writer_add(o->h5, name, &d, l, buf, &w, NULL);
    } else {
        rc = lattio_field_write(o->lime, &d, l, buf, &w);
    }
    /* a LIME IN's SciDAC checksum of the bytes read is OUT's of the bytes
     * written at the same precision (Qlua's datasets carry SHA-256 instead) */
    const int qlua = o->h5 && j->o->h5_layout == LATTIO_H5_QLUA;
    if (rc == LATTIO_OK && !j->p.in_h5 && precision == f->precision && !qlua &&
        (w.sum.suma != ri->computed.suma || w.sum.sumb != ri->computed.sumb))
        rc = LATTIO_ERR_VERIFY; /* the written checksum differs from IN's */
    return rc;
}

/* Collective: a slab layout of field f and a buffer for it. */
static int slab(const cf_job *j, const lattio_ops_cfield *f, lattio_layout *l, double **buf, uint64_t *n)
{
    int rc = lattio_layout_slab(j->comm, f->nd, f->dims, f->elements, l);
    *n = rc == LATTIO_OK ? lattio_layout_local_sites(l) * f->elements : 0;
    if (rc == LATTIO_OK && !(*buf = malloc(*n ? *n * sizeof **buf : 1))) rc = LATTIO_ERR_NOMEM;
    return lattio_agree(j->comm, rc);
}

/* Collective: every field of IN into OUT. */
static int convert_all(cf_job *j)
{
    lattio_file *in = NULL;
    cf_out o;
    memset(&o, 0, sizeof o);
    int rc = j->p.in_h5 ? LATTIO_OK : lattio_open(j->comm, j->p.in_file, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &in);
    if (rc == LATTIO_OK) rc = out_open(j, &o);
    for (int i = 0; rc == LATTIO_OK && i < j->p.count; i++) {
        const lattio_ops_cfield *f = &j->fields[i];
        lattio_layout l;
        double *buf = NULL;
        uint64_t n = 0;
        lattio_field_read_info info;
        memset(&info, 0, sizeof info);
        rc = slab(j, f, &l, &buf, &n);
        if (rc == LATTIO_OK) rc = read_field(j->comm, j->p.in_h5, j->p.in_file, in, f, &l, buf, &info);
        if (rc == LATTIO_OK) rc = out_add(j, &o, i, &l, buf, &info);
        if (rc != LATTIO_OK) note_failure(j, "IN's field", i, f->object);
        lattio_field_info_free(&info.field);
        free(buf);
    }
    const int crc = (o.h5 || o.lime) ? (o.h5 ? lattio_h5_writer_close(o.h5) : lattio_close(o.lime)) : LATTIO_OK;
    lattio_close(in);
    return rc != LATTIO_OK ? rc : crc;
}

/* Largest relative difference of y from x (NaN: infinite). */
static double rel_diff(const double *x, const double *y, uint64_t n)
{
    double d = 0;
    for (uint64_t k = 0; k < n; k++) {
        const double e = fabs(x[k] - y[k]) / (fabs(x[k]) > 1 ? fabs(x[k]) : 1);
        if (e > d || isnan(e)) d = isnan(e) ? INFINITY : e;
    }
    return d;
}

/* Collective: OUT's field i read back; its values equal IN's (exactly, or
 * within the rounding of a narrower precision). */
static int compare_one(cf_job *j, lattio_file *in, lattio_file *out, int i, double *worst)
{
    const lattio_ops_cfield *f = &j->fields[i];
    lattio_layout l;
    double *x = NULL, *y = NULL;
    uint64_t n = 0;
    int rc = slab(j, f, &l, &x, &n);
    if (rc == LATTIO_OK && !(y = malloc(n ? n * sizeof *y : 1))) rc = LATTIO_ERR_NOMEM;
    rc = lattio_agree(j->comm, rc);
    lattio_field_read_info ri, ro;
    memset(&ri, 0, sizeof ri), memset(&ro, 0, sizeof ro);
    if (rc == LATTIO_OK) rc = read_field(j->comm, j->p.in_h5, j->p.in_file, in, f, &l, x, &ri);
    lattio_ops_cfield g = *f;
    g.index = i;
    if (out_h5(j)) out_object(j, i, g.object, sizeof g.object);
    if (rc == LATTIO_OK) rc = read_field(j->comm, out_h5(j), j->p.tmp, out, &g, &l, y, &ro);
    double d = rc == LATTIO_OK ? rel_diff(x, y, n) : 0;
    if (rc == LATTIO_OK) rc = lattio_xfer_mpi(MPI_Allreduce(&d, worst, 1, MPI_DOUBLE, MPI_MAX, j->comm), "convert");
    const int out_prec = j->o->precision ? j->o->precision : f->precision;
    const double allowed = out_prec >= f->precision ? 0 : ldexp(1.0, -23);
    if (rc == LATTIO_OK && !(*worst <= allowed)) rc = LATTIO_ERR_VERIFY; /* OUT's values differ from IN's */
    lattio_field_info_free(&ri.field), lattio_field_info_free(&ro.field);
    free(x), free(y);
    return rc;
}

static int compare_all(cf_job *j)
{
    lattio_file *in = NULL, *out = NULL;
    int rc = j->p.in_h5 ? LATTIO_OK : lattio_open(j->comm, j->p.in_file, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &in);
    if (rc == LATTIO_OK && !out_h5(j)) rc = lattio_open(j->comm, j->p.tmp, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &out);
    j->rep->max_diff = 0;
    for (int i = 0; rc == LATTIO_OK && i < j->p.count; i++) {
        double w = 0;
        rc = compare_one(j, in, out, i, &w);
        if (w > j->rep->max_diff || isnan(w)) j->rep->max_diff = w;
        if (rc != LATTIO_OK) note_failure(j, "OUT's field, read back and compared:", i, "");
    }
    lattio_close(out);
    lattio_close(in);
    return rc;
}

/* --- the plan and the call --------------------------------------------------- */

/* Rank 0: IN's other writers' records before its first field, for OUT's
 * start (a LIME OUT); what cannot be written is a warning of IN's check. */
static void other_of(cf_job *j)
{
    lattio_verify_report *v = &j->rep->in_check;
    lattio_lime_reader *r;
    int rc = lattio_lime_reader_open(j->in, &r);
    if (rc == LATTIO_OK) {
        rc = lattio_field_other_records(r, j->p.count ? j->fields[0].index : -1, &v->meta_other, &v->meta_n_other,
                                        &v->meta_other_left);
        lattio_lime_reader_close(r);
    }
    const lattio_text_record *other;
    int n;
    const char *nersc_header;
    if (rc == LATTIO_OK) lattio_ops_convert_carry(j->rep, j->o->format, &other, &n, &nersc_header);
    else lattio_ops_warning(v, "other writers' records not read: %s (%s)", lattio_strerror(rc), lattio_error_name(rc));
}

/* Rank 0: IN's fields listed, OUT allowed and reserved. */
static void make_plan(cf_job *j)
{
    lattio_convert_report *rep = j->rep;
    int gauge_one = 0, fd = -1;
    j->p.in_h5 = lattio_h5_is_target(j->in);
    int rc = j->p.in_h5 ? lattio_ops_h5_fields(j->in, j->p.in_file, sizeof j->p.in_file, &j->fields, &j->p.count, &gauge_one)
                        : lattio_ops_lime_fields(j->in, &j->fields, &j->p.count, &gauge_one);
    if (!j->p.in_h5) snprintf(j->p.in_file, sizeof j->p.in_file, "%s", j->in);
    if (rc == LATTIO_OK && j->p.count > CF_MAX_FIELDS) rc = LATTIO_ERR_OVERFLOW;
    if (rc != LATTIO_OK) {
        lattio_ops_convert_failed(rep, 0, rc, NULL);
    } else if (lattio_ops_fields_refused(rep, j->p.count, j->o->format) == LATTIO_OK) {
        if (!j->p.in_h5) other_of(j);
        const char *inputs[1] = {j->p.in_file};
        rc = lattio_output_allowed(j->out, inputs, 1);
        if (rc == LATTIO_OK) rc = lattio_temp_open(j->out, j->p.tmp, sizeof j->p.tmp, &fd);
        if (rc == LATTIO_OK) close(fd); /* the writers replace the reserved name */
        if (rc != LATTIO_OK)
            lattio_ops_convert_failed(rep, 1, rc, NULL);
    }
    j->p.status = rep->status;
}

/* Rank 0: the report's summary, OUT in place or its temporary removed. */
static void finish(cf_job *j, int rc)
{
    lattio_convert_report *rep = j->rep;
    rep->nfields = j->p.count;
    rep->precision = j->o->precision;
    for (int i = 0; out_h5(j) && i < j->p.count && i < LATTIO_CONVERT_MAP_MAX; i++) {
        snprintf(rep->map_in[i], sizeof rep->map_in[i], "%s", j->fields[i].object);
        out_object(j, i, rep->map_out[i], sizeof rep->map_out[i]);
        rep->nmap = i + 1;
    }
    if (rc != LATTIO_OK) lattio_ops_convert_problem(rep, 1, rc, "%s (%s)%s", lattio_strerror(rc), lattio_error_name(rc), j->where);
    if (rep->status == LATTIO_OK && (rc = lattio_temp_publish(j->p.tmp, j->out)) != LATTIO_OK)
        lattio_ops_convert_failed(rep, 1, rc, NULL);
    if (rep->status != LATTIO_OK) unlink(j->p.tmp);
}

/* Collective: the list of fields on every rank. */
static int share_fields(cf_job *j)
{
    if (j->rank != 0) j->fields = calloc((size_t)j->p.count, sizeof *j->fields);
    int rc = lattio_agree(j->comm, j->fields ? LATTIO_OK : LATTIO_ERR_NOMEM);
    const uint64_t bytes = (uint64_t)j->p.count * sizeof *j->fields;
    for (uint64_t off = 0; rc == LATTIO_OK && off < bytes; off += 1u << 30) { /* in pieces MPI's int counts take */
        const uint64_t n = bytes - off < (1u << 30) ? bytes - off : (1u << 30);
        rc = lattio_xfer_mpi(MPI_Bcast((char *)j->fields + off, (int)n, MPI_BYTE, 0, j->comm), "convert");
    }
    return rc;
}

int lattio_ops_convert_fields(MPI_Comm comm, int rank, const char *in, const char *out, const lattio_convert_options *o,
                              lattio_convert_report *rep)
{
    cf_job j = {.comm = comm, .rank = rank, .in = in, .out = out, .o = o, .rep = rep};
    rep->kind = LATTIO_CONVERT_FIELDS;
    rep->out_format = o->format;
    rep->h5_layout = o->h5_layout ? o->h5_layout : LATTIO_H5_QDP;
    if (rank == 0) make_plan(&j);
    int rc = lattio_xfer_mpi(MPI_Bcast(&j.p, sizeof j.p, MPI_BYTE, 0, comm), "convert");
    if (rc == LATTIO_OK && j.p.status != LATTIO_OK) rc = j.p.status;
    if (rc == LATTIO_OK) rc = share_fields(&j);
    if (rc == LATTIO_OK) rc = lattio_ops_share_other(comm, rank, &rep->in_check);
    if (rc == LATTIO_OK) rc = lattio_agree(comm, convert_all(&j));
    if (rc == LATTIO_OK) rc = lattio_agree(comm, compare_all(&j));
    if (rank == 0 && j.p.status == LATTIO_OK) finish(&j, rc);
    int status = rank == 0 ? rep->status : LATTIO_OK;
    const int brc = lattio_xfer_mpi(MPI_Bcast(&status, 1, MPI_INT, 0, comm), "convert");
    free(j.fields);
    return brc != LATTIO_OK ? brc : status;
}
