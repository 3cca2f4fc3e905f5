/* profile.c -- the time breakdown (lattio_profile_get / _reset): for each
 * strategy (independent, collective, aggregate, serial, mapped) a lattice with ghost
 * layers (so packing is not the identity) is written and read back.  Checked:
 * on every rank, before any reduction, the phases add up to the calls' total
 * (1e-6 relative) and count the right calls and payload bytes; after the
 * reduction min <= mean <= max, the mean phases add up to the mean total
 * (5%), calls are rank 0's count, bytes the lattice's bytes, and each
 * strategy's work shows in its phases (io, pack, exchange, sync, setup); a
 * nested public call (lattio_record_write) counts once; non-blocking calls
 * count at the start and the wait; open and close are timed as meta; reset
 * zeroes; NULL arguments give ERR_ARG; the data read equal the data written. */
#include "io/io_internal.h"
#include "mpitest.h"

#include <math.h>

static const uint64_t global_[4] = {6, 4, 4, 8};
#define SITE_BYTES 24
#define NSTRAT 5
static const int strategies[NSTRAT] = {LATTIO_STRATEGY_INDEPENDENT, LATTIO_STRATEGY_COLLECTIVE,
                                       LATTIO_STRATEGY_AGGREGATE, LATTIO_STRATEGY_SERIAL,
                                       LATTIO_STRATEGY_MAPPED};
static const char *const strategy_names[NSTRAT] = {"independent", "collective", "aggregate", "serial",
                                                   "mapped"};

/* This rank's box: the fastest file dimension split over the ranks (short
 * runs, pieces for every aggregator), one ghost layer everywhere. */
static void make_layout(lattio_layout *l)
{
    uint64_t lo[4] = {0, 0, 0, 0}, count[4];
    memcpy(count, global_, sizeof count);
    lattio_split(global_[3], (uint64_t)mpitest_size, (uint64_t)mpitest_rank, &lo[3], &count[3]);
    CHECK_OK(lattio_layout_init(l, 4, global_, lo, count, SITE_BYTES));
    for (int d = 0; d < 4; d++) l->halo_lo[d] = l->halo_hi[d] = 1;
}

static uint64_t lattice_bytes(void) { return global_[0] * global_[1] * global_[2] * global_[3] * SITE_BYTES; }

/* On this rank, before any reduction: the phases partition the calls. */
static void check_local(const lattio_file *f, uint64_t calls, uint64_t bytes)
{
    const lattio_prof *p = lattio_prof_local(f);
    double sum = 0;
    for (int i = 0; i < LATTIO_NPHASES; i++) {
        CHECK(p->phase[i] >= 0);
        sum += p->phase[i];
    }
    CHECK(p->total > 0);
    CHECK(fabs(sum - p->total) <= 1e-6 * p->total);
    CHECK_U64(p->calls, calls);
    CHECK_U64(p->bytes, bytes);
    CHECK_INT(p->depth, 0);
    CHECK(lattio_prof_active() == NULL);
}

/* The reduced breakdown: consistent, and the phases that must show do. */
static void check_reduced(lattio_file *f, uint64_t calls, uint64_t bytes, const int *must_all,
                          const int *must_some, lattio_profile *out)
{
    lattio_profile p;
    memset(&p, 0xff, sizeof p);
    CHECK_OK(lattio_profile_get(f, &p));
    CHECK_U64(p.calls, calls);
    CHECK_U64(p.bytes, bytes);
    double sum = 0;
    for (int i = -1; i < LATTIO_NPHASES; i++) {
        const double *t = i < 0 ? p.total : p.phase[i];
        CHECK(t[0] >= 0 && t[0] <= t[1] && t[1] <= t[2]);
        if (i >= 0) sum += t[1];
        if (i >= 0 && must_all[i] && !(t[0] > 0))
            fprintf(stderr, "phase %s: min %g\n", lattio_phase_name(i), t[0]);
        if (i >= 0 && must_all[i]) CHECK(t[0] > 0);  /* on every rank */
        if (i >= 0 && must_some[i]) CHECK(t[2] > 0); /* on some rank */
    }
    CHECK(p.total[1] > 0);
    CHECK(fabs(sum - p.total[1]) <= 0.05 * p.total[1]);
    CHECK(p.phase[LATTIO_PHASE_CHECKSUM][2] == 0); /* nothing here computes checksums */
    if (out) *out = p;
    if (mpitest_rank == 0 && getenv("LATTIO_PROFILE_TEST_PRINT")) { /* eyeballing */
        printf("calls %llu bytes %llu total %.6f/%.6f/%.6f:", (unsigned long long)p.calls,
               (unsigned long long)p.bytes, p.total[0], p.total[1], p.total[2]);
        for (int i = 0; i < LATTIO_NPHASES; i++)
            printf(" %s %.6f/%.6f/%.6f", lattio_phase_name(i), p.phase[i][0], p.phase[i][1], p.phase[i][2]);
        printf("\n");
    }
}

