/* xfer.c -- the plan of one lattice transfer (xfer.h): the layout checked
 * across ranks (io/lattice_check.c), the strategy chosen, the outcome
 * agreed, once per call; the strategies (strategy.h) move the data in
 * between. */
#include "strategy.h"

#include <stdlib.h>
#include <string.h>

/* Local.  The shortest contiguous file run of box l in bytes (a box
 * covering the fastest file dimensions entirely has runs spanning them);
 * UINT64_MAX when it has no sites. */
static uint64_t shortest_run(const lattio_layout *l)
{
    if (lattio_layout_local_sites(l) == 0) return UINT64_MAX;
    uint64_t run = l->site_bytes;
    for (int i = l->ndims - 1; i >= 0; i--) {
        int d = l->file_order[i];
        run *= l->count[d];
        if (l->count[d] != l->global[d]) break;
    }
    return run;
}

/* Independent calls suffice when every rank's file runs are at least this
 * long; shorter runs go through the aggregate strategy with one aggregator
 * per node (ROMIO's cb_nodes default; on one node: serial).  Measured with
 * bench/lattice_bench: 32^3x64 sites of 576 B (1.2 GB), page cache, 2 reps
 * + 1 warm-up, 2 cores shared with other jobs (1-min load 1-240: single runs
 * vary 2-10x, so compare within a row); median s write / read, and in
 * brackets the ratio t(POSIX by rank 0, same run) / t(case):
 *
 *   np decomp io        independent       collective        aggregate         serial
 *   1  t-slab romio321  0.71/0.19         1.03/0.38         1.41/0.69         1.34/0.84
 *                       (1.02/0.98)       (0.76/0.49)       (0.56/0.30)       (0.77/0.44)
 *   2  t-slab romio321  1.34/0.19         7.99/1.72         4.72/1.01         70.1/3.66 *
 *                       (1.42/1.78)       (0.36/0.64)       (0.45/0.44)       (0.12/0.27)
 *   4  t-slab romio321  4.52/0.97         6.79/2.70         -                 -
 *                       (1.09/1.17)       (0.65/0.45)
 *   4  x,y    romio321  32.5/16.0         10.1/6.44         11.8/4.76         7.94/3.22
 *                       (0.11/0.05)       (0.40/0.09)       (0.41/0.16)       (0.62/0.18)
 *   4  x,y    ompio     9.72/1.14         14.4/5.45         9.27/3.93         5.92/2.17
 *                       (0.61/1.07)       (0.25/0.19)       (0.36/0.31)       (0.72/0.20)
 *   (4 ranks on 2 cores: oversubscribed; * load 16 -> 194 during the run;
 *   "-": not measured in the time available)
 * A small lattice (8^3x16, 4.7 MB, x,y at 4 ranks, romio321, best of 5 s
 * write / read): independent 0.054/0.017, collective 0.048/0.041, aggregate
 * 0.022/0.017, serial 0.011/0.009.
 * t-slab runs (>= 4.7 MiB per rank here) make independent the fastest, at
 * the POSIX baseline; with the x,y split's 9 KiB runs serial (one
 * aggregator) was the fastest writer under both MPI-IO components and the
 * fastest reader under ROMIO, 2.5-5x faster than independent there.
 * Re-measured on the merged code with a quieter machine (lattio bench, the
 * same lattice, 3 reps, 1-min load 1.7-3.9, docs/performance.md "lattio bench" table):
 * for fine x,y splits independent reads were 1.8-2.7x faster than serial or
 * aggregate reads at 2 and 4 ranks under both components (ompio np4: 4851
 * against 2000 MiB/s), while aggregate/serial stayed the faster writers
 * (ompio np4 1452/1094 against 1064 MiB/s independent): the default reads
 * independently whatever the layout.
 * Since the mapped strategy (stop 22, bench/results/mapped-2026-11-25.md):
 * on 2+ ranks of one node with the file on a local disk or tmpfs, ranks
 * converting straight into the page cache beat every strategy above, which
 * all copy through write/read calls that one file's lock serialises: it is
 * the default there, for writes and reads.  A single rank reads that way
 * too (stop 23: 1 rank, a 1.2 GB field read with its checksum verified,
 * the helper thread on the second CPU taking every other block: 0.14-0.22 s
 * mapped against 0.19-0.34 s independent in 8 of 8 alternating pairs; on
 * one CPU both 0.22-0.35 s), but writes independently: its write faults
 * on fresh pages of a mapping cost more than one write() copy on one CPU
 * (0.73-0.87 s mapped against 0.50-0.61 s) and gained nothing certain with
 * the helper (medians 0.52 against 0.47 s).
 * Small fields on one node (stop 49, bench/results/per-call-2026-11-29.md,
 * bench/small_fields.c, 2 ranks, 10 fields a file, whole file against
 * rank 0's write() of the same bytes in the same run): at 8^4 (2.36 MB)
 * one writer 1.86-2.34x, mapped 4.60-5.05x (its page faults on a fresh
 * file's pages dominate); at 12^4 (12 MB) even (1.59 / 1.62x); at 16^4
 * (38 MB) mapped ahead (0.84 / 1.22x).  Whole-field writes of at most
 * LATTIO_ONE_WRITER_BYTES (8 MiB) with every rank on one node therefore
 * go through one writer.
 * Reads across nodes (stop 51, bench/results/read-across-nodes-2026-11-29.md):
 * the one-node measurements above kept reads independent, but across nodes
 * a fine x,y split (4.6 KB runs) read independently is 4096 calls per rank
 * (a round trip each on a network file system) against a window per call
 * through one aggregator per node; lattice_bench 16x16x16x32 at 2x2 and
 * 4x1 on GlusterFS and MooseFS, ROMIO and OMPIO: the aggregate read 1.2-2.6x
 * faster in 8 of 8 (medians of 3).  A fine split across nodes is therefore
 * read through one aggregator per node too (cluster.scale.counts holds the
 * calls to the fewest its bytes need). */
