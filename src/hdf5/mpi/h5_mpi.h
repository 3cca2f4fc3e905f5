/* h5_mpi.h -- what the collective HDF5 calls of src/hdf5/mpi share: the
 * field pipeline (src/field/mpi/field_mpi.h) and the MPI layer's one door
 * (src/io/xfer.h) move, convert and checksum a dataset's bytes, or hand
 * them to collective H5Dwrite / H5Dread in the file's own type
 * (h5_move.c); the MPI-free examination and metadata are ../h5_internal.h's. */
#ifndef LATTIO_H5_MPI_H
#define LATTIO_H5_MPI_H

#include "field/mpi/field_mpi.h"
#include "hdf5/h5_internal.h"

/* --- h5_mpi.c ------------------------------------------------------------- */

/* Collective.  Every argument of an HDF5 write (writing) or read that
 * must match compared with rank 0's (lattio_args_agree): ERR_RANK_ARG. */
int lattio_h5_args_agree(MPI_Comm comm, const char *target, const lattio_field_desc *d, const lattio_layout *l,
                         const lattio_h5_options *o, int writing);
/* File access: MPI-IO on comm with the hints (striping, collective
 * buffering) lattio opened its own handle with, collective metadata
 * operations and writes, alignment (0: none) of objects of at least 64 KiB. */
hid_t lattio_h5_fapl(MPI_Comm comm, MPI_Info hints, uint64_t alignment);
/* Collective transfers. */
hid_t lattio_h5_dxpl(void);

/* --- h5_move.c ------------------------------------------------------------ */

/* One dataset's transfer through the field pipe: the layout of the file's
 * sites (file order of the dataset), the window of each memory site. */
typedef struct lattio_h5_move {
    lattio_file *f;            /* the lattio file (raw regions of the dataset's bytes) */
    hid_t dset;                /* HDF5 transport: the open dataset; else -1 */
    hid_t mtype;               /* its memory type (the file's, transient); -1: H5Dget_type */
    uint64_t offset;           /* lattio transport: the dataset's byte offset */
    const lattio_field_desc *d;
    const lattio_layout *l;    /* memory layout, file_order of the dataset */
    int fmt;                   /* file real format */
    uint64_t elements;         /* reals per site in this dataset */
    uint64_t win_first;        /* first of them in each memory site */
    int sum_kind;              /* LATTIO_STAGE_SUM_* */
    int partial;               /* reading a part of the lattice */
    uint32_t no_coll;          /* HDF5 transport: no-collective cause of the last transfer */
    lattio_scidac_sum sum;     /* computed, XOR over ranks */
    lattio_qlua_sum qsum;
    uint64_t rounds;
    int threaded;
} lattio_h5_move;

/* Collective.  Write / read the dataset's bytes (sums in m->sum / qsum on
 * every rank); writing verifies when m->d->verify. */
int lattio_h5_move_write(lattio_h5_move *m, void *local);
int lattio_h5_move_read(lattio_h5_move *m, void *local);

#endif
