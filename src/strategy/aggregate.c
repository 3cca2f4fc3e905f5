/* aggregate.c -- the aggregate strategy: lattio's own two-phase I/O.
 *
 * The geometry (file domains, aggregators, windows, pieces) is agg_plan.c.
 * In round r every aggregator handles window r of its region and makes ONE
 * independent MPI-IO call for it; every rank contributes (writing) or
 * takes (reading) the bytes of its sites that lie in each aggregator's
 * window.  Every rank knows every rank's box (one allgather), so piece
 * sizes are never exchanged and the number of rounds follows from
 * parameters rank 0 chose and broadcast: every rank makes the same rounds.
 *
 * How a piece moves depends on where the aggregator is (agg_shared.h):
 *  - the aggregator itself and the ranks sharing memory with it (by
 *    default the ranks of its node) convert their sites straight into the
 *    window buffer at their file positions (reading: straight out of it),
 *    and tell the aggregator with an empty note; with peers the aggregator
 *    has two buffers, so they fill window r + 1 while it writes window r
 *    (a note says when a buffer is free again: writing, the aggregator's
 *    "free" after its write; reading, the peer's "done" after its drain);
 *  - other ranks send their piece as one message (reading: receive it):
 *    the aggregator receives it straight into the window when it is one
 *    file run, else through a scratch area and lattio_agg_runs.
 * Pieces are at most 1 GiB (the buffer's limit), so no MPI count
 * overflows.  A window edge may cut a site; writers stage a cut site once
 * and keep it in a small table until every window holding a part of it
 * has had its part, readers collect cut sites there until complete.
 * Sites come from and go to the stager (xfer.h), each exactly once per
 * call; zero-copy when the stager's sites are already file bytes.
 *
 * Errors inside a round do not stop the exchange (peers would wait): a rank
 * keeps sending, receiving and noting, skips its file access and reports
 * at the end.
 */
#include "agg_shared.h"
#include "strategy.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define AGG_TAG 0x1a77      /* a piece */
#define AGG_TAG_DONE 0x1a78 /* a peer placed (writing) or took (reading) its piece */
#define AGG_TAG_FREE 0x1a79 /* writing: a buffer is free; reading: a window is ready */

/* Sites cut by a window edge: staged once (writing) or collected
 * (reading) in a slot until all their bytes have gone or come. */
typedef struct cut_site {
    uint64_t site, got; /* bytes used (writing) or arrived (reading); 0: slot free */
    unsigned char *bytes;
} cut_site;

typedef struct agg {
    lattio_file *f;
    const lattio_layout *l; /* this rank's layout */
    agg_plan p;
    int writing, identity, me; /* me: this rank's aggregator index, -1 if none */
    const lattio_stager *s;    /* identity: s->direct holds the packed sites */
    uint64_t *boxes;           /* lo[ndims], count[ndims] of every rank */
    lattio_layout other;       /* scratch: another rank's box */
    agg_shared sh;             /* window buffers */
    unsigned char *scratch, *packed, *site; /* others' multi-run pieces; this rank's pieces; a cut site */
    uint64_t packed_cap;
    MPI_Request *reqs, *notes; /* a round's transfers; the aggregator's notes of the last round */
    uint64_t *inbox;           /* a round's notes received, by sender */
    uint64_t outbox[2];        /* the value of the notes in flight: [0] this round's, [1] the aggregator's */
    int nnotes;
    cut_site *cuts;
    int ncuts;
    int io_rc; /* first error of this rank */
} agg;

/* Rank q's box as a layout of file positions only. */
static const lattio_layout *box_of(agg *g, int q)
{
    if (q == g->f->rank) return g->l;
    int nd = g->l->ndims;
    memcpy(g->other.lo, g->boxes + (size_t)q * 2 * nd, (size_t)nd * sizeof(uint64_t));
    memcpy(g->other.count, g->boxes + (size_t)q * 2 * nd + nd, (size_t)nd * sizeof(uint64_t));
    return &g->other;
}

static void note(agg *g, int rc)
{
    if (g->io_rc == LATTIO_OK && rc < 0) g->io_rc = rc;
}

/* Rank q's piece [*p0, *p1) of aggregator a's window r (window in *lo, *hi);
 * 0 when empty. */
