/* convert_mpi.c -- `lattio convert` under an MPI launcher for ILDG/SciDAC
 * files: IN verified and read in parallel (tool_verify keeps the gauge
 * field, a slab of t per rank), OUT written with lattio_field_write
 * (verify-after-write, one rewrite allowed) under a temporary name,
 * verified in parallel and compared link by link (largest difference
 * reduced over the ranks), then renamed by rank 0.  The record set equals
 * lattio_gauge_write's, so the bytes equal a serial run's apart from the
 * date in scidac-private-record-xml. */
#include "gauge_tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int convert_in_parallel(const convert_args *a)
{
    int format = 0;
    if (a->format != LATTIO_GAUGE_ILDG && a->format != LATTIO_GAUGE_SCIDAC && a->format != LATTIO_GAUGE_HDF5) return 0;
    if (h5_tool_target(a->in)) return 1;
    return lattio_gauge_detect(a->in, &format) == LATTIO_OK && format == LATTIO_GAUGE_ILDG;
}

/* What rank 0 tells the others after verifying IN. */
typedef struct convert_plan {
    int ok, precision;
    tool_output out; /* broadcast: the other ranks use out.tmp only (the pointers are rank 0's) */
} convert_plan;

/* Collective: write the distributed field to p->out.tmp. */
static int write_out(const convert_args *a, const convert_plan *p, const lattio_layout *l,
                     const double *u, const verify_report *in)
{
    const int nc = lattio_gauge_colors_of(l->site_bytes / (4 * sizeof(double))); /* the field verify kept */
    if (a->format == LATTIO_GAUGE_HDF5) {
        char target[sizeof p->out.tmp + 300];
        convert_h5_target(a, p->out.tmp, target, sizeof target);
        return h5_write_gauge(MPI_COMM_WORLD, target, a->h5_layout, p->precision, l, u, in);
    }
    lattio_options opt;
    lattio_options_default(&opt);
    opt.in_place = 1; /* p->out.tmp is already a temporary name */
    lattio_file *f = NULL;
    int rc = lattio_open(MPI_COMM_WORLD, p->out.tmp, LATTIO_MODE_CREATE, MPI_INFO_NULL, &opt, &f);
    if (rc == LATTIO_OK) {
        lattio_field_desc d;
        lattio_field_desc_default(&d, a->format == LATTIO_GAUGE_ILDG ? LATTIO_FIELD_ILDG_GAUGE
                                                                     : LATTIO_FIELD_SU3_GAUGE,
                                  LATTIO_REAL_F64_NATIVE,
                                  p->precision == 32 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE, 72);
        d.colors = nc, d.elements = 8 * (uint64_t)(nc * nc);
        /* as lattio_gauge_write: its record XML; file XML and LFN are the defaults */
        d.record_xml = lattio_gauge_record_xml(nc);
        convert_meta_desc(in, &d); /* IN's file XML, record XML, LFN and date */
        d.verify = 1;
        d.verify_retries = 1;
        rc = lattio_field_write(f, &d, l, u, NULL);
    }
    const int crc = lattio_close(f);
    return rc != LATTIO_OK ? rc : crc;
}

/* Collective: rank 0's metadata of IN on every rank (a string each: its
 * length, -1 for none, then its bytes). */
static void share_meta(verify_report *in)
{
    char **s[3] = {&in->meta_file_xml, &in->meta_record_xml, &in->meta_lfn};
    for (int i = 0; i < 3; i++) {
        int64_t n = *s[i] ? (int64_t)strlen(*s[i]) : -1;
        tool_mpi_bcast(&n, sizeof n, 0);
        if (tool_rank() != 0) {
            free(*s[i]);
            *s[i] = n >= 0 ? calloc(1, (size_t)n + 1) : NULL;
        }
        if (n > 0 && *s[i]) tool_mpi_bcast(*s[i], (size_t)n, 0);
        else if (n > 0) { /* no memory here: receive and drop */
            char *sink = malloc((size_t)n);
            if (sink) tool_mpi_bcast(sink, (size_t)n, 0);
            free(sink);
        }
    }
    tool_mpi_bcast(in->meta_date, sizeof in->meta_date, 0);
}

static verify_report convert_written_mpi; /* the written file, verified (rank 0) */

/* Collective: verify p->out.tmp and compare it with IN's field u. */
static int check_out(const convert_args *a, const convert_plan *p, const verify_report *in,
                     const lattio_layout *l, const double *u)
{
    verify_report *const out = &convert_written_mpi;
    char target[sizeof p->out.tmp + 300];
    snprintf(target, sizeof target, "%s", p->out.tmp);
    if (a->format == LATTIO_GAUGE_HDF5) convert_h5_target(a, p->out.tmp, target, sizeof target);
    lattio_layout lv;
    double *v = NULL;
    const int ok = tool_verify(target, out, &lv, &v);
    const int have = v != NULL; /* alike on every rank */
    double d = 0;
    if (have) {
        const uint64_t n = lattio_layout_local_sites(l) * l->site_bytes / sizeof(double);
        d = lattio_layout_local_sites(&lv) == lattio_layout_local_sites(l) ? max_diff(u, v, n) : 1e300;
        MPI_Allreduce(MPI_IN_PLACE, &d, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    free(v);
    if (tool_rank() != 0) return TOOL_OK;
    if (!ok || !have) {
        convert_report_problems(out, "written file holds no gauge field (ERR_VERIFY)");
        return TOOL_FAIL;
    }
    return convert_compare(in, out, d, p->precision, 3); /* printed after the rename */
}

int convert_parallel(const convert_args *a)
{
    static verify_report in;
    lattio_layout l;
    double *u = NULL;
    const int ok = tool_verify(a->in, &in, &l, &u);
    const int have = u != NULL;
    convert_plan p;
    memset(&p, 0, sizeof p);
    if (tool_rank() == 0) {
        const char *inputs[1] = {a->in};
        p.ok = ok && have && in.has_gauge;
        p.precision = convert_precision(a, in.info.precision);
        if (!p.ok) convert_report_problems(&in, "no gauge field to convert (ERR_UNSUPPORTED)");
        if (p.ok) p.ok = tool_output_allowed("convert", a->out, inputs, 1) == TOOL_OK;
        if (p.ok) p.ok = tool_output_open(&p.out, "convert", a->out) == TOOL_OK;
        if (p.ok) close(p.out.fd); /* reserved; written in place by every rank */
        p.out.fd = -1;
    }
    tool_mpi_bcast(&p, sizeof p, 0);
    share_meta(&in);
    if (!p.ok) {
        free(u);
        return TOOL_FAIL;
    }
    int ret = TOOL_OK;
    const int rc = write_out(a, &p, &l, u, &in);
    if (rc != LATTIO_OK) ret = tool_status_error("convert", a->out, rc, "%s", " (writing)");
    else ret = check_out(a, &p, &in, &l, u);
    free(u);
    ret = tool_mpi_share_status(ret);
    if (tool_rank() == 0) ret = tool_output_finish(&p.out, ret);
    if (tool_rank() == 0 && ret == TOOL_OK) convert_print(a, &in, &convert_written_mpi, p.precision);
    return tool_mpi_share_status(ret);
}
