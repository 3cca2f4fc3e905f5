/* slab.c -- MPI-free geometry of the staging rounds: a rank's box cut into
 * slabs (contiguous ranges of its sites in file order that are boxes), the
 * walk over their file runs in batches, and the global file rank of a
 * rank's n-th site. */
#include "internal.h"

#include <string.h>

void lattio_slab_plan_make(lattio_slab_plan *p, const lattio_layout *l, uint64_t budget)
{
    memset(p, 0, sizeof *p);
    p->nd = l->ndims;
    for (int i = 0; i < p->nd; i++) p->c[i] = l->count[l->file_order[i]];
    if (lattio_layout_local_sites(l) == 0) return;
    if (budget == 0) budget = 1;
    uint64_t inner = 1;
    p->k = p->nd - 1;
    for (int i = p->nd - 1; i > 0 && inner * p->c[i] <= budget; i--) {
        inner *= p->c[i];
        p->k = i - 1;
    }
    p->inner = inner;
    p->t = budget / inner < p->c[p->k] ? budget / inner : p->c[p->k];
    if (p->t == 0) p->t = 1;
    p->per = (p->c[p->k] + p->t - 1) / p->t;
    uint64_t outer = 1;
    for (int i = 0; i < p->k; i++) outer *= p->c[i];
    p->nchunks = outer * p->per;
    p->max_sites = p->t * p->inner;
}

void lattio_slab_chunk(const lattio_slab_plan *p, uint64_t q, uint64_t *first, uint64_t *n)
{
    *first = *n = 0;
    if (q >= p->nchunks) return;
    const uint64_t outer = q / p->per, j = (q % p->per) * p->t;
    const uint64_t thick = p->c[p->k] - j < p->t ? p->c[p->k] - j : p->t;
    *first = (outer * p->c[p->k] + j) * p->inner;
    *n = thick * p->inner;
}

uint64_t lattio_layout_local_rank(const lattio_layout *l, uint64_t s)
{
    uint64_t coord[LATTIO_MAX_DIMS];
    for (int i = l->ndims - 1; i >= 0; i--) { /* mixed radix, fastest file dim first */
        const int d = l->file_order[i];
        coord[d] = l->lo[d] + s % l->count[d];
        s /= l->count[d];
    }
    return lattio_layout_file_rank(l, coord);
}

uint64_t lattio_layout_row_sites(const lattio_layout *l)
{
    return l->ndims > 0 ? l->count[l->file_order[l->ndims - 1]] : 0;
}

int lattio_layout_is_packed(const lattio_layout *l)
{
    for (int d = 0; d < l->ndims; d++)
        if (l->halo_lo[d] || l->halo_hi[d] || l->mem_order[d] != l->file_order[d]) return 0;
    return 1;
}

void lattio_layout_packed_view(lattio_layout *out, const lattio_layout *l, size_t site_bytes)
{
    *out = *l;
    memset(out->halo_lo, 0, sizeof out->halo_lo);
    memset(out->halo_hi, 0, sizeof out->halo_hi);
    memcpy(out->mem_order, l->file_order, sizeof out->mem_order);
    out->site_bytes = site_bytes;
}

int lattio_layout_runs_each(const lattio_layout *l, uint64_t first, uint64_t n, lattio_run *scratch,
                            size_t max, lattio_runs_fn fn, void *ctx)
{
    RETURN_IF(max == 0, LATTIO_ERR_ARG);
    while (n > 0) {
        uint64_t k = n;
        size_t nruns = 0;
        RETURN_IF_ERROR(lattio_layout_runs(l, first, k, scratch, max, &nruns));
        while (nruns > max) { /* too many runs: take fewer sites at a time */
            const uint64_t fewer = k / nruns * max;
            k = fewer ? fewer : 1;
            RETURN_IF_ERROR(lattio_layout_runs(l, first, k, scratch, max, &nruns));
        }
        const uint64_t origin = scratch[0].packed_offset;
        for (size_t i = 0; i < nruns; i++) scratch[i].packed_offset -= origin;
        RETURN_IF_ERROR(fn(ctx, first, k, scratch, nruns));
        first += k;
        n -= k;
    }
    return LATTIO_OK;
}
