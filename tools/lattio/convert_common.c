/* convert_common.c -- the pieces `lattio convert` shares between its
 * serial path (cmd_convert.c) and its parallel one (convert_mpi.c,
 * h5_tool.c): problem reports, the comparison of input and output, the
 * output precision, metadata and the HDF5 target name. */
#include "gauge_tool.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void convert_report_problems(const verify_report *rep, const char *what)
{
    for (int i = 0; i < rep->nproblems; i++) tool_error("convert", rep->path, "%s", rep->problems[i]);
    if (rep->nproblems == 0) tool_error("convert", rep->path, "%s", what);
}

/* Largest |a - b| over all link components. */
double max_diff(const double *a, const double *b, uint64_t n)
{
    double worst = 0;
    for (uint64_t i = 0; i < n; i++) {
        const double d = fabs(a[i] - b[i]);
        if (!(d <= worst)) worst = d;
    }
    return worst;
}

/* OUT must hold IN's field within the output precision; d is the largest
 * difference of a link component. */
int convert_compare(const verify_report *in, const verify_report *out, double d, int precision,
                    int rows)
{
    const int exact = precision == 64 && rows == 3 && in->info.precision == 64;
    const double link_tol = exact ? 0 : rows == 2 ? 1e-5 : precision == 32 ? 2e-7 : 1e-15;
    const double plaq_tol = exact ? 1e-12 : 1e-6;
    if (memcmp(in->info.dims, out->info.dims, sizeof in->info.dims) != 0)
        return tool_error("convert", out->path, "dimensions differ from IN's (ERR_VERIFY)");
    if (!(d <= link_tol))
        return tool_error("convert", out->path, "links differ from IN's by %.3g > %g (ERR_VERIFY)", d, link_tol);
    const double dp = fabs(in->stats.plaquette - out->stats.plaquette);
    if (!(dp <= plaq_tol))
        return tool_error("convert", out->path, "plaquette %.15f, IN's %.15f (ERR_VERIFY)",
                          out->stats.plaquette, in->stats.plaquette);
    return TOOL_OK;
}

void convert_print(const convert_args *a, const verify_report *in, const verify_report *out,
                   int precision)
{
    printf("%s -> %s: %s -> %s, %d-bit, plaquette %.12f (IN %.12f)\n", a->in, a->out,
           lattio_gauge_format_name(in->info.format), lattio_gauge_format_name(a->format),
           precision, out->stats.plaquette, in->stats.plaquette);
}

int convert_precision(const convert_args *a, int in_precision)
{
    return a->format == LATTIO_GAUGE_MILC ? 32 : a->format == LATTIO_GAUGE_OPENQCD ? 64
           : a->precision ? a->precision : in_precision;
}

void convert_meta_desc(const verify_report *rep, lattio_field_desc *d)
{
    if (rep->meta_file_xml) d->file_xml = rep->meta_file_xml;
    if (rep->meta_record_xml) d->record_xml = rep->meta_record_xml;
    if (rep->meta_lfn) d->lfn = rep->meta_lfn;
    if (rep->meta_date[0]) d->date = rep->meta_date;
}

void convert_h5_target(const convert_args *a, const char *tmp, char *out, size_t size)
{
    snprintf(out, size, "%s:%s", tmp, a->h5_path);
}