/* Reset zeroes this rank's breakdown and the reduced one. */
static void check_reset(lattio_file *f)
{
    lattio_profile_reset(f);
    const lattio_prof *l = lattio_prof_local(f);
    CHECK(l->calls == 0 && l->bytes == 0 && l->total == 0);
    for (int i = 0; i < LATTIO_NPHASES; i++) CHECK(l->phase[i] == 0);
    lattio_profile p;
    CHECK_OK(lattio_profile_get(f, &p));
    CHECK(p.calls == 0 && p.bytes == 0 && p.total[2] == 0);
    for (int i = 0; i < LATTIO_NPHASES; i++) CHECK(p.phase[i][2] == 0);
}

/* What must show: [0] on every rank, [1] on some rank. */
static void expectations(int s, int writing, int must_all[LATTIO_NPHASES], int must_some[LATTIO_NPHASES])
{
    memset(must_all, 0, LATTIO_NPHASES * sizeof *must_all);
    memset(must_some, 0, LATTIO_NPHASES * sizeof *must_some);
    must_all[LATTIO_PHASE_SETUP] = must_all[LATTIO_PHASE_SYNC] = must_all[LATTIO_PHASE_PACK] = 1;
    if (writing) must_some[LATTIO_PHASE_META] = 1; /* headers and padding: rank 0 */
    if (s == LATTIO_STRATEGY_INDEPENDENT || s == LATTIO_STRATEGY_COLLECTIVE || s == LATTIO_STRATEGY_MAPPED)
        must_all[LATTIO_PHASE_IO] = 1; /* mapped: mapping and unmapping the range */
    else must_some[LATTIO_PHASE_IO] = 1; /* the aggregators */
    if (s == LATTIO_STRATEGY_AGGREGATE || s == LATTIO_STRATEGY_SERIAL) must_all[LATTIO_PHASE_EXCHANGE] = 1;
}

static void fill(unsigned char *buf, uint64_t n, int salt)
{
    for (uint64_t i = 0; i < n; i++) buf[i] = (unsigned char)(i * 131 + (uint64_t)mpitest_rank * 17 + (uint64_t)salt);
}

/* Open, timed as one meta call. */
static lattio_file *open_timed(const char *path, int mode, int s)
{
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = s;
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, mode, MPI_INFO_NULL, &opt, &f));
    if (!f) return NULL;
    check_local(f, 1, 0);
    CHECK(lattio_prof_local(f)->phase[LATTIO_PHASE_META] > 0);
    return f;
}

/* Close; lattio_close's own time went to the handle's breakdown (meta). */
static void close_timed(lattio_file *f)
{
    CHECK_OK(lattio_close(f));
    const lattio_prof *c = lattio_prof_last_closed();
    double sum = 0;
    for (int i = 0; i < LATTIO_NPHASES; i++) sum += c->phase[i];
    CHECK_U64(c->calls, 1); /* the close itself (reset before) */
    CHECK(c->phase[LATTIO_PHASE_META] > 0);
    CHECK(fabs(sum - c->total) <= 1e-6 * c->total);
    CHECK(lattio_prof_active() == NULL);
}

static void write_pass(int k, const lattio_layout *l, const unsigned char *local)
{
    int s = strategies[k], all[LATTIO_NPHASES], some[LATTIO_NPHASES];
    char path[64];
    snprintf(path, sizeof path, "p_%s.lime", strategy_names[k]);
    lattio_file *f = open_timed(path, LATTIO_MODE_CREATE, s);
    if (!f) return;
    lattio_profile_reset(f);
    uint64_t mine = lattio_layout_local_sites(l) * SITE_BYTES;
    CHECK_OK(lattio_record_begin(f, "lattice", lattice_bytes(), 1, 0));
    CHECK_OK(lattio_lattice_write(f, l, 0, local));
    CHECK_OK(lattio_record_end(f, 0));
    check_local(f, 3, mine);
    expectations(s, 1, all, some);
    check_reduced(f, 3, lattice_bytes(), all, some, NULL);
    check_reset(f);
    /* a nested public call counts once; only rank 0's payload moves */
    static const char note[100] = "note";
    CHECK_OK(lattio_record_write(f, "note", note, sizeof note, 0, 1));
    check_local(f, 1, mpitest_rank == 0 ? sizeof note : 0);
    lattio_profile p;
    CHECK_OK(lattio_profile_get(f, &p));
    CHECK_U64(p.calls, 1);
    CHECK_U64(p.bytes, sizeof note);
    lattio_profile_reset(f);
    close_timed(f);
}

