/* slab.c -- the layout the operations read and write whole files with:
 * this rank's slab of the slowest dimension. */
#include "lattio.h"

int lattio_layout_slab(MPI_Comm comm, int nd, const uint64_t *dims, uint64_t elements, lattio_layout *l)
{
    int rank = 0, size = 1;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return LATTIO_ERR_MPI;
    return lattio_layout_slab_of(nd, dims, elements, (uint64_t)size, (uint64_t)rank, l);
}
