/* gauge_tool.h -- shared by `lattio verify` and `lattio info`: the
 * verification of one file, collected into a report that prints as text
 * or JSON. */
#ifndef LATTIO_GAUGE_TOOL_H
#define LATTIO_GAUGE_TOOL_H

#include "tool.h"

/* The verification is the library's (lattio_verify_file, lattio_verify);
 * the command only runs and prints it (verify_report.c). */
typedef lattio_verify_report verify_report;

/* This process alone, without MPI: lattio_verify_file (HDF5 too).  When u
 * != NULL and the file holds a gauge field, *u receives it (native doubles,
 * ILDG order; an HDF5 field malloc'd, others lattio_gauge_alloc'd).
 * Returns 1 when everything holds, 0 otherwise. */
int tool_verify_serial(const char *path, verify_report *rep, double **u);
/* Collective under a launcher (lattio_verify on MPI_COMM_WORLD; the report
 * complete on rank 0), tool_verify_serial otherwise.  Returns 1 when
 * everything holds, 0 otherwise (on every rank). */
int tool_verify(const char *path, verify_report *rep);
/* lattio_convert over the launcher's ranks, or on this process:
 * lattio_convert_file, or lattio_convert on MPI_COMM_SELF where it needs
 * the MPI library (a build without MPI: its ERR_UNSUPPORTED). */
void tool_convert(const char *in, const char *out, const lattio_convert_options *o, lattio_convert_report *rep);
/* The report printed (verify_report.c). */
void verify_print_text(FILE *f, const verify_report *rep);
int verify_print_json(FILE *f, const verify_report *rep);

/* HDF5 files (h5_tool.c).  h5_tool_target: ARG names an HDF5 file ("FILE"
 * with HDF5's signature or "FILE:/PATH").  h5_info / h5_check: `info`
 * and `check` of ARG (this process alone). */
int h5_tool_target(const char *arg);
int h5_info(const char *arg, int json);
/* `lattio info [--fields]` of a LIME file or a QIO volume set: the
 * library's listing printed (info_print.c). */
int info_print(const char *path, int fields, int json);
int h5_check(const char *arg);

#endif
