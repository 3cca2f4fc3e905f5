/* xsplit.h -- the fine split of the mapped-strategy tests: a 3-D lattice
 * (extents Z, Y, X; x fastest in the file) split over the ranks in x only,
 * so every rank's file runs are a few sites long, and every site's bytes
 * a function of its global index. */
#ifndef LATTIO_TEST_XSPLIT_H
#define LATTIO_TEST_XSPLIT_H

#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

static inline unsigned char xs_byte(uint64_t site, unsigned k) { return (unsigned char)(site * 131u + k * 7u + 1u); }

static inline void xs_layout(lattio_layout *l, uint64_t z, uint64_t y, uint64_t x, size_t site)
{
    const uint64_t g[3] = {z, y, x};
    uint64_t lo[3] = {0, 0, 0}, cnt[3] = {z, y, 0};
    CHECK_OK(lattio_split(x, (uint64_t)mpitest_size, (uint64_t)mpitest_rank, &lo[2], &cnt[2]));
    CHECK_OK(lattio_layout_init(l, 3, g, lo, cnt, site));
}

/* This rank's sites of l, in its box's order, into buf. */
static inline void xs_fill(const lattio_layout *l, unsigned char *buf)
{
    const size_t sb = l->site_bytes;
    size_t p = 0;
    for (uint64_t z = 0; z < l->count[0]; z++)
        for (uint64_t y = 0; y < l->count[1]; y++)
            for (uint64_t x = 0; x < l->count[2]; x++, p += sb) {
                const uint64_t site = ((l->lo[0] + z) * l->global[1] + l->lo[1] + y) * l->global[2] + l->lo[2] + x;
                for (unsigned k = 0; k < sb; k++) buf[p + k] = xs_byte(site, k);
            }
}

/* The MPI-IO calls made in a test's PMPI wrappers while xs_counting is
 * set. */
static int xs_counting;
static long xs_io_calls;

/* The MPI-IO calls of all ranks during one lattice read of `path` (its
 * first record, the lattice at payload offset `off`) with `strategy`, the
 * bytes checked against `want`; before(ctx), when given, runs after the
 * open (which reads the record index) and just before the read. */
static inline long xs_read_counted(const char *path, int strategy, const lattio_layout *l, uint64_t off,
                                   const unsigned char *want, void (*before)(void *), void *ctx)
{
    const size_t n = (size_t)lattio_layout_local_sites(l) * l->site_bytes;
    unsigned char *got = calloc(n ? n : 1, 1);
    lattio_file *f = mpitest_open_first(path, strategy);
    if (before) before(ctx);
    xs_io_calls = 0;
    xs_counting = 1;
    CHECK_OK(lattio_lattice_read(f, l, off, got));
    xs_counting = 0;
    CHECK_OK(lattio_close(f));
    CHECK(got && memcmp(got, want, n) == 0);
    free(got);
    long all = 0;
    MPI_Allreduce(&xs_io_calls, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    return all;
}

#endif