static int piece_of(agg *g, int q, int a, uint64_t r, uint64_t *lo, uint64_t *hi, uint64_t *p0, uint64_t *p1)
{
    lattio_agg_window(&g->p, a, r, lo, hi);
    if (*hi <= *lo) return 0;
    lattio_agg_piece(&g->p, box_of(g, q), *lo, *hi, p0, p1);
    return *p1 > *p0;
}

/* Aggregator a's window buffer of round r when this rank reaches it in
 * memory (a is this rank, or shares memory with it), else NULL. */
static unsigned char *local_buf(agg *g, int a, uint64_t r) { return lattio_agg_shared_buf(&g->sh, a, r); }

/* Rank q places its pieces of this rank's windows itself (q shares memory
 * with this rank, or is this rank). */
static int is_peer(const agg *g, int q) { return g->sh.grank[q] != MPI_UNDEFINED; }

/* --- notes between an aggregator and its peers --------------------------- */

static int send_note(agg *g, int to, int tag, const uint64_t *value, MPI_Request *req)
{
    lattio_agg_shared_sync(&g->sh);
    return MPI_CHECK(MPI_Isend(value, 1, MPI_UINT64_T, to, tag, g->f->comm, req), LATTIO_ERR_MPI);
}

/* Blocking: the note of round r from rank `from`. */
static int wait_note(agg *g, int from, int tag, uint64_t r)
{
    uint64_t v = UINT64_MAX;
    lattio_prof_phase(g->f, LATTIO_PHASE_EXCHANGE);
    RETURN_IF_ERROR(MPI_CHECK(MPI_Recv(&v, 1, MPI_UINT64_T, from, tag, g->f->comm, MPI_STATUS_IGNORE), LATTIO_ERR_MPI));
    RETURN_IF(v != r, LATTIO_ERR_MPI); /* notes out of order: a bug */
    lattio_agg_shared_sync(&g->sh);
    return LATTIO_OK;
}

/* Aggregator: complete last round's notes, then note round r (value `v`)
 * to every peer with a piece in window r (`tag`). */
static int notify_peers(agg *g, uint64_t r, uint64_t v, int tag)
{
    if (g->nnotes) RETURN_IF_ERROR(MPI_CHECK(MPI_Waitall(g->nnotes, g->notes, MPI_STATUSES_IGNORE), LATTIO_ERR_MPI));
    g->nnotes = 0;
    g->outbox[1] = v;
    for (int q = 0; r < g->p.rounds && q < g->f->size; q++) {
        uint64_t lo, hi, p0, p1;
        if (q == g->f->rank || !is_peer(g, q) || !piece_of(g, q, g->me, r, &lo, &hi, &p0, &p1)) continue;
        RETURN_IF_ERROR(send_note(g, q, tag, &g->outbox[1], &g->notes[g->nnotes++]));
    }
    return LATTIO_OK;
}

/* Aggregator, reading round r (window r not empty): every peer that took
 * a piece of window r - 2 is done with the buffer. */
static int wait_peers(agg *g, uint64_t r)
{
    for (int q = 0; r >= 2 && q < g->f->size; q++) {
        uint64_t lo, hi, p0, p1;
        if (q == g->f->rank || !is_peer(g, q) || !piece_of(g, q, g->me, r - 2, &lo, &hi, &p0, &p1)) continue;
        RETURN_IF_ERROR(wait_note(g, q, AGG_TAG_DONE, r - 2));
    }
    return LATTIO_OK;
}

/* --- sizes and buffers --------------------------------------------------- */

/* Packed bytes this rank sends to or receives from aggregators it does
 * not share memory with, per round at most (whole sites of every piece). */
static uint64_t packed_need(agg *g)
{
    uint64_t most = 0, sb = g->l->site_bytes;
    for (uint64_t r = 0; r < g->p.rounds; r++) {
        uint64_t sum = 0;
        for (int a = 0; a < g->p.naggs; a++) {
            uint64_t lo, hi, p0, p1;
            if (!is_peer(g, lattio_agg_rank(&g->p, a)) && piece_of(g, g->f->rank, a, r, &lo, &hi, &p0, &p1))
                sum += ((p1 + sb - 1) / sb - p0 / sb) * sb;
        }
        if (sum > most) most = sum;
    }
    return most;
}

