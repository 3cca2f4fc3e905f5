/* ops_internal.h -- what the operations' MPI half (src/ops/mpi) shares
 * with their MPI-free half (src/ops): the report's notes and the
 * verification of one file with a reader of binary records supplied by
 * the caller (the collective verification reads them over the ranks). */
#ifndef LATTIO_OPS_INTERNAL_H
#define LATTIO_OPS_INTERNAL_H

#include "lattio.h"
#include "support.h"

#include <stdio.h>

/* A problem (with its status) or a warning of rep, printf-style, escaped;
 * beyond LATTIO_VERIFY_MAX_NOTES only counted (rep->dropped). */
void lattio_ops_problem(lattio_verify_report *rep, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void lattio_ops_warning(lattio_verify_report *rep, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* ": <the library's detail of its last failure>" in buf, or "" when there
 * is none (for a problem's text). */
const char *lattio_ops_detail(char *buf, size_t size);
/* A new zeroed field entry of rep; NULL when out of memory. */
lattio_verify_field *lattio_ops_field(lattio_verify_report *rep);
/* Keep fi's metadata in rep (copies). */
void lattio_ops_meta(lattio_verify_report *rep, const lattio_field_info *fi);
/* Empty rep for path (its previous content freed); ERR_NOMEM when the
 * path cannot be copied. */
int lattio_ops_reset(lattio_verify_report *rep, const char *path);
/* What of IN's metadata beyond the SciDAC records a conversion to
 * `format` writes back: other writers' records (LIME formats) and NERSC
 * header lines (NERSC); what it cannot is a warning of rep's OUT check. */
void lattio_ops_convert_carry(lattio_convert_report *rep, int format, const lattio_text_record **other, int *n,
                              const char **nersc_header);
/* A gauge field's observables (rep->stats, computed) checked: unitarity,
 * header plaquette and link trace. */
void lattio_ops_stats_checks(lattio_verify_report *rep, const char *where);

/* A reader of one binary record supplied by the caller: returns the read
 * status (LATTIO_OK or ERR_CHECKSUM, or an I/O or MPI status) with the
 * computed sum and, for a gauge field, its observables; LATTIO_OPS_SERIAL
 * when the record is to be read by the serial reader. */
#define LATTIO_OPS_SERIAL 1
typedef int (*lattio_ops_reader)(void *arg, const char *path, const lattio_field_info *fi, int gauge,
                                 lattio_scidac_sum *computed, lattio_gauge_stats *stats);

/* lattio_verify_file with every binary record offered to `reader` first
 * (NULL: all read serially). */
int lattio_ops_verify(const char *path, lattio_verify_report *rep, double **gauge, lattio_ops_reader reader,
                      void *arg);

/* How the fields of an HDF5 target are listed and read (verify_h5.c): on
 * this process, or over a communicator (src/ops/mpi/verify_h5.c).  Every
 * call returns the same status on every rank.  read: field e of `file`
 * into *local (malloc'd, this process's part of layout *l, native doubles),
 * its metadata and checksum state into *info; stats: a gauge field's
 * observables from the parts. */
typedef struct lattio_ops_h5_io {
    void *arg;
    int (*fields)(void *arg, const char *target, char *file, size_t size, lattio_h5_entry **list, int *count);
    int (*read)(void *arg, const char *file, const lattio_h5_entry *e, lattio_layout *l, double **local,
                lattio_field_read_info *info);
    int (*stats)(void *arg, const lattio_layout *l, const double *local, lattio_gauge_stats *st);
} lattio_ops_h5_io;
/* Every lattice field of `target` ("FILE" or "FILE:/PATH") read through
 * io, checksums compared, gauge observables computed, into *rep; the
 * first gauge field read is handed over in *gl / *glocal when glocal is
 * given.  Returns rep->status. */
int lattio_ops_verify_h5_io(const lattio_ops_h5_io *io, const char *target, lattio_verify_report *rep,
                            lattio_layout *gl, double **glocal);
/* The same on this process (the serial HDF5 calls; ERR_HDF5_UNAVAILABLE
 * in a library without them); the gauge field whole in *gauge. */
int lattio_ops_verify_h5_serial(const char *target, lattio_verify_report *rep, double **gauge);

/* One JSON object written by `write` into a malloc'd string (*json). */
int lattio_ops_json(void (*write)(FILE *, const void *), const void *arg, char **json);

/* --- convert -------------------------------------------------------------- */

/* Empty rep for IN and OUT (its previous content freed); ERR_NOMEM. */
int lattio_ops_convert_reset(lattio_convert_report *rep, const char *in, const char *out);
/* A problem of OUT (out = 1) or IN (0), printf-style, escaped. */
void lattio_ops_convert_problem(lattio_convert_report *rep, int out, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* rc as a problem of OUT (out = 1) or IN: the status, the system's reason
 * (lattio_last_errno), the library's detail and `what` (NULL: none). */
void lattio_ops_convert_failed(lattio_convert_report *rep, int out, int rc, const char *what);
/* Verification v's problems as rep's (of OUT when out); `what` with
 * `status` when v has none. */
void lattio_ops_convert_take(lattio_convert_report *rep, int out, const lattio_verify_report *v, int status,
                             const char *what);
/* Largest |a - b| over n doubles (NaN counts as infinite). */
double lattio_ops_max_diff(const double *a, const double *b, uint64_t n);
/* OUT's gauge field (rep->out_check) holds IN's (rep->in_check) within
 * OUT's precision: d is the largest link difference.  Problems of OUT. */
int lattio_ops_convert_compare(lattio_convert_report *rep, double d, int rows);
/* OUT's bits per real: MILC 32, openQCD 64, else o->precision or IN's. */
int lattio_ops_convert_precision(const lattio_convert_options *o, int in_precision);
/* The metadata of a verified IN (v->meta_*) as a field descriptor's. */
void lattio_ops_convert_meta(const lattio_verify_report *v, lattio_field_desc *d);
/* Rank 0's paths of an HDF5 OUT: the temporary name tmp with OUT's object. */
void lattio_ops_convert_h5_target(const lattio_convert_options *o, const char *tmp, char *target, size_t size);

/* One field of IN (a LIME binary record or an HDF5 dataset). */
typedef struct lattio_ops_cfield {
    int index;        /* LIME: its index among the binary records */
    char object[256]; /* HDF5: its object path */
    int nd, precision;
    uint64_t dims[LATTIO_MAX_DIMS]; /* x fastest */
    uint64_t elements;              /* reals per site */
} lattio_ops_cfield;
/* IN's LIME fields (*list malloc'd); *gauge_one: IN is one gauge field. */
int lattio_ops_lime_fields(const char *path, lattio_ops_cfield **list, int *count, int *gauge_one);

/* IN's count of fields when it is a LIME file of fields other than one
 * gauge field (the collective conversion's), else 0. */
int lattio_ops_fields_count(const char *in);
/* Fields convert to SciDAC or HDF5 only: otherwise a problem of rep. */
int lattio_ops_fields_refused(lattio_convert_report *rep, int count, int format);

/* What the MPI half lends the serial conversion: an HDF5 IN verified (its
 * gauge field malloc'd into *u) and an HDF5 OUT written (one process). */
typedef struct lattio_ops_convert_hooks {
    int (*verify_h5)(void *arg, const char *target, lattio_verify_report *v, double **u);
    int (*write_h5)(void *arg, const char *target, const lattio_convert_options *o, int precision,
                    const lattio_verify_report *in, const double *u);
    void *arg;
} lattio_ops_convert_hooks;
/* lattio_convert_file with the hooks (NULL: HDF5 is ERR_UNSUPPORTED). */
int lattio_ops_convert(const char *in, const char *out, const lattio_convert_options *o,
                       lattio_convert_report *rep, const lattio_ops_convert_hooks *h);

#endif
