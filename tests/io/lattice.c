/* lattice.c -- the same 4-D lattice written with 1-4 ranks, 1-D, 2-D, 4-D and
 * x-split decompositions, uneven splits, memory orders and halos gives the
 * bytes of an independent serial computation; it reads back correctly with
 * a different decomposition; boxes that do not tile the lattice are refused
 * on every rank (Lemon wrote such lattices in part, silently). */
#include "mpitest.h"

/* lattice dims: 0 = x, 1 = y, 2 = z, 3 = t; file order t, z, y, x */
static const uint64_t G[4] = {6, 3, 4, 5};
#define SITE 12

static unsigned char value(const uint64_t *c, int k)
{
    return (unsigned char)(c[0] * 31 + c[1] * 17 + c[2] * 7 + c[3] * 3 + (uint64_t)k * 101 + 1);
}

/* The expected file image, computed naively: t slowest, x fastest. */
static unsigned char *expected_image(void)
{
    unsigned char *img = malloc(6 * 3 * 4 * 5 * SITE), *p = img;
    uint64_t c[4];
    for (c[3] = 0; c[3] < G[3]; c[3]++)
        for (c[2] = 0; c[2] < G[2]; c[2]++)
            for (c[1] = 0; c[1] < G[1]; c[1]++)
                for (c[0] = 0; c[0] < G[0]; c[0]++)
                    for (int k = 0; k < SITE; k++) *p++ = value(c, k);
    return img;
}

/* This rank's layout: the process grid `grid` (per lattice dim) over the
 * ranks, rank coordinates x fastest; halo and memory order per variant. */
static void make_layout(lattio_layout *l, const int *grid, int rank, int halo, int mem_x_slowest)
{
    uint64_t lo[4], count[4];
    int r = rank;
    for (int d = 0; d < 4; d++) {
        lattio_split(G[d], (uint64_t)grid[d], (uint64_t)(r % grid[d]), &lo[d], &count[d]);
        r /= grid[d];
    }
    CHECK_OK(lattio_layout_init(l, 4, G, lo, count, SITE));
    static const int file_order[4] = {3, 2, 1, 0}, mem_other[4] = {0, 3, 2, 1};
    for (int d = 0; d < 4; d++) {
        l->file_order[d] = file_order[d];
        l->mem_order[d] = mem_x_slowest ? mem_other[d] : file_order[d];
        l->halo_lo[d] = (uint64_t)halo;
        l->halo_hi[d] = (uint64_t)(d == 0 ? 2 * halo : halo);
    }
    CHECK_OK(lattio_layout_check(l));
}

/* Fill the local buffer: interior from value(), ghosts poisoned. */
static unsigned char *fill(const lattio_layout *l)
{
    uint64_t ext[4], n = lattio_layout_buffer_sites(l);
    unsigned char *buf = malloc(n * SITE + 1);
    memset(buf, 0xEE, n * SITE + 1);
    for (int d = 0; d < 4; d++) ext[d] = l->count[d] + l->halo_lo[d] + l->halo_hi[d];
    uint64_t c[4], i[4];
    for (i[0] = 0; i[0] < l->count[0]; i[0]++)
        for (i[1] = 0; i[1] < l->count[1]; i[1]++)
            for (i[2] = 0; i[2] < l->count[2]; i[2]++)
                for (i[3] = 0; i[3] < l->count[3]; i[3]++) {
                    uint64_t pos = 0;
                    for (int m = 0; m < 4; m++) { /* memory dim m, slowest first */
                        int d = l->mem_order[m];
                        pos = pos * ext[d] + i[d] + l->halo_lo[d];
                    }
                    for (int d = 0; d < 4; d++) c[d] = l->lo[d] + i[d];
                    for (int k = 0; k < SITE; k++) buf[pos * SITE + (uint64_t)k] = value(c, k);
                }
    return buf;
}

static const int grids[][4] = {
    {1, 1, 1, 0}, /* t split over all ranks: 5 over 3 or 4 is uneven */
    {1, 1, 2, 0}, /* z in 2, t over the rest */
    {0, 1, 1, 1}, /* x split: one run per (t,z,y) row */
    {0, 0, 0, 0}, /* 4-D from MPI_Dims_create */
};

