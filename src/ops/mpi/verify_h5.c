/* verify_h5.c -- the verification of an HDF5 target over a communicator:
 * the fields listed collectively and read in slabs of t by lattio_h5_read,
 * a gauge field's observables summed over the ranks; the report is made
 * by the MPI-free half (src/ops/verify_h5.c), as for a serial reader. */
#include "ops_mpi.h"

#include <stdlib.h>
#include <string.h>

static int comm_fields(void *arg, const char *target, char *file, size_t size, lattio_h5_entry **list, int *count)
{
    return lattio_h5_fields(*(MPI_Comm *)arg, target, 4, file, size, list, count);
}

/* Collective: this rank's slab of field e read. */
static int comm_read(void *arg, const char *file, const lattio_h5_entry *e, lattio_layout *l, double **local,
                     lattio_field_read_info *info)
{
    MPI_Comm comm = *(MPI_Comm *)arg;
    char *target = malloc(strlen(file) + strlen(e->path) + 2);
    int rc = lattio_layout_slab(comm, e->nd, e->dims, e->elements, l);
    const uint64_t n = rc == LATTIO_OK ? lattio_layout_local_sites(l) * e->elements : 0;
    *local = malloc(n ? n * sizeof **local : 1);
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, e->elements);
    lattio_h5_options o;
    lattio_h5_options_default(&o);
    o.layout = LATTIO_H5_AUTO;
    if (rc == LATTIO_OK && (!*local || !target)) rc = LATTIO_ERR_NOMEM;
    rc = lattio_agree(comm, rc);
    if (rc == LATTIO_OK) {
        sprintf(target, "%s:%s", file, e->path);
        rc = lattio_h5_read(comm, target, &d, l, *local, &o, info, NULL);
    }
    free(target);
    return rc;
}

static int comm_stats(void *arg, const lattio_layout *l, const double *local, lattio_gauge_stats *st)
{
    return lattio_gauge_stats_mpi(*(MPI_Comm *)arg, l, local, st);
}

int lattio_ops_verify_h5(MPI_Comm comm, const char *target, lattio_verify_report *rep, lattio_layout *gl,
                         double **glocal)
{
    lattio_ops_h5_io io = {&comm, comm_fields, comm_read, comm_stats};
    return lattio_ops_verify_h5_io(&io, target, rep, gl, glocal);
}