/* Aggregators: the ranks' pieces of every window add up to the window (the
 * boxes tile it), so a round's pieces fit the window and scratch. */
static int check_windows(agg *g)
{
    for (uint64_t r = 0; g->me >= 0 && r < g->p.rounds; r++) {
        uint64_t lo, hi, sum = 0;
        lattio_agg_window(&g->p, g->me, r, &lo, &hi);
        for (int q = 0; q < g->f->size && hi > lo; q++) {
            uint64_t p0, p1;
            lattio_agg_piece(&g->p, box_of(g, q), lo, hi, &p0, &p1);
            sum += p1 - p0;
        }
        RETURN_IF(sum != hi - lo, LATTIO_ERR_LAYOUT); /* overlapping boxes */
    }
    return LATTIO_OK;
}

/* Local: the buffers of the sites a window edge cuts (assembled in them)
 * and of one site; none for the identity layout. */
static int allocate_cuts(agg *g)
{
    const uint64_t sb = g->l->site_bytes;
    if (g->identity) return LATTIO_OK;
    g->cuts = lattio_calloc((size_t)g->ncuts, sizeof *g->cuts);
    unsigned char *cutbytes = g->cuts ? lattio_malloc((size_t)(g->ncuts + 1) * sb) : NULL;
    if (!cutbytes) return LATTIO_FAIL(LATTIO_ERR_NOMEM, "aggregate buffers"); /* cuts[0].bytes stays NULL */
    for (int i = 0; i < g->ncuts; i++) g->cuts[i].bytes = cutbytes + (size_t)i * sb;
    g->site = cutbytes + (size_t)g->ncuts * sb;
    return LATTIO_OK;
}

/* Local: buffers once the shared windows are known. */
static int allocate(agg *g)
{
    int size = g->f->size, remote = 0;
    for (int q = 0; q < size; q++) remote |= !is_peer(g, q);
    const uint64_t w = g->me >= 0 && remote ? lattio_agg_window_need(&g->p, g->me) : 0;
    g->packed_cap = g->identity ? 0 : packed_need(g);
    g->scratch = w ? lattio_malloc((size_t)w) : NULL;
    g->packed = g->packed_cap ? lattio_malloc((size_t)g->packed_cap) : NULL;
    g->reqs = lattio_malloc(((size_t)size + (size_t)g->p.naggs) * sizeof *g->reqs);
    g->notes = lattio_malloc((size_t)size * sizeof *g->notes);
    g->inbox = lattio_malloc((size_t)size * sizeof *g->inbox);
    g->ncuts = 2 * g->p.naggs + 2;
    const int missing = (w && !g->scratch) || (g->packed_cap && !g->packed) || !g->reqs || !g->notes || !g->inbox;
    RETURN_IF(missing, LATTIO_FAIL(LATTIO_ERR_NOMEM, "aggregate buffers"));
    return allocate_cuts(g);
}

/* Collective.  Boxes of every rank, window buffers, buffers; agreed status. */
static int setup(agg *g, uint64_t shared)
{
    int nd = g->l->ndims, size = g->f->size;
    uint64_t mine[2 * LATTIO_MAX_DIMS];
    memcpy(mine, g->l->lo, (size_t)nd * sizeof(uint64_t));
    memcpy(mine + nd, g->l->count, (size_t)nd * sizeof(uint64_t));
    g->boxes = lattio_malloc((size_t)size * 2 * (size_t)nd * sizeof(uint64_t));
    int rc = g->boxes ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "boxes");
    RETURN_IF_ERROR(lattio_agree(g->f->comm, rc));
    RETURN_IF_ERROR(MPI_CHECK(MPI_Allgather(mine, 2 * nd, MPI_UINT64_T, g->boxes, 2 * nd, MPI_UINT64_T,
                                            g->f->comm), LATTIO_ERR_MPI));
    lattio_layout_packed_view(&g->other, g->l, g->l->site_bytes);
    rc = lattio_agg_shared_open(g->f, &g->p, shared, g->me, &g->sh);
    if (rc == LATTIO_OK) rc = allocate(g);
    if (rc == LATTIO_OK) rc = check_windows(g);
    return lattio_agree(g->f->comm, rc);
}

