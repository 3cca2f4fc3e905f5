/* empty_rank.c -- a rank that owns nothing (count 0 in one dimension) is a
 * valid layout with 0 local sites: pack, unpack and runs of n = 0 succeed and
 * touch nothing, any first/n beyond the local sites is ERR_ARG (also for
 * ranges whose end would wrap around 2^64). */
#include "testutil.h"

int main(void)
{
    const uint64_t g[3] = {4, 6, 5}, lo[3] = {4, 0, 2}, count[3] = {0, 6, 3};
    lattio_layout l;
    CHECK_OK(lattio_layout_init(&l, 3, g, lo, count, 8));
    l.halo_lo[1] = 1, l.halo_hi[2] = 2;
    CHECK_OK(lattio_layout_check(&l));
    CHECK_U64(lattio_layout_local_sites(&l), 0);
    CHECK_U64(lattio_layout_buffer_sites(&l), 0 * 7 * 5);
    CHECK_U64(lattio_layout_global_sites(&l), 120);
    unsigned char buf[64], packed[64];
    memset(buf, 0x11, sizeof buf);
    memset(packed, 0x22, sizeof packed);
    CHECK_OK(lattio_layout_pack(&l, buf, 0, 0, packed));
    CHECK_OK(lattio_layout_unpack(&l, packed, 0, 0, buf));
    CHECK_OK(lattio_layout_pack(&l, NULL, 0, 0, NULL));
    CHECK(buf[0] == 0x11 && packed[0] == 0x22);
    lattio_run runs[2];
    size_t nruns = 9;
    CHECK_OK(lattio_layout_runs(&l, 0, 0, runs, 2, &nruns));
    CHECK_INT(nruns, 0);
    CHECK_STATUS(lattio_layout_pack(&l, buf, 1, 0, packed), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_layout_pack(&l, buf, 0, 1, packed), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_layout_unpack(&l, packed, 0, 1, buf), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_layout_runs(&l, 0, 1, runs, 2, &nruns), LATTIO_ERR_ARG);

    /* a rank with 2*6*3 = 36 sites */
    l.lo[0] = 1, l.count[0] = 2;
    l.halo_lo[1] = 0, l.halo_hi[2] = 0;
    CHECK_OK(lattio_layout_check(&l));
    CHECK_U64(lattio_layout_local_sites(&l), 36);
    static unsigned char big[36 * 8];
    CHECK_OK(lattio_layout_pack(&l, big, 36, 0, packed));
    CHECK_OK(lattio_layout_runs(&l, 36, 0, runs, 2, &nruns));
    CHECK_INT(nruns, 0);
    CHECK_STATUS(lattio_layout_pack(&l, big, 37, 0, packed), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_layout_pack(&l, big, 30, 7, packed), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_layout_unpack(&l, packed, UINT64_MAX, 2, big), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_layout_runs(&l, 2, UINT64_MAX - 1, runs, 2, &nruns), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_layout_pack(&l, NULL, 0, 1, packed), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_layout_unpack(&l, packed, 0, 1, NULL), LATTIO_ERR_ARG);
    return test_finish();
}
