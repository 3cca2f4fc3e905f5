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

#endif
