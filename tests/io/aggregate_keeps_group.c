/* aggregate_keeps_group.c -- a file keeps the aggregate strategy's sharing
 * group and window buffers between calls.  Five lattices are written into
 * one file with the aggregate strategy and small windows (many rounds,
 * both buffers reused), and the calls that make groups and shared windows
 * are counted with PMPI on every rank:
 *   1. lattice A: the group and the window are made (with 2+ ranks; the
 *      window only where a node holds 2+ of them);
 *   2. lattice B (smaller, other bytes): nothing is made;
 *   3. lattice A with 4x larger windows: the window is made again, the
 *      group kept;
 *   4. lattice A without sharing (LATTIO_AGG_SHARED=0): nothing is made;
 *   5. lattice B with sharing again: group and window made anew.
 * Every record's payload equals its serial image, a read of every record
 * through one handle gives the sites back (ghosts untouched), and close
 * frees everything (no allocation outstanding). */
#include "io/io_internal.h"
#include "bytecases.h"

#include <stdlib.h>

static int counting;
static long splits, windows;

int MPI_Comm_split_type(MPI_Comm c, int type, int key, MPI_Info info, MPI_Comm *out)
{
    if (counting) splits++;
    return PMPI_Comm_split_type(c, type, key, info, out);
}
int MPI_Win_allocate_shared(MPI_Aint size, int unit, MPI_Info info, MPI_Comm c, void *base, MPI_Win *w)
{
    if (counting) windows++;
    return PMPI_Win_allocate_shared(size, unit, info, c, base, w);
}

static const uint64_t A[4] = {8, 8, 8, 16}, B[4] = {6, 8, 8, 10};

typedef struct step {
    const uint64_t *g;
    const char *buffer, *shared; /* LATTIO_CB_BUFFER_SIZE, LATTIO_AGG_SHARED (NULL: unset) */
    int new_group, new_window;   /* expected with 2+ ranks */
} step;

static const step steps[] = {
    {A, "4096", NULL, 1, 1}, {B, "4096", NULL, 0, 0}, {A, "16384", NULL, 0, 1},
    {A, "16384", "0", 0, 0}, {B, "4096", NULL, 1, 1},
};
#define NSTEPS (int)(sizeof steps / sizeof steps[0])

static void layout_for(const uint64_t *g, lattio_layout *l)
{
    sim_case s;
    bc_make_case(4, g, BC_SPREAD, 4, 72, &s);
    bc_layout_of(&s, mpitest_rank, 0, l);
}

/* Step st's environment, taken by open file f at once (a file reads the
 * environment when it is opened; here the parameters change between calls
 * on one handle). */
static void environment(lattio_file *f, const step *st)
{
    setenv("LATTIO_CB_BUFFER_SIZE", st->buffer, 1);
    if (st->shared) setenv("LATTIO_AGG_SHARED", st->shared, 1);
    else unsetenv("LATTIO_AGG_SHARED");
    lattio_config_read(&f->cfg);
}

static uint64_t lattice_bytes(const uint64_t *g) { return g[0] * g[1] * g[2] * g[3] * 72; }

/* Rank 0: record k of the file holds its lattice's serial image. */
static void check_payloads(const char *path)
{
    if (mpitest_rank != 0) return;
    size_t m = 0, at = 0;
    unsigned char *file = test_slurp(path, &m);
    CHECK(file != NULL);
    for (int k = 0; file && k < NSTEPS; k++) {
        lattio_layout l;
        layout_for(steps[k].g, &l);
        const uint64_t bytes = lattice_bytes(steps[k].g);
        unsigned char *img = sim_expected_file(&l);
        at += 144; /* the record's header */
        CHECK(at + bytes <= m && memcmp(file + at, img, bytes) == 0);
        at += (bytes + 7) / 8 * 8;
        free(img);
    }
    free(file);
}

/* Collective.  The ranks of this node (1 on each emulated node at 4x1). */
static int node_ranks(void)
{
    MPI_Comm node;
    int n = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &n);
    MPI_Comm_free(&node);
    return n;
}

static void write_all(const char *path, const lattio_options *opt)
{
    lattio_file *f = NULL;
    const int node_many = node_ranks() > 1; /* before counting starts */
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, opt, &f));
    for (int k = 0; k < NSTEPS; k++) {
        lattio_layout l;
        layout_for(steps[k].g, &l);
        unsigned char *buf = sim_buffer(&l, 0xA5);
        environment(f, &steps[k]);
        CHECK_OK(lattio_record_begin(f, "lattice", lattice_bytes(steps[k].g), k == 0, k == NSTEPS - 1));
        splits = windows = 0;
        counting = 1;
        CHECK_OK(lattio_lattice_write(f, &l, 0, buf));
        counting = 0;
        CHECK_OK(lattio_record_end(f, 0));
        const int many = mpitest_size > 1;
        if (mpitest_rank == 0) printf("write %d: %ld group splits, %ld shared windows\n", k + 1, splits, windows);
        CHECK_INT(splits, many ? steps[k].new_group : 0);
        CHECK_INT(windows, many && node_many ? steps[k].new_window : 0); /* windows: 2+ ranks of a node */
        free(buf);
    }
    CHECK_OK(lattio_close(f));
}

static void read_all(const char *path, const lattio_options *opt)
{
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_READ, MPI_INFO_NULL, opt, &f));
    for (int k = 0; k < NSTEPS; k++) {
        lattio_layout l;
        lattio_record_info info;
        layout_for(steps[k].g, &l);
        unsigned char *want = sim_buffer(&l, 0xA5), *got = sim_buffer(&l, 0xA5);
        const uint64_t n = sim_buffer_sites(&l) * l.site_bytes;
        memset(got, 0xA5, n);
        environment(f, &steps[k]);
        CHECK_OK(lattio_record_find(f, "lattice", k, &info));
        CHECK_OK(lattio_lattice_read(f, &l, 0, got));
        CHECK(memcmp(got, want, n) == 0);
        free(want);
        free(got);
    }
    CHECK_OK(lattio_close(f));
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    setenv("LATTIO_STRIPING_UNIT", "1024", 1);
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = LATTIO_STRATEGY_AGGREGATE;
    write_all("keeps.lime", &opt);
    check_payloads("keeps.lime");
    read_all("keeps.lime", &opt);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