static void teardown(agg *g)
{
    if (g->nnotes) MPI_Waitall(g->nnotes, g->notes, MPI_STATUSES_IGNORE);
    lattio_agg_shared_close(&g->sh);
    if (g->cuts) lattio_free(g->cuts[0].bytes);
    lattio_free(g->cuts);
    lattio_free(g->inbox);
    lattio_free(g->notes);
    lattio_free(g->reqs);
    lattio_free(g->packed);
    lattio_free(g->scratch);
    lattio_free(g->boxes);
}

/* --- cut sites ----------------------------------------------------------- */

/* The slot of site s in the cut table: the one holding it, else a free one
 * (got 0; *fresh = 1), else NULL (more cut sites open than the plan allows:
 * overlapping boxes). */
static cut_site *cut_slot(agg *g, uint64_t s, int *fresh)
{
    *fresh = 0;
    for (int i = 0; i < g->ncuts; i++)
        if (g->cuts[i].got && g->cuts[i].site == s) return &g->cuts[i];
    *fresh = 1;
    for (int i = 0; i < g->ncuts; i++)
        if (!g->cuts[i].got) return &g->cuts[i];
    return NULL;
}

/* Reading: bytes [lo, hi) of this rank's site s arrived; drain it when
 * complete. */
static int cut_add(agg *g, uint64_t s, uint64_t lo, uint64_t hi, const unsigned char *data)
{
    uint64_t sb = g->l->site_bytes;
    int fresh;
    cut_site *slot = cut_slot(g, s, &fresh);
    RETURN_IF(!slot, LATTIO_ERR_LAYOUT);
    slot->site = s;
    memcpy(slot->bytes + (lo - s * sb), data, (size_t)(hi - lo));
    slot->got += hi - lo;
    if (slot->got < sb) return LATTIO_OK;
    slot->got = 0;
    return lattio_stage_drain(g->s, 0, s, 1, (size_t)sb, slot->bytes);
}

/* Writing: bytes [lo, hi) of this rank's site s are needed: the whole site
 * into dst, staged at its first use and kept until all its bytes went. */
static int cut_take(agg *g, uint64_t s, uint64_t lo, uint64_t hi, unsigned char *dst)
{
    uint64_t sb = g->l->site_bytes;
    int fresh;
    cut_site *slot = cut_slot(g, s, &fresh);
    RETURN_IF(!slot, LATTIO_ERR_LAYOUT);
    if (fresh) RETURN_IF_ERROR(lattio_stage_fill(g->s, 0, s, 1, (size_t)sb, slot->bytes));
    slot->site = s;
    memcpy(dst, slot->bytes, (size_t)sb);
    slot->got += hi - lo;
    if (slot->got >= sb) slot->got = 0;
    return LATTIO_OK;
}

/* --- this rank's bytes: staged into / drained from a buffer -------------- */

/* Writing: this rank's packed bytes [p0, p1) as whole sites into dst
 * (dst holds site p0 / sb first): the first and last site through the
 * table when p0 or p1 cuts them, the sites between staged straight. */
static int gather(agg *g, uint64_t p0, uint64_t p1, unsigned char *dst)
{
    uint64_t sb = g->l->site_bytes, s0 = p0 / sb, s1 = (p1 + sb - 1) / sb; /* sites [s0, s1) */
    const int head = p0 % sb != 0 || (p1 % sb != 0 && s1 - 1 == s0); /* site s0 is cut */
    const int tail = p1 % sb != 0 && s1 - 1 > s0;                     /* site s1 - 1 is cut */
    if (head) RETURN_IF_ERROR(cut_take(g, s0, p0, (s0 + 1) * sb < p1 ? (s0 + 1) * sb : p1, dst));
    if (tail) RETURN_IF_ERROR(cut_take(g, s1 - 1, (s1 - 1) * sb, p1, dst + (s1 - 1 - s0) * sb));
    const uint64_t a = s0 + (uint64_t)head, b = s1 - (uint64_t)tail;
    return a < b ? lattio_stage_fill(g->s, 0, a, b - a, (size_t)sb, dst + (a - s0) * sb) : LATTIO_OK;
}

