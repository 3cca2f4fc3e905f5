/* aggregate.c -- the aggregate strategy: lattio's own two-phase I/O.
 *
 * The lattice's bytes [base, base + bytes) in the file are cut into file
 * domains at multiples of a block size (absolute file offsets, so domains
 * line up with file-system blocks or stripes: OPAL's stripe-aligned
 * partitioning; the default block comes from the file system rank 0
 * detected at open, fsinfo.c: Lustre's stripe, GPFS's block, else the
 * block rounded up to >= 1 MiB).  A aggregators own contiguous runs of
 * whole domains (aggregator a is rank a * size / A).  In round r every
 * aggregator handles window r of its region, at most `buffer` bytes (a
 * multiple of the block when the buffer holds one); every rank sends
 * (writes) or receives (reads) the bytes of its sites that lie in each
 * aggregator's window, and each aggregator makes ONE independent MPI-IO
 * call for its window.  One aggregator (rank 0) is the serial strategy
 * (serial.c); the default strategy uses one per node (lattice.c).
 *
 * Because a rank's sites are numbered in increasing file rank, the bytes of
 * a rank in a window are one contiguous piece of its packed sites:
 * [P(lo), P(hi)) where P(x) counts the rank's bytes before lattice byte x
 * (bytes_before, O(ndims)).  Every rank knows every rank's box (one
 * allgather), so piece sizes are never exchanged and the number of rounds
 * follows from parameters rank 0 chose and broadcast: every rank makes the
 * same rounds.  The aggregator places a piece with lattio_layout_runs of the
 * sender's box: straight into the window when it is one file run, else
 * through a scratch area.  Pieces are at most 1 GiB (the buffer's limit), so
 * no MPI count overflows.  A window edge may cut a site; writers pack whole
 * sites and send the part, readers collect cut sites in a small table until
 * complete.  Sites come from and go to the stager (xfer.h), each exactly
 * once per call: a site cut by a window edge is staged once and kept in a
 * small table until every window holding a part of it has had its part.
 * Zero-copy when the stager's sites are already file bytes (direct).
 *
 * Errors inside a round do not stop the exchange (peers would wait): a rank
 * keeps sending and receiving, skips its file access and reports at the end.
 */
#include "strategy.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define AGG_BUFFER ((uint64_t)16 << 20)
#define AGG_MAX_BUFFER ((uint64_t)1 << 30)
#define AGG_MAX_BLOCK ((uint64_t)1 << 40)
#define AGG_RUNS 256
#define AGG_TAG 0x1a77

/* --- parameters: block, aggregators, buffer (rank 0 decides) ------------- */

/* A positive decimal number, or 0 when s is absent or not one. */
static uint64_t parse_size(const char *s)
{
    if (!s || *s < '0' || *s > '9') return 0;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    return end && *end == '\0' && v != ULLONG_MAX ? (uint64_t)v : 0;
}

/* The value of hint `key`: environment variable `env`, else f's info. */
static uint64_t hint(const lattio_file *f, const char *key, const char *env)
{
    uint64_t v = parse_size(getenv(env));
    if (v || f->info == MPI_INFO_NULL) return v;
    char val[64] = "";
    int flag = 0;
    if (MPI_Info_get(f->info, key, (int)sizeof val - 1, val, &flag) != MPI_SUCCESS || !flag) return 0;
    return parse_size(val);
}

typedef struct agg_params {
    uint64_t block, nodes, buffer; /* nodes 0: default */
} agg_params;

/* Collective.  Rank 0's parameters, broadcast. */
static int choose_params(lattio_file *f, agg_params *p)
{
    uint64_t v[3] = {0, 0, 0};
    if (f->rank == 0) {
        v[0] = hint(f, "striping_unit", "LATTIO_STRIPING_UNIT");
        if (!v[0]) v[0] = lattio_file_alignment(f, 0); /* from the file system (fsinfo.c) */
        if (v[0] > AGG_MAX_BLOCK) v[0] = AGG_MAX_BLOCK;
        v[1] = hint(f, "cb_nodes", "LATTIO_CB_NODES");
        v[2] = hint(f, "cb_buffer_size", "LATTIO_CB_BUFFER_SIZE");
        if (!v[2]) v[2] = AGG_BUFFER;
        if (v[2] > AGG_MAX_BUFFER) v[2] = AGG_MAX_BUFFER;
    }
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(v, 3, MPI_UINT64_T, 0, f->comm), LATTIO_ERR_MPI));
    p->block = v[0];
    p->nodes = v[1];
    p->buffer = v[2];
    return LATTIO_OK;
}

