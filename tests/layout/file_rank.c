/* file_rank.c -- ILDG/SciDAC site rank r = x + Lx*(y + Ly*(z + Lz*t)) for a
 * lattice given in (x, y, z, t) order with file order t, z, y, x, on 4^4 and
 * 3x5x2x7; plus an identity order (x slowest) and a 1-D lattice. */
#include "testutil.h"

static void ildg(uint64_t lx, uint64_t ly, uint64_t lz, uint64_t lt)
{
    const uint64_t global[4] = {lx, ly, lz, lt}, zero[4] = {0, 0, 0, 0};
    lattio_layout l;
    CHECK_OK(lattio_layout_init(&l, 4, global, zero, global, 16));
    const int tzyx[4] = {3, 2, 1, 0};
    memcpy(l.file_order, tzyx, sizeof tzyx);
    CHECK_OK(lattio_layout_check(&l));
    unsigned char *seen = calloc(lx * ly * lz * lt, 1);
    for (uint64_t t = 0; t < lt; t++)
        for (uint64_t z = 0; z < lz; z++)
            for (uint64_t y = 0; y < ly; y++)
                for (uint64_t x = 0; x < lx; x++) {
                    const uint64_t c[4] = {x, y, z, t};
                    const uint64_t r = x + lx * (y + ly * (z + lz * t));
                    CHECK_U64(lattio_layout_file_rank(&l, c), r);
                    seen[r]++;
                }
    for (uint64_t r = 0; r < lx * ly * lz * lt; r++) CHECK_INT(seen[r], 1);
    free(seen);
    /* identity order: x slowest, t fastest */
    l.file_order[0] = 0, l.file_order[1] = 1, l.file_order[2] = 2, l.file_order[3] = 3;
    const uint64_t c[4] = {lx - 1, 1 % ly, 0, lt - 1};
    CHECK_U64(lattio_layout_file_rank(&l, c), (lt - 1) + lt * (0 + lz * ((1 % ly) + ly * (lx - 1))));
}

int main(void)
{
    ildg(4, 4, 4, 4);
    ildg(3, 5, 2, 7);
    const uint64_t g = 11, zero = 0;
    lattio_layout l;
    CHECK_OK(lattio_layout_init(&l, 1, &g, &zero, &g, 1));
    for (uint64_t x = 0; x < g; x++) CHECK_U64(lattio_layout_file_rank(&l, &x), x);
    CHECK_U64(lattio_layout_file_rank(NULL, &zero), UINT64_MAX);
    CHECK_U64(lattio_layout_file_rank(&l, NULL), UINT64_MAX);
    return test_finish();
}
