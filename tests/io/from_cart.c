/* from_cart.c -- lattio_layout_from_cart against an independent block
 * split: uneven extents (10 over 3 gives 4, 3, 3), 1-D, 4-D, 5-D and 8-D
 * communicators (Lemon crashed beyond 4), every rank's box tiling the
 * lattice exactly once; a non-Cartesian communicator is ERR_ARG, a 9-D one
 * ERR_LAYOUT, on every rank. */
#include "mpitest.h"

/* Part p of extent e over n parts: the first e % n parts one larger. */
static void block(uint64_t e, uint64_t n, uint64_t p, uint64_t *lo, uint64_t *cnt)
{
    uint64_t lo_ = 0;
    for (uint64_t q = 0; q < p; q++) lo_ += e / n + (q < e % n);
    *lo = lo_;
    *cnt = e / n + (p < e % n);
}

static void check_cart(int nd, const uint64_t *global, int first_dim_all)
{
    int dims[LATTIO_MAX_DIMS] = {0}, periods[LATTIO_MAX_DIMS] = {0}, coords[LATTIO_MAX_DIMS];
    if (first_dim_all) { /* every rank along dimension 0: 10 over 3, 4 over 4, ... */
        for (int d = 0; d < nd; d++) dims[d] = 1;
        dims[0] = mpitest_size;
    } else {
        MPI_Dims_create(mpitest_size, nd, dims);
    }
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, 1, &cart);
    int me;
    MPI_Comm_rank(cart, &me);
    MPI_Cart_coords(cart, me, nd, coords);
    lattio_layout l;
    CHECK_OK(lattio_layout_from_cart(cart, global, 24, &l));
    CHECK_INT(l.ndims, nd);
    CHECK_INT(l.site_bytes, 24);
    uint64_t sites = 1, total = 0, all = 1;
    for (int d = 0; d < nd; d++) {
        uint64_t lo, cnt;
        block(global[d], (uint64_t)dims[d], (uint64_t)coords[d], &lo, &cnt);
        CHECK_U64(l.global[d], global[d]);
        CHECK_U64(l.lo[d], lo);
        CHECK_U64(l.count[d], cnt);
        CHECK_U64(l.halo_lo[d] + l.halo_hi[d], 0);
        CHECK_INT(l.file_order[d], d);
        CHECK_INT(l.mem_order[d], d);
        sites *= cnt;
        all *= global[d];
    }
    MPI_Allreduce(&sites, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    CHECK_U64(total, all);
    MPI_Comm_free(&cart);
}

static void not_cartesian(void)
{
    lattio_layout l;
    static const uint64_t g[9] = {4, 4, 4, 4, 2, 2, 2, 2, 2};
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    CHECK_STATUS(lattio_layout_from_cart(dup, g, 8, &l), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_layout_from_cart(MPI_COMM_WORLD, g, 8, &l), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_layout_from_cart(MPI_COMM_NULL, g, 8, &l), LATTIO_ERR_ARG);
    MPI_Comm_free(&dup);
    int dims[9] = {0}, periods[9] = {0};
    MPI_Comm cart;
    MPI_Dims_create(mpitest_size, 9, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 9, dims, periods, 0, &cart);
    CHECK_STATUS(lattio_layout_from_cart(cart, g, 8, &l), LATTIO_ERR_LAYOUT);
    CHECK_STATUS(lattio_layout_from_cart(cart, NULL, 8, &l), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_layout_from_cart(cart, g, 0, &l), LATTIO_ERR_LAYOUT);
    MPI_Comm_free(&cart);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    static const uint64_t g1[1] = {10};
    static const uint64_t g4[4] = {10, 7, 5, 3};
    static const uint64_t g5[5] = {10, 3, 5, 7, 2};
    static const uint64_t g8[8] = {5, 3, 3, 2, 3, 2, 1, 7};
    check_cart(1, g1, 1);
    check_cart(4, g4, 1);
    check_cart(4, g4, 0);
    check_cart(5, g5, 0);
    check_cart(8, g8, 0);
    check_cart(8, g8, 1);
    not_cartesian();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
