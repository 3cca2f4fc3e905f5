/* convert_mpi.c -- lattio_convert: the conversion over a communicator.
 * Rank 0 looks at IN and chooses the route: joins, splits and the gauge
 * conversions the parallel reader and writer do not take run on rank 0
 * (lattio_ops_convert, HDF5 read and written on MPI_COMM_SELF); a LIME or
 * HDF5 gauge field to ILDG, SciDAC or HDF5 is verified and read over the
 * ranks (lattio_verify keeps the field, a slab of t per rank), written
 * by the parallel writer (verify-after-write, one rewrite) under a
 * temporary name, verified over the ranks and compared link by link
 * (largest difference reduced), then renamed by rank 0; files of other
 * fields go to convert_fields.c.  The record set equals
 * lattio_gauge_write's, so the bytes equal a serial run's apart from the
 * date in scidac-private-record-xml. */
#include "ops_mpi.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { ROUTE_ROOT = 0, ROUTE_GAUGE = 1, ROUTE_FIELDS = 2 };

/* --- HDF5 for the conversion rank 0 does alone --------------------------- */

static int layout_whole(const uint64_t dims[4], int colors, lattio_layout *l)
{
    const uint64_t lo[4] = {0, 0, 0, 0};
    const size_t n = colors > 0 ? (size_t)colors : 3;
    int rc = lattio_layout_init(l, 4, dims, lo, dims, 64 * n * n);
    for (int d = 0; rc == LATTIO_OK && d < 4; d++) l->file_order[d] = l->mem_order[d] = 3 - d;
    return rc;
}

/* OUT's descriptor of a gauge field of `kind` in layout l (its sites 8 N^2
 * native doubles) at `precision`: lattio_gauge_write's record XML, IN's
 * metadata where it has them, verified after writing (one rewrite). */
static void gauge_desc(int kind, int precision, const lattio_layout *l, const lattio_verify_report *in,
                       lattio_field_desc *d)
{
    lattio_field_desc_default(d, kind, LATTIO_REAL_F64_NATIVE, precision == 32 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE,
                              72);
    d->colors = lattio_gauge_colors_of(l->site_bytes / (4 * sizeof(double)));
    d->elements = 8 * (uint64_t)(d->colors * d->colors);
    d->record_xml = lattio_gauge_record_xml(d->colors);
    lattio_ops_convert_meta(in, d);
    d->verify = 1;
    d->verify_retries = 1;
}

/* Collective on comm: the gauge field u (layout l) to the HDF5 target,
 * verified after writing, with IN's metadata. */
static int write_h5_gauge(MPI_Comm comm, const char *target, const lattio_convert_options *o, int precision,
                          const lattio_layout *l, const double *u, const lattio_verify_report *in)
{
    lattio_field_desc d;
    gauge_desc(LATTIO_FIELD_ILDG_GAUGE, precision, l, in, &d);
    lattio_h5_options ho;
    lattio_h5_options_default(&ho);
    ho.layout = o->h5_layout ? o->h5_layout : LATTIO_H5_QDP;
    return lattio_h5_write(comm, target, &d, l, u, &ho, NULL, NULL);
}

static int self_verify_h5(void *arg, const char *target, lattio_verify_report *v, double **u)
{
    (void)arg;
    lattio_layout l;
    return lattio_verify(MPI_COMM_SELF, target, v, &l, u); /* one rank: the whole field */
}

static int self_write_h5(void *arg, const char *target, const lattio_convert_options *o, int precision,
                         const lattio_verify_report *in, const double *u)
{
    (void)arg;
    lattio_layout l;
    const int rc = layout_whole(in->info.dims, in->info.colors, &l);
    return rc != LATTIO_OK ? rc : write_h5_gauge(MPI_COMM_SELF, target, o, precision, &l, u, in);
}

static const lattio_ops_convert_hooks self_hooks = {self_verify_h5, self_write_h5, NULL};

/* --- the route ------------------------------------------------------------- */

