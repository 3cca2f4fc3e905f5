/* big_lattice.c -- 64-bit sizes without allocating: a 2^20 x 2^20 x 2^12
 * lattice of 576-byte sites (2^52 sites, 2.6e18 bytes) is valid, its site
 * counts, file ranks and run offsets are exact; layouts whose sites or bytes
 * exceed 2^64 are ERR_OVERFLOW. */
#include "testutil.h"

#define P2(n) (UINT64_C(1) << (n))

static void huge_ok(void)
{
    const uint64_t g[3] = {P2(20), P2(20), P2(12)}, zero[3] = {0, 0, 0};
    lattio_layout l;
    CHECK_OK(lattio_layout_init(&l, 3, g, zero, g, 576));
    CHECK_U64(lattio_layout_global_sites(&l), P2(52));
    CHECK_U64(lattio_layout_local_sites(&l), P2(52));
    const uint64_t last[3] = {P2(20) - 1, P2(20) - 1, P2(12) - 1};
    CHECK_U64(lattio_layout_file_rank(&l, last), P2(52) - 1);
    l.file_order[0] = 2, l.file_order[1] = 1, l.file_order[2] = 0; /* z slowest, x fastest */
    CHECK_OK(lattio_layout_check(&l));
    CHECK_U64(lattio_layout_file_rank(&l, last), P2(52) - 1);
    const uint64_t c[3] = {5, 7, 9};
    CHECK_U64(lattio_layout_file_rank(&l, c), 5 + P2(20) * (7 + P2(20) * 9));
    lattio_run run;
    size_t nruns;
    CHECK_OK(lattio_layout_runs(&l, 0, P2(52), &run, 1, &nruns));
    CHECK_INT(nruns, 1);
    CHECK_U64(run.bytes, P2(52) * 576);
}

/* Rank 2 of 3 along x (the fastest file dimension): x in [699051, 2^20). */
static void huge_x_split(void)
{
    const uint64_t g[3] = {P2(20), P2(20), P2(12)}, zero[3] = {0, 0, 0};
    lattio_layout l;
    CHECK_OK(lattio_layout_init(&l, 3, g, zero, g, 576));
    CHECK_OK(lattio_split(g[0], 3, 2, &l.lo[0], &l.count[0]));
    CHECK_U64(l.lo[0], 699051);
    l.file_order[0] = 2, l.file_order[1] = 1, l.file_order[2] = 0;
    CHECK_OK(lattio_layout_check(&l));
    const uint64_t local = 349525 * P2(32), row = 349525;
    CHECK_U64(lattio_layout_local_sites(&l), local);
    lattio_run runs[4];
    size_t nruns;
    CHECK_OK(lattio_layout_runs(&l, local - 5, 5, runs, 4, &nruns));
    CHECK_INT(nruns, 1);
    const uint64_t r = (P2(20) - 5) + P2(20) * ((P2(20) - 1) + P2(20) * (P2(12) - 1));
    CHECK_U64(runs[0].file_offset, r * 576);
    CHECK_U64(runs[0].bytes, 5 * 576);
    CHECK_OK(lattio_layout_runs(&l, row - 2, 4, runs, 4, &nruns));
    CHECK_INT(nruns, 2);
    CHECK_U64(runs[0].file_offset, (P2(20) - 2) * 576);
    CHECK_U64(runs[1].file_offset, (699051 + P2(20)) * 576);
    CHECK_U64(runs[1].packed_offset, 2 * 576);
    CHECK_OK(lattio_layout_runs(&l, 0, local, NULL, 0, &nruns));
    CHECK_U64(nruns, P2(32));
}

static void overflow(void)
{
    const uint64_t g60[3] = {P2(20), P2(20), P2(20)}, one[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    const uint64_t zero[8] = {0};
    lattio_layout l;
    CHECK_STATUS(lattio_layout_init(&l, 3, g60, zero, one, 16), LATTIO_ERR_OVERFLOW);
    CHECK_OK(lattio_layout_init(&l, 3, g60, zero, one, 15));
    l.site_bytes = 16;
    CHECK_STATUS(lattio_layout_check(&l), LATTIO_ERR_OVERFLOW);
    const uint64_t g64[2] = {P2(32), P2(32)};
    CHECK_STATUS(lattio_layout_init(&l, 2, g64, zero, one, 1), LATTIO_ERR_OVERFLOW);
    CHECK_U64(lattio_layout_global_sites(&l), UINT64_MAX);
    uint64_t g8[8] = {256, 256, 256, 256, 256, 256, 256, 128};
    CHECK_OK(lattio_layout_init(&l, 8, g8, zero, one, 1));
    CHECK_U64(lattio_layout_global_sites(&l), P2(63));
    l.site_bytes = 2;
    CHECK_STATUS(lattio_layout_check(&l), LATTIO_ERR_OVERFLOW);
    g8[7] = 256;
    CHECK_STATUS(lattio_layout_init(&l, 8, g8, zero, one, 1), LATTIO_ERR_OVERFLOW);
}

static void buffer_overflow(void)
{
    const uint64_t g[2] = {8, 8}, zero[2] = {0, 0}, n[2] = {4, 4};
    lattio_layout l;
    CHECK_OK(lattio_layout_init(&l, 2, g, zero, n, 8));
    l.halo_hi[0] = P2(30), l.halo_hi[1] = P2(30);
    CHECK_OK(lattio_layout_check(&l)); /* about 2^60 sites * 8 bytes fits */
    CHECK_U64(lattio_layout_buffer_sites(&l), (P2(30) + 4) * (P2(30) + 4));
    l.halo_lo[0] = P2(62);
    CHECK_STATUS(lattio_layout_check(&l), LATTIO_ERR_OVERFLOW);
    CHECK_U64(lattio_layout_buffer_sites(&l), UINT64_MAX);
    l.halo_lo[0] = 0;
    l.halo_hi[0] = P2(30) - 4, l.halo_hi[1] = P2(30) - 4; /* 2^60 sites * 16 = 2^64 */
    l.site_bytes = 16;
    CHECK_STATUS(lattio_layout_check(&l), LATTIO_ERR_OVERFLOW);
    l.site_bytes = 15;
    CHECK_OK(lattio_layout_check(&l));
    l.halo_lo[1] = UINT64_MAX - 2; /* count + halos wraps */
    CHECK_STATUS(lattio_layout_check(&l), LATTIO_ERR_OVERFLOW);
    l.halo_lo[1] = 0, l.halo_hi[1] = UINT64_MAX;
    CHECK_STATUS(lattio_layout_check(&l), LATTIO_ERR_OVERFLOW);
}

int main(void)
{
    huge_ok();
    huge_x_split();
    overflow();
    buffer_overflow();
    return test_finish();
}
