/* cart.c -- a rank's lattice layout from a Cartesian communicator: the
 * lattice is block-split over the process grid, dimension by dimension. */
#include "io_internal.h"

int lattio_layout_from_cart(MPI_Comm cart, const uint64_t *global, size_t site_bytes,
                            lattio_layout *l)
{
    int topo = MPI_UNDEFINED, nd = 0;
    int dims[LATTIO_MAX_DIMS], periods[LATTIO_MAX_DIMS], coords[LATTIO_MAX_DIMS];
    uint64_t lo[LATTIO_MAX_DIMS], count[LATTIO_MAX_DIMS];
    RETURN_IF(!global || !l || cart == MPI_COMM_NULL, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(MPI_CHECK(MPI_Topo_test(cart, &topo), LATTIO_ERR_MPI));
    RETURN_IF(topo != MPI_CART, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(MPI_CHECK(MPI_Cartdim_get(cart, &nd), LATTIO_ERR_MPI));
    RETURN_IF(nd < 1 || nd > LATTIO_MAX_DIMS, LATTIO_ERR_LAYOUT);
    RETURN_IF_ERROR(MPI_CHECK(MPI_Cart_get(cart, nd, dims, periods, coords), LATTIO_ERR_MPI));
    for (int d = 0; d < nd; d++) {
        RETURN_IF(dims[d] < 1 || coords[d] < 0 || coords[d] >= dims[d], LATTIO_ERR_MPI);
        RETURN_IF_ERROR(lattio_split(global[d], (uint64_t)dims[d], (uint64_t)coords[d], &lo[d],
                                     &count[d]));
    }
    return lattio_layout_init(l, nd, global, lo, count, site_bytes);
}