/* Rank 0: IN's fields when they are HDF5 datasets other than one gauge field. */
static int h5_fields(const char *in)
{
    int count = 0, gauge_one = 0;
    lattio_ops_cfield *list = NULL;
    char file[4096];
    const int rc = lattio_ops_h5_fields(in, file, sizeof file, &list, &count, &gauge_one);
    free(list);
    return rc == LATTIO_OK && count > 0 && !gauge_one ? count : 0;
}

static int route_of(const char *in, const lattio_convert_options *o, int nranks)
{
    if (o->split.volfmt || (!o->format && lattio_volumes_probe(in))) return ROUTE_ROOT;
    const int format = o->format ? o->format : LATTIO_GAUGE_ILDG;
    const int to_lattice = format == LATTIO_GAUGE_SCIDAC || format == LATTIO_GAUGE_HDF5;
    const int h5 = lattio_h5_is_target(in);
    if (to_lattice && (h5 ? h5_fields(in) : lattio_ops_fields_count(in)) > 0) return ROUTE_FIELDS;
    if (nranks < 2 || !(to_lattice || format == LATTIO_GAUGE_ILDG)) return ROUTE_ROOT;
    int detected = 0;
    if (h5) return ROUTE_GAUGE;
    return lattio_gauge_detect(in, &detected) == LATTIO_OK && detected == LATTIO_GAUGE_ILDG ? ROUTE_GAUGE : ROUTE_ROOT;
}

/* Collective: rank 0's metadata of IN on every rank. */
static int share_meta(MPI_Comm comm, int rank, lattio_verify_report *v)
{
    int rc = lattio_ops_share_other(comm, rank, v);
    if (rc == LATTIO_OK) rc = lattio_ops_bcast_str(comm, rank, &v->meta_file_xml);
    if (rc == LATTIO_OK) rc = lattio_ops_bcast_str(comm, rank, &v->meta_record_xml);
    if (rc == LATTIO_OK) rc = lattio_ops_bcast_str(comm, rank, &v->meta_lfn);
    if (rc == LATTIO_OK)
        rc = lattio_xfer_mpi(MPI_Bcast(v->meta_date, sizeof v->meta_date, MPI_CHAR, 0, comm), "convert");
    return rc;
}

/* --- a gauge field over the ranks ------------------------------------------ */

/* What rank 0 tells the others after verifying IN. */
typedef struct gauge_plan {
    int status, precision;
    char tmp[4096];
} gauge_plan;

typedef struct par_job {
    MPI_Comm comm;
    int rank;
    const char *in, *out;
    const lattio_convert_options *o;
    lattio_convert_report *rep;
    gauge_plan p;
    lattio_layout l;
    double *u; /* this rank's slab of IN */
    char target[4096 + 300];
} par_job;

/* Rank 0: IN's verdict, OUT allowed and reserved. */
static void plan_gauge(par_job *j, int have)
{
    lattio_convert_report *rep = j->rep;
    const char *inputs[1] = {j->in};
    rep->in_format = rep->in_check.format;
    j->p.precision = rep->precision = lattio_ops_convert_precision(j->o, rep->in_check.info.precision);
    if (rep->in_check.status != LATTIO_OK || !have || !rep->in_check.has_gauge) {
        lattio_ops_convert_take(rep, 0, &rep->in_check, LATTIO_ERR_UNSUPPORTED, "no gauge field to convert (ERR_UNSUPPORTED)");
        j->p.status = rep->status;
        return;
    }
    int fd = -1, rc = lattio_output_allowed(j->out, inputs, 1);
    if (rc == LATTIO_OK) rc = lattio_temp_open(j->out, j->p.tmp, sizeof j->p.tmp, &fd);
    if (rc == LATTIO_OK) close(fd); /* reserved; written in place by every rank */
    if (rc != LATTIO_OK)
        lattio_ops_convert_failed(rep, 1, rc, NULL);
    j->p.status = rep->status;
}

