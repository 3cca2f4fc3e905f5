/* partial_strategies.c -- a lattice written in several partial calls
 * (lattio_lattice_write_part, as the field layer's staging rounds do) gives
 * the same bytes under every strategy: a strategy that writes whole file
 * windows must not overwrite what an earlier call wrote.  Each rank owns an
 * x,y block (pieces of a few sites); call k writes the sites with t = k.
 * The file is compared with an image computed here, byte by byte, and each
 * slice is read back with lattio_lattice_read_part under the same strategy. */
#include "mpitest.h"

#include <lattio.h>
#include <stdlib.h>
#include <string.h>

enum { NX = 8, NY = 6, NZ = 2, NT = 4, SITE = 24 };

/* The byte of site (x,y,z,t) at position b: file order t z y x. */
static unsigned char site_byte(uint64_t x, uint64_t y, uint64_t z, uint64_t t, int b)
{
    return (unsigned char)(x * 7 + y * 13 + z * 29 + t * 53 + (uint64_t)b * 3 + 1);
}

/* This rank's x,y block of the lattice, restricted to time slice t. */
static void slice_layout(int t, lattio_layout *l)
{
    int dims[2] = {0, 0};
    MPI_Dims_create(mpitest_size, 2, dims);
    uint64_t global[4] = {NX, NY, NZ, NT}, lo[4] = {0, 0, 0, (uint64_t)t}, count[4] = {0, 0, NZ, 1};
    lattio_split(NX, (uint64_t)dims[0], (uint64_t)(mpitest_rank % dims[0]), &lo[0], &count[0]);
    lattio_split(NY, (uint64_t)dims[1], (uint64_t)(mpitest_rank / dims[0]), &lo[1], &count[1]);
    CHECK_OK(lattio_layout_init(l, 4, global, lo, count, SITE));
    for (int d = 0; d < 4; d++) l->file_order[d] = l->mem_order[d] = 3 - d; /* t z y x, x fastest */
}

/* Fill the local buffer of layout l (memory order x fastest). */
static unsigned char *fill(const lattio_layout *l)
{
    uint64_t n = lattio_layout_local_sites(l);
    unsigned char *buf = malloc(n * SITE + 1), *p = buf;
    for (uint64_t t = l->lo[3]; t < l->lo[3] + l->count[3]; t++)
        for (uint64_t z = l->lo[2]; z < l->lo[2] + l->count[2]; z++)
            for (uint64_t y = l->lo[1]; y < l->lo[1] + l->count[1]; y++)
                for (uint64_t x = l->lo[0]; x < l->lo[0] + l->count[0]; x++, p += SITE)
                    for (int b = 0; b < SITE; b++) p[b] = site_byte(x, y, z, t, b);
    return buf;
}

static void write_all_slices(const char *path, int strategy)
{
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = strategy;
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, &opt, &f));
    CHECK_OK(lattio_record_begin(f, "partial-lattice", (uint64_t)NX * NY * NZ * NT * SITE, 1, 1));
    for (int t = 0; t < NT; t++) {
        lattio_layout l;
        slice_layout(t, &l);
        unsigned char *buf = fill(&l);
        CHECK_OK(lattio_lattice_write_part(f, &l, 0, buf));
        free(buf);
    }
    CHECK_OK(lattio_record_end(f, 0));
    CHECK_OK(lattio_close(f));
}

/* Rank 0: the payload on disk equals the image. */
static void check_file(const char *path, int strategy)
{
    if (mpitest_rank != 0) return;
    lattio_lime_reader *r = NULL;
    lattio_record_info info;
    CHECK_OK(lattio_lime_reader_open(path, &r));
    CHECK_OK(lattio_lime_reader_next(r, &info));
    unsigned char *got = malloc(info.length);
    CHECK_OK(lattio_lime_reader_read_at(r, 0, got, info.length));
    uint64_t bad = 0, i = 0;
    for (uint64_t t = 0; t < NT; t++)
        for (uint64_t z = 0; z < NZ; z++)
            for (uint64_t y = 0; y < NY; y++)
                for (uint64_t x = 0; x < NX; x++)
                    for (int b = 0; b < SITE; b++) bad += got[i++] != site_byte(x, y, z, t, b);
    if (bad) fprintf(stderr, "strategy %d: %llu bytes differ\n", strategy, (unsigned long long)bad);
    CHECK(bad == 0);
    free(got);
    lattio_lime_reader_close(r);
}

static void read_slices(const char *path, int strategy)
{
    lattio_file *f = mpitest_open_first(path, strategy);
    for (int t = NT - 1; t >= 0; t--) {
        lattio_layout l;
        slice_layout(t, &l);
        unsigned char *want = fill(&l), *got = calloc(lattio_layout_local_sites(&l) * SITE + 1, 1);
        CHECK_OK(lattio_lattice_read_part(f, &l, 0, got));
        CHECK(memcmp(got, want, lattio_layout_local_sites(&l) * SITE) == 0);
        free(want);
        free(got);
    }
    CHECK_OK(lattio_close(f));
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    const int strategies[] = {LATTIO_STRATEGY_AUTO, LATTIO_STRATEGY_INDEPENDENT, LATTIO_STRATEGY_COLLECTIVE,
                              LATTIO_STRATEGY_AGGREGATE, LATTIO_STRATEGY_SERIAL, LATTIO_STRATEGY_MAPPED};
    for (size_t i = 0; i < sizeof strategies / sizeof strategies[0]; i++) {
        char path[64];
        snprintf(path, sizeof path, "partial-%d.lime", strategies[i]);
        write_all_slices(path, strategies[i]);
        check_file(path, strategies[i]);
        read_slices(path, strategies[i]);
    }
    return mpitest_finish();
}
