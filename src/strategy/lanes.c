/* lanes.c -- staging between a stager and a round's buffer, on this thread
 * and optionally a helper thread: the round is cut into blocks (about one
 * cache's worth of sites, stager->block_sites) that both threads take in
 * turn through an atomic counter, so neither waits while work remains;
 * the helper makes no MPI call.  Also the rule for having a helper. */
#include "strategy.h"

#include <stdlib.h>
#include <string.h>

/* A direct stager's copy, in pieces of COPY_PIECE bytes: glibc copies a
 * larger block with non-temporal stores, and into page-cache pages the
 * kernel has just zeroed (the mapped strategy's fresh pages) those double
 * the memory traffic: the zeroed lines are written back, then the copy.
 * 2 ranks, t slabs, 1.2 GB through the mapping: 0.51-0.64 s in 16 MiB
 * copies, against 0.23-0.30 s for the converting field write. */
#define COPY_PIECE ((size_t)256 << 10)

static void copy(unsigned char *dst, const unsigned char *src, size_t n)
{
    for (size_t at = 0; at < n; at += COPY_PIECE) memcpy(dst + at, src + at, n - at < COPY_PIECE ? n - at : COPY_PIECE);
}

int lattio_stage_fill(const lattio_stager *s, int lane, uint64_t first, uint64_t n,
                      size_t site_bytes, unsigned char *dst)
{
    if (n == 0) return LATTIO_OK;
    if (s->direct) {
        copy(dst, s->direct + first * site_bytes, (size_t)(n * site_bytes));
        return LATTIO_OK;
    }
    return s->fill(s->ctx, lane, first, n, dst);
}

int lattio_stage_drain(const lattio_stager *s, int lane, uint64_t first, uint64_t n,
                       size_t site_bytes, const unsigned char *src)
{
    if (n == 0) return LATTIO_OK;
    if (s->direct) {
        copy(s->direct + first * site_bytes, src, (size_t)(n * site_bytes));
        return LATTIO_OK;
    }
    return s->drain(s->ctx, lane, first, n, src);
}

void lattio_lanes_init(lattio_lanes *x, const lattio_stager *s, size_t site_bytes, int writing,
                       uint64_t first, uint64_t n, unsigned char *buf)
{
    x->s = s;
    x->site_bytes = site_bytes;
    x->writing = writing;
    x->first = first;
    x->n = n;
    x->buf = buf;
    x->block = s->block_sites && s->block_sites < n ? s->block_sites : (n ? n : 1);
    atomic_init(&x->next, 0);
    x->helper = 0;
}

/* Take blocks on `lane` until none is left; a failure stops the other lane. */
static int take(lattio_lanes *x, int lane)
{
    const uint64_t nblocks = (x->n + x->block - 1) / x->block;
    for (;;) {
        const uint64_t b = atomic_fetch_add(&x->next, 1);
        if (b >= nblocks) return LATTIO_OK;
        const uint64_t at = b * x->block, k = x->n - at < x->block ? x->n - at : x->block;
        unsigned char *p = x->buf + at * x->site_bytes;
        const int rc = x->writing ? lattio_stage_fill(x->s, lane, x->first + at, k, x->site_bytes, p)
                                  : lattio_stage_drain(x->s, lane, x->first + at, k, x->site_bytes, p);
        if (rc < 0) {
            atomic_store(&x->next, nblocks);
            return rc;
        }
    }
}

static int helper_main(void *arg)
{
    lattio_lanes *x = arg;
    return take(x, 1);
}

void lattio_lanes_start(lattio_lanes *x, lattio_helper *h)
{
    x->helper = h && x->s->lanes >= 2 && x->n > 0;
    if (x->helper) lattio_task_start(&x->task, h, helper_main, x);
}

int lattio_lanes_finish(lattio_lanes *x)
{
    const int mine = take(x, 0);
    const int theirs = x->helper ? lattio_task_join(&x->task) : LATTIO_OK;
    x->helper = 0;
    RETURN_IF_ERROR(mine);
    return theirs;
}

/* Local: this rank's wish for a helper thread (see strategy.h). */
static int helper_wanted(const lattio_file *f)
{
    if (f->cfg.field_threads >= 0) return f->cfg.field_threads; /* LATTIO_FIELD_THREADS */
    int level = MPI_THREAD_SINGLE;
    if (MPI_Query_thread(&level) != MPI_SUCCESS || level < MPI_THREAD_FUNNELED) return 0;
    return lattio_cpus_allowed() >= 2 && lattio_cpus_online() >= 2 * f->place.node_ranks;
}

int lattio_helper_agreed(lattio_file *f, const lattio_stager *s, int *yes)
{
    *yes = s->lanes >= 2 && !s->direct && helper_wanted(f);
    return MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, yes, 1, MPI_INT, MPI_MIN, f->comm), LATTIO_ERR_MPI);
}
