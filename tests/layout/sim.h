/* sim.h -- naive, independent models for the layout tests: "virtual ranks"
 * simulated in one process, site values derived from global coordinates,
 * buffers filled by brute force (a division per index), and the expected file
 * image computed by looping over every global site in file order.
 * Nothing here calls lattio's layout code except to build the lattio_layout
 * struct itself. */
#ifndef LATTIO_TEST_SIM_H
#define LATTIO_TEST_SIM_H

#include "testutil.h"

#define POISON 0xA5 /* ghost bytes of a packed-from buffer: must never reach the file */

/* xorshift64* */
static uint64_t sim_rng_state = 0x9E3779B97F4A7C15u;
static inline uint64_t sim_rand(void)
{
    sim_rng_state ^= sim_rng_state >> 12;
    sim_rng_state ^= sim_rng_state << 25;
    sim_rng_state ^= sim_rng_state >> 27;
    return sim_rng_state * 0x2545F4914F6CDD1Du;
}
static inline uint64_t sim_below(uint64_t n) { return sim_rand() % n; }

/* Byte b of the site at global coordinates g: never 0 (the empty image),
 * never POISON. */
static inline unsigned char sim_value(int nd, const uint64_t *g, size_t b)
{
    uint64_t h = 1469598103934665603u;
    for (int d = 0; d < nd; d++) h = (h ^ (g[d] + 1)) * 1099511628211u;
    h = (h ^ (b + 77)) * 1099511628211u;
    unsigned v = (unsigned)(h >> 29) % 254u + 1u; /* 1..254 */
    return (unsigned char)(v == POISON ? 0x5A : v);
}

static inline uint64_t sim_prod(int nd, const uint64_t *e)
{
    uint64_t p = 1;
    for (int d = 0; d < nd; d++) p *= e[d];
    return p;
}

/* Coordinates (per lattice dimension) of index k of a lexicographic array
 * whose dimension i, slowest first, is lattice dimension order[i]. */
static inline void sim_decompose(int nd, const int *order, const uint64_t *ext, uint64_t k,
                                 uint64_t *coord)
{
    for (int i = nd - 1; i >= 0; i--) {
        coord[order[i]] = k % ext[order[i]];
        k /= ext[order[i]];
    }
}

/* The whole file: site number k (in file order) at byte k * site_bytes. */
static inline unsigned char *sim_expected_file(const lattio_layout *l)
{
    const uint64_t sites = sim_prod(l->ndims, l->global);
    unsigned char *img = malloc(sites * l->site_bytes);
    uint64_t g[LATTIO_MAX_DIMS];
    for (uint64_t k = 0; k < sites; k++) {
        sim_decompose(l->ndims, l->file_order, l->global, k, g);
        for (size_t b = 0; b < l->site_bytes; b++)
            img[k * l->site_bytes + b] = sim_value(l->ndims, g, b);
    }
    return img;
}

/* Buffer extent of lattice dimension d. */
static inline uint64_t sim_ext(const lattio_layout *l, int d)
{
    return l->halo_lo[d] + l->count[d] + l->halo_hi[d];
}

static inline uint64_t sim_buffer_sites(const lattio_layout *l)
{
    uint64_t p = 1;
    for (int d = 0; d < l->ndims; d++) p *= sim_ext(l, d);
    return p;
}

/* A rank's buffer as the caller holds it: interior sites hold their values,
 * ghost sites the byte `ghost`.  Caller frees (malloc'ed to the exact size,
 * so AddressSanitizer catches any access beyond it). */
static inline unsigned char *sim_buffer(const lattio_layout *l, unsigned char ghost)
{
    uint64_t ext[LATTIO_MAX_DIMS], p[LATTIO_MAX_DIMS], g[LATTIO_MAX_DIMS];
    for (int d = 0; d < l->ndims; d++) ext[d] = sim_ext(l, d);
    const uint64_t sites = sim_buffer_sites(l);
    unsigned char *buf = malloc(sites * l->site_bytes + 1);
    for (uint64_t k = 0; k < sites; k++) {
        sim_decompose(l->ndims, l->mem_order, ext, k, p);
        int interior = 1;
        for (int d = 0; d < l->ndims; d++) {
            if (p[d] < l->halo_lo[d] || p[d] >= l->halo_lo[d] + l->count[d]) interior = 0;
            g[d] = l->lo[d] + p[d] - l->halo_lo[d];
        }
        for (size_t b = 0; b < l->site_bytes; b++)
            buf[k * l->site_bytes + b] = interior ? sim_value(l->ndims, g, b) : ghost;
    }
    return buf;
}

/* This rank's sites in increasing file rank, each its values. */
static inline unsigned char *sim_packed(const lattio_layout *l)
{
    const uint64_t sites = sim_prod(l->ndims, l->count);
    unsigned char *out = malloc(sites * l->site_bytes + 1);
    uint64_t c[LATTIO_MAX_DIMS], g[LATTIO_MAX_DIMS];
    for (uint64_t k = 0; k < sites; k++) {
        sim_decompose(l->ndims, l->file_order, l->count, k, c);
        for (int d = 0; d < l->ndims; d++) g[d] = l->lo[d] + c[d];
        for (size_t b = 0; b < l->site_bytes; b++)
            out[k * l->site_bytes + b] = sim_value(l->ndims, g, b);
    }
    return out;
}

/* --- random decompositions --------------------------------------------- */

