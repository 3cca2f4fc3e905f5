/* convert_fields.c -- `lattio convert` of files that hold fields other than
 * one gauge configuration: every field of a SciDAC/QIO file (a multi-record
 * file, propagators, eigenvector sets) or of an HDF5 file or group, to a
 * SciDAC multi-record file or to HDF5 (one dataset per field, QDP++ or Qlua
 * layout).  Collective on every rank (a single process alone): each field
 * is read over the ranks in slabs of its slowest dimension (its stored
 * checksum compared), written by the parallel writers (verified after
 * writing) with its metadata, then OUT is read again and every value
 * compared with IN's, before rank 0 renames OUT into place.  One field is
 * in memory at a time (twice while OUT is compared). */
#include "gauge_tool.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CF_MAX_FIELDS 1000000

/* One field of IN, as rank 0 found it. */
typedef struct cf_field {
    int index;                      /* LIME: its index among the binary records */
    char object[256];               /* HDF5: its object path */
    int nd, precision;
    uint64_t dims[LATTIO_MAX_DIMS]; /* x fastest */
    uint64_t elements;              /* reals per site */
} cf_field;

/* What rank 0 tells every rank. */
typedef struct cf_plan {
    int status, count, in_h5;
    char in_file[4096];
    tool_output out; /* the other ranks use out.tmp only */
} cf_plan;

/* IN's fields, found by convert_fields_wanted (rank 0). */
static struct {
    cf_field *f;
    int count, in_h5;
    char file[4096];
} listed;

/* Where the conversion failed, for rank 0's message. */
static char cf_where[640];

/* Local: the field a failure happened at, with the library's detail. */
static void note_failure(const char *what, int i, const char *object)
{
    char detail[256];
    const int n = lattio_last_detail(detail, sizeof detail);
    snprintf(cf_where, sizeof cf_where, " (%s %d%s%s%s%s)", what, i, object[0] ? " " : "", object, n ? ": " : "",
             n ? detail : "");
}

static int is_gauge_kind(int kind) { return kind == LATTIO_FIELD_ILDG_GAUGE || kind == LATTIO_FIELD_SU3_GAUGE; }

/* Rank 0: IN's LIME fields; *gauge_one: IN is one gauge field. */
static int lime_list(const char *path, int *gauge_one)
{
    lattio_lime_reader *r = NULL;
    int n = 0, rc = lattio_lime_reader_open(path, &r);
    if (rc == LATTIO_OK) rc = lattio_field_count(r, &n);
    if (rc == LATTIO_OK && !(listed.f = calloc(n ? (size_t)n : 1, sizeof *listed.f))) rc = LATTIO_ERR_NOMEM;
    for (int i = 0; rc == LATTIO_OK && i < n; i++) {
        lattio_field_info fi;
        if ((rc = lattio_field_info_read(r, i, &fi)) != LATTIO_OK) break;
        cf_field *f = &listed.f[i];
        f->index = i, f->nd = fi.nd, f->precision = fi.precision;
        memcpy(f->dims, fi.dims, sizeof f->dims);
        if (fi.precision == 32 || fi.precision == 64) f->elements = fi.typesize * fi.datacount / (uint64_t)(fi.precision / 8);
        else rc = LATTIO_ERR_UNSUPPORTED; /* integer data: verify says so */
        *gauge_one = n == 1 && is_gauge_kind(fi.kind);
        lattio_field_info_free(&fi);
    }
    lattio_lime_reader_close(r);
    listed.count = n;
    snprintf(listed.file, sizeof listed.file, "%s", path);
    return rc;
}

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
    const size_t n = strlen(object);
    return !object || strcmp(object, "/") == 0 || (strncmp(path, object, n) == 0 && (path[n] == '\0' || path[n] == '/'));
}

/* Rank 0: IN's HDF5 fields (FILE: all; FILE:/PATH: the field at PATH or
 * every field under the group PATH). */
static int h5_list_fields(const char *arg, int *gauge_one)
{
    const char *object = h5_object(arg, listed.file, sizeof listed.file);
    int n = 0, rc = lattio_h5_list(MPI_COMM_SELF, listed.file, 0, NULL, 0, &n);
    lattio_h5_entry *e = NULL;
    if (rc == LATTIO_OK && (!(e = calloc(n ? (size_t)n : 1, sizeof *e)) ||
                            !(listed.f = calloc(n ? (size_t)n : 1, sizeof *listed.f))))
        rc = LATTIO_ERR_NOMEM;
    if (rc == LATTIO_OK) rc = lattio_h5_list(MPI_COMM_SELF, listed.file, 0, e, n, &n);
    int m = 0;
    for (int i = 0; rc == LATTIO_OK && i < n; i++) {
        if (object && !under(e[i].path, object)) continue;
        cf_field *f = &listed.f[m++];
        snprintf(f->object, sizeof f->object, "%s", e[i].path);
        f->nd = e[i].nd, f->precision = e[i].precision, f->elements = e[i].elements;
        memcpy(f->dims, e[i].dims, sizeof f->dims);
        *gauge_one = e[i].gauge;
    }
    free(e);
    listed.count = m, listed.in_h5 = 1;
    if (m != 1) *gauge_one = 0;
    return rc;
}

