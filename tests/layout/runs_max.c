/* runs_max.c -- lattio_layout_runs stores at most `max` runs, reports the
 * total, and leaves runs[max..] untouched; max 0 with runs NULL just counts. */
#include "testutil.h"

int main(void)
{
    /* 6x5 lattice, box x in [1, 4), all y: identity order, x slowest, so
     * with y fastest the box is one contiguous run of 3*5 sites ... */
    const uint64_t g[2] = {6, 5}, lo[2] = {1, 0}, count[2] = {3, 5};
    lattio_layout l;
    CHECK_OK(lattio_layout_init(&l, 2, g, lo, count, 2));
    lattio_run runs[8];
    size_t nruns = 0;
    CHECK_OK(lattio_layout_runs(&l, 0, 15, runs, 8, &nruns));
    CHECK_INT(nruns, 1);
    /* ... and with x fastest in the file, 5 runs of 3 sites */
    l.file_order[0] = 1, l.file_order[1] = 0;
    lattio_run all[8];
    CHECK_OK(lattio_layout_runs(&l, 0, 15, all, 8, &nruns));
    CHECK_INT(nruns, 5);
    for (int j = 0; j < 5; j++) {
        CHECK_U64(all[j].file_offset, (1 + 6 * (uint64_t)j) * 2);
        CHECK_U64(all[j].bytes, 6);
    }
    memset(runs, 0xEE, sizeof runs);
    CHECK_OK(lattio_layout_runs(&l, 0, 15, runs, 2, &nruns));
    CHECK_INT(nruns, 5);
    CHECK(memcmp(runs, all, 2 * sizeof runs[0]) == 0);
    CHECK_U64(runs[2].file_offset, UINT64_C(0xEEEEEEEEEEEEEEEE));
    nruns = 77;
    CHECK_OK(lattio_layout_runs(&l, 4, 7, NULL, 0, &nruns));
    CHECK_INT(nruns, 3); /* sites 4..10: rows 1 (4,5), 2 (6..8), 3 (9,10) */
    CHECK_STATUS(lattio_layout_runs(&l, 0, 15, NULL, 3, &nruns), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_layout_runs(&l, 0, 15, runs, 3, NULL), LATTIO_ERR_ARG);
    return test_finish();
}
