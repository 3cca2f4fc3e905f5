/* volumes_mpi.h -- shared by the parallel volume files (read.c, write.c):
 * the lattice in file order and the ranks' boxes.  Like every parallel
 * field, the volume sets reach the MPI layer only through its door
 * (io/xfer.h): the bytes of a volume written by lattio_xfer_write, the
 * sites read by the serial LIME reader delivered by lattio_xfer_route. */
#ifndef LATTIO_VOLUMES_MPI_H
#define LATTIO_VOLUMES_MPI_H

#include "field/mpi/field_mpi.h"
#include "volumes/volumes_internal.h"

/* A box of the lattice in file order (dimension 0 slowest, as the file
 * ranks sites): the global extents, its lower corner and extents. */
typedef struct lattio_vbox {
    int nd;
    uint64_t global[LATTIO_MAX_DIMS], lo[LATTIO_MAX_DIMS], n[LATTIO_MAX_DIMS];
} lattio_vbox;

/* Local: the layout's box in file order. */
void lattio_vbox_of(const lattio_layout *l, lattio_vbox *b);
/* Local: its sites. */
uint64_t lattio_vbox_sites(const lattio_vbox *b);
/* Local: file rank of the box's i-th site (lexicographic in file order:
 * increasing rank, as lattio_layout_pack numbers a rank's sites). */
uint64_t lattio_vbox_rank(const lattio_vbox *b, uint64_t i);
/* Local: index in box (lo, n) of b's lattice of the site of file rank r;
 * UINT64_MAX outside. */
uint64_t lattio_vbox_index(const lattio_vbox *b, const uint64_t *lo, const uint64_t *n, uint64_t r);

/* Collective over comm: every rank's box (lo[], n[] in file order,
 * LATTIO_VBOX_VALUES values each, rank r's at r * LATTIO_VBOX_VALUES);
 * ERR_LAYOUT when boxes overlap.  *tile: they cover the lattice. */
#define LATTIO_VBOX_VALUES (2 * LATTIO_MAX_DIMS)
int lattio_vbox_share(MPI_Comm comm, const lattio_vbox *b, uint64_t **boxes, int *tile);

#endif