/* Collective: the distributed field to the temporary of OUT. */
static int write_par(par_job *j)
{
    const int format = j->o->format ? j->o->format : LATTIO_GAUGE_ILDG;
    const lattio_verify_report *in = &j->rep->in_check;
    const lattio_text_record *other;
    int n_other;
    const char *nersc_header;
    lattio_ops_convert_carry(j->rep, format, &other, &n_other, &nersc_header);
    if (format == LATTIO_GAUGE_HDF5) {
        lattio_ops_convert_h5_target(j->o, j->p.tmp, j->target, sizeof j->target);
        return write_h5_gauge(j->comm, j->target, j->o, j->p.precision, &j->l, j->u, in);
    }
    snprintf(j->target, sizeof j->target, "%s", j->p.tmp);
    lattio_options opt;
    lattio_options_default(&opt);
    opt.in_place = 1; /* the temporary name is already one */
    lattio_file *f = NULL;
    int rc = lattio_open(j->comm, j->p.tmp, LATTIO_MODE_CREATE, MPI_INFO_NULL, &opt, &f);
    if (rc == LATTIO_OK) {
        lattio_field_desc d;
        gauge_desc(format == LATTIO_GAUGE_ILDG ? LATTIO_FIELD_ILDG_GAUGE : LATTIO_FIELD_SU3_GAUGE, j->p.precision,
                   &j->l, in, &d);
        d.other = other, d.n_other = n_other;
        rc = lattio_field_write(f, &d, &j->l, j->u, NULL);
    }
    const int crc = lattio_close(f);
    return rc != LATTIO_OK ? rc : crc;
}

/* Collective: OUT's temporary verified over the ranks and compared with IN. */
static int check_par(par_job *j)
{
    lattio_convert_report *rep = j->rep;
    lattio_layout lv;
    double *v = NULL;
    const int vrc = lattio_verify(j->comm, j->target, &rep->out_check, &lv, &v);
    int have = v != NULL; /* alike on every rank */
    double d = 0;
    if (have) {
        const uint64_t n = lattio_layout_local_sites(&j->l) * j->l.site_bytes / sizeof(double);
        d = lattio_layout_local_sites(&lv) == lattio_layout_local_sites(&j->l) ? lattio_ops_max_diff(j->u, v, n) : INFINITY;
        const int rc = lattio_xfer_mpi(MPI_Allreduce(MPI_IN_PLACE, &d, 1, MPI_DOUBLE, MPI_MAX, j->comm), "convert");
        if (rc != LATTIO_OK) return free(v), rc;
    }
    free(v);
    if (j->rank != 0) return LATTIO_OK;
    free(rep->out_check.path); /* problems name OUT, not its temporary */
    rep->out_check.path = strdup(rep->out);
    if (vrc != LATTIO_OK || !have)
        lattio_ops_convert_take(rep, 1, &rep->out_check, LATTIO_ERR_VERIFY, "written file holds no gauge field (ERR_VERIFY)");
    else
        lattio_ops_convert_compare(rep, d, 3);
    return rep->status;
}

/* Rank 0: OUT renamed into place, or its temporary removed. */
static void finish_par(par_job *j, int rc)
{
    if (rc != LATTIO_OK && j->rep->status == LATTIO_OK)
        lattio_ops_convert_failed(j->rep, 1, rc, "writing");
    if (j->rep->status == LATTIO_OK && (rc = lattio_temp_publish(j->p.tmp, j->out)) != LATTIO_OK)
        lattio_ops_convert_failed(j->rep, 1, rc, NULL);
    if (j->rep->status != LATTIO_OK) unlink(j->p.tmp);
}