static void read_pass(int k, const lattio_layout *l, const unsigned char *want, unsigned char *local)
{
    int s = strategies[k], all[LATTIO_NPHASES], some[LATTIO_NPHASES];
    char path[64];
    snprintf(path, sizeof path, "p_%s.lime", strategy_names[k]);
    lattio_file *f = open_timed(path, LATTIO_MODE_READ, s);
    if (!f) return;
    lattio_profile_reset(f);
    uint64_t n = lattio_layout_local_sites(l), mine = n * SITE_BYTES;
    memset(local, 0, lattio_layout_buffer_sites(l) * SITE_BYTES);
    CHECK_OK(lattio_record_next(f, NULL));
    CHECK_OK(lattio_lattice_read(f, l, 0, local));
    check_local(f, 2, mine);
    expectations(s, 0, all, some);
    check_reduced(f, 2, lattice_bytes(), all, some, NULL);
    unsigned char *a = malloc(mine ? mine : 1), *b = malloc(mine ? mine : 1);
    CHECK_OK(lattio_layout_pack(l, want, 0, n, a));
    CHECK_OK(lattio_layout_pack(l, local, 0, n, b));
    CHECK(memcmp(a, b, mine) == 0);
    free(a);
    free(b);
    lattio_profile_reset(f);
    close_timed(f);
}

/* Non-blocking: the start and the wait are two calls, the bytes count once. */
static void nonblocking_pass(const lattio_layout *l, const unsigned char *local)
{
    lattio_file *f = open_timed("p_nb.lime", LATTIO_MODE_CREATE, LATTIO_STRATEGY_INDEPENDENT);
    if (!f) return;
    CHECK_OK(lattio_record_begin(f, "lattice", lattice_bytes(), 1, 1));
    lattio_profile_reset(f);
    lattio_request *r = NULL;
    CHECK_OK(lattio_lattice_iwrite(f, l, 0, local, &r));
    CHECK_OK(lattio_wait(&r));
    check_local(f, 2, lattio_layout_local_sites(l) * SITE_BYTES);
    const lattio_prof *p = lattio_prof_local(f);
    CHECK(p->phase[LATTIO_PHASE_PACK] > 0 && p->phase[LATTIO_PHASE_IO] > 0);
    CHECK_OK(lattio_record_end(f, 0));
    lattio_profile_reset(f);
    close_timed(f);
}

static void check_arguments(void)
{
    lattio_profile p;
    CHECK_STATUS(lattio_profile_get(NULL, &p), LATTIO_ERR_ARG);
    lattio_profile_reset(NULL); /* no crash */
    CHECK_STR(lattio_phase_name(LATTIO_PHASE_SETUP), "setup");
    CHECK_STR(lattio_phase_name(LATTIO_PHASE_PACK), "pack");
    CHECK_STR(lattio_phase_name(LATTIO_PHASE_CHECKSUM), "checksum");
    CHECK_STR(lattio_phase_name(LATTIO_PHASE_EXCHANGE), "exchange");
    CHECK_STR(lattio_phase_name(LATTIO_PHASE_IO), "io");
    CHECK_STR(lattio_phase_name(LATTIO_PHASE_SYNC), "sync");
    CHECK_STR(lattio_phase_name(LATTIO_PHASE_META), "meta");
    CHECK_STR(lattio_phase_name(-1), "?");
    CHECK_STR(lattio_phase_name(LATTIO_NPHASES), "?");
    lattio_file *f = open_timed("p_args.lime", LATTIO_MODE_CREATE, LATTIO_STRATEGY_AUTO);
    if (!f) return;
    /* one rank's NULL output: ERR_ARG everywhere (agreed) */
    CHECK_STATUS(lattio_profile_get(f, mpitest_rank == mpitest_size - 1 ? NULL : &p), LATTIO_ERR_ARG);
    CHECK_OK(lattio_close(f));
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    lattio_layout l;
    make_layout(&l);
    uint64_t nbuf = lattio_layout_buffer_sites(&l) * SITE_BYTES;
    unsigned char *local = malloc(nbuf), *back = malloc(nbuf);
    fill(local, nbuf, 0);
    check_arguments();
    for (int k = 0; k < NSTRAT; k++) {
        write_pass(k, &l, local);
        read_pass(k, &l, local, back);
    }
    nonblocking_pass(&l, local);
    free(local);
    free(back);
    return mpitest_finish();
}