#define AUTO_MIN_RUN ((uint64_t)1 << 20)

/* Local.  The measured default from the shortest run of any rank: the
 * strategy, and for the aggregate strategy the default number of
 * aggregators in *naggs (one per node, as ROMIO's cb_nodes; on one node this
 * is the serial strategy; a cb_nodes hint still overrides it). */
/* Local, equal on every rank (the file system is rank 0's, broadcast at
 * open): the page cache is the file, so the mapped strategy may move it.
 * Every rank on one node (a file on a node's disk is the same file only for
 * the ranks of that node; NFS keeps no coherence between mappings of two
 * clients), a local disk or tmpfs, a file lattio opened by name. */
static int mapped_eligible(const lattio_file *f)
{
    return f->place.nnodes == 1 && (f->place.fs_kind == LATTIO_FS_LOCAL || f->place.fs_kind == LATTIO_FS_TMPFS) &&
           !f->place.borrowed && lattio_xfer_disk_name(f) != NULL;
}

/* Local: the mapped strategy was asked for where it cannot run; the
 * profile counts it and says why (lattio_profile_get, `lattio bench`). */
static int mapped_fallback(lattio_file *f)
{
    char *why = f->prof.fallback;
    const size_t n = sizeof f->prof.fallback;
    if (f->place.borrowed || !lattio_xfer_disk_name(f))
        snprintf(why, n, "mapped asked: the file is not one lattio opened by name");
    else if (f->place.nnodes > 1)
        snprintf(why, n, "mapped asked: the ranks are on %d nodes, whose page caches are not one file", f->place.nnodes);
    else
        snprintf(why, n, "mapped asked: the file is on %s, not a local disk or tmpfs", lattio_fs_name(f->place.fs_kind));
    f->prof.fallbacks++;
    if (f->rank == 0) LATTIO_TRACE("%s: the measured default instead", why);
    return LATTIO_STRATEGY_AUTO;
}

/* The bytes of the whole lattice (saturating): equal on every rank, whose
 * lattices lattio_same_lattice_part agreed. */
static uint64_t lattice_bytes(const lattio_layout *l)
{
    const uint64_t sites = lattio_layout_global_sites(l);
    return sites && l->site_bytes > UINT64_MAX / sites ? UINT64_MAX : sites * l->site_bytes;
}

