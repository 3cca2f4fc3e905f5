/* runs_merge.c -- file runs are maximal: a full box is one run whatever the
 * memory order and halos, a t-slab decomposition of a 4-D lattice in ILDG
 * order is one run per rank, a split in x gives one run per (t, z, y) row,
 * a split in y one per (t, z), a box one site wide in x one run per site,
 * and sub-ranges that start and end inside rows count their partial rows.
 * Offsets are checked against x + Lx*(y + Ly*(z + Lz*t)). */
#include "testutil.h"

enum { LX = 4, LY = 4, LZ = 4, LT = 8, SB = 24, MAXR = 1024 };
static const uint64_t G[4] = {LX, LY, LZ, LT};

static uint64_t rank_of(uint64_t x, uint64_t y, uint64_t z, uint64_t t)
{
    return x + LX * (y + LY * (z + LZ * t));
}

static void ildg_layout(lattio_layout *l, const uint64_t *lo, const uint64_t *count)
{
    CHECK_OK(lattio_layout_init(l, 4, G, lo, count, SB));
    const int tzyx[4] = {3, 2, 1, 0};
    memcpy(l->file_order, tzyx, sizeof tzyx);
    CHECK_OK(lattio_layout_check(l));
}

static size_t runs_of(const lattio_layout *l, uint64_t first, uint64_t n, lattio_run *runs)
{
    size_t nruns = 0;
    CHECK_OK(lattio_layout_runs(l, first, n, runs, MAXR, &nruns));
    return nruns;
}

static void full_box(void)
{
    static lattio_run runs[MAXR];
    const uint64_t zero[4] = {0};
    lattio_layout l;
    ildg_layout(&l, zero, G);
    const int mem[4] = {1, 3, 0, 2};
    memcpy(l.mem_order, mem, sizeof mem);
    l.halo_lo[1] = 2, l.halo_hi[3] = 1;
    CHECK_INT(runs_of(&l, 0, LX * LY * LZ * LT, runs), 1);
    CHECK_U64(runs[0].file_offset, 0);
    CHECK_U64(runs[0].bytes, (uint64_t)LX * LY * LZ * LT * SB);
}

static void t_slabs(void)
{
    static lattio_run runs[MAXR];
    for (uint64_t r = 0; r < 4; r++) {
        const uint64_t lo[4] = {0, 0, 0, 2 * r}, count[4] = {LX, LY, LZ, 2};
        lattio_layout l;
        ildg_layout(&l, lo, count);
        CHECK_INT(runs_of(&l, 0, 2 * LX * LY * LZ, runs), 1);
        CHECK_U64(runs[0].file_offset, rank_of(0, 0, 0, 2 * r) * SB);
        CHECK_U64(runs[0].bytes, 2 * LX * LY * LZ * SB);
        CHECK_U64(runs[0].packed_offset, 0);
    }
}

static void x_split(void)
{
    static lattio_run runs[MAXR];
    const uint64_t lo[4] = {2, 0, 0, 0}, count[4] = {2, LY, LZ, LT};
    lattio_layout l;
    ildg_layout(&l, lo, count);
    CHECK_INT(runs_of(&l, 0, 2 * LY * LZ * LT, runs), LY * LZ * LT);
    size_t j = 0;
    for (uint64_t t = 0; t < LT; t++)
        for (uint64_t z = 0; z < LZ; z++)
            for (uint64_t y = 0; y < LY; y++, j++) {
                CHECK_U64(runs[j].file_offset, rank_of(2, y, z, t) * SB);
                CHECK_U64(runs[j].bytes, 2 * SB);
                CHECK_U64(runs[j].packed_offset, 2 * j * SB);
            }
    /* sites 1 .. 4: half a row, a row, half a row */
    CHECK_INT(runs_of(&l, 1, 4, runs), 3);
    CHECK_U64(runs[0].file_offset, rank_of(3, 0, 0, 0) * SB);
    CHECK_U64(runs[1].file_offset, rank_of(2, 1, 0, 0) * SB);
    CHECK_U64(runs[2].file_offset, rank_of(2, 2, 0, 0) * SB);
    CHECK_U64(runs[2].bytes, SB);
    CHECK_U64(runs[2].packed_offset, 3 * SB);
}

static void y_split_and_thin_x(void)
{
    static lattio_run runs[MAXR];
    const uint64_t lo[4] = {0, 1, 0, 0}, count[4] = {LX, 2, LZ, LT};
    lattio_layout l;
    ildg_layout(&l, lo, count);
    CHECK_INT(runs_of(&l, 0, LX * 2 * LZ * LT, runs), LZ * LT);
    CHECK_U64(runs[5].file_offset, rank_of(0, 1, 1, 1) * SB);
    CHECK_U64(runs[5].bytes, 2 * LX * SB);
    const uint64_t lo2[4] = {3, 0, 0, 0}, count2[4] = {1, LY, LZ, LT};
    ildg_layout(&l, lo2, count2);
    CHECK_INT(runs_of(&l, 0, LY * LZ * LT, runs), LY * LZ * LT);
    CHECK_U64(runs[LY * LZ * LT - 1].file_offset, rank_of(3, LY - 1, LZ - 1, LT - 1) * SB);
    /* x of extent 1 in the lattice itself: t-slab again one run */
    const uint64_t g1[4] = {1, LY, LZ, LT}, lo3[4] = {0, 0, 0, 3}, count3[4] = {1, LY, LZ, 2};
    CHECK_OK(lattio_layout_init(&l, 4, g1, lo3, count3, SB));
    l.file_order[0] = 3, l.file_order[1] = 2, l.file_order[2] = 1, l.file_order[3] = 0;
    CHECK_INT(runs_of(&l, 0, LY * LZ * 2, runs), 1);
    CHECK_U64(runs[0].file_offset, 3 * LY * LZ * SB);
}

int main(void)
{
    full_box();
    t_slabs();
    x_split();
    y_split_and_thin_x();
    return test_finish();
}