/* Reading: this rank's packed bytes [p0, p1) arrived in `data`. */
static int deliver(agg *g, uint64_t p0, uint64_t p1, const unsigned char *data)
{
    uint64_t sb = g->l->site_bytes, full0 = (p0 + sb - 1) / sb, full1 = p1 / sb;
    if (full0 < full1)
        RETURN_IF_ERROR(lattio_stage_drain(g->s, 0, full0, full1 - full0, (size_t)sb, data + (full0 * sb - p0)));
    uint64_t first = p0 / sb, last = (p1 - 1) / sb;
    if (first * sb < p0 || (first + 1) * sb > p1) {
        uint64_t hi = (first + 1) * sb < p1 ? (first + 1) * sb : p1;
        RETURN_IF_ERROR(cut_add(g, first, p0, hi, data));
    }
    if (last != first && (last + 1) * sb > p1) RETURN_IF_ERROR(cut_add(g, last, last * sb, p1, data + (last * sb - p0)));
    return LATTIO_OK;
}

/* Writing, one file run of this rank's piece in a window it reaches in
 * memory: packed bytes [a, b) staged straight to `at`. */
static int fill_run(void *ctx, uint64_t a, uint64_t b, unsigned char *at)
{
    agg *g = ctx;
    uint64_t sb = g->l->site_bytes, f0 = (a + sb - 1) / sb, f1 = b / sb;
    if (g->identity) {
        memcpy(at, g->s->direct + a, (size_t)(b - a));
        return LATTIO_OK;
    }
    if (a % sb) { /* the tail of a site cut by the window's start (and maybe its end) */
        uint64_t end = (a / sb + 1) * sb < b ? (a / sb + 1) * sb : b;
        RETURN_IF_ERROR(cut_take(g, a / sb, a, end, g->site));
        memcpy(at, g->site + a % sb, (size_t)(end - a));
    }
    if (f0 < f1) RETURN_IF_ERROR(lattio_stage_fill(g->s, 0, f0, f1 - f0, (size_t)sb, at + (f0 * sb - a)));
    if (b % sb && (a % sb == 0 || f1 != a / sb)) { /* the head of a site cut by the window's end */
        RETURN_IF_ERROR(cut_take(g, f1, f1 * sb, b, g->site));
        memcpy(at + (f1 * sb - a), g->site, (size_t)(b - f1 * sb));
    }
    return LATTIO_OK;
}

/* Reading: packed bytes [a, b) of this rank from `at` straight to the stager. */
static int drain_run(void *ctx, uint64_t a, uint64_t b, unsigned char *at)
{
    agg *g = ctx;
    if (g->identity) {
        memcpy(g->s->direct + a, at, (size_t)(b - a));
        return LATTIO_OK;
    }
    return deliver(g, a, b, at);
}

/* Another rank's multi-run piece between scratch and the window. */
typedef struct copy_ctx {
    uint64_t p0;
    unsigned char *data;
    int to_window;
} copy_ctx;

static int copy_run(void *ctx, uint64_t a, uint64_t b, unsigned char *at)
{
    copy_ctx *c = ctx;
    if (c->to_window) memcpy(at, c->data + (a - c->p0), (size_t)(b - a));
    else memcpy(c->data + (a - c->p0), at, (size_t)(b - a));
    return LATTIO_OK;
}

/* --- one round ----------------------------------------------------------- */

/* This rank's side of round r with aggregators it does not reach in
 * memory: post a send (writing) or receive (reading) of its piece. */
