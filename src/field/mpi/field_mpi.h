/* field_mpi.h -- shared by the parallel field files (field_write.c,
 * field_read.c): the descriptor checks and the stager that joins the
 * MPI-free staging (field_stage.c) to the MPI layer (src/io/xfer.h). */
#ifndef LATTIO_FIELD_MPI_H
#define LATTIO_FIELD_MPI_H

#include "field/field_internal.h"
#include "io/xfer.h"

/* One field transfer's pipeline: the staging of the caller's buffer, the
 * file's view of the same box (file bytes per site, no ghosts) and the
 * stager handed to lattio_xfer_*. */
typedef struct lattio_field_pipe {
    lattio_field_stage st;
    lattio_layout fl;
    lattio_stager s;
} lattio_field_pipe;

/* Local: set up the pipeline of layout l and buffer local (disk format
 * disk_fmt), bounded by the descriptor's staging, timed on f. */
int lattio_field_pipe_init(lattio_field_pipe *p, lattio_file *f, const lattio_field_desc *d,
                           const lattio_layout *l, int disk_fmt, void *local);
void lattio_field_pipe_free(lattio_field_pipe *p);
/* Collective: the XOR of every rank's sum in *sum. */
int lattio_field_xor_sum(MPI_Comm comm, lattio_scidac_sum *sum);
/* Collective: rank 0's string *s (may be NULL) on every rank (a new
 * lattio_malloc'd copy on the others). */
int lattio_field_bcast_string(MPI_Comm comm, int rank, char **s);
/* Local: the caller's layout and descriptor against a stored field that is
 * to be read into them (a lattice field of 32- or 64-bit reals, the
 * layout's extents its dims, d->elements reals per site). */
int lattio_field_check_read(const lattio_field_info *fi, const lattio_field_desc *d, const lattio_layout *l,
                            const void *local);
/* Collective: metadata records set[0..n) (n <= LATTIO_SET_HEAD_MAX) of
 * field fi, their payloads made from fi, in one write (lattio_xfer_records). */
int lattio_field_put_records(lattio_file *f, const lattio_field_info *fi, const lattio_set_record *set, int n);
/* The staging bound of d in bytes. */
uint64_t lattio_field_staging_bound(const lattio_field_desc *d, const lattio_file *f);

#endif
