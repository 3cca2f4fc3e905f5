/* aggregate_bytes.c -- lattices written with the aggregate strategy (lattio's
 * own two-phase I/O: pieces sent to aggregators owning block-aligned file
 * domains, one independent write per window) give exactly the bytes of an
 * independent serial computation (sim.h's image) and of the independent
 * strategy, and read back correctly with the aggregate strategy under another
 * decomposition.  The lattices of collective_bytes.c: 1-D..4-D, splits of the
 * slowest, the fastest and several dimensions, uneven and random (possibly
 * empty) pieces, identity/Lemon/ILDG orders, halos, sites of 1, 72 and 576
 * bytes, the lattice at a payload offset that is not a multiple of 8.
 * Passes: the defaults (1 MiB blocks: one domain, one aggregator); tiny
 * blocks and buffers through the environment (many domains and rounds,
 * windows cutting sites, window smaller than a block, two aggregators); the
 * same through MPI_Info hints; and layouts without halos in file order, so
 * packing is the identity and pieces move straight from the caller's buffer.
 * Each pass three times: ranks sharing the aggregators' windows in memory,
 * ranks sending messages, and both in one call (LATTIO_AGG_SHARED). */
#include "io/io_internal.h"
#include "bytecases.h"

#define OFF 13 /* payload offset of the lattice: not a multiple of 8 */

/* A pass: hints by environment or MPI_Info ({block, nodes, buffer}, 0: unset)
 * and whether layouts are plain (no halos, memory order = file order). */
typedef struct tpass {
    const char *env[3];
    const char *info[3];
    int plain;
} tpass;

static const tpass passes[] = {
    {{NULL, NULL, NULL}, {NULL, NULL, NULL}, 0},
    {{"64", NULL, "100"}, {NULL, NULL, NULL}, 0},   /* window 64 = one block, sites cut */
    {{"100", "2", "37"}, {NULL, NULL, NULL}, 0},    /* window 37 < block, 2 aggregators */
    {{NULL, NULL, NULL}, {"128", "3", "300"}, 0},   /* MPI_Info hints */
    {{"256", NULL, "1000"}, {NULL, NULL, NULL}, 1}, /* identity packing: zero copy */
    {{NULL, NULL, NULL}, {NULL, NULL, NULL}, 1},
};
static const char *const env_names[3] = {"LATTIO_STRIPING_UNIT", "LATTIO_CB_NODES",
                                         "LATTIO_CB_BUFFER_SIZE"};
static const char *const info_names[3] = {"striping_unit", "cb_nodes", "cb_buffer_size"};
static const tpass *pass_;

static MPI_Info pass_info(void)
{
    MPI_Info info = MPI_INFO_NULL;
    for (int i = 0; i < 3; i++) {
        if (!pass_->info[i]) continue;
        if (info == MPI_INFO_NULL) MPI_Info_create(&info);
        MPI_Info_set(info, info_names[i], pass_->info[i]);
    }
    return info;
}

static void write_lattice(const char *path, const lattio_layout *l, const void *buf, int strategy,
                          uint64_t bytes)
{
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = strategy;
    lattio_file *f = NULL;
    MPI_Info info = pass_info();
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, info, &opt, &f));
    if (info != MPI_INFO_NULL) MPI_Info_free(&info);
    CHECK_OK(lattio_record_write(f, "meta", "m", 1, 1, 0));
    CHECK_OK(lattio_record_begin(f, "lattice", OFF + bytes + 5, 0, 1));
    CHECK_OK(lattio_lattice_write(f, l, OFF, buf));
    CHECK_OK(lattio_record_end(f, 1));
    CHECK_OK(lattio_close(f));
}

/* Rank 0: the aggregate file's lattice is the serial image, the whole file
 * equals the independent strategy's file. */
