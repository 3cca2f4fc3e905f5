/* independent.c -- the independent strategy: every rank moves the file
 * runs of its own sites with independent MPI-IO calls at explicit offsets
 * and no collective call at all.  A stager with the sites already in file
 * bytes (direct: no ghosts, file order, no conversion) is moved in one go
 * straight from or into the caller's buffer; otherwise the rank's box goes
 * in slabs (lattio_slab_plan) through a staging buffer: filled, then
 * written (reads: read, then drained).  With a helper thread the next slab
 * is staged while this one is written (reads: the previous one drained
 * while this one is read), in two staging buffers, and this thread joins
 * the staging once its I/O is done. */
#include "strategy.h"

#include <stdlib.h>

/* Default staging bytes per buffer: small enough that the staged bytes
 * are still in the cache when written (8 MiB of L3 on the development
 * VM), large enough that a round's calls cost nothing next to its copy. */
#define IND_STAGING LATTIO_FIELD_STAGING_DEFAULT
#define IND_RUNS 64

typedef int (*run_fn)(lattio_file *f, uint64_t off, const unsigned char *buf, const lattio_run *r);

static int write_run(lattio_file *f, uint64_t off, const unsigned char *buf, const lattio_run *r)
{
    return lattio_write_at(f, off + r->file_offset, buf + r->packed_offset, r->bytes);
}

static int read_run(lattio_file *f, uint64_t off, const unsigned char *buf, const lattio_run *r)
{
    return lattio_read_at(f, off + r->file_offset, (unsigned char *)buf + r->packed_offset, r->bytes);
}

typedef struct runs_call {
    lattio_move *m;
    const unsigned char *buf; /* packed bytes of the walk's first site */
    uint64_t first;           /* that site */
    run_fn fn;
} runs_call;

static int transfer_batch(void *ctx, uint64_t first, uint64_t n, const lattio_run *runs, size_t nruns)
{
    (void)n;
    const runs_call *c = ctx;
    const unsigned char *buf = c->buf + (first - c->first) * c->m->l->site_bytes;
    lattio_prof_phase(c->m->f, LATTIO_PHASE_IO);
    for (size_t i = 0; i < nruns; i++) RETURN_IF_ERROR(c->fn(c->m->f, c->m->base, buf, &runs[i]));
    lattio_prof_phase(c->m->f, LATTIO_PHASE_SETUP);
    return LATTIO_OK;
}

/* Local: the runs of sites [first, first + n) between `buf` (their packed
 * bytes) and the file. */
static int transfer_runs(lattio_move *m, uint64_t first, uint64_t n, const unsigned char *buf, run_fn fn)
{
    lattio_run runs[IND_RUNS];
    runs_call c = {m, buf, first, fn};
    lattio_prof_phase(m->f, LATTIO_PHASE_SETUP);
    return lattio_layout_runs_each(m->l, first, n, runs, IND_RUNS, transfer_batch, &c);
}

typedef struct slabs {
    lattio_slab_plan p;
    unsigned char *buf[2];
} slabs;

/* Local: the plan and one staging buffer, two with a helper thread. */
static int slabs_init(slabs *x, const lattio_move *m)
{
    const size_t sb = m->l->site_bytes;
    uint64_t budget = m->s->staging_sites ? m->s->staging_sites : IND_STAGING / sb;
    lattio_slab_plan_make(&x->p, m->l, budget ? budget : 1);
    x->buf[0] = x->buf[1] = NULL;
    if (x->p.max_sites == 0) return LATTIO_OK;
    RETURN_IF(x->p.max_sites > SIZE_MAX / sb, LATTIO_ERR_NOMEM);
    const size_t bytes = (size_t)(x->p.max_sites * sb);
    x->buf[0] = lattio_malloc(bytes);
    if (m->helper) x->buf[1] = lattio_malloc(bytes);
    RETURN_IF(!x->buf[0] || (m->helper && !x->buf[1]), LATTIO_FAIL(LATTIO_ERR_NOMEM, "staging"));
    return LATTIO_OK;
}

static void slabs_free(slabs *x)
{
    lattio_free(x->buf[0]);
    lattio_free(x->buf[1]);
}

