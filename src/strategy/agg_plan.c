/* agg_plan.c -- the geometry of lattio's two-phase I/O (agg_plan.h).
 *
 * The lattice's bytes [base, base + bytes) in the file are cut into file
 * domains at multiples of a block size (absolute file offsets, so domains
 * line up with file-system blocks or stripes: OPAL's stripe-aligned
 * partitioning; the default block comes from the file system rank 0
 * detected at open, fsinfo.c: Lustre's stripe, GPFS's block, else the
 * block rounded up to >= 1 MiB).  A aggregators own contiguous runs of
 * whole domains (aggregator a is rank a * size / A).  In round r every
 * aggregator handles window r of its region, at most `buffer` bytes (a
 * multiple of the block when the buffer holds one).
 *
 * Because a rank's sites are numbered in increasing file rank, the bytes of
 * a rank in a window are one contiguous piece of its packed sites:
 * [P(lo), P(hi)) where P(x) counts the rank's bytes before lattice byte x
 * (bytes_before, O(ndims)), so every rank can tell every rank's piece of
 * every window from the boxes alone. */
#include "agg_plan.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define AGG_BUFFER ((uint64_t)16 << 20)
#define AGG_MAX_BUFFER ((uint64_t)1 << 30)
#define AGG_MAX_BLOCK ((uint64_t)1 << 40)
#define AGG_RUNS 256

/* --- parameters: block, aggregators, buffer, sharing (rank 0 decides) ---- */

/* The value of hint `key`: the environment's `v` (f->cfg) when set, else
 * f's info. */
static uint64_t hint(const lattio_file *f, const char *key, uint64_t v)
{
    if (v || f->place.info == MPI_INFO_NULL) return v;
    char val[64] = "";
    int flag = 0;
    if (MPI_Info_get(f->place.info, key, (int)sizeof val - 1, val, &flag) != MPI_SUCCESS || !flag) return 0;
    return lattio_parse_size(val);
}

int lattio_agg_params(lattio_file *f, agg_params *p)
{
    uint64_t v[4] = {0, 0, 0, 0};
    if (f->rank == 0) {
        v[0] = hint(f, "striping_unit", f->cfg.striping_unit);
        if (!v[0]) v[0] = lattio_file_alignment(f, 0); /* from the file system (fsinfo.c) */
        if (v[0] > AGG_MAX_BLOCK) v[0] = AGG_MAX_BLOCK;
        v[1] = hint(f, "cb_nodes", f->cfg.cb_nodes);
        v[2] = hint(f, "cb_buffer_size", f->cfg.cb_buffer_size);
        if (!v[2]) v[2] = AGG_BUFFER;
        if (v[2] > AGG_MAX_BUFFER) v[2] = AGG_MAX_BUFFER;
        v[3] = f->cfg.agg_shared; /* LATTIO_AGG_SHARED */
    }
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(v, 4, MPI_UINT64_T, 0, f->comm), LATTIO_ERR_MPI));
    *p = (agg_params){.block = v[0], .nodes = v[1], .buffer = v[2], .shared = v[3]};
    return LATTIO_OK;
}

/* --- the plan: domains, regions, windows (the same on every rank) -------- */

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

/* Windows start at block multiples so writes stay aligned. */
void lattio_agg_window(const agg_plan *p, int a, uint64_t r, uint64_t *lo, uint64_t *hi)
{
    uint64_t rs, re;
    region(p, a, &rs, &re);
    uint64_t start = rs / p->block * p->block + r * p->window;
    *lo = start > rs ? start : rs;
    *hi = start + p->window < re ? start + p->window : re;
    if (*lo >= *hi) *lo = *hi = re;
}

uint64_t lattio_agg_window_need(const agg_plan *p, int a)
{
    uint64_t most = 0;
    for (uint64_t r = 0; a >= 0 && r < p->rounds; r++) {
        uint64_t lo, hi;
        lattio_agg_window(p, a, r, &lo, &hi);
        if (hi - lo > most) most = hi - lo;
    }
    return most;
}

int lattio_agg_rank(const agg_plan *p, int a)
{
    return (int)((uint64_t)a * (uint64_t)p->size / (uint64_t)p->naggs);
}

void lattio_agg_plan(const agg_params *par, uint64_t base, uint64_t bytes, int size, agg_plan *p)
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

void lattio_agg_piece(const agg_plan *p, const lattio_layout *l, uint64_t lo, uint64_t hi, uint64_t *p0,
                      uint64_t *p1)
{
    *p0 = bytes_before(l, lo - p->base);
    *p1 = bytes_before(l, hi - p->base);
}

int lattio_agg_runs(const agg_plan *p, const lattio_layout *l, uint64_t p0, uint64_t p1, const agg_win *w,
                    agg_run_fn fn, void *ctx)
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
            RETURN_IF(fo < w->lo || fo + (hi - lo) > w->hi, LATTIO_ERR_LAYOUT); /* boxes overlap */
            RETURN_IF_ERROR(fn(ctx, lo, hi, w->bytes + (fo - w->lo)));
        }
        s += k;
    }
    return LATTIO_OK;
}

int lattio_agg_single_run(const agg_plan *p, const lattio_layout *l, uint64_t p0, uint64_t p1, uint64_t lo,
                          uint64_t hi, uint64_t *at)
{
    uint64_t sb = l->site_bytes, s = p0 / sb;
    lattio_run run;
    size_t nruns = 0;
    if (lattio_layout_runs(l, s, (p1 + sb - 1) / sb - s, &run, 1, &nruns) != LATTIO_OK || nruns != 1) return 0;
    *at = p->base + run.file_offset + (p0 - s * sb);
    return *at >= lo && *at + (p1 - p0) <= hi;
}
