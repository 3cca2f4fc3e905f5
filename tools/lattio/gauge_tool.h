/* gauge_tool.h -- shared by `lattio verify` and `lattio convert`: the
 * verification of one file, collected into a report that prints as text
 * or JSON. */
#ifndef LATTIO_GAUGE_TOOL_H
#define LATTIO_GAUGE_TOOL_H

#include "tool.h"

#define VR_MAX_PROBLEMS 32
#define VR_TEXT 640 /* one problem or warning, escaped (a library detail is up to 255 bytes) */

/* One binary record of a LIME file. */
typedef struct vr_field {
    int record;              /* 1-based record number */
    char type[LATTIO_LIME_TYPE_MAX + 1];
    uint64_t offset, length, site_bytes;
    int has_stored;
    lattio_scidac_sum stored, computed;
    int ok;
    int io_failed;           /* the data could not be read (I/O or MPI error): no checksum */
} vr_field;

typedef struct verify_report {
    const char *path;
    int format;                  /* enum lattio_gauge_format; 0 for a LIME file without gauge */
    int is_lime;
    int is_hdf5;                 /* an HDF5 file (h5_tool.c): fields are datasets */
    int h5_layout;               /* LATTIO_H5_QDP / _QLUA of the last field */
    size_t nrecords;
    int nfields, fields_cap;
    vr_field *fields;            /* every field verified (grown by verify_report_field) */
    int has_gauge;               /* gauge info/stats valid */
    lattio_gauge_info info;
    lattio_gauge_stats stats;
    int nproblems;
    char problems[VR_MAX_PROBLEMS][VR_TEXT];
    int nwarnings;
    char warnings[VR_MAX_PROBLEMS][VR_TEXT];
    /* the gauge field's metadata (file XML, record XML, LFN, date; strings
     * owned, NULL when the format has none), carried by `convert` */
    char *meta_file_xml, *meta_record_xml, *meta_lfn;
    char meta_date[LATTIO_FIELD_TEXT_MAX];
} verify_report;

/* The report (verify_report.c). */
/* Empty *rep for a new file (its previous metadata freed). */
void verify_report_reset(verify_report *rep, const char *path);
/* A new zeroed field entry of rep; NULL (with a problem noted by the
 * caller) when out of memory. */
vr_field *verify_report_field(verify_report *rep);
/* Keep fi's metadata in rep (copies). */
void verify_report_meta(verify_report *rep, const lattio_field_info *fi);

/* The checks (gauge_verify.c).  Verify `path`; fills *rep.  When u != NULL and the file holds a gauge
 * field, *u receives it (free with lattio_gauge_free).  Returns 1 when
 * everything holds, 0 otherwise. */
int verify_file(const char *path, verify_report *rep, double **u);
/* The report printed (verify_report.c). */
void verify_print_text(FILE *f, const verify_report *rep);
void verify_print_json(FILE *f, const verify_report *rep);

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
int verify_h5(const char *arg, verify_report *rep, MPI_Comm comm, lattio_layout *gl, double **glocal);
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

/* Under MPI (verify_mpi.c): rank 0's verify_file reads each binary record
 * through this hook when set (and u == NULL): it returns the read status
 * (LATTIO_OK or ERR_CHECKSUM) with the computed sum and, for a gauge field,
 * its observables; VR_SERIAL when the record is to be read serially. */
#define VR_SERIAL 1
typedef int (*verify_field_fn)(const char *path, const lattio_field_info *fi, int gauge,
                               lattio_scidac_sum *computed, lattio_gauge_stats *stats);
extern verify_field_fn verify_field_hook;

/* verify_file on one rank; under MPI collective: every binary record of a
 * LIME file read with lattio_field_read over the ranks (slabs of the
 * slowest dimension), gauge observables with lattio_gauge_stats_mpi; other
 * formats on rank 0.  *rep and the result are valid on rank 0. */
int verify_file_any(const char *path, verify_report *rep);

/* Under MPI, after verify_file_any: the gauge field it read in parallel
 * (this rank's slab, native doubles, layout *l), handed to the caller (free
 * with free()); 0 when there is none (on every rank alike). */
int verify_take_gauge(lattio_layout *l, double **local);
/* Keep a distributed gauge field for verify_take_gauge (takes `local`). */
void verify_keep_gauge(const lattio_layout *l, double *local);

#endif
