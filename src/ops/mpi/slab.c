/* slab.c -- the layout the operations read and write whole files with:
 * this rank's slab of the slowest dimension. */
#include "lattio.h"

#include <string.h>

int lattio_layout_slab(MPI_Comm comm, int nd, const uint64_t *dims, uint64_t elements, lattio_layout *l)
{
    int rank = 0, size = 1;
    if (!dims || !l || nd < 1 || nd > LATTIO_MAX_DIMS) return LATTIO_ERR_ARG;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return LATTIO_ERR_MPI;
    uint64_t lo[LATTIO_MAX_DIMS] = {0}, count[LATTIO_MAX_DIMS];
    memcpy(count, dims, (size_t)nd * sizeof *dims);
    int rc = lattio_split(dims[nd - 1], (uint64_t)size, (uint64_t)rank, &lo[nd - 1], &count[nd - 1]);
    if (rc == LATTIO_OK) rc = lattio_layout_init(l, nd, dims, lo, count, elements * 8);
    for (int d = 0; rc == LATTIO_OK && d < nd; d++) l->file_order[d] = l->mem_order[d] = nd - 1 - d;
    return rc == LATTIO_OK ? lattio_layout_check(l) : rc;
}