typedef struct sim_case {
    int nd;
    uint64_t global[LATTIO_MAX_DIMS];
    int parts[LATTIO_MAX_DIMS];                 /* ranks along each dimension */
    uint64_t cut[LATTIO_MAX_DIMS][5];           /* part p is [cut[p], cut[p+1]) */
    int file_order[LATTIO_MAX_DIMS];
    int mem_order[LATTIO_MAX_DIMS];
    size_t site_bytes;
    int nranks;
} sim_case;

static inline void sim_shuffle(int *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)sim_below((uint64_t)i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static inline void sim_identity(int *a, int n)
{
    for (int i = 0; i < n; i++) a[i] = i;
}

/* Cuts of one dimension into `parts` pieces: an even block split or random
 * (possibly empty) pieces. */
static inline void sim_cuts(uint64_t extent, int parts, int even, uint64_t *cut)
{
    cut[0] = 0;
    cut[parts] = extent;
    for (int p = 1; p < parts; p++) {
        uint64_t base = extent / (uint64_t)parts, rem = extent % (uint64_t)parts;
        cut[p] = even ? cut[p - 1] + base + ((uint64_t)(p - 1) < rem) : sim_below(extent + 1);
    }
    for (int i = 1; i < parts; i++) /* insertion sort of the random cuts */
        for (int j = i; j > 1 && cut[j] < cut[j - 1]; j--) {
            uint64_t t = cut[j];
            cut[j] = cut[j - 1];
            cut[j - 1] = t;
        }
}

/* A random case over the lattice `global`: 1..4 ranks, order `mode`
 * 0 identity/identity, 1 random file = mem (Lemon), 2 random file / identity
 * mem, 3 random / random, 4 reversed file (ILDG) / random mem. */
static inline void sim_make_case(sim_case *s, int nd, const uint64_t *global, int mode)
{
    static const size_t sbs[] = {1, 3, 8, 16};
    memset(s, 0, sizeof *s);
    s->nd = nd;
    s->site_bytes = sbs[sim_below(4)];
    for (int d = 0; d < nd; d++) s->global[d] = global[d], s->parts[d] = 1;
    int total = 1 + (int)sim_below(4);
    for (int f = 2; f <= 4; f++)
        while (total % f == 0 && total > 1) {
            s->parts[sim_below((uint64_t)nd)] *= f;
            total /= f;
        }
    s->nranks = 1;
    for (int d = 0; d < nd; d++) {
        if (s->parts[d] > 4) s->parts[d] = 4;
        s->nranks *= s->parts[d];
        sim_cuts(global[d], s->parts[d], (int)sim_below(2), s->cut[d]);
    }
    sim_identity(s->file_order, nd);
    sim_identity(s->mem_order, nd);
    if (mode == 4)
        for (int i = 0; i < nd; i++) s->file_order[i] = nd - 1 - i;
    if (mode == 1 || mode == 2 || mode == 3) sim_shuffle(s->file_order, nd);
    if (mode == 1) memcpy(s->mem_order, s->file_order, sizeof s->mem_order);
    if (mode == 3 || mode == 4) sim_shuffle(s->mem_order, nd);
}

/* The layout of virtual rank r, with random halos of width 0..2 per side
 * (0..1 beyond 4 dimensions, where 2 would make buffers of millions of sites). */
static inline void sim_rank_layout(const sim_case *s, int r, lattio_layout *l)
{
    memset(l, 0, sizeof *l);
    l->ndims = s->nd;
    l->site_bytes = s->site_bytes;
    for (int d = s->nd - 1; d >= 0; d--) {
        int p = r % s->parts[d];
        r /= s->parts[d];
        l->global[d] = s->global[d];
        l->lo[d] = s->cut[d][p];
        l->count[d] = s->cut[d][p + 1] - s->cut[d][p];
        l->halo_lo[d] = sim_below(s->nd > 4 ? 2 : 3);
        l->halo_hi[d] = sim_below(s->nd > 4 ? 2 : 3);
    }
    memcpy(l->file_order, s->file_order, sizeof l->file_order);
    memcpy(l->mem_order, s->mem_order, sizeof l->mem_order);
}

/* Small lattices of 1, 2, 3, 4 and 8 dimensions. */
static const uint64_t sim_shapes[][LATTIO_MAX_DIMS + 1] = {
    /* nd, extents... */
    {1, 7}, {1, 1}, {1, 13}, {2, 5, 3}, {2, 4, 6}, {2, 1, 9}, {3, 3, 4, 5},
    {4, 4, 4, 4, 4}, {4, 3, 5, 2, 7}, {4, 2, 1, 3, 4}, {8, 2, 3, 1, 2, 2, 1, 3, 2},
    {8, 2, 2, 2, 2, 2, 2, 2, 2},
};
#define SIM_NSHAPES ((int)(sizeof sim_shapes / sizeof sim_shapes[0]))

/* A line describing a layout, for failure messages. */
static inline void sim_describe(const lattio_layout *l)
{
    fprintf(stderr, "  layout nd=%d sb=%zu:", l->ndims, l->site_bytes);
    for (int d = 0; d < l->ndims; d++)
        fprintf(stderr, " [%" PRIu64 " lo%" PRIu64 " n%" PRIu64 " h%" PRIu64 "/%" PRIu64 "]",
                l->global[d], l->lo[d], l->count[d], l->halo_lo[d], l->halo_hi[d]);
    fprintf(stderr, " file");
    for (int d = 0; d < l->ndims; d++) fprintf(stderr, " %d", l->file_order[d]);
    fprintf(stderr, " mem");
    for (int d = 0; d < l->ndims; d++) fprintf(stderr, " %d", l->mem_order[d]);
    fprintf(stderr, "\n");
}

#endif
