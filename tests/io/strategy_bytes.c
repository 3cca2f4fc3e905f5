/* strategy_bytes.c -- every lattice strategy (independent, collective,
 * aggregate, serial, mapped) and the default (AUTO, the measured rule) writes exactly
 * the bytes of an independent serial computation (sim.h's image) and the
 * same whole file, and reads back the data (ghosts untouched) with the ranks
 * reversed, whichever strategy wrote it.
 * Decompositions: t-slab (the slowest file dimension), an x,y split of the
 * two fastest file dimensions with pieces of a few KiB, a 4-D spread split,
 * uneven extents, a rank owning no site, random (possibly empty) cuts; halos
 * in every buffer except the plain pass; Lemon and ILDG orders; the lattice
 * at payload offset 13 (not a multiple of 8).
 * Passes: defaults; tiny rounds and blocks through LATTIO_CB_BUFFER_SIZE /
 * LATTIO_STRIPING_UNIT (windows cutting sites, many rounds for serial); the
 * hint fields of lattio_options (which reach MPI_File_open and the
 * aggregate/serial plans); plain layouts (zero-copy paths); LATTIO_STRATEGY
 * naming each strategy under AUTO. */
#include "io/io_internal.h"
#include "bytecases.h"

#define OFF 13 /* payload offset of the lattice: not a multiple of 8 */
#define NSTRAT 6

static const int strategies[NSTRAT] = {LATTIO_STRATEGY_INDEPENDENT, LATTIO_STRATEGY_COLLECTIVE,
                                       LATTIO_STRATEGY_AGGREGATE, LATTIO_STRATEGY_SERIAL,
                                       LATTIO_STRATEGY_AUTO, LATTIO_STRATEGY_MAPPED};
static const char *const env_strategy[NSTRAT] = {"independent", "collective", "aggregate", "serial",
                                                 "auto", "mapped"};

typedef struct tcase {
    const char *name;
    int nd;
    uint64_t global[4];
    int split; /* enum bc_split */
    int mode;  /* sim.h order mode: 0 identity, 1 Lemon, 4 ILDG */
    size_t site_bytes;
} tcase;

static const tcase cases[] = {
    {"t-slab", 4, {8, 4, 4, 4}, BC_SLOWEST, 0, 576},
    {"x,y split", 4, {4, 2, 8, 8}, BC_XY, 0, 576}, /* x pieces of 2..4 sites: 1.1-2.3 KiB */
    {"x,y split ILDG", 4, {8, 8, 2, 4}, BC_XY, 4, 576},
    {"4-D spread", 4, {6, 3, 4, 5}, BC_SPREAD, 4, 72},
    {"uneven", 3, {5, 7, 3}, BC_SLOWEST, 1, 72},
    {"empty rank", 2, {6, 5}, BC_EMPTY, 0, 72},
    {"random cuts", 4, {6, 3, 4, 5}, BC_RANDOM, 4, 1},
};

typedef struct tpass {
    const char *name;
    const char *unit, *buffer; /* LATTIO_STRIPING_UNIT, LATTIO_CB_BUFFER_SIZE (NULL: unset) */
    int opt_hints;             /* lattio_options hint fields set */
    int plain;                 /* no halos, memory order = file order */
    int by_env;                /* strategies named by LATTIO_STRATEGY under AUTO */
    unsigned skip;             /* strategies (bit si) the pass does not change: not run */
    unsigned cases;            /* cases (bit ci) run; 0: all */
} tpass;

/* The tiny-rounds pass changes only lattio's own two-phase strategies: the
 * collective one (slow at 4 oversubscribed ranks under OMPIO) is not rerun. */
static const tpass passes[] = {
    {"defaults", NULL, NULL, 0, 0, 0, 0, 0},
    {"tiny rounds", "512", "700", 0, 0, 0, 1u << 1 | 1u << 5, 0}, /* mapped: no windows */
    {"option hints", NULL, NULL, 1, 0, 0, 0, 0x2A},   /* x,y; 4-D; empty rank */
    {"plain", NULL, NULL, 0, 1, 0, 0, 0x53},          /* t-slab; x,y; uneven; random */
    {"LATTIO_STRATEGY", NULL, "3000", 0, 1, 1, 0, 0x24}, /* x,y ILDG; empty rank */
};
static const tpass *pass_;

static lattio_file *open_file(const char *path, int mode, int si)
{
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = pass_->by_env ? LATTIO_STRATEGY_AUTO : strategies[si];
    if (pass_->by_env) setenv("LATTIO_STRATEGY", env_strategy[si], 1);
    if (pass_->opt_hints) {
        opt.stripe_count = 1;
        opt.stripe_size = 4096;  /* aggregate/serial: 4 KiB domains */
        opt.aggregators = 2;
        opt.cb_buffer_size = 65536; /* 16 domains per window; block edges cut sites */
    }
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, mode, MPI_INFO_NULL, &opt, &f));
    return f;
}