/* --- the plan: domains, regions, windows (the same on every rank) -------- */

typedef struct agg_plan {
    uint64_t base, bytes; /* the lattice's absolute first byte and size */
    uint64_t block, window;
    uint64_t ndomains, rounds;
    int naggs;
    int size;
} agg_plan;

/* Absolute offset where domain d starts (d = ndomains: the lattice's end). */
static uint64_t domain_start(const agg_plan *p, uint64_t d)
{
    if (d == 0) return p->base;
    uint64_t at = (p->base / p->block + d) * p->block;
    return at < p->base + p->bytes ? at : p->base + p->bytes;
}

/* Aggregator a's region [*rs, *re) (absolute): domains [a*N/A, (a+1)*N/A). */
static void region(const agg_plan *p, int a, uint64_t *rs, uint64_t *re)
{
    uint64_t n = p->ndomains, A = (uint64_t)p->naggs;
    uint64_t d0 = n / A * (uint64_t)a + n % A * (uint64_t)a / A;
    uint64_t d1 = n / A * (uint64_t)(a + 1) + n % A * (uint64_t)(a + 1) / A;
    *rs = domain_start(p, d0);
    *re = domain_start(p, d1);
}

/* Aggregator a's window in round r, absolute [*lo, *hi); empty: lo == hi.
 * Windows start at block multiples so writes stay aligned. */
static void window(const agg_plan *p, int a, uint64_t r, uint64_t *lo, uint64_t *hi)
{
    uint64_t rs, re;
    region(p, a, &rs, &re);
    uint64_t start = rs / p->block * p->block + r * p->window;
    *lo = start > rs ? start : rs;
    *hi = start + p->window < re ? start + p->window : re;
    if (*lo >= *hi) *lo = *hi = re;
}

static int aggregator_rank(const agg_plan *p, int a)
{
    return (int)((uint64_t)a * (uint64_t)p->size / (uint64_t)p->naggs);
}

static void make_plan(const agg_params *par, uint64_t base, uint64_t bytes, int size, agg_plan *p)
{
    p->base = base;
    p->bytes = bytes;
    p->size = size;
    p->block = par->block;
    p->window = par->buffer >= par->block ? par->buffer / par->block * par->block : par->buffer;
    p->ndomains = (base + bytes - 1) / par->block - base / par->block + 1;
    uint64_t A = par->nodes && par->nodes < (uint64_t)size ? par->nodes : (uint64_t)size;
    p->naggs = (int)(A < p->ndomains ? A : p->ndomains);
    p->rounds = 0;
    for (int a = 0; a < p->naggs; a++) {
        uint64_t rs, re;
        region(p, a, &rs, &re);
        uint64_t span = re - rs / p->block * p->block, r = (span + p->window - 1) / p->window;
        if (re > rs && r > p->rounds) p->rounds = r;
    }
}

/* --- where a rank's bytes are ------------------------------------------- */

/* Bytes of l's box that lie before lattice byte x (relative to the
 * lattice's first byte), in file order: the packed offset of byte x. */
static uint64_t bytes_before(const lattio_layout *l, uint64_t x)
{
    uint64_t sb = l->site_bytes, k = x / sb, c[LATTIO_MAX_DIMS];
    uint64_t inner = lattio_layout_local_sites(l), sites = 0;
    if (inner == 0) return 0;
    for (int i = l->ndims - 1; i >= 0; i--) {
        uint64_t g = l->global[l->file_order[i]];
        c[i] = k % g;
        k /= g;
    }
    if (k > 0) return inner * sb; /* at or past the lattice's end */
    for (int i = 0; i < l->ndims; i++) {
        int d = l->file_order[i];
        uint64_t lo = l->lo[d], n = l->count[d];
        inner /= n;
        sites += (c[i] <= lo ? 0 : c[i] - lo < n ? c[i] - lo : n) * inner;
        if (c[i] < lo || c[i] >= lo + n) return sites * sb;
    }
    return sites * sb + x % sb; /* the site holding x is ours: part of it */
}

/* The packed piece [*p0, *p1) of box l in the absolute window [lo, hi). */
static void piece(const agg_plan *p, const lattio_layout *l, uint64_t lo, uint64_t hi, uint64_t *p0,
                  uint64_t *p1)
{
    *p0 = bytes_before(l, lo - p->base);
    *p1 = bytes_before(l, hi - p->base);
}

/* Copy between the window (win, absolute [wlo, whi)) and a piece of box l
 * (`data` holds its packed bytes [p0, p1)), run by run. */