static int post_remote(agg *g, uint64_t r, int *n)
{
    uint64_t off = 0, sb = g->l->site_bytes;
    for (int a = 0; a < g->p.naggs; a++) {
        uint64_t lo, hi, p0, p1;
        if (local_buf(g, a, r) || !piece_of(g, g->f->rank, a, r, &lo, &hi, &p0, &p1)) continue;
        unsigned char *buf = g->identity ? g->s->direct + p0 : NULL;
        if (!g->identity) {
            buf = g->packed + off + p0 % sb;
            lattio_prof_phase(g->f, LATTIO_PHASE_PACK);
            if (g->writing && g->io_rc == LATTIO_OK) note(g, gather(g, p0, p1, g->packed + off));
            off += ((p1 + sb - 1) / sb - p0 / sb) * sb;
        }
        lattio_prof_phase(g->f, LATTIO_PHASE_EXCHANGE);
        int dest = lattio_agg_rank(&g->p, a);
        int rc = g->writing ? MPI_Isend(buf, (int)(p1 - p0), MPI_BYTE, dest, AGG_TAG, g->f->comm, &g->reqs[(*n)++])
                            : MPI_Irecv(buf, (int)(p1 - p0), MPI_BYTE, dest, AGG_TAG, g->f->comm, &g->reqs[(*n)++]);
        RETURN_IF_ERROR(MPI_CHECK(rc, LATTIO_ERR_MPI));
    }
    return LATTIO_OK;
}

/* Reading: unpack what post_remote received in round r. */
static void unpack_remote(agg *g, uint64_t r)
{
    lattio_prof_phase(g->f, LATTIO_PHASE_PACK);
    uint64_t off = 0, sb = g->l->site_bytes;
    for (int a = 0; a < g->p.naggs && !g->identity; a++) {
        uint64_t lo, hi, p0, p1;
        if (local_buf(g, a, r) || !piece_of(g, g->f->rank, a, r, &lo, &hi, &p0, &p1)) continue;
        if (g->io_rc == LATTIO_OK) note(g, deliver(g, p0, p1, g->packed + off + p0 % sb));
        off += ((p1 + sb - 1) / sb - p0 / sb) * sb;
    }
}

/* This rank's side of round r with aggregators it reaches in memory:
 * writing, wait until the buffer is free, place the piece, note it;
 * reading, wait until the window was read, take the piece, note it when
 * the buffer is needed again.  The aggregator itself needs no note. */
static int place_local(agg *g, uint64_t r, int *n)
{
    for (int a = 0; a < g->p.naggs; a++) {
        uint64_t lo, hi, p0, p1;
        unsigned char *buf = local_buf(g, a, r);
        if (!buf || !piece_of(g, g->f->rank, a, r, &lo, &hi, &p0, &p1)) continue;
        const int other = a != g->me, q = lattio_agg_rank(&g->p, a);
        if (other && (g->writing ? r >= 2 : 1)) RETURN_IF_ERROR(wait_note(g, q, AGG_TAG_FREE, r));
        lattio_prof_phase(g->f, LATTIO_PHASE_PACK);
        if (g->io_rc == LATTIO_OK)
            note(g, lattio_agg_runs(&g->p, g->l, p0, p1, &(agg_win){buf, lo, hi}, g->writing ? fill_run : drain_run, g));
        g->outbox[0] = r;
        uint64_t l2, h2;
        lattio_agg_window(&g->p, a, r + 2, &l2, &h2); /* reading: the buffer is read into again */
        if (other && (g->writing || h2 > l2))
            RETURN_IF_ERROR(send_note(g, q, AGG_TAG_DONE, &g->outbox[0], &g->reqs[(*n)++]));
    }
    return LATTIO_OK;
}

/* The aggregator's side of a round: a receive (writing) or a send
 * (reading, after the read) of the piece of every rank that does not
 * reach the window in memory, straight into / from its place when it is
 * one file run, else through scratch; writing, a receive of the note of
 * every peer with a piece. */
