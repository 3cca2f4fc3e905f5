/* n_to_m.c -- a lattice written by N ranks is read by M ranks with another
 * decomposition (driven by n_to_m.py for N, M in 1..4).
 *   n_to_m write FILE   write the lattice: record "n_to_m-meta" ("6 5 8 7")
 *                       then record "n_to_m-lattice", sites in t,z,y,x order
 *   n_to_m read FILE    read it back and check every site's bytes
 * The lattice is x,y,z,t = 6,5,8,7 with 72-byte sites; site (x,y,z,t) holds
 * x,y,z,t as 16-bit big-endian numbers, then bytes (37x+11y+5z+3t+29k+7)
 * mod 256 for k = 8..71 (n_to_m.py computes the same image independently).
 * The process grid comes from MPI_Dims_create; its largest factor goes to t
 * when writing and to y when reading, so N = M still differ, and splits are
 * uneven where the counts allow (7 over 2 or 4, 5 over 2 or 3, 8 over 3). */
#include "mpitest.h"

#define SITE 72
static const uint64_t G[4] = {6, 5, 8, 7};
static const int write_dims[4] = {3, 1, 2, 0}; /* grid factor i goes to lattice dim [i] */
static const int read_dims[4] = {1, 3, 0, 2};

static void site_bytes(const uint64_t *c, unsigned char *out)
{
    for (int d = 0; d < 4; d++) {
        out[2 * d] = (unsigned char)(c[d] >> 8);
        out[2 * d + 1] = (unsigned char)c[d];
    }
    for (int k = 8; k < SITE; k++)
        out[k] =
            (unsigned char)(37 * c[0] + 11 * c[1] + 5 * c[2] + 3 * c[3] + 29 * (uint64_t)k + 7);
}

/* This rank's box: grid from MPI_Dims_create, factors assigned by `order`. */
static void make_layout(lattio_layout *l, const int *order)
{
    int dims[4] = {0, 0, 0, 0}, grid[4];
    MPI_Dims_create(mpitest_size, 4, dims);
    for (int i = 0; i < 4; i++) grid[order[i]] = dims[i];
    uint64_t lo[4], count[4];
    int r = mpitest_rank;
    for (int d = 0; d < 4; d++) {
        lattio_split(G[d], (uint64_t)grid[d], (uint64_t)(r % grid[d]), &lo[d], &count[d]);
        r /= grid[d];
    }
    CHECK_OK(lattio_layout_init(l, 4, G, lo, count, SITE));
    static const int tzyx[4] = {3, 2, 1, 0};
    memcpy(l->file_order, tzyx, sizeof tzyx);
    memcpy(l->mem_order, tzyx, sizeof tzyx); /* local buffer t slowest, x fastest */
}

/* Global coordinates of local site i (memory order t,z,y,x over the box). */
static void coord_of(const lattio_layout *l, uint64_t i, uint64_t *c)
{
    for (int d = 0; d < 4; d++) {
        c[d] = l->lo[d] + i % l->count[d];
        i /= l->count[d];
    }
}

static uint64_t payload_bytes(void) { return G[0] * G[1] * G[2] * G[3] * SITE; }

static void write_file(const char *path)
{
    lattio_layout l;
    make_layout(&l, write_dims);
    uint64_t n = lattio_layout_local_sites(&l), c[4];
    unsigned char *buf = malloc(n * SITE + 1);
    for (uint64_t i = 0; i < n; i++) {
        coord_of(&l, i, c);
        site_bytes(c, buf + i * SITE);
    }
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_write(f, "n_to_m-meta", "6 5 8 7", 7, 1, 0));
    CHECK_OK(lattio_record_begin(f, "n_to_m-lattice", payload_bytes(), 0, 1));
    CHECK_OK(lattio_lattice_write(f, &l, 0, buf));
    CHECK_OK(lattio_record_end(f, 0));
    CHECK_OK(lattio_close(f));
    free(buf);
}

static void read_file(const char *path)
{
    lattio_layout l;
    make_layout(&l, read_dims);
    uint64_t n = lattio_layout_local_sites(&l), c[4], bad = 0;
    unsigned char *buf = malloc(n * SITE + 1), want[SITE];
    memset(buf, 0xEE, n * SITE + 1);
    lattio_file *f = NULL;
    lattio_record_info info;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_find(f, "n_to_m-lattice", 0, &info));
    CHECK_U64(info.length, payload_bytes());
    CHECK_OK(lattio_lattice_read(f, &l, 0, buf));
    CHECK_OK(lattio_close(f));
    for (uint64_t i = 0; i < n; i++) {
        coord_of(&l, i, c);
        site_bytes(c, want);
        bad += memcmp(buf + i * SITE, want, SITE) != 0;
    }
    CHECK_U64(bad, 0);
    CHECK(buf[n * SITE] == 0xEE); /* nothing written past the box */
    uint64_t total = 0;
    MPI_Allreduce(&n, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    CHECK_U64(total, G[0] * G[1] * G[2] * G[3]);
    free(buf);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    if (argc == 3 && strcmp(argv[1], "write") == 0)
        write_file(argv[2]);
    else if (argc == 3 && strcmp(argv[1], "read") == 0)
        read_file(argv[2]);
    else
        CHECK(!"usage: n_to_m write|read FILE");
    return mpitest_finish();
}
