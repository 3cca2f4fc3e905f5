/* bad_layouts.c -- each malformed layout is refused with its status by
 * lattio_layout_check, and by init / pack / unpack / runs: ndims 0 and 9,
 * orders that are not permutations, boxes outside the lattice, zero extents,
 * site_bytes 0 (ERR_LAYOUT); NULL arguments (ERR_ARG). */
#include "testutil.h"

static lattio_layout good(void)
{
    const uint64_t g[4] = {4, 5, 6, 7}, lo[4] = {1, 0, 2, 3}, n[4] = {2, 5, 3, 4};
    lattio_layout l;
    CHECK_OK(lattio_layout_init(&l, 4, g, lo, n, 8));
    return l;
}

/* Every entry point refuses l with `status`. */
static void refused(const lattio_layout *l, int status, int line)
{
    static unsigned char buf[4096], packed[4096];
    lattio_run runs[4];
    size_t nruns = 5;
    const int before = test_failures_;
    CHECK_STATUS(lattio_layout_check(l), status);
    CHECK_STATUS(lattio_layout_pack(l, buf, 0, 1, packed), status);
    CHECK_STATUS(lattio_layout_unpack(l, packed, 0, 1, buf), status);
    CHECK_STATUS(lattio_layout_runs(l, 0, 1, runs, 4, &nruns), status);
    CHECK_INT(nruns, 0);
    if (test_failures_ != before) fprintf(stderr, "  (case at line %d)\n", line);
}
#define REFUSED(l, status) refused(&(l), (status), __LINE__)

static void orders(void)
{
    lattio_layout l = good();
    l.file_order[1] = 0; /* {0, 0, 2, 3} */
    REFUSED(l, LATTIO_ERR_LAYOUT);
    l = good();
    l.file_order[3] = 4; /* out of range */
    REFUSED(l, LATTIO_ERR_LAYOUT);
    l = good();
    l.mem_order[2] = -1;
    REFUSED(l, LATTIO_ERR_LAYOUT);
    l = good();
    l.mem_order[0] = 3; /* {3, 1, 2, 3} */
    REFUSED(l, LATTIO_ERR_LAYOUT);
    l = good();
    l.file_order[0] = 3, l.file_order[3] = 0, l.mem_order[0] = 1, l.mem_order[1] = 0;
    CHECK_OK(lattio_layout_check(&l)); /* real permutations are fine */
}

static void boxes(void)
{
    lattio_layout l = good();
    l.count[0] = 4; /* lo 1 + 4 > 4 */
    REFUSED(l, LATTIO_ERR_LAYOUT);
    l = good();
    l.lo[1] = 6, l.count[1] = 0; /* empty, but starting beyond the end */
    REFUSED(l, LATTIO_ERR_LAYOUT);
    l = good();
    l.lo[2] = UINT64_MAX - 1, l.count[2] = 4; /* lo + count wraps */
    REFUSED(l, LATTIO_ERR_LAYOUT);
    l = good();
    l.global[3] = 0, l.lo[3] = 0, l.count[3] = 0;
    REFUSED(l, LATTIO_ERR_LAYOUT);
    l = good();
    l.lo[1] = 5, l.count[1] = 0; /* empty at the end: fine */
    CHECK_OK(lattio_layout_check(&l));
}

static void dims_and_sizes(void)
{
    lattio_layout l = good();
    l.ndims = 0;
    REFUSED(l, LATTIO_ERR_LAYOUT);
    l.ndims = 9;
    REFUSED(l, LATTIO_ERR_LAYOUT);
    l.ndims = -3;
    REFUSED(l, LATTIO_ERR_LAYOUT);
    l = good();
    l.site_bytes = 0;
    REFUSED(l, LATTIO_ERR_LAYOUT);
    const uint64_t g[9] = {2, 2, 2, 2, 2, 2, 2, 2, 2}, z[9] = {0};
    CHECK_STATUS(lattio_layout_init(&l, 0, g, z, g, 8), LATTIO_ERR_LAYOUT);
    CHECK_STATUS(lattio_layout_init(&l, 9, g, z, g, 8), LATTIO_ERR_LAYOUT);
    CHECK_OK(lattio_layout_init(&l, 8, g, z, g, 8));
    CHECK_STATUS(lattio_layout_init(&l, 2, g, z, g, 0), LATTIO_ERR_LAYOUT);
    const uint64_t g0[2] = {3, 0};
    CHECK_STATUS(lattio_layout_init(&l, 2, g0, z, z, 8), LATTIO_ERR_LAYOUT);
    const uint64_t lo[2] = {2, 0};
    CHECK_STATUS(lattio_layout_init(&l, 2, g, lo, g, 8), LATTIO_ERR_LAYOUT);
}

static void nulls(void)
{
    const uint64_t g[2] = {2, 2}, z[2] = {0, 0};
    lattio_layout l;
    CHECK_STATUS(lattio_layout_check(NULL), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_layout_init(NULL, 2, g, z, g, 8), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_layout_init(&l, 2, NULL, z, g, 8), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_layout_init(&l, 2, g, NULL, g, 8), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_layout_init(&l, 2, g, z, NULL, 8), LATTIO_ERR_ARG);
    unsigned char b[64];
    CHECK_STATUS(lattio_layout_pack(NULL, b, 0, 1, b), LATTIO_ERR_ARG);
    CHECK_U64(lattio_layout_global_sites(NULL), 0);
    CHECK_U64(lattio_layout_local_sites(NULL), 0);
    CHECK_U64(lattio_layout_buffer_sites(NULL), 0);
}

int main(void)
{
    orders();
    boxes();
    dims_and_sizes();
    nulls();
    return test_finish();
}