static int auto_strategy(const lattio_file *f, const lattio_layout *l, uint64_t min_run, int writing, int partial,
                         uint64_t *naggs)
{
    if (writing && !partial && f->size > 1 && f->place.nnodes == 1 && lattice_bytes(l) <= f->cfg.one_writer_bytes)
        return LATTIO_STRATEGY_SERIAL;
    if ((f->size > 1 || !writing) && mapped_eligible(f)) return LATTIO_STRATEGY_MAPPED;
    /* a fine split (runs under 1 MiB) goes through one aggregator per node:
     * whole stripes, a call each, written or read; a read on one node keeps
     * its independent calls (one page cache: small reads cost no round trip) */
    const int fine = f->size > 1 && min_run < AUTO_MIN_RUN && (writing || f->place.nnodes > 1);
    if (!fine) return LATTIO_STRATEGY_INDEPENDENT;
    *naggs = (uint64_t)f->place.nnodes;
    return LATTIO_STRATEGY_AGGREGATE;
}

/* Collective.  The strategy of this call: opt.strategy, or when AUTO the
 * environment's LATTIO_STRATEGY, or when that is unset (or auto) the
 * measured default chosen from the layout (the same on every rank: one
 * reduction of the status and the shortest run).  Rank 0's explicit choice
 * is used everywhere (all ranks must make the same calls). */
static int choose_strategy(lattio_file *f, const lattio_layout *l, int writing, int partial, int *strategy,
                           uint64_t *naggs)
{
    int s = f->opt.strategy;
    if (s == LATTIO_STRATEGY_AUTO) s = f->cfg.strategy; /* LATTIO_STRATEGY */
    int rc = s >= LATTIO_STRATEGY_AUTO && s <= LATTIO_STRATEGY_MAPPED
                 ? LATTIO_OK
                 : LATTIO_FAIL(LATTIO_ERR_ARG, "unknown lattio_options.strategy");
    /* [0]: the most negative status, [1]: the shortest run of any rank */
    uint64_t run = shortest_run(l);
    int64_t mine[2] = {rc, run > INT64_MAX ? INT64_MAX : (int64_t)run}, all[2];
    RETURN_IF_ERROR(MPI_CHECK(MPI_Allreduce(mine, all, 2, MPI_INT64_T, MPI_MIN, f->comm), LATTIO_ERR_MPI));
    RETURN_IF_ERROR((int)all[0]);
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(&s, 1, MPI_INT, 0, f->comm), LATTIO_ERR_MPI));
    *naggs = 0;
    if (s == LATTIO_STRATEGY_MAPPED && !mapped_eligible(f)) s = mapped_fallback(f);
    if (s == LATTIO_STRATEGY_AUTO) s = auto_strategy(f, l, (uint64_t)all[1], writing, partial, naggs);
    /* while a non-blocking request is pending: independent transfers only
     * (no collective MPI-IO call; npending is equal on every rank) */
    if (f->req.npending > 0) s = LATTIO_STRATEGY_INDEPENDENT;
    if (f->rank == 0)
        LATTIO_TRACE("strategy %d, default aggregators %llu (shortest run %lld bytes)", s,
                     (unsigned long long)*naggs, (long long)all[1]);
    *strategy = s;
    return LATTIO_OK;
}

static const lattio_strategy_ops *const strategies[] = {
    [LATTIO_STRATEGY_INDEPENDENT] = &lattio_independent_ops,
    [LATTIO_STRATEGY_COLLECTIVE] = &lattio_collective_ops,
    [LATTIO_STRATEGY_AGGREGATE] = &lattio_aggregate_ops,
    [LATTIO_STRATEGY_SERIAL] = &lattio_serial_ops,
    [LATTIO_STRATEGY_MAPPED] = &lattio_mapped_ops,
};

/* Local: where the lattice goes (writing: the open record) or comes from
 * (reading: the current record; a writer's open record for verification). */