static int scatter(const agg_plan *p, const lattio_layout *l, uint64_t p0, uint64_t p1, unsigned char *win,
                   uint64_t wlo, uint64_t whi, unsigned char *data, int to_window)
{
    uint64_t sb = l->site_bytes, s = p0 / sb, end = (p1 + sb - 1) / sb;
    lattio_run runs[AGG_RUNS];
    while (s < end) {
        uint64_t k = end - s;
        size_t nruns = 0;
        RETURN_IF_ERROR(lattio_layout_runs(l, s, k, runs, AGG_RUNS, &nruns));
        while (nruns > AGG_RUNS) {
            uint64_t fewer = k / nruns * AGG_RUNS;
            k = fewer ? fewer : 1;
            RETURN_IF_ERROR(lattio_layout_runs(l, s, k, runs, AGG_RUNS, &nruns));
        }
        for (size_t i = 0; i < nruns; i++) {
            uint64_t pa = s * sb + runs[i].packed_offset - runs[0].packed_offset;
            uint64_t lo = pa > p0 ? pa : p0, hi = pa + runs[i].bytes < p1 ? pa + runs[i].bytes : p1;
            if (lo >= hi) continue;
            uint64_t fo = p->base + runs[i].file_offset + (lo - pa);
            RETURN_IF(fo < wlo || fo + (hi - lo) > whi, LATTIO_ERR_LAYOUT); /* boxes overlap */
            if (to_window) memcpy(win + (fo - wlo), data + (lo - p0), (size_t)(hi - lo));
            else memcpy(data + (lo - p0), win + (fo - wlo), (size_t)(hi - lo));
        }
        s += k;
    }
    return LATTIO_OK;
}

/* When box l's piece [p0, p1) is one file run: its absolute file offset in
 * *at and 1; otherwise 0. */
static int single_run(const agg_plan *p, const lattio_layout *l, uint64_t p0, uint64_t p1, uint64_t *at)
{
    uint64_t sb = l->site_bytes, s = p0 / sb;
    lattio_run run;
    size_t nruns = 0;
    if (lattio_layout_runs(l, s, (p1 + sb - 1) / sb - s, &run, 1, &nruns) != LATTIO_OK || nruns != 1) return 0;
    *at = p->base + run.file_offset + (p0 - s * sb);
    return 1;
}

/* --- one call ------------------------------------------------------------ */

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
    uint64_t *boxes;    /* lo[ndims], count[ndims] of every rank */
    lattio_layout other; /* scratch: another rank's box */
    unsigned char *win, *scratch, *packed; /* window, multi-run pieces, this rank's pieces */
    uint64_t packed_cap;
    MPI_Request *reqs;
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

/* Packed bytes this rank needs per round at most (whole sites of every
 * piece), for the staging of non-identity layouts. */
static uint64_t packed_need(const agg *g)
{
    uint64_t most = 0, sb = g->l->site_bytes;
    for (uint64_t r = 0; r < g->p.rounds; r++) {
        uint64_t sum = 0;
        for (int a = 0; a < g->p.naggs; a++) {
            uint64_t lo, hi, p0, p1;
            window(&g->p, a, r, &lo, &hi);
            piece(&g->p, g->l, lo, hi, &p0, &p1);
            if (p1 > p0) sum += ((p1 + sb - 1) / sb - p0 / sb) * sb;
        }
        if (sum > most) most = sum;
    }
    return most;
}

/* Longest window of this rank's region (0 when not an aggregator). */
static uint64_t window_need(const agg *g)
{
    uint64_t most = 0;
    for (uint64_t r = 0; g->me >= 0 && r < g->p.rounds; r++) {
        uint64_t lo, hi;
        window(&g->p, g->me, r, &lo, &hi);
        if (hi - lo > most) most = hi - lo;
    }
    return most;
}

/* Aggregators: the ranks' pieces of every window add up to the window (the
 * boxes tile it), so a round's pieces fit the window and scratch. */
static int check_windows(agg *g)
{
    for (uint64_t r = 0; g->me >= 0 && r < g->p.rounds; r++) {
        uint64_t lo, hi, sum = 0;
        window(&g->p, g->me, r, &lo, &hi);
        for (int q = 0; q < g->f->size && hi > lo; q++) {
            uint64_t p0, p1;
            piece(&g->p, box_of(g, q), lo, hi, &p0, &p1);
            sum += p1 - p0;
        }
        RETURN_IF(sum != hi - lo, LATTIO_ERR_LAYOUT); /* overlapping boxes */
    }
    return LATTIO_OK;
}