/* Natural order of object names: field2 before field10. */
static int by_name(const void *a, const void *b)
{
    const char *p = ((const cf_field *)a)->object, *q = ((const cf_field *)b)->object;
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

int convert_fields_wanted(const convert_args *a)
{
    int gauge_one = 0, format = 0, rc;
    free(listed.f);
    memset(&listed, 0, sizeof listed);
    if (h5_tool_target(a->in)) rc = h5_list_fields(a->in, &gauge_one);
    else if (lattio_gauge_detect(a->in, &format) == LATTIO_OK && format == LATTIO_GAUGE_ILDG)
        rc = lime_list(a->in, &gauge_one);
    else
        return 0;
    if (rc == LATTIO_OK && listed.in_h5) qsort(listed.f, (size_t)listed.count, sizeof *listed.f, by_name);
    /* what cannot be listed is the gauge conversion's to report (its verification names it) */
    return rc == LATTIO_OK && listed.count > 0 && !gauge_one;
}

/* ------------------------------------------------------------------------ */

/* Collective: the most negative status of any rank. */
static int agree(int rc)
{
    int all = rc;
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* Collective: field f of IN (this rank's slab) into buf, native doubles. */
static int read_in(const cf_plan *p, lattio_file *in, const cf_field *f, const lattio_layout *l, double *buf,
                   lattio_field_read_info *info)
{
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, f->elements);
    memset(info, 0, sizeof *info);
    if (!p->in_h5) return lattio_field_read(in, f->index, &d, l, buf, info);
    char target[4096 + 300];
    snprintf(target, sizeof target, "%s:%s", p->in_file, f->object);
    lattio_h5_options o;
    lattio_h5_options_default(&o);
    o.layout = LATTIO_H5_AUTO;
    return lattio_h5_read(MPI_COMM_WORLD, target, &d, l, buf, &o, info, NULL);
}

/* The object of OUT's field i (HDF5). */
static void out_object(const convert_args *a, int count, int i, char *name, size_t size)
{
    if (count == 1) snprintf(name, size, "%s", a->h5_path);
    else snprintf(name, size, "%s%sfield%d", a->h5_path, strcmp(a->h5_path, "/") ? "/" : "", i);
}

/* The writer of OUT: a LIME file or an HDF5 writer. */
typedef struct cf_out {
    lattio_file *lime;
    lattio_h5_writer *h5;
} cf_out;

static int out_open(const convert_args *a, const cf_plan *p, const cf_field *first, cf_out *o)
{
    memset(o, 0, sizeof *o);
    if (a->format == LATTIO_GAUGE_HDF5) {
        lattio_h5_options ho;
        lattio_h5_options_default(&ho);
        ho.layout = a->h5_layout ? a->h5_layout : LATTIO_H5_QDP;
        return lattio_h5_writer_open(MPI_COMM_WORLD, p->out.tmp, first->nd, &ho, &o->h5);
    }
    lattio_options opt;
    lattio_options_default(&opt);
    opt.in_place = 1; /* p->out.tmp is already a temporary name */
    return lattio_open(MPI_COMM_WORLD, p->out.tmp, LATTIO_MODE_CREATE, MPI_INFO_NULL, &opt, &o->lime);
}

/* Collective: field i (read into buf, metadata in *in) into OUT. */
static int out_add(const convert_args *a, const cf_plan *p, cf_out *o, int i, const cf_field *f,
                   const lattio_layout *l, const double *buf, const lattio_field_read_info *ri)
{
    const lattio_field_info *in = &ri->field;
    const int precision = a->precision ? a->precision : f->precision;
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE,
                              precision == 32 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE, f->elements);
    d.datacount = in->datacount && f->elements % in->datacount == 0 ? in->datacount : 1;
    d.datatype = in->datatype[0] ? in->datatype : NULL;
    /* a datatype of the field-type table names its precision: QIO's for OUT's */
    char datatype[LATTIO_FIELD_TEXT_MAX];
    const lattio_field_type *t = lattio_field_type_of(in->datatype);
    const int colors = t && strchr(t->kinds, 'C') ? in->colors : 0;
    if (t && precision != f->precision && lattio_field_type_datatype(t, colors, precision, datatype, sizeof datatype) == LATTIO_OK)
        d.datatype = datatype;
    d.colors = in->colors, d.spins = in->spins;
    d.file_xml = in->file_xml, d.record_xml = in->record_xml, d.lfn = in->lfn;
    d.date = in->date[0] ? in->date : NULL;
    d.verify = 1, d.verify_retries = 1;
    lattio_field_write_info w;
    int rc;
    if (o->h5) {
        char name[LATTIO_FIELD_TEXT_MAX * 4 + 300];
        out_object(a, p->count, i, name, sizeof name);
        rc = lattio_h5_writer_add(o->h5, name, &d, l, buf, &w, NULL);
    } else {
        rc = lattio_field_write(o->lime, &d, l, buf, &w);
    }
    /* a LIME IN's SciDAC checksum of the bytes read is OUT's of the bytes
     * written at the same precision (Qlua's datasets carry SHA-256 instead) */
    const int qlua = o->h5 && a->h5_layout == LATTIO_H5_QLUA;
    if (rc == LATTIO_OK && !p->in_h5 && precision == f->precision && !qlua &&
        (w.sum.suma != ri->computed.suma || w.sum.sumb != ri->computed.sumb))
        rc = LATTIO_ERR_VERIFY; /* the written checksum differs from IN's */
    return rc;
}

static int out_close(cf_out *o)
{
    return o->h5 ? lattio_h5_writer_close(o->h5) : lattio_close(o->lime);
}

/* Collective: every field of IN into OUT. */
static int convert_all(const convert_args *a, const cf_plan *p, const cf_field *fields)
{
    lattio_file *in = NULL;
    cf_out o;
    int rc = p->in_h5 ? LATTIO_OK : lattio_open(MPI_COMM_WORLD, p->in_file, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &in);
    if (rc == LATTIO_OK) rc = out_open(a, p, &fields[0], &o);
    else memset(&o, 0, sizeof o);
    for (int i = 0; rc == LATTIO_OK && i < p->count; i++) {
        const cf_field *f = &fields[i];
        lattio_layout l;
        double *buf = NULL;
        rc = lattio_layout_slab(MPI_COMM_WORLD, f->nd, f->dims, f->elements, &l);
        const uint64_t n = rc == LATTIO_OK ? lattio_layout_local_sites(&l) * f->elements : 0;
        if (rc == LATTIO_OK && !(buf = malloc(n ? n * sizeof *buf : 1))) rc = LATTIO_ERR_NOMEM;
        rc = agree(rc);
        lattio_field_read_info info;
        memset(&info, 0, sizeof info);
        if (rc == LATTIO_OK) rc = read_in(p, in, f, &l, buf, &info);
        if (rc == LATTIO_OK) rc = out_add(a, p, &o, i, f, &l, buf, &info);
        if (rc != LATTIO_OK) note_failure("IN's field", i, f->object);
        lattio_field_info_free(&info.field);
        free(buf);
    }
    const int crc = (o.h5 || o.lime) ? out_close(&o) : LATTIO_OK;
    lattio_close(in);
    return rc != LATTIO_OK ? rc : crc;
}

/* Collective: OUT's field i read back; its values equal IN's (exactly, or
 * within the rounding of a narrower precision). */
static int compare_one(const convert_args *a, const cf_plan *p, lattio_file *in, lattio_file *out, int i,
                       const cf_field *f, double *worst)
{
    lattio_layout l;
    double *x = NULL, *y = NULL;
    int rc = lattio_layout_slab(MPI_COMM_WORLD, f->nd, f->dims, f->elements, &l);
    const uint64_t n = rc == LATTIO_OK ? lattio_layout_local_sites(&l) * f->elements : 0;
    if (rc == LATTIO_OK && (!(x = malloc(n ? n * sizeof *x : 1)) || !(y = malloc(n ? n * sizeof *y : 1))))
        rc = LATTIO_ERR_NOMEM;
    rc = agree(rc);
    lattio_field_read_info ri, ro;
    memset(&ri, 0, sizeof ri), memset(&ro, 0, sizeof ro);
    if (rc == LATTIO_OK) rc = read_in(p, in, f, &l, x, &ri);
    cf_plan back = *p;
    back.in_h5 = a->format == LATTIO_GAUGE_HDF5;
    cf_field g = *f;
    g.index = i;
    if (back.in_h5) {
        snprintf(back.in_file, sizeof back.in_file, "%s", p->out.tmp);
        out_object(a, p->count, i, g.object, sizeof g.object);
    }
    if (rc == LATTIO_OK) rc = read_in(&back, out, &g, &l, y, &ro);
    double d = 0;
    for (uint64_t k = 0; rc == LATTIO_OK && k < n; k++) {
        const double e = fabs(x[k] - y[k]) / (fabs(x[k]) > 1 ? fabs(x[k]) : 1);
        if (e > d || isnan(e)) d = isnan(e) ? INFINITY : e;
    }
    if (rc == LATTIO_OK) MPI_Allreduce(&d, worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    const int out_prec = a->precision ? a->precision : f->precision;
    const double allowed = out_prec >= f->precision ? 0 : ldexp(1.0, -23);
    if (rc == LATTIO_OK && *worst > allowed) rc = LATTIO_ERR_VERIFY; /* OUT's values differ from IN's */
    lattio_field_info_free(&ri.field), lattio_field_info_free(&ro.field);
    free(x), free(y);
    return rc;
}

static int compare_all(const convert_args *a, const cf_plan *p, const cf_field *fields, double *worst)
{
    lattio_file *in = NULL, *out = NULL;
    int rc = p->in_h5 ? LATTIO_OK : lattio_open(MPI_COMM_WORLD, p->in_file, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &in);
    if (rc == LATTIO_OK && a->format != LATTIO_GAUGE_HDF5)
        rc = lattio_open(MPI_COMM_WORLD, p->out.tmp, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &out);
    *worst = 0;
    for (int i = 0; rc == LATTIO_OK && i < p->count; i++) {
        double w = 0;
        rc = compare_one(a, p, in, out, i, &fields[i], &w);
        if (w > *worst) *worst = w;
        if (rc != LATTIO_OK) note_failure("OUT's field, read back and compared:", i, "");
    }
    lattio_close(out);
    lattio_close(in);
    return rc;
}

/* Rank 0: the plan (OUT reserved) or the reason there is none. */
static int make_plan(const convert_args *a, cf_plan *p)
{
    memset(p, 0, sizeof *p);
    p->count = listed.count, p->in_h5 = listed.in_h5;
    snprintf(p->in_file, sizeof p->in_file, "%s", listed.file);
    if (a->format != LATTIO_GAUGE_SCIDAC && a->format != LATTIO_GAUGE_HDF5) {
        fprintf(stderr, "lattio convert: %s holds %d field%s that %s not one gauge configuration: "
                "convert to scidac or hdf5 (ERR_UNSUPPORTED)\n", a->in, p->count, p->count == 1 ? "" : "s",
                p->count == 1 ? "is" : "are");
        return TOOL_FAIL;
    }
    if (p->count > CF_MAX_FIELDS) return tool_status_error("convert", a->in, LATTIO_ERR_OVERFLOW, "%s", "");
    const char *inputs[1] = {listed.file};
    if (tool_output_allowed("convert", a->out, inputs, 1) != TOOL_OK) return TOOL_FAIL;
    if (tool_output_open(&p->out, "convert", a->out) != TOOL_OK) return TOOL_FAIL;
    close(p->out.fd); /* the writers replace the reserved name */
    p->out.fd = -1;
    return TOOL_OK;
}

static void print_done(const convert_args *a, const cf_plan *p, const cf_field *fields, double worst)
{
    printf("%s -> %s: %d field%s converted to %s", a->in, a->out, p->count, p->count == 1 ? "" : "s",
           a->format == LATTIO_GAUGE_HDF5 ? (a->h5_layout == LATTIO_H5_QLUA ? "HDF5 (qlua)" : "HDF5 (qdp)") : "SciDAC");
    if (a->precision) printf(", %d-bit", a->precision);
    printf("; verified: checksums, every value read back (largest relative difference %.3g)\n", worst);
    for (int i = 0; i < p->count && a->format == LATTIO_GAUGE_HDF5; i++) {
        char name[300];
        out_object(a, p->count, i, name, sizeof name);
        printf("  field %d%s%s -> %s\n", i, fields[i].object[0] ? " " : "", fields[i].object, name);
    }
}

int convert_fields(const convert_args *a)
{
    cf_plan p;
    memset(&p, 0, sizeof p);
    if (tool_rank() == 0) p.status = make_plan(a, &p);
    tool_mpi_bcast(&p, sizeof p, 0);
    if (p.status != TOOL_OK) return p.status;
    cf_field *fields = tool_rank() == 0 ? listed.f : calloc((size_t)p.count, sizeof *fields);
    int ok = fields != NULL;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    int rc = ok ? LATTIO_OK : LATTIO_ERR_NOMEM;
    if (rc == LATTIO_OK) tool_mpi_bcast(fields, (size_t)p.count * sizeof *fields, 0);
    if (rc == LATTIO_OK) rc = agree(convert_all(a, &p, fields));
    double worst = 0;
    if (rc == LATTIO_OK) rc = agree(compare_all(a, &p, fields, &worst));
    int ret = TOOL_OK;
    if (tool_rank() == 0) {
        if (rc != LATTIO_OK) tool_status_error("convert", a->out, rc, "%s", cf_where);
        ret = tool_output_finish(&p.out, rc == LATTIO_OK ? TOOL_OK : TOOL_FAIL);
        if (ret == TOOL_OK) print_done(a, &p, fields, worst);
    }
    if (tool_rank() != 0) free(fields);
    return tool_mpi_share_status(ret);
}
