/* split.c -- lattio_split: a table of known decompositions, argument errors,
 * and for many (extent, parts) the pieces tile [0, extent) in order with the
 * first extent % parts pieces one site larger. */
#include "testutil.h"

static const struct {
    uint64_t extent, parts, index, lo, count;
} table[] = {
    {10, 3, 0, 0, 4}, {10, 3, 1, 4, 3}, {10, 3, 2, 7, 3},
    {12, 4, 0, 0, 3}, {12, 4, 3, 9, 3},
    {2, 4, 0, 0, 1}, {2, 4, 1, 1, 1}, {2, 4, 2, 2, 0}, {2, 4, 3, 2, 0},
    {0, 3, 0, 0, 0}, {0, 3, 2, 0, 0},
    {1, 1, 0, 0, 1}, {7, 1, 0, 0, 7},
    {5, 2, 0, 0, 3}, {5, 2, 1, 3, 2},
    {(UINT64_C(1) << 40) + 1, 2, 1, (UINT64_C(1) << 39) + 1, UINT64_C(1) << 39},
    {UINT64_MAX, 2, 1, UINT64_C(1) << 63, (UINT64_C(1) << 63) - 1},
    {UINT64_MAX, UINT64_MAX, UINT64_MAX - 1, UINT64_MAX - 1, 1},
};

static void tiling(uint64_t extent, uint64_t parts)
{
    uint64_t next = 0, lo = 0, count = 0;
    for (uint64_t i = 0; i < parts; i++) {
        CHECK_OK(lattio_split(extent, parts, i, &lo, &count));
        CHECK_U64(lo, next);
        /* naive: count = ceil or floor of extent/parts, the larger ones first */
        uint64_t big = (extent + parts - 1) / parts;
        uint64_t nbig = extent - (extent / parts) * parts;
        CHECK_U64(count, i < nbig ? big : extent / parts);
        next = lo + count;
    }
    CHECK_U64(next, extent);
}

int main(void)
{
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
        uint64_t lo = 99, count = 99;
        CHECK_OK(lattio_split(table[k].extent, table[k].parts, table[k].index, &lo, &count));
        CHECK_U64(lo, table[k].lo);
        CHECK_U64(count, table[k].count);
    }
    for (uint64_t e = 0; e < 40; e++)
        for (uint64_t p = 1; p < 12; p++) tiling(e, p);
    uint64_t lo, count;
    CHECK_STATUS(lattio_split(10, 0, 0, &lo, &count), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_split(10, 3, 3, &lo, &count), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_split(10, 3, 0, NULL, &count), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_split(10, 3, 0, &lo, NULL), LATTIO_ERR_ARG);
    return test_finish();
}
