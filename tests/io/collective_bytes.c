/* collective_bytes.c -- lattices written with the collective strategy (file
 * views + MPI_File_write_all) give exactly the bytes of an independent serial
 * computation (sim.h's image) and of the independent strategy, and read back
 * correctly with the collective strategy under another decomposition.
 * Cases: 1-D, 2-D, 3-D and 4-D lattices; splits of the slowest, the fastest
 * and several dimensions; even, uneven and random (possibly empty) pieces;
 * identity, Lemon and ILDG orders; halos; sites of 1, 72 and 576 bytes; the
 * lattice at a payload offset that is not a multiple of 8.  Run once with
 * the default staging (one round) and once with a tiny staging buffer, so
 * ranks need different numbers of rounds and rounds hold many runs. */
#include "io/io_internal.h"
#include "bytecases.h"

#define OFF 13 /* payload offset of the lattice: not a multiple of 8 */

static void write_lattice(const char *path, const lattio_layout *l, const void *buf, int strategy,
                          uint64_t bytes)
{
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = strategy;
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, &opt, &f));
    CHECK_OK(lattio_record_write(f, "meta", "m", 1, 1, 0));
    CHECK_OK(lattio_record_begin(f, "lattice", OFF + bytes + 5, 0, 1));
    CHECK_OK(lattio_lattice_write(f, l, OFF, buf));
    CHECK_OK(lattio_record_end(f, 1));
    CHECK_OK(lattio_close(f));
}

/* Rank 0: the collective file's lattice is the serial image, the whole file
 * equals the independent strategy's file. */
static void compare_files(const lattio_layout *l, uint64_t bytes, int ci)
{
    if (mpitest_rank != 0) return;
    size_t n = 0, m = 0;
    unsigned char *coll = test_slurp("coll.lime", &n), *ind = test_slurp("ind.lime", &m);
    unsigned char *img = sim_expected_file(l);
    uint64_t at = 296 + OFF; /* 144 + 8 (the 1-byte meta record), 144 */
    CHECK(coll && n >= at + bytes);
    int same = coll && n >= at + bytes && memcmp(coll + at, img, bytes) == 0;
    CHECK(same);
    CHECK(ind && m == n && memcmp(coll, ind, n) == 0);
    if (!same) {
        fprintf(stderr, "case %d differs from the serial image\n", ci);
        sim_describe(l);
    }
    free(coll);
    free(ind);
    free(img);
}

/* Read back collectively with the ranks reversed; ghosts stay untouched. */
static void read_back(const sim_case *s)
{
    lattio_layout l;
    bc_layout_of(s, mpitest_size - 1 - mpitest_rank, 0, &l);
    unsigned char *want = sim_buffer(&l, POISON);
    uint64_t n = sim_buffer_sites(&l) * l.site_bytes;
    unsigned char *got = malloc(n + 1);
    memset(got, POISON, n + 1);
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = LATTIO_STRATEGY_COLLECTIVE;
    lattio_file *f = NULL;
    lattio_record_info info;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "coll.lime", LATTIO_MODE_READ, MPI_INFO_NULL, &opt, &f));
    CHECK_OK(lattio_record_find(f, "lattice", 0, &info));
    CHECK_OK(lattio_lattice_read(f, &l, OFF, got));
    CHECK(memcmp(got, want, n) == 0);
    CHECK_OK(lattio_close(f));
    free(want);
    free(got);
}

static void run_case(int ci)
{
    sim_case s;
    bc_make_case(bc_mixed[ci].nd, bc_mixed[ci].global, bc_mixed[ci].split, bc_mixed[ci].mode,
                 bc_mixed[ci].site_bytes, &s);
    lattio_layout l;
    bc_layout_of(&s, mpitest_rank, 0, &l);
    unsigned char *buf = sim_buffer(&l, POISON);
    uint64_t bytes = sim_prod(l.ndims, l.global) * l.site_bytes;
    write_lattice("coll.lime", &l, buf, LATTIO_STRATEGY_COLLECTIVE, bytes);
    write_lattice("ind.lime", &l, buf, LATTIO_STRATEGY_INDEPENDENT, bytes);
    compare_files(&l, bytes, ci);
    MPI_Barrier(MPI_COMM_WORLD);
    read_back(&s);
    free(buf);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    const int ncases = (int)(sizeof bc_mixed / sizeof bc_mixed[0]);
    for (int pass = 0; pass < 2; pass++) {
        /* pass 1: 100-byte staging, so a round holds 1..100 sites */
        lattio_collective_test_hooks(pass ? 100 : 0, 0, 0);
        for (int ci = 0; ci < ncases - pass; ci++) run_case(ci); /* the large case once */
    }
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
