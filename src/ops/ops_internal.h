/* ops_internal.h -- what the operations' MPI half (src/ops/mpi) shares
 * with their MPI-free half (src/ops): the report's notes and the
 * verification of one file with a reader of binary records supplied by
 * the caller (the collective verification reads them over the ranks). */
#ifndef LATTIO_OPS_INTERNAL_H
#define LATTIO_OPS_INTERNAL_H

#include "lattio.h"
#include "support.h"

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

#endif