/* Collective.  Boxes of every rank, buffers; agreed status. */
static int setup(agg *g)
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
    uint64_t w = window_need(g);
    g->packed_cap = g->identity ? 0 : packed_need(g);
    g->win = w ? lattio_malloc((size_t)w) : NULL;
    g->scratch = w ? lattio_malloc((size_t)w) : NULL;
    g->packed = g->packed_cap ? lattio_malloc((size_t)g->packed_cap) : NULL;
    g->reqs = lattio_malloc(((size_t)size + (size_t)g->p.naggs) * sizeof *g->reqs);
    g->ncuts = 2 * g->p.naggs + 2;
    g->cuts = !g->identity ? lattio_calloc((size_t)g->ncuts, sizeof *g->cuts) : NULL;
    unsigned char *cutbytes = g->cuts ? lattio_malloc((size_t)g->ncuts * g->l->site_bytes) : NULL;
    for (int i = 0; cutbytes && i < g->ncuts; i++) g->cuts[i].bytes = cutbytes + (size_t)i * g->l->site_bytes;
    rc = (w && (!g->win || !g->scratch)) || (g->packed_cap && !g->packed) || !g->reqs ||
                 (!g->identity && (!g->cuts || !cutbytes))
             ? LATTIO_FAIL(LATTIO_ERR_NOMEM, "aggregate buffers")
             : check_windows(g);
    if (g->cuts && !cutbytes) g->cuts[0].bytes = NULL;
    return lattio_agree(g->f->comm, rc);
}

static void teardown(agg *g)
{
    if (g->cuts) lattio_free(g->cuts[0].bytes);
    lattio_free(g->cuts);
    lattio_free(g->reqs);
    lattio_free(g->packed);
    lattio_free(g->scratch);
    lattio_free(g->win);
    lattio_free(g->boxes);
}

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

/* This rank's side of round r: post a send (writing) or receive (reading)
 * of its piece for every aggregator.  *n counts requests. */
static int post_mine(agg *g, uint64_t r, int *n)
{
    uint64_t off = 0, sb = g->l->site_bytes;
    for (int a = 0; a < g->p.naggs; a++) {
        uint64_t lo, hi, p0, p1;
        window(&g->p, a, r, &lo, &hi);
        piece(&g->p, g->l, lo, hi, &p0, &p1);
        if (p1 <= p0) continue;
        unsigned char *buf = g->identity ? g->s->direct + p0 : NULL;
        if (!g->identity) {
            buf = g->packed + off + p0 % sb;
            lattio_prof_phase(g->f, LATTIO_PHASE_PACK);
            if (g->writing && g->io_rc == LATTIO_OK) note(g, gather(g, p0, p1, g->packed + off));
            off += ((p1 + sb - 1) / sb - p0 / sb) * sb;
        }
        lattio_prof_phase(g->f, LATTIO_PHASE_EXCHANGE);
        int dest = aggregator_rank(&g->p, a);
        int rc = g->writing ? MPI_Isend(buf, (int)(p1 - p0), MPI_BYTE, dest, AGG_TAG, g->f->comm, &g->reqs[(*n)++])
                            : MPI_Irecv(buf, (int)(p1 - p0), MPI_BYTE, dest, AGG_TAG, g->f->comm, &g->reqs[(*n)++]);
        RETURN_IF_ERROR(MPI_CHECK(rc, LATTIO_ERR_MPI));
    }
    return LATTIO_OK;
}

/* Reading: unpack what post_mine received in round r. */
static void unpack_mine(agg *g, uint64_t r)
{
    lattio_prof_phase(g->f, LATTIO_PHASE_PACK);
    uint64_t off = 0, sb = g->l->site_bytes;
    for (int a = 0; a < g->p.naggs && !g->identity; a++) {
        uint64_t lo, hi, p0, p1;
        window(&g->p, a, r, &lo, &hi);
        piece(&g->p, g->l, lo, hi, &p0, &p1);
        if (p1 <= p0) continue;
        if (g->io_rc == LATTIO_OK) note(g, deliver(g, p0, p1, g->packed + off + p0 % sb));
        off += ((p1 + sb - 1) / sb - p0 / sb) * sb;
    }
}

/* The aggregator's side of a round: a receive (writing) or a send
 * (reading, after the read) of every rank's piece of the window [lo, hi):
 * straight into/from its place when it is one file run, else through
 * scratch (gathered here when reading, placed by place_scratch when
 * writing). */
