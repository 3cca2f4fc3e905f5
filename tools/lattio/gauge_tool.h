/* gauge_tool.h -- shared by `lattio verify` and `lattio convert`: the
 * verification of one file, collected into a report that prints as text
 * or JSON. */
#ifndef LATTIO_GAUGE_TOOL_H
#define LATTIO_GAUGE_TOOL_H

#include "tool.h"

/* The verification is the library's (lattio_verify_file, lattio_verify);
 * the command only runs and prints it (verify_report.c). */
typedef lattio_verify_report verify_report;

/* Serially (this process alone; MPI started for an HDF5 target, read on
 * MPI_COMM_SELF): lattio_verify_file, or lattio_verify for HDF5.  When u
 * != NULL and the file holds a gauge field, *u receives it (native doubles,
 * ILDG order; an HDF5 field malloc'd, others lattio_gauge_alloc'd).
 * Returns 1 when everything holds, 0 otherwise. */
int tool_verify_serial(const char *path, verify_report *rep, double **u);
/* Collective under a launcher (lattio_verify on MPI_COMM_WORLD; the report
 * complete on rank 0, the gauge field read in parallel handed over in
 * *gl / *glocal when glocal != NULL), tool_verify_serial otherwise.
 * Returns 1 when everything holds, 0 otherwise (on every rank). */
int tool_verify(const char *path, verify_report *rep, lattio_layout *gl, double **glocal);
/* The report printed (verify_report.c). */
void verify_print_text(FILE *f, const verify_report *rep);
int verify_print_json(FILE *f, const verify_report *rep);

/* HDF5 files (h5_tool.c).  h5_tool_target: ARG names an HDF5 file ("FILE"
 * with HDF5's signature or "FILE:/PATH").  verify_h5: collective on comm,
 * every lattice field of ARG (or the one PATH names) read over the ranks
 * (slabs of t), checksums compared, gauge observables computed; the first
 * gauge field read is handed over in *gl / *glocal when glocal != NULL
 * (caller frees).  h5_info / h5_check: `info` and `check` of ARG (this
 * process alone).  h5_write_gauge: collective on comm, the gauge field
 * (native doubles, layout l) to TARGET in `layout`, verified after
 * writing.  h5_whole_layout: the layout of a whole 4-D gauge field in ILDG
 * order. */
int h5_tool_target(const char *arg);
int h5_info(const char *arg, int json);
/* `lattio info --fields` of a LIME file (info_fields.c). */
int info_fields(const char *path, int json);
/* `lattio info BASE` of a QIO volume set: its volumes and fields. */
int info_volumes(const char *base, int json);
int h5_check(const char *arg);
int h5_write_gauge(MPI_Comm comm, const char *target, int layout, int precision, const lattio_layout *l,
                   const double *u, const verify_report *meta);
int h5_whole_layout(const uint64_t dims[4], int colors, lattio_layout *l);

/* `lattio convert`: shared pieces in convert_common.c, below the serial
 * command (cmd_convert.c) and the parallel conversion (convert_mpi.c). */
typedef struct convert_args {
    const char *in, *out;
    int format, precision, rows;
    int h5_layout;       /* --layout qdp|qlua (HDF5 OUT) */
    const char *h5_path; /* --path (HDF5 OUT), default /lattice */
    int to_given;        /* --to was given */
    int volfmt;          /* --volumes multi|part|partdir: OUT a QIO volume set */
    int grid[LATTIO_MAX_DIMS], io_grid[LATTIO_MAX_DIMS], grid_nd, io_nd; /* --grid, --io-grid */
} convert_args;
/* QIO volume sets (convert_volumes.c): --volumes, --grid and --io-grid
 * parsed; wanted when OUT is a set or IN is one and --to is not given;
 * the join or split by rank 0, read back. */
int convert_volumes_option(const char *opt, const char *v, convert_args *a);
int convert_volumes_wanted(const convert_args *a);
int convert_volumes(const convert_args *a);
/* The metadata of IN (rep->meta_*) as a field descriptor's. */
void convert_meta_desc(const verify_report *rep, lattio_field_desc *d);
/* The HDF5 target of OUT's temporary name tmp. */
void convert_h5_target(const convert_args *a, const char *tmp, char *out, size_t size);

void convert_report_problems(const verify_report *rep, const char *what);
double max_diff(const double *a, const double *b, uint64_t n);
int convert_compare(const verify_report *in, const verify_report *out, double d, int precision,
                    int rows);
void convert_print(const convert_args *a, const verify_report *in, const verify_report *out,
                   int precision);
int convert_precision(const convert_args *a, int in_precision);
/* Fields that are not one gauge configuration (convert_fields.c): rank 0
 * decides (IN is a LIME file of several fields or of one that is not a
 * gauge field, or an HDF5 file or group of such; MPI started for HDF5) and
 * keeps the list; convert_fields, collective, converts them all. */
int convert_fields_wanted(const convert_args *a);
int convert_fields(const convert_args *a);
/* Rank 0: IN is a LIME file and OUT ILDG or SciDAC (convert_parallel applies). */
int convert_in_parallel(const convert_args *a);
/* Collective under MPI: the conversion with the parallel reader and writer. */
int convert_parallel(const convert_args *a);

#endif