static int target(lattio_file *f, const lattio_layout *l, uint64_t offset, int writing,
                  const lattio_stager *s, uint64_t *base)
{
    RETURN_IF(!s || (!s->direct && !(writing ? s->fill != NULL : s->drain != NULL)), LATTIO_ERR_ARG);
    if (writing || f->mode != LATTIO_MODE_READ) {
        RETURN_IF_ERROR(lattio_record_writing(f));
        *base = f->out.rec_data;
        RETURN_IF(!writing && f->req.npending > 0, LATTIO_ERR_PENDING);
        return lattio_lattice_fits(l, offset, f->out.rec_len, s); /* the stager stands for the buffer */
    }
    const lattio_record_info *r = lattio_current_record(f);
    RETURN_IF(!r, LATTIO_FAIL(LATTIO_ERR_STATE, "no current record"));
    *base = r->data_offset;
    return lattio_lattice_fits(l, offset, r->length, s);
}

/* Collective.  The call's outcome in one reduction: the lowest status and
 * the most rounds of any rank (rounds negated, both under MIN).  Only a
 * failure takes the agreement that tells every rank the failing rank's
 * system reason. */
static int outcome(lattio_file *f, int rc, uint64_t mine, uint64_t *rounds)
{
    int64_t v[2] = {rc, -(int64_t)(mine > INT64_MAX ? INT64_MAX : mine)}, all[2];
    RETURN_IF_ERROR(MPI_CHECK(MPI_Allreduce(v, all, 2, MPI_INT64_T, MPI_MIN, f->comm), LATTIO_ERR_MPI));
    if (all[0] < 0) return lattio_agree(f->comm, rc);
    *rounds = (uint64_t)(-all[1]);
    return LATTIO_OK;
}

/* Collective.  The whole call: checks and choice (once), the strategy's
 * rounds, one agreement. */
static int xfer(lattio_file *f, const lattio_layout *l, uint64_t offset, int partial, int writing,
                const lattio_stager *s, lattio_xfer_info *out)
{
    RETURN_IF(!f, LATTIO_ERR_ARG);
    if (out) memset(out, 0, sizeof *out);
    uint64_t base = 0;
    RETURN_IF_ERROR(lattio_same_lattice_part(f, l, target(f, l, offset, writing, s, &base), partial));
    int strategy = LATTIO_STRATEGY_INDEPENDENT;
    lattio_move m = {.f = f, .l = l, .base = base + offset, .s = s};
    RETURN_IF_ERROR(choose_strategy(f, l, writing, partial, &strategy, &m.naggs));
    /* aggregate and serial write whole file windows, which a partial call
     * does not fill: its pieces go out independently (equal on every rank) */
    if (partial && (strategy == LATTIO_STRATEGY_AGGREGATE || strategy == LATTIO_STRATEGY_SERIAL))
        strategy = LATTIO_STRATEGY_INDEPENDENT;
    RETURN_IF_ERROR(lattio_helper_agreed(f, s, &m.helper));
    m.crew = m.helper ? lattio_helper_open() : NULL; /* none: the helper's share runs here */
    const lattio_strategy_ops *ops = strategies[strategy];
    int rc = writing ? ops->write(&m) : ops->read(&m);
    lattio_helper_close(m.crew);
    lattio_prof_phase(f, LATTIO_PHASE_SYNC);
    uint64_t rounds = 0;
    rc = outcome(f, rc, m.rounds, &rounds);
    f->prof.strategy = strategy;
    if (out) {
        out->rounds = rounds;
        out->strategy = strategy;
        out->threaded = m.helper;
    }
    RETURN_IF_ERROR(rc);
    if (writing) f->out.rec_written += lattio_layout_local_sites(l) * l->site_bytes;
    return LATTIO_OK;
}

int lattio_xfer_write(lattio_file *f, const lattio_layout *l, uint64_t offset, int partial,
                      const lattio_stager *s, lattio_xfer_info *out)
{
    return xfer(f, l, offset, partial, 1, s, out);
}

int lattio_xfer_read(lattio_file *f, const lattio_layout *l, uint64_t offset, int partial,
                     const lattio_stager *s, lattio_xfer_info *out)
{
    return xfer(f, l, offset, partial, 0, s, out);
}