static void write_lattice(const char *path, const lattio_layout *l, const void *buf, int si, uint64_t bytes)
{
    lattio_file *f = open_file(path, LATTIO_MODE_CREATE, si);
    if (!f) return;
    CHECK_OK(lattio_record_write(f, "meta", "m", 1, 1, 0));
    CHECK_OK(lattio_record_begin(f, "lattice", OFF + bytes + 5, 0, 1));
    CHECK_OK(lattio_lattice_write(f, l, OFF, buf));
    CHECK_OK(lattio_record_end(f, 1));
    CHECK_OK(lattio_close(f));
    unsetenv("LATTIO_STRATEGY");
}

static const char *file_name(int si)
{
    static const char *const names[NSTRAT] = {"ind.lime", "coll.lime", "agg.lime", "serial.lime", "auto.lime",
                                              "mapped.lime"};
    return names[si];
}

/* Rank 0: every strategy's lattice is the serial image; every whole file
 * equals the independent strategy's. */
static void compare_files(const lattio_layout *l, uint64_t bytes, int ci)
{
    if (mpitest_rank != 0) return;
    unsigned char *img = sim_expected_file(l);
    size_t n0 = 0;
    unsigned char *ref = test_slurp(file_name(0), &n0);
    uint64_t at = 296 + OFF; /* 144 + 8 (the 1-byte meta record), 144 */
    for (int si = 0; si < NSTRAT; si++) {
        if (pass_->skip & (1u << si)) continue;
        size_t n = 0;
        unsigned char *got = test_slurp(file_name(si), &n);
        int same = got && n >= at + bytes && memcmp(got + at, img, bytes) == 0;
        CHECK(same);
        CHECK(got && ref && n == n0 && memcmp(got, ref, n) == 0);
        if (!same) fprintf(stderr, "pass %s, case %s, strategy %d: not the serial image\n", pass_->name,
                           cases[ci].name, strategies[si]);
        free(got);
    }
    free(ref);
    free(img);
}

/* Read file `path` with strategy si and the ranks reversed; ghosts and the
 * byte past the buffer stay untouched. */
static void read_back(const sim_case *s, const char *path, int si)
{
    lattio_layout l;
    bc_layout_of(s, mpitest_size - 1 - mpitest_rank, pass_->plain, &l);
    unsigned char *want = sim_buffer(&l, POISON);
    uint64_t n = sim_buffer_sites(&l) * l.site_bytes;
    unsigned char *got = malloc(n + 1);
    memset(got, POISON, n + 1);
    lattio_file *f = open_file(path, LATTIO_MODE_READ, si);
    lattio_record_info info;
    if (f) {
        CHECK_OK(lattio_record_find(f, "lattice", 0, &info));
        CHECK_OK(lattio_lattice_read(f, &l, OFF, got));
        CHECK(memcmp(got, want, n) == 0);
        CHECK(got[n] == POISON);
        CHECK_OK(lattio_close(f));
    }
    unsetenv("LATTIO_STRATEGY");
    free(want);
    free(got);
}

static void run_case(int ci)
{
    sim_case s;
    bc_make_case(cases[ci].nd, cases[ci].global, cases[ci].split, cases[ci].mode,
                 cases[ci].site_bytes, &s);
    lattio_layout l;
    bc_layout_of(&s, mpitest_rank, pass_->plain, &l);
    unsigned char *buf = sim_buffer(&l, POISON);
    uint64_t bytes = sim_prod(l.ndims, l.global) * l.site_bytes;
    for (int si = 0; si < NSTRAT; si++)
        if (!(pass_->skip & (1u << si))) write_lattice(file_name(si), &l, buf, si, bytes);
    compare_files(&l, bytes, ci);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int si = 0; si < NSTRAT; si++) { /* each reads the file of the strategy before it */
        int from = (si + NSTRAT - 1) % NSTRAT;
        while (pass_->skip & (1u << from)) from = (from + NSTRAT - 1) % NSTRAT;
        if (!(pass_->skip & (1u << si))) read_back(&s, file_name(from), si);
    }
    free(buf);
}

static void set_env(const char *name, const char *value)
{
    if (value) setenv(name, value, 1);
    else unsetenv(name);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    unsetenv("LATTIO_STRATEGY");
    const int ncases = (int)(sizeof cases / sizeof cases[0]);
    for (size_t pi = 0; pi < sizeof passes / sizeof passes[0]; pi++) {
        pass_ = &passes[pi];
        set_env("LATTIO_STRIPING_UNIT", pass_->unit);
        set_env("LATTIO_CB_BUFFER_SIZE", pass_->buffer);
        for (int ci = 0; ci < ncases; ci++)
            if (!pass_->cases || (pass_->cases & (1u << ci))) run_case(ci);
    }
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