static int post_window(agg *g, uint64_t r, unsigned char *win, uint64_t lo, uint64_t hi, int *n)
{
    uint64_t off = 0;
    for (int q = 0; q < g->f->size; q++) {
        uint64_t p0, p1, at = 0;
        const lattio_layout *b = box_of(g, q);
        lattio_agg_piece(&g->p, b, lo, hi, &p0, &p1);
        if (p1 <= p0 || q == g->f->rank) continue;
        lattio_prof_phase(g->f, LATTIO_PHASE_EXCHANGE);
        if (is_peer(g, q)) {
            if (g->writing)
                RETURN_IF_ERROR(MPI_CHECK(MPI_Irecv(&g->inbox[q], 1, MPI_UINT64_T, q, AGG_TAG_DONE, g->f->comm,
                                                    &g->reqs[(*n)++]), LATTIO_ERR_MPI));
            continue;
        }
        int one = lattio_agg_single_run(&g->p, b, p0, p1, lo, hi, &at);
        unsigned char *buf = one ? win + (at - lo) : g->scratch + off;
        if (!one) off += p1 - p0;
        lattio_prof_phase(g->f, LATTIO_PHASE_PACK);
        copy_ctx c = {p0, buf, 0};
        if (!one && !g->writing) note(g, lattio_agg_runs(&g->p, b, p0, p1, &(agg_win){win, lo, hi}, copy_run, &c));
        lattio_prof_phase(g->f, LATTIO_PHASE_EXCHANGE);
        int rc = g->writing ? MPI_Irecv(buf, (int)(p1 - p0), MPI_BYTE, q, AGG_TAG, g->f->comm, &g->reqs[(*n)++])
                            : MPI_Isend(buf, (int)(p1 - p0), MPI_BYTE, q, AGG_TAG, g->f->comm, &g->reqs[(*n)++]);
        RETURN_IF_ERROR(MPI_CHECK(rc, LATTIO_ERR_MPI));
    }
    return LATTIO_OK;
}

/* Writing: after the receives, check the peers' notes and copy the
 * scratch pieces into the window. */
static int place_scratch(agg *g, uint64_t r, unsigned char *win, uint64_t lo, uint64_t hi)
{
    lattio_prof_phase(g->f, LATTIO_PHASE_PACK);
    uint64_t off = 0;
    for (int q = 0; q < g->f->size; q++) {
        uint64_t p0, p1, at = 0;
        const lattio_layout *b = box_of(g, q);
        lattio_agg_piece(&g->p, b, lo, hi, &p0, &p1);
        if (p1 <= p0 || q == g->f->rank) continue;
        RETURN_IF(is_peer(g, q) && g->inbox[q] != r, LATTIO_ERR_MPI); /* notes out of order: a bug */
        if (is_peer(g, q) || lattio_agg_single_run(&g->p, b, p0, p1, lo, hi, &at)) continue;
        copy_ctx c = {p0, g->scratch + off, 1};
        RETURN_IF_ERROR(lattio_agg_runs(&g->p, b, p0, p1, &(agg_win){win, lo, hi}, copy_run, &c));
        off += p1 - p0;
    }
    return LATTIO_OK;
}

static int wait_all(agg *g, int n)
{
    lattio_prof_phase(g->f, LATTIO_PHASE_EXCHANGE);
    int rc = n ? MPI_CHECK(MPI_Waitall(n, g->reqs, MPI_STATUSES_IGNORE), LATTIO_ERR_MPI) : LATTIO_OK;
    lattio_agg_shared_sync(&g->sh);
    return rc;
}

/* Collective.  Round r of a write. */
static int write_round(agg *g, uint64_t r)
{
    uint64_t lo = 0, hi = 0;
    int n = 0;
    unsigned char *win = g->me >= 0 ? local_buf(g, g->me, r) : NULL;
    if (g->me >= 0) lattio_agg_window(&g->p, g->me, r, &lo, &hi);
    if (hi > lo) RETURN_IF_ERROR(post_window(g, r, win, lo, hi, &n)); /* receives first */
    RETURN_IF_ERROR(post_remote(g, r, &n));
    RETURN_IF_ERROR(place_local(g, r, &n));
    RETURN_IF_ERROR(wait_all(g, n));
    if (hi <= lo) return LATTIO_OK;
    if (g->io_rc == LATTIO_OK) note(g, place_scratch(g, r, win, lo, hi));
    lattio_prof_phase(g->f, LATTIO_PHASE_IO);
    if (g->io_rc == LATTIO_OK) note(g, lattio_write_at(g->f, lo, win, hi - lo));
    lattio_prof_phase(g->f, LATTIO_PHASE_EXCHANGE);
    return notify_peers(g, r + 2, r + 2, AGG_TAG_FREE); /* this buffer is free for round r + 2 */
}