static int gauge_par(par_job *j)
{
    lattio_convert_report *rep = j->rep;
    rep->kind = LATTIO_CONVERT_GAUGE;
    rep->out_format = j->o->format ? j->o->format : LATTIO_GAUGE_ILDG;
    rep->h5_layout = j->o->h5_layout ? j->o->h5_layout : LATTIO_H5_QDP;
    lattio_verify(j->comm, j->in, &rep->in_check, &j->l, &j->u);
    if (j->rank == 0) plan_gauge(j, j->u != NULL);
    int rc = lattio_xfer_mpi(MPI_Bcast(&j->p, sizeof j->p, MPI_BYTE, 0, j->comm), "convert");
    if (rc == LATTIO_OK) rc = share_meta(j->comm, j->rank, &rep->in_check);
    if (rc != LATTIO_OK || j->p.status != LATTIO_OK) return rc != LATTIO_OK ? rc : j->p.status;
    rc = lattio_agree(j->comm, write_par(j));
    if (rc == LATTIO_OK) rc = lattio_agree(j->comm, check_par(j));
    if (j->rank == 0) finish_par(j, rc);
    int status = j->rank == 0 ? rep->status : LATTIO_OK;
    rc = lattio_xfer_mpi(MPI_Bcast(&status, 1, MPI_INT, 0, j->comm), "convert");
    return rc != LATTIO_OK ? rc : status;
}

/* --- the call --------------------------------------------------------------- */

static int args_agree(MPI_Comm comm, const char *in, const char *out, const lattio_convert_options *o)
{
    lattio_args a = {0};
    lattio_args_str(&a, "in", in);
    lattio_args_str(&a, "out", out);
    lattio_args_int(&a, "format", o->format);
    lattio_args_int(&a, "precision", o->precision);
    lattio_args_int(&a, "nersc_rows", o->nersc_rows);
    lattio_args_int(&a, "h5_layout", o->h5_layout);
    lattio_args_str(&a, "h5_path", o->h5_path ? o->h5_path : "");
    lattio_args_int(&a, "volfmt", o->split.volfmt);
    uint64_t h = 1469598103934665603ull; /* the split's grids, one hash */
    for (int d = 0; d < LATTIO_MAX_DIMS; d++) h = (h ^ (uint64_t)o->split.grid[d] * 31 ^ (uint64_t)o->split.io_grid[d]) * 1099511628211ull;
    lattio_args_int(&a, "grid", (int64_t)(h ^ (uint64_t)o->split.nd));
    return lattio_args_agree(comm, &a);
}

/* Rank 0 converts alone; the others learn its status. */
static int on_root(MPI_Comm comm, int rank, const char *in, const char *out, const lattio_convert_options *o,
                   lattio_convert_report *rep)
{
    int status = rank == 0 ? lattio_ops_convert(in, out, o, rep, &self_hooks) : LATTIO_OK;
    const int rc = lattio_xfer_mpi(MPI_Bcast(&status, 1, MPI_INT, 0, comm), "convert");
    return rc != LATTIO_OK ? rc : status;
}

int lattio_convert(MPI_Comm comm, const char *in, const char *out, const lattio_convert_options *o,
                   lattio_convert_report *rep)
{
    lattio_convert_options d;
    if (!o) lattio_convert_options_default(&d), o = &d;
    int rc = rep && in && out ? lattio_ops_convert_reset(rep, in, out) : LATTIO_ERR_ARG;
    rc = lattio_agree(comm, rc);
    if (rc == LATTIO_OK) rc = args_agree(comm, in, out, o);
    if (rc != LATTIO_OK) return rep ? rep->status = rc : rc;
    int rank = 0, nranks = 1, route = ROUTE_ROOT;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_rank(comm, &rank), "convert"));
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_size(comm, &nranks), "convert"));
    if (rank == 0) route = route_of(in, o, nranks); /* rank 0 alone looks at IN first */
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Bcast(&route, 1, MPI_INT, 0, comm), "convert"));
    if (route == ROUTE_FIELDS) rc = lattio_ops_convert_fields(comm, rank, in, out, o, rep);
    else if (route == ROUTE_GAUGE) {
        par_job j = {.comm = comm, .rank = rank, .in = in, .out = out, .o = o, .rep = rep};
        rc = gauge_par(&j);
        free(j.u);
    } else {
        rc = on_root(comm, rank, in, out, o, rep);
    }
    if (rank != 0) rep->status = rc;
    return rc;
}