static void compare_files(const lattio_layout *l, uint64_t bytes, int pi, int ci)
{
    if (mpitest_rank != 0) return;
    size_t n = 0, m = 0;
    unsigned char *agg = test_slurp("agg.lime", &n), *ind = test_slurp("ind.lime", &m);
    unsigned char *img = sim_expected_file(l);
    uint64_t at = 296 + OFF; /* 144 + 8 (the 1-byte meta record), 144 */
    CHECK(agg && n >= at + bytes);
    int same = agg && n >= at + bytes && memcmp(agg + at, img, bytes) == 0;
    CHECK(same);
    CHECK(ind && m == n && memcmp(agg, ind, n) == 0);
    if (!same) {
        fprintf(stderr, "pass %d case %d differs from the serial image\n", pi, ci);
        sim_describe(l);
    }
    free(agg);
    free(ind);
    free(img);
}

/* Read back with the aggregate strategy and the ranks reversed; ghosts stay
 * untouched. */
static void read_back(const sim_case *s)
{
    lattio_layout l;
    bc_layout_of(s, mpitest_size - 1 - mpitest_rank, pass_->plain, &l);
    unsigned char *want = sim_buffer(&l, POISON);
    uint64_t n = sim_buffer_sites(&l) * l.site_bytes;
    unsigned char *got = malloc(n + 1);
    memset(got, POISON, n + 1);
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = LATTIO_STRATEGY_AGGREGATE;
    lattio_file *f = NULL;
    lattio_record_info info;
    MPI_Info hints = pass_info();
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "agg.lime", LATTIO_MODE_READ, hints, &opt, &f));
    if (hints != MPI_INFO_NULL) MPI_Info_free(&hints);
    CHECK_OK(lattio_record_find(f, "lattice", 0, &info));
    CHECK_OK(lattio_lattice_read(f, &l, OFF, got));
    CHECK(memcmp(got, want, n) == 0);
    CHECK(got[n] == POISON);
    CHECK_OK(lattio_close(f));
    free(want);
    free(got);
}

static void run_case(int pi, int ci)
{
    sim_case s;
    bc_make_case(bc_mixed[ci].nd, bc_mixed[ci].global, bc_mixed[ci].split, bc_mixed[ci].mode,
                 bc_mixed[ci].site_bytes, &s);
    lattio_layout l;
    bc_layout_of(&s, mpitest_rank, pass_->plain, &l);
    unsigned char *buf = sim_buffer(&l, POISON);
    uint64_t bytes = sim_prod(l.ndims, l.global) * l.site_bytes;
    write_lattice("agg.lime", &l, buf, LATTIO_STRATEGY_AGGREGATE, bytes);
    write_lattice("ind.lime", &l, buf, LATTIO_STRATEGY_INDEPENDENT, bytes);
    compare_files(&l, bytes, pi, ci);
    MPI_Barrier(MPI_COMM_WORLD);
    read_back(&s);
    free(buf);
}

static void set_pass(int pi)
{
    pass_ = &passes[pi];
    for (int i = 0; i < 3; i++) {
        if (pass_->env[i]) setenv(env_names[i], pass_->env[i], 1);
        else unsetenv(env_names[i]);
    }
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    const int ncases = (int)(sizeof bc_mixed / sizeof bc_mixed[0]);
    const int npasses = (int)(sizeof passes / sizeof passes[0]);
    /* pieces placed in windows shared in memory by the ranks of the node
     * (the default), sent as messages by every rank ("0"), and both at
     * once: groups of 2 ranks share, the others send ("2") */
    static const char *const sharing[] = {NULL, "0", "2"};
    for (int sh = 0; sh < 3; sh++) {
        if (sharing[sh]) setenv("LATTIO_AGG_SHARED", sharing[sh], 1);
        else unsetenv("LATTIO_AGG_SHARED");
        for (int pi = 0; pi < npasses; pi++) {
            set_pass(pi);
            /* the large case only with buffers that keep the rounds few */
            for (int ci = 0; ci < ncases - (pi == 1 || pi == 2); ci++) run_case(pi, ci);
        }
    }
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
