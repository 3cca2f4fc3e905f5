/* fmtest.h -- helpers of the parallel field tests: layouts of a 4-D lattice
 * (lattice dims 0 = x, 1 = y, 2 = z, 3 = t; file order t, z, y, x) over the
 * ranks in several decompositions, where each interior site of a local
 * buffer sits, and deterministic pseudo-random values by global site rank. */
#ifndef FMTEST_H
#define FMTEST_H

#include "mpitest.h"

#include <math.h>

static const int fm_file_order[4] = {3, 2, 1, 0};

/* Process grid (per lattice dim) of decomposition `variant` (0..4). */
static inline void fm_grid(int variant, int size, int grid[4])
{
    static const int fixed[5][4] = {
        {1, 1, 1, 0}, /* t slabs (uneven for 3 and 4 ranks on most extents) */
        {1, 1, 0, 1}, /* z slabs */
        {0, 1, 1, 1}, /* x split: many short runs */
        {0, 0, 0, 0}, /* 4-D from MPI_Dims_create */
        {1, 0, 1, 1}, /* y split */
    };
    memcpy(grid, fixed[variant], sizeof fixed[variant]);
    if (variant == 3) {
        MPI_Dims_create(size, 4, grid);
        return;
    }
    for (int d = 0; d < 4; d++)
        if (!grid[d]) grid[d] = size;
}

/* This rank's block of the grid (rank coordinates x fastest); halo layers
 * and the memory order x slowest ({0, 3, 2, 1}) when asked. */
static inline int fm_layout(lattio_layout *l, const uint64_t g[4], const int grid[4], int rank,
                            size_t site, int halo, int mem_x_slowest)
{
    uint64_t lo[4], count[4];
    for (int d = 0; d < 4; d++) {
        lattio_split(g[d], (uint64_t)grid[d], (uint64_t)(rank % grid[d]), &lo[d], &count[d]);
        rank /= grid[d];
    }
    int rc = lattio_layout_init(l, 4, g, lo, count, site);
    static const int mem_other[4] = {0, 3, 2, 1};
    for (int d = 0; d < 4; d++) {
        l->file_order[d] = fm_file_order[d];
        l->mem_order[d] = mem_x_slowest ? mem_other[d] : fm_file_order[d];
        l->halo_lo[d] = (uint64_t)halo;
        l->halo_hi[d] = (uint64_t)(d == 0 ? 2 * halo : halo);
    }
    return rc != LATTIO_OK ? rc : lattio_layout_check(l);
}

/* For every interior site of l, in increasing global rank: its site index
 * in the local buffer (pos) and its global file rank (grank).  Arrays of
 * local_sites entries, caller frees. */
static inline uint64_t fm_sites(const lattio_layout *l, uint64_t **pos, uint64_t **grank)
{
    const uint64_t n = lattio_layout_local_sites(l);
    *pos = malloc((n ? n : 1) * sizeof **pos);
    *grank = malloc((n ? n : 1) * sizeof **grank);
    uint64_t ext[4], i[4] = {0, 0, 0, 0}, c[4];
    for (int d = 0; d < 4; d++) ext[d] = l->count[d] + l->halo_lo[d] + l->halo_hi[d];
    for (uint64_t s = 0; s < n; s++) {
        uint64_t p = 0;
        for (int m = 0; m < 4; m++) {
            const int d = l->mem_order[m];
            p = p * ext[d] + i[d] + l->halo_lo[d];
        }
        for (int d = 0; d < 4; d++) c[d] = l->lo[d] + i[d];
        (*pos)[s] = p;
        (*grank)[s] = lattio_layout_file_rank(l, c);
        for (int k = 3; k >= 0; k--) { /* odometer in file order: x fastest */
            const int d = l->file_order[k];
            if (++i[d] < l->count[d]) break;
            i[d] = 0;
        }
    }
    return n;
}

/* A reproducible value in [-1, 1) for element k of the site of rank r. */
static inline double fm_value(uint64_t r, uint64_t k)
{
    uint64_t z = r * 0x9E3779B97F4A7C15u + k * 0xBF58476D1CE4E5B9u + 12345;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    z ^= z >> 31;
    return (double)(z >> 11) / 4503599627370496.0 - 1.0;
}

/* The local buffer (with ghosts, poisoned with NaN) of `elements` doubles
 * per site filled with fm_value by global rank. */
static inline double *fm_fill(const lattio_layout *l, uint64_t elements)
{
    const uint64_t nb = lattio_layout_buffer_sites(l) * elements;
    double *buf = malloc((nb ? nb : 1) * sizeof *buf);
    for (uint64_t i = 0; i < nb; i++) buf[i] = NAN;
    uint64_t *pos, *gr;
    const uint64_t n = fm_sites(l, &pos, &gr);
    for (uint64_t s = 0; s < n; s++)
        for (uint64_t k = 0; k < elements; k++) buf[pos[s] * elements + k] = fm_value(gr[s], k);
    free(pos);
    free(gr);
    return buf;
}

/* Count of interior sites of l whose doubles differ (bitwise) from the
 * whole field `all` (global rank order, `elements` per site). */
