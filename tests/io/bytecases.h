/* bytecases.h -- the lattice cases of the strategy byte tests
 * (collective_bytes.c, aggregate_bytes.c, strategy_bytes.c): a sim.h case
 * built from a lattice, a split over all ranks and an order mode, and each
 * rank's layout of it. */
#ifndef LATTIO_TEST_BYTECASES_H
#define LATTIO_TEST_BYTECASES_H

#include "mpitest.h"
#include "../layout/sim.h"

enum bc_split {
    BC_SLOWEST, /* the slowest file dimension */
    BC_FASTEST, /* the fastest file dimension */
    BC_SPREAD,  /* prime factors of the rank count over the dims, fastest first */
    BC_RANDOM,  /* the slowest file dimension, random (possibly empty) cuts */
    BC_EMPTY,   /* the slowest file dimension; the last rank owns nothing */
    BC_XY       /* prime factors over the two fastest file dimensions */
};

/* The lattices of collective_bytes.c and aggregate_bytes.c: 1-D..4-D,
 * splits of the slowest, the fastest and several dimensions, uneven and
 * random (possibly empty) pieces, identity/Lemon/ILDG orders, sites of 1, 72
 * and 576 bytes; the last one is large. */
typedef struct bc_case {
    int nd;
    uint64_t global[4];
    int split; /* enum bc_split */
    int mode;  /* sim.h order mode: 0 identity, 1 Lemon, 4 ILDG */
    size_t site_bytes;
} bc_case;

static const bc_case bc_mixed[] = {
    {1, {13}, BC_SLOWEST, 0, 72},          {1, {13}, BC_RANDOM, 0, 1},
    {2, {5, 6}, BC_FASTEST, 0, 576},       {2, {5, 6}, BC_SPREAD, 1, 1},
    {3, {3, 4, 5}, BC_SPREAD, 4, 72},      {4, {6, 3, 4, 5}, BC_SLOWEST, 4, 72},
    {4, {6, 3, 4, 5}, BC_FASTEST, 4, 1},   {4, {6, 3, 4, 5}, BC_SPREAD, 1, 576},
    {4, {6, 3, 4, 5}, BC_RANDOM, 4, 72},   {4, {8, 8, 8, 16}, BC_SPREAD, 4, 72},
};

/* Lattice global[0..nd) with sites of site_bytes, split over mpitest_size
 * ranks; order mode (sim.h): 0 identity, 1 Lemon, 4 ILDG. */
static inline void bc_make_case(int nd, const uint64_t *global, int split, int mode,
                                size_t site_bytes, sim_case *s)
{
    memset(s, 0, sizeof *s);
    s->nd = nd;
    s->site_bytes = site_bytes;
    for (int d = 0; d < nd; d++) s->global[d] = global[d], s->parts[d] = 1;
    sim_identity(s->file_order, nd);
    sim_identity(s->mem_order, nd);
    if (mode == 4)
        for (int i = 0; i < nd; i++) s->file_order[i] = nd - 1 - i;
    if (mode == 4 || mode == 1) sim_shuffle(s->mem_order, nd);
    if (mode == 1) memcpy(s->file_order, s->mem_order, sizeof s->file_order);
    int n = mpitest_size;
    if (split == BC_SLOWEST || split == BC_RANDOM || split == BC_EMPTY)
        s->parts[s->file_order[0]] = n;
    if (split == BC_FASTEST) s->parts[s->file_order[nd - 1]] = n;
    for (int i = nd - 1; (split == BC_SPREAD || split == BC_XY) && n > 1;) {
        int f = 2; /* prime factors, fastest dims first */
        while (n % f) f++;
        s->parts[s->file_order[i]] *= f;
        n /= f;
        if (split == BC_XY) i = i == nd - 1 ? nd - 2 : nd - 1;
        else i = (i + nd - 1) % nd;
    }
    s->nranks = mpitest_size;
    for (int d = 0; d < nd; d++) sim_cuts(s->global[d], s->parts[d], split != BC_RANDOM, s->cut[d]);
    if (split == BC_EMPTY && mpitest_size > 1) {
        int d = s->file_order[0], p = mpitest_size - 1;
        sim_cuts(s->global[d], p, 1, s->cut[d]);
        s->cut[d][p + 1] = s->cut[d][p];
    }
}

/* Collective.  A new file `path` (options opt) whose only record is
 * layout l's sites from buf (`bytes` bytes, the whole lattice); *during is
 * 1 while lattio_lattice_write runs (for the caller's PMPI counters).  Rank
 * 0 checks the payload against the serial image. */
static inline void bc_write_single(const char *path, const lattio_options *opt, const lattio_layout *l,
                                   const void *buf, uint64_t bytes, int *during)
{
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, opt, &f));
    CHECK_OK(lattio_record_begin(f, "lattice", bytes, 1, 1));
    *during = 1;
    CHECK_OK(lattio_lattice_write(f, l, 0, buf));
    *during = 0;
    CHECK_OK(lattio_record_end(f, 0));
    CHECK_OK(lattio_close(f));
    if (mpitest_rank != 0) return;
    size_t m = 0;
    unsigned char *file = test_slurp(path, &m), *img = sim_expected_file(l);
    CHECK(file && m >= 144 + bytes && memcmp(file + 144, img, bytes) == 0);
    free(file);
    free(img);
}

/* Every virtual rank's layout is drawn on every rank (same random stream);
 * keep rank `me`'s, without halos and in file order when `plain`. */
static inline void bc_layout_of(const sim_case *s, int me, int plain, lattio_layout *out)
{
    for (int r = 0; r < s->nranks; r++) {
        lattio_layout l;
        sim_rank_layout(s, r, &l);
        if (r == me) *out = l;
    }
    if (!plain) return;
    memset(out->halo_lo, 0, sizeof out->halo_lo);
    memset(out->halo_hi, 0, sizeof out->halo_hi);
    memcpy(out->mem_order, out->file_order, sizeof out->mem_order);
}

#endif