/* Collective.  Round r of a read. */
static int read_round(agg *g, uint64_t r)
{
    uint64_t lo = 0, hi = 0;
    int n = 0;
    unsigned char *win = g->me >= 0 ? local_buf(g, g->me, r) : NULL;
    RETURN_IF_ERROR(post_remote(g, r, &n)); /* receives first */
    if (g->me >= 0) lattio_agg_window(&g->p, g->me, r, &lo, &hi);
    if (hi > lo) {
        RETURN_IF_ERROR(wait_peers(g, r)); /* this buffer's last window was taken */
        lattio_prof_phase(g->f, LATTIO_PHASE_IO);
        if (g->io_rc == LATTIO_OK) note(g, lattio_read_at(g->f, lo, win, hi - lo));
        lattio_prof_phase(g->f, LATTIO_PHASE_EXCHANGE);
        RETURN_IF_ERROR(notify_peers(g, r, r, AGG_TAG_FREE)); /* window r is ready */
        RETURN_IF_ERROR(post_window(g, r, win, lo, hi, &n));
    }
    RETURN_IF_ERROR(place_local(g, r, &n));
    RETURN_IF_ERROR(wait_all(g, n));
    unpack_remote(g, r);
    return LATTIO_OK;
}

/* Collective.  The aggregate machinery with `naggs` aggregators when
 * non-zero, else the hints' cb_nodes, else m->naggs when non-zero, else one
 * per rank (equal on every rank). */
static int aggregate_move(lattio_move *m, int writing, uint64_t naggs)
{
    lattio_file *f = m->f;
    const lattio_layout *l = m->l;
    agg g = {.f = f, .l = l, .writing = writing, .s = m->s, .me = -1};
    agg_params par;
    uint64_t bytes = lattio_layout_global_sites(l) * l->site_bytes;
    RETURN_IF(m->base > (uint64_t)LLONG_MAX - bytes, LATTIO_ERR_OVERFLOW); /* equal on every rank */
    lattio_prof_phase(f, LATTIO_PHASE_SETUP);
    RETURN_IF_ERROR(lattio_agg_params(f, &par));
    if (naggs) par.nodes = naggs; /* equal on every rank */
    if (!par.nodes) par.nodes = m->naggs;
    lattio_agg_plan(&par, m->base, bytes, f->size, &g.p);
    for (int a = 0; a < g.p.naggs; a++)
        if (lattio_agg_rank(&g.p, a) == f->rank) g.me = a;
    g.identity = m->s->direct != NULL;
    if (f->rank == 0)
        LATTIO_TRACE("aggregate %s: block %llu, %d aggregators, window %llu, %llu rounds, shared %llu",
                     writing ? "write" : "read", (unsigned long long)g.p.block, g.p.naggs,
                     (unsigned long long)g.p.window, (unsigned long long)g.p.rounds,
                     (unsigned long long)par.shared);
    m->rounds = g.p.rounds;
    int rc = setup(&g, par.shared);
    for (uint64_t r = 0; rc == LATTIO_OK && r < g.p.rounds; r++)
        rc = writing ? write_round(&g, r) : read_round(&g, r);
    for (int i = 0; rc == LATTIO_OK && g.io_rc == LATTIO_OK && !writing && g.cuts && i < g.ncuts; i++)
        if (g.cuts[i].got) g.io_rc = LATTIO_FAIL(LATTIO_ERR_LAYOUT, "site incomplete");
    teardown(&g);
    return rc != LATTIO_OK ? rc : g.io_rc;
}

static int aggregate_write(lattio_move *m) { return aggregate_move(m, 1, 0); }
static int aggregate_read(lattio_move *m) { return aggregate_move(m, 0, 0); }

const lattio_strategy_ops lattio_aggregate_ops = {"aggregate", aggregate_write, aggregate_read};

/* The serial strategy ("master I/O" of seed 001, Grid's and QIO's serial
 * paths): the aggregate strategy with one aggregator, rank 0, whose one
 * region is the whole lattice, cut into windows of at most cb_buffer_size
 * bytes aligned to the file-system block; rank 0 makes one independent
 * MPI-IO call per window. */
static int serial_write(lattio_move *m) { return aggregate_move(m, 1, 1); }
static int serial_read(lattio_move *m) { return aggregate_move(m, 0, 1); }

const lattio_strategy_ops lattio_serial_ops = {"serial", serial_write, serial_read};
