/* scale_field.c -- one field write and one verified read, each a phase for
 * the count tool (MPI_Pcontrol; bench/iocount.c), then the binary record's
 * raw bytes read as a lattice split in x (the fine split: runs of X / ranks
 * sites; phase lattice_read, the default strategy's read compared with
 * the independent strategy's): what tests/scale and bench/scale.sh count
 * at different rank counts, volumes and windows.
 *   mpirun -np P scale_field X Y Z T [xy|4d [FILE]]
 * A double gauge field (72 reals per site, ILDG record set, SciDAC
 * checksum) of X*Y*Z*T sites, its x and y split over the ranks (xy: the
 * fine split, short runs in the file) or all four (4d), MPI_Dims_create's
 * grid; written with lattio_field_write, read back with lattio_field_read
 * (the checksum must verify, the sites must equal those written).  The
 * strategy and window come from the environment (LATTIO_STRATEGY,
 * LATTIO_CB_BUFFER_SIZE).  Exit 0 when both calls succeeded on every rank. */
#include "lattio.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank_;

static void die(int rc, const char *what)
{
    if (rc == LATTIO_OK) return;
    fprintf(stderr, "scale_field: rank %d: %s: %s\n", rank_, what, lattio_strerror(rc));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* This rank's box of the lattice g split over a Cartesian grid. */
static void make_layout(const uint64_t *g, int four_d, lattio_layout *l)
{
    int size = 1, dims[4] = {0, 0, 1, 1}, periods[4] = {0};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (four_d) dims[2] = dims[3] = 0;
    MPI_Dims_create(size, 4, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 4, dims, periods, 0, &cart);
    die(lattio_layout_from_cart(cart, g, 576, l), "layout");
    MPI_Comm_free(&cart);
}

/* The binary record of `path` read as a lattice, raw bytes, x split over
 * the ranks (runs of X / ranks sites: the fine split) into a new buffer;
 * strategy: lattio_options.strategy (AUTO: the default, or LATTIO_STRATEGY). */
static unsigned char *read_raw(const uint64_t *g, const char *path, int strategy, const char *phase, size_t *bytes)
{
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    uint64_t lo[4] = {0, 0, 0, 0}, cnt[4] = {g[0], g[1], g[2], g[3]};
    die(lattio_split(g[0], (uint64_t)size, (uint64_t)rank_, &lo[0], &cnt[0]), "split");
    lattio_layout l;
    die(lattio_layout_init(&l, 4, g, lo, cnt, 576), "layout");
    for (int d = 0; d < 4; d++) l.file_order[d] = l.mem_order[d] = 3 - d; /* t slowest */
    *bytes = (size_t)(lattio_layout_local_sites(&l) * 576);
    unsigned char *buf = malloc(*bytes ? *bytes : 1);
    if (!buf) die(LATTIO_ERR_NOMEM, "buffer");
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = strategy;
    lattio_file *f = NULL;
    lattio_record_info info;
    die(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_READ, MPI_INFO_NULL, &opt, &f), "open");
    die(lattio_record_find(f, "ildg-binary-data", 0, &info), "find the binary record");
    if (phase) MPI_Pcontrol(1, phase);
    const int rc = lattio_lattice_read(f, &l, 0, buf);
    if (phase) MPI_Pcontrol(0);
    die(rc, "lattice read");
    die(lattio_close(f), "close");
    return buf;
}

/* Phase lattice_read: the record's bytes read with the fine split by the
 * default strategy, equal to the independent strategy's read of them. */
static void lattice_read(const uint64_t *g, const char *path)
{
    size_t n, m;
    unsigned char *want = read_raw(g, path, LATTIO_STRATEGY_INDEPENDENT, NULL, &n);
    unsigned char *got = read_raw(g, path, LATTIO_STRATEGY_AUTO, "lattice_read", &m);
    if (n != m || memcmp(want, got, n)) die(LATTIO_ERR_CHECKSUM, "lattice read differs from the independent one");
    free(want);
    free(got);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    if (argc < 5) die(LATTIO_ERR_ARG, "usage: scale_field X Y Z T [xy|4d [FILE]]");
    uint64_t g[4];
    for (int d = 0; d < 4; d++) g[d] = strtoull(argv[1 + d], NULL, 10);
    const int four_d = argc > 5 && strcmp(argv[5], "4d") == 0;
    const char *path = argc > 6 ? argv[6] : "scale_field.lime";
    lattio_layout l;
    make_layout(g, four_d, &l);
    const uint64_t n = lattio_layout_local_sites(&l) * 72;
    double *mine = malloc((size_t)(n ? n : 1) * sizeof *mine), *back = malloc((size_t)(n ? n : 1) * sizeof *back);
    if (!mine || !back) die(LATTIO_ERR_NOMEM, "buffers");
    for (uint64_t i = 0; i < n; i++) mine[i] = (double)rank_ + 1e-6 * (double)i;
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_ILDG_GAUGE, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, 72);
    lattio_file *f = NULL;
    die(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f), "open");
    MPI_Pcontrol(1, "field_write");
    int rc = lattio_field_write(f, &d, &l, mine, NULL);
    MPI_Pcontrol(0);
    die(rc, "field write");
    die(lattio_close(f), "close");
    lattio_field_read_info ri;
    die(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f), "open");
    MPI_Pcontrol(1, "field_read");
    rc = lattio_field_read(f, 0, &d, &l, back, &ri);
    MPI_Pcontrol(0);
    die(rc, "field read");
    if (ri.checksum != LATTIO_CHECKSUM_VERIFIED) die(LATTIO_ERR_CHECKSUM, "checksum not verified");
    lattio_field_info_free(&ri.field);
    die(lattio_close(f), "close");
    if (n && memcmp(mine, back, (size_t)n * sizeof *mine)) die(LATTIO_ERR_CHECKSUM, "sites read differ");
    lattice_read(g, path);
    free(mine);
    free(back);
    MPI_Finalize();
    return 0;
}