/* Local: stage chunk q of x into buf (both lanes when m->helper), now. */
static int stage_now(lattio_move *m, const slabs *x, uint64_t q, unsigned char *buf, int writing)
{
    uint64_t first, n;
    lattio_slab_chunk(&x->p, q, &first, &n);
    lattio_lanes lanes;
    lattio_lanes_init(&lanes, m->s, m->l->site_bytes, writing, first, n, buf);
    lattio_prof_phase(m->f, LATTIO_PHASE_PACK);
    lattio_lanes_start(&lanes, m->crew);
    return lattio_lanes_finish(&lanes);
}

static int write_slabs(lattio_move *m, slabs *x)
{
    const uint64_t nq = x->p.nchunks;
    int rc = nq ? stage_now(m, x, 0, x->buf[0], 1) : LATTIO_OK;
    for (uint64_t q = 0; q < nq && rc == LATTIO_OK; q++) {
        uint64_t first, n, nf = 0, nn = 0;
        lattio_slab_chunk(&x->p, q, &first, &n);
        const int ahead = m->helper && q + 1 < nq; /* stage q+1 while q is written */
        lattio_lanes next;
        if (ahead) {
            lattio_slab_chunk(&x->p, q + 1, &nf, &nn);
            lattio_lanes_init(&next, m->s, m->l->site_bytes, 1, nf, nn, x->buf[(q + 1) & 1]);
            lattio_lanes_start(&next, m->crew);
        }
        rc = transfer_runs(m, first, n, x->buf[m->helper ? q & 1 : 0], write_run);
        lattio_prof_phase(m->f, LATTIO_PHASE_PACK);
        const int src = ahead ? lattio_lanes_finish(&next) : LATTIO_OK;
        if (rc == LATTIO_OK) rc = src;
        if (rc == LATTIO_OK && !m->helper && q + 1 < nq) rc = stage_now(m, x, q + 1, x->buf[0], 1);
    }
    return rc;
}

static int read_slabs(lattio_move *m, slabs *x)
{
    const uint64_t nq = x->p.nchunks;
    uint64_t first = 0, n = 0;
    if (nq) lattio_slab_chunk(&x->p, 0, &first, &n);
    int rc = nq ? transfer_runs(m, first, n, x->buf[0], read_run) : LATTIO_OK;
    for (uint64_t q = 0; q < nq && rc == LATTIO_OK; q++) {
        lattio_slab_chunk(&x->p, q, &first, &n);
        lattio_lanes cur;
        lattio_lanes_init(&cur, m->s, m->l->site_bytes, 0, first, n, x->buf[m->helper ? q & 1 : 0]);
        lattio_lanes_start(&cur, m->crew); /* the helper drains q while q+1 is read */
        if (m->helper && q + 1 < nq) {
            uint64_t nf, nn;
            lattio_slab_chunk(&x->p, q + 1, &nf, &nn);
            rc = transfer_runs(m, nf, nn, x->buf[(q + 1) & 1], read_run);
        }
        lattio_prof_phase(m->f, LATTIO_PHASE_PACK);
        const int src = lattio_lanes_finish(&cur);
        if (rc == LATTIO_OK) rc = src;
        if (rc == LATTIO_OK && !m->helper && q + 1 < nq) {
            lattio_slab_chunk(&x->p, q + 1, &first, &n);
            rc = transfer_runs(m, first, n, x->buf[0], read_run);
        }
    }
    return rc;
}

static int move(lattio_move *m, int writing)
{
    const uint64_t total = lattio_layout_local_sites(m->l);
    if (m->s->direct) { /* one go, zero copy */
        m->rounds = total ? 1 : 0;
        return transfer_runs(m, 0, total, m->s->direct, writing ? write_run : read_run);
    }
    slabs x;
    int rc = slabs_init(&x, m);
    m->rounds = x.p.nchunks;
    if (rc == LATTIO_OK) rc = writing ? write_slabs(m, &x) : read_slabs(m, &x);
    slabs_free(&x);
    return rc;
}

static int independent_write(lattio_move *m) { return move(m, 1); }
static int independent_read(lattio_move *m) { return move(m, 0); }

const lattio_strategy_ops lattio_independent_ops = {"independent", independent_write, independent_read};