static void grid_for(int variant, int *grid)
{
    memcpy(grid, grids[variant], sizeof grids[variant]);
    int fixed = 1;
    for (int d = 0; d < 4; d++) fixed *= grid[d] ? grid[d] : 1;
    if (variant == 3) {
        MPI_Dims_create(mpitest_size, 4, grid);
        return;
    }
    if (mpitest_size % fixed) grid[2] = 1, fixed = 1; /* z split only when it divides */
    for (int d = 0; d < 4; d++)
        if (!grid[d]) grid[d] = mpitest_size / fixed;
}

static void write_and_compare(int variant, const unsigned char *img)
{
    const uint64_t bytes = 6 * 3 * 4 * 5 * SITE;
    int grid[4];
    grid_for(variant, grid);
    lattio_layout l;
    make_layout(&l, grid, mpitest_rank, variant % 2 ? 1 : 0, variant >= 2);
    unsigned char *buf = fill(&l);
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "lat.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_write(f, "meta", "m", 1, 1, 0));
    /* two copies of the lattice in one record */
    CHECK_OK(lattio_record_begin(f, "lattice", 2 * bytes, 0, 1));
    CHECK_OK(lattio_lattice_write(f, &l, bytes, buf));
    CHECK_OK(lattio_lattice_write(f, &l, 0, buf));
    CHECK_OK(lattio_record_end(f, 0));
    CHECK_OK(lattio_close(f));
    if (mpitest_rank == 0) {
        size_t n = 0;
        unsigned char *file = test_slurp("lat.lime", &n);
        CHECK_INT(n, 152 + 144 + 2 * bytes);
        CHECK(file && n >= 296 + 2 * bytes && memcmp(file + 296, img, bytes) == 0 &&
              memcmp(file + 296 + bytes, img, bytes) == 0);
        free(file);
    }
    free(buf);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Read with another decomposition than the one that wrote. */
static void read_back(int variant)
{
    const uint64_t bytes = 6 * 3 * 4 * 5 * SITE;
    int grid[4];
    grid_for(variant, grid);
    lattio_layout l;
    make_layout(&l, grid, mpitest_size - 1 - mpitest_rank, 1, variant % 2);
    unsigned char *want = fill(&l);
    uint64_t n = lattio_layout_buffer_sites(&l) * SITE + 1;
    unsigned char *got = malloc(n);
    memset(got, 0xEE, n);
    lattio_file *f = NULL;
    lattio_record_info info;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "lat.lime", LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_find(f, "lattice", 0, &info));
    CHECK_OK(lattio_lattice_read(f, &l, bytes, got));
    CHECK(memcmp(got, want, n) == 0); /* interior equal, ghosts untouched */
    CHECK_STATUS(lattio_lattice_read(f, &l, bytes + 1, got), LATTIO_ERR_RECORD_OVERRUN);
    CHECK_OK(lattio_close(f));
    free(want);
    free(got);
}

/* The last rank forgets its last time slice: nobody writes anything, the
 * file is poisoned and close reports that first error on every rank. */
static void boxes_must_tile(void)
{
    int grid[4] = {1, 1, 1, mpitest_size};
    lattio_layout l;
    make_layout(&l, grid, mpitest_rank, 0, 0);
    if (mpitest_rank == mpitest_size - 1 && l.count[3] > 0) l.count[3]--;
    unsigned char *buf = fill(&l);
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "part.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_begin(f, "lattice", 6 * 3 * 4 * 5 * SITE, 1, 1));
    CHECK_STATUS(lattio_lattice_write(f, &l, 0, buf), LATTIO_ERR_LAYOUT);
    CHECK_STATUS(lattio_close(f), LATTIO_ERR_LAYOUT);
    free(buf);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    unsigned char *img = expected_image();
    for (int v = 0; v < 4; v++) {
        write_and_compare(v, img);
        read_back((v + 1) % 4);
    }
    boxes_must_tile();
    free(img);
    return mpitest_finish();
}