static inline uint64_t fm_mismatches(const lattio_layout *l, const double *local,
                                     const double *all, uint64_t elements)
{
    uint64_t *pos, *gr, bad = 0;
    const uint64_t n = fm_sites(l, &pos, &gr);
    for (uint64_t s = 0; s < n; s++)
        if (memcmp(local + pos[s] * elements, all + gr[s] * elements, elements * sizeof(double)))
            bad++;
    free(pos);
    free(gr);
    return bad;
}

/* A 16-byte-per-element-safe allocation of a local buffer. */
static inline void *fm_buffer(const lattio_layout *l)
{
    const uint64_t n = lattio_layout_buffer_sites(l) * l->site_bytes;
    void *p = malloc(n ? n : 1);
    memset(p, 0xEE, n ? n : 1);
    return p;
}

/* Every rank's verdict: 1 when `status` is the same on all ranks. */
static inline int fm_same_everywhere(int status)
{
    int lo = status, hi = status;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return lo == hi;
}

/* The gauge lattice of the write tests: 6 x 4 x 8 x 10 (x, y, z, t). */
static const uint64_t fm_g[4] = {6, 4, 8, 10};
#define FM_DATE "Mon Nov 23 04:00:00 2026 UTC"

/* This rank's layout of the gauge field (576-byte sites) in decomposition
 * `variant` (fm_grid), with halos and x slowest in memory when `odd`. */
static inline int fm_decomposed(lattio_layout *l, int variant, int odd)
{
    int grid[4];
    fm_grid(variant, mpitest_size, grid);
    return fm_layout(l, fm_g, grid, mpitest_rank, 576, odd, odd);
}

/* The whole field of fm_g in global rank order (fm_value), 72 doubles
 * per site; caller frees. */
static inline double *fm_whole(void)
{
    const int one[4] = {1, 1, 1, 1};
    lattio_layout l;
    if (fm_layout(&l, fm_g, one, 0, 576, 0, 0) != LATTIO_OK) return NULL;
    return fm_fill(&l, 72);
}

/* A gauge descriptor with a fixed date (files comparable byte for byte). */
static inline void fm_gauge_desc(lattio_field_desc *d, int mem, int disk)
{
    lattio_field_desc_default(d, LATTIO_FIELD_ILDG_GAUGE, mem, disk, 72);
    d->date = FM_DATE;
    d->lfn = "lfn://lattio/test";
}

/* Collective on comm: write the field of layout l to path. */
static inline int fm_write(MPI_Comm comm, const char *path, const lattio_field_desc *d,
                           const lattio_layout *l, const void *local,
                           lattio_field_write_info *out)
{
    lattio_file *f = NULL;
    int rc = lattio_open(comm, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f);
    if (rc == LATTIO_OK) rc = lattio_field_write(f, d, l, local, out);
    const int rc2 = lattio_close(f);
    return rc != LATTIO_OK ? rc : rc2;
}

/* Collective on comm: read field 0 of path into layout l; *info keeps the
 * read's report (its field metadata freed). */
static inline int fm_read(MPI_Comm comm, const char *path, const lattio_field_desc *d,
                          const lattio_layout *l, void *local, lattio_field_read_info *info)
{
    lattio_file *f = NULL;
    memset(info, 0, sizeof *info);
    int rc = lattio_open(comm, path, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f);
    if (rc == LATTIO_OK) rc = lattio_field_read(f, 0, d, l, local, info);
    lattio_field_info_free(&info->field);
    const int rc2 = lattio_close(f);
    return rc != LATTIO_OK ? rc : rc2;
}

/* Rank 0 alone (MPI_COMM_SELF, one box): the reference file of the field
 * fm_fill gives, in memory format mem and disk format disk. */
static inline void fm_write_reference(const char *path, int mem, int disk)
{
    if (mpitest_rank == 0) {
        const int one[4] = {1, 1, 1, 1};
        lattio_layout l;
        const size_t sz = mem == LATTIO_REAL_F32_NATIVE ? 4 : 8;
        CHECK_OK(fm_layout(&l, fm_g, one, 0, 72 * sz, 0, 0));
        double *buf = fm_whole();
        if (mem == LATTIO_REAL_F32_NATIVE)
            lattio_convert_reals(buf, mem, buf, LATTIO_REAL_F64_NATIVE, (size_t)(l.global[0] *
                                 l.global[1] * l.global[2] * l.global[3] * 72));
        lattio_field_desc d;
        fm_gauge_desc(&d, mem, disk);
        CHECK_OK(fm_write(MPI_COMM_SELF, path, &d, &l, buf, NULL));
        free(buf);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Rank 0: 1 when the two files hold the same bytes. */
static inline int fm_same_file(const char *a, const char *b)
{
    size_t na = 0, nb = 0;
    unsigned char *pa = test_slurp(a, &na), *pb = test_slurp(b, &nb);
    const int same = pa && pb && na == nb && memcmp(pa, pb, na) == 0;
    free(pa);
    free(pb);
    return same;
}

#endif
