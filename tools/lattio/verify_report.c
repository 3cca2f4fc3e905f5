/* verify_report.c -- `lattio verify`: the library's verification on this
 * process (over the launcher's ranks: mpi/run_mpi.c), and its report
 * printed as text or as the library's JSON. */
#include "gauge_tool.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int tool_verify_serial(const char *path, verify_report *rep, double **u)
{
    if (u) *u = NULL;
    return lattio_verify_file(path, rep, u) == LATTIO_OK; /* HDF5 too: without MPI */
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
                lattio_gauge_checksum_name(in->checksum_kind), (unsigned)in->stored[0],
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
    if (rep->is_volumes)
        fprintf(f, "%s: QIO volume set, %zu volumes, %d fields\n", rep->path, rep->nrecords, rep->nfields);
    else if (rep->lime) fprintf(f, "%s: LIME, %zu records, %d binary\n", rep->path, rep->nrecords, rep->nfields);
    if (rep->is_hdf5)
        fprintf(f, "%s: HDF5, %zu lattice field%s\n", rep->path, rep->nrecords, rep->nrecords == 1 ? "" : "s");
    const char *what = rep->is_hdf5 ? "field" : "record";
    for (int i = 0; i < rep->nfields; i++) {
        const lattio_verify_field *v = &rep->fields[i];
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
    if (rep->dropped) fprintf(f, "%s: %d more notes not kept\n", rep->path, rep->dropped);
    fprintf(f, "%s: %s\n", rep->path, rep->status ? "FAILED" : "ok");
}

int verify_print_json(FILE *f, const verify_report *rep)
{
    char *json = NULL;
    const int rc = lattio_verify_report_json(rep, &json);
    if (rc == LATTIO_OK) fputs(json, f);
    free(json);
    return rc;
}
