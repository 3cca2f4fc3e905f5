/* ops_mpi.h -- shared by the collective operations (src/ops/mpi): the
 * verification of an HDF5 target over a communicator. */
#ifndef LATTIO_OPS_MPI_H
#define LATTIO_OPS_MPI_H

#include "internal.h"
#include "io/xfer.h"
#include "ops/ops_internal.h"

/* Collective on comm: every lattice field of `target` ("FILE" or
 * "FILE:/PATH") read over the ranks (slabs of t), checksums compared,
 * gauge observables computed, into *rep (complete on every rank); the
 * first gauge field read is handed over in *gl / *glocal when glocal !=
 * NULL.  Returns rep->status. */
int lattio_ops_verify_h5(MPI_Comm comm, const char *target, lattio_verify_report *rep, lattio_layout *gl,
                         double **glocal);

/* Rank 0, MPI_COMM_SELF: the fields ARG ("FILE" or "FILE:/PATH": the field
 * at PATH or every field under the group PATH) names, in natural name
 * order (*list malloc'd; FILE in `file`); *gauge_one: one gauge field. */
int lattio_ops_h5_fields(const char *arg, char *file, size_t size, lattio_ops_cfield **list, int *count,
                         int *gauge_one);
/* Collective (share.c): rank 0's string *s on every rank (NULL kept as
 * NULL; others' copies freed and replaced); rank 0's other writers'
 * records of IN (v->meta_other) on every rank. */
int lattio_ops_bcast_str(MPI_Comm comm, int rank, char **s);
int lattio_ops_share_other(MPI_Comm comm, int rank, lattio_verify_report *v);
/* Collective: every field of IN (a file of fields other than one gauge
 * field) converted to OUT (SciDAC or HDF5); the report on rank 0. */
int lattio_ops_convert_fields(MPI_Comm comm, int rank, const char *in, const char *out, const lattio_convert_options *o,
                              lattio_convert_report *rep);

#endif