static int post_window(agg *g, uint64_t lo, uint64_t hi, int *n)
{
    uint64_t off = 0;
    for (int q = 0; q < g->f->size; q++) {
        const lattio_layout *b = box_of(g, q);
        uint64_t p0, p1, at = 0;
        piece(&g->p, b, lo, hi, &p0, &p1);
        if (p1 <= p0) continue;
        int one = single_run(&g->p, b, p0, p1, &at) && at >= lo && at + (p1 - p0) <= hi;
        unsigned char *buf = one ? g->win + (at - lo) : g->scratch + off;
        if (!one) off += p1 - p0;
        lattio_prof_phase(g->f, LATTIO_PHASE_PACK);
        if (!one && !g->writing) note(g, scatter(&g->p, b, p0, p1, g->win, lo, hi, buf, 0));
        lattio_prof_phase(g->f, LATTIO_PHASE_EXCHANGE);
        int rc = g->writing ? MPI_Irecv(buf, (int)(p1 - p0), MPI_BYTE, q, AGG_TAG, g->f->comm, &g->reqs[(*n)++])
                            : MPI_Isend(buf, (int)(p1 - p0), MPI_BYTE, q, AGG_TAG, g->f->comm, &g->reqs[(*n)++]);
        RETURN_IF_ERROR(MPI_CHECK(rc, LATTIO_ERR_MPI));
    }
    return LATTIO_OK;
}

/* Writing: after the receives, copy the scratch pieces into the window. */
static int place_scratch(agg *g, uint64_t lo, uint64_t hi)
{
    lattio_prof_phase(g->f, LATTIO_PHASE_PACK);
    uint64_t off = 0;
    for (int q = 0; q < g->f->size; q++) {
        const lattio_layout *b = box_of(g, q);
        uint64_t p0, p1, at = 0;
        piece(&g->p, b, lo, hi, &p0, &p1);
        if (p1 <= p0 || (single_run(&g->p, b, p0, p1, &at) && at >= lo && at + (p1 - p0) <= hi)) continue;
        RETURN_IF_ERROR(scatter(&g->p, b, p0, p1, g->win, lo, hi, g->scratch + off, 1));
        off += p1 - p0;
    }
    return LATTIO_OK;
}

static int wait_all(agg *g, int n)
{
    lattio_prof_phase(g->f, LATTIO_PHASE_EXCHANGE);
    return n ? MPI_CHECK(MPI_Waitall(n, g->reqs, MPI_STATUSES_IGNORE), LATTIO_ERR_MPI) : LATTIO_OK;
}

/* Collective.  Round r of a write. */
static int write_round(agg *g, uint64_t r)
{
    uint64_t lo = 0, hi = 0;
    int n = 0;
    if (g->me >= 0) window(&g->p, g->me, r, &lo, &hi);
    if (hi > lo) RETURN_IF_ERROR(post_window(g, lo, hi, &n)); /* receives first */
    RETURN_IF_ERROR(post_mine(g, r, &n));
    RETURN_IF_ERROR(wait_all(g, n));
    if (hi <= lo || g->io_rc != LATTIO_OK) return LATTIO_OK;
    note(g, place_scratch(g, lo, hi));
    lattio_prof_phase(g->f, LATTIO_PHASE_IO);
    if (g->io_rc == LATTIO_OK) note(g, lattio_write_at(g->f, lo, g->win, hi - lo));
    return LATTIO_OK;
}

/* Collective.  Round r of a read. */
static int read_round(agg *g, uint64_t r)
{
    uint64_t lo = 0, hi = 0;
    int n = 0;
    RETURN_IF_ERROR(post_mine(g, r, &n)); /* receives first */
    if (g->me >= 0) window(&g->p, g->me, r, &lo, &hi);
    lattio_prof_phase(g->f, LATTIO_PHASE_IO);
    if (hi > lo && g->io_rc == LATTIO_OK) note(g, lattio_read_at(g->f, lo, g->win, hi - lo));
    if (hi > lo) RETURN_IF_ERROR(post_window(g, lo, hi, &n));
    RETURN_IF_ERROR(wait_all(g, n));
    unpack_mine(g, r);
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
    RETURN_IF_ERROR(choose_params(f, &par));
    if (naggs) par.nodes = naggs; /* equal on every rank */
    if (!par.nodes) par.nodes = m->naggs;
    make_plan(&par, m->base, bytes, f->size, &g.p);
    for (int a = 0; a < g.p.naggs; a++)
        if (aggregator_rank(&g.p, a) == f->rank) g.me = a;
    g.identity = m->s->direct != NULL;
    if (f->rank == 0)
        LATTIO_TRACE("aggregate %s: block %llu, %d aggregators, window %llu, %llu rounds",
                     writing ? "write" : "read", (unsigned long long)g.p.block, g.p.naggs,
                     (unsigned long long)g.p.window, (unsigned long long)g.p.rounds);
    m->rounds = g.p.rounds;
    int rc = setup(&g);
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
