/* layout.c -- layout arithmetic (MPI-free): validation of a rank's view of a
 * distributed lattice, block decompositions, file ranks, and the copies
 * between the caller's buffer (memory order, with ghosts) and packed sites in
 * file order, plus the file runs those packed sites occupy.
 *
 * Every copy and every run walks a "plan": the rank's box seen in file order
 * (slowest first), with extent-1 dimensions dropped and neighbouring
 * dimensions merged where the target array (memory or file) is contiguous
 * across them.  A plan's fastest dimension is a "row"; rows are walked with
 * an odometer, so no division happens per row or per site. */
#include "internal.h"

#include <string.h>

typedef struct plan {
    int nd;                               /* merged dimensions, >= 1 */
    uint64_t n[LATTIO_MAX_DIMS + 1];      /* extent of each, slowest first */
    uint64_t stride[LATTIO_MAX_DIMS + 1]; /* its stride in sites in the target array */
    uint64_t base;                    /* target position of the box's first site */
} plan;

typedef struct cursor {
    uint64_t c[LATTIO_MAX_DIMS + 1]; /* coordinate in each plan dimension */
    uint64_t pos;                    /* target position in sites */
} cursor;

/* --- checked arithmetic ------------------------------------------------ */

/* *out = a * b; -1 when that overflows 64 bits. */
static int mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a != 0 && b > UINT64_MAX / a) return -1;
    *out = a * b;
    return 0;
}

/* Product of n factors: 0 if any is 0, -1 if it overflows 64 bits. */
static int product(const uint64_t *f, int n, uint64_t *out)
{
    for (int i = 0; i < n; i++) {
        if (f[i] == 0) {
            *out = 0;
            return 0;
        }
    }
    uint64_t p = 1;
    for (int i = 0; i < n; i++)
        if (mul_u64(p, f[i], &p)) return -1;
    *out = p;
    return 0;
}

/* Buffer extent of every lattice dimension: halo_lo + count + halo_hi. */
static int buffer_extents(const lattio_layout *l, uint64_t *ext)
{
    for (int d = 0; d < l->ndims; d++) {
        uint64_t e = l->count[d];
        if (l->halo_lo[d] > UINT64_MAX - e) return -1;
        e += l->halo_lo[d];
        if (l->halo_hi[d] > UINT64_MAX - e) return -1;
        ext[d] = e + l->halo_hi[d];
    }
    return 0;
}

static int dims_ok(const lattio_layout *l)
{
    return l && l->ndims >= 1 && l->ndims <= LATTIO_MAX_DIMS;
}

/* --- validation ---------------------------------------------------------- */

static int is_permutation(const int *order, int nd)
{
    int seen[LATTIO_MAX_DIMS] = {0};
    for (int i = 0; i < nd; i++) {
        if (order[i] < 0 || order[i] >= nd || seen[order[i]]) return 0;
        seen[order[i]] = 1;
    }
    return 1;
}

static int check_shape(const lattio_layout *l)
{
    RETURN_IF(l->ndims < 1 || l->ndims > LATTIO_MAX_DIMS, LATTIO_ERR_LAYOUT);
    RETURN_IF(l->site_bytes == 0, LATTIO_ERR_LAYOUT);
    RETURN_IF(!is_permutation(l->file_order, l->ndims), LATTIO_ERR_LAYOUT);
    RETURN_IF(!is_permutation(l->mem_order, l->ndims), LATTIO_ERR_LAYOUT);
    for (int d = 0; d < l->ndims; d++) {
        RETURN_IF(l->global[d] == 0, LATTIO_ERR_LAYOUT);
        RETURN_IF(l->lo[d] > l->global[d], LATTIO_ERR_LAYOUT);
        RETURN_IF(l->count[d] > l->global[d] - l->lo[d], LATTIO_ERR_LAYOUT);
    }
    return LATTIO_OK;
}

static int check_sizes(const lattio_layout *l)
{
    uint64_t sites, bytes, ext[LATTIO_MAX_DIMS];
    RETURN_IF(product(l->global, l->ndims, &sites), LATTIO_ERR_OVERFLOW);
    RETURN_IF(mul_u64(sites, l->site_bytes, &bytes), LATTIO_ERR_OVERFLOW);
    RETURN_IF(buffer_extents(l, ext), LATTIO_ERR_OVERFLOW);
    RETURN_IF(product(ext, l->ndims, &sites), LATTIO_ERR_OVERFLOW);
    RETURN_IF(mul_u64(sites, l->site_bytes, &bytes), LATTIO_ERR_OVERFLOW);
    RETURN_IF(bytes > SIZE_MAX, LATTIO_ERR_OVERFLOW);
    return LATTIO_OK;
}

int lattio_layout_check(const lattio_layout *l)
{
    RETURN_IF(!l, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(check_shape(l));
    return check_sizes(l);
}

int lattio_layout_init(lattio_layout *l, int ndims, const uint64_t *global, const uint64_t *lo,
                       const uint64_t *count, size_t site_bytes)
{
    RETURN_IF(!l, LATTIO_ERR_ARG);
    memset(l, 0, sizeof *l);
    RETURN_IF(ndims < 1 || ndims > LATTIO_MAX_DIMS, LATTIO_ERR_LAYOUT);
    RETURN_IF(!global || !lo || !count, LATTIO_ERR_ARG);
    l->ndims = ndims;
    l->site_bytes = site_bytes;
    for (int d = 0; d < ndims; d++) {
        l->global[d] = global[d];
        l->lo[d] = lo[d];
        l->count[d] = count[d];
        l->file_order[d] = d;
        l->mem_order[d] = d;
    }
    return lattio_layout_check(l);
}

void lattio_box_of(const lattio_layout *l, uint64_t *box)
{
    for (int d = 0; d < l->ndims; d++) {
        box[d] = l->lo[d];
        box[l->ndims + d] = l->count[d];
    }
}

static int box_empty(const uint64_t *b, int ndims)
{
    for (int d = 0; d < ndims; d++)
        if (b[ndims + d] == 0) return 1;
    return 0;
}

/* Boxes inside the lattice (checked before): lo + count cannot overflow. */
static int boxes_meet(const uint64_t *a, const uint64_t *b, int ndims)
{
    for (int d = 0; d < ndims; d++)
        if (a[d] >= b[d] + b[ndims + d] || b[d] >= a[d] + a[ndims + d]) return 0;
    return 1;
}

int lattio_box_overlaps(const uint64_t *boxes, size_t n, int ndims, size_t me)
{
    const size_t w = 2 * (size_t)ndims;
    const uint64_t *mine = boxes + me * w;
    if (box_empty(mine, ndims)) return 0;
    for (size_t i = 0; i < n; i++)
        if (i != me && !box_empty(boxes + i * w, ndims) && boxes_meet(mine, boxes + i * w, ndims))
            return 1;
    return 0;
}

int lattio_split(uint64_t extent, uint64_t parts, uint64_t index, uint64_t *lo, uint64_t *count)
{
    RETURN_IF(!lo || !count, LATTIO_ERR_ARG);
    RETURN_IF(parts == 0 || index >= parts, LATTIO_ERR_ARG);
    const uint64_t base = extent / parts, rem = extent % parts;
    *lo = index * base + (index < rem ? index : rem);
    *count = base + (index < rem ? 1 : 0);
    return LATTIO_OK;
}

/* --- sizes and ranks ----------------------------------------------------- */

/* These saturate at UINT64_MAX (a layout that fails lattio_layout_check). */
uint64_t lattio_layout_global_sites(const lattio_layout *l)
{
    uint64_t p;
    if (!dims_ok(l)) return 0;
    return product(l->global, l->ndims, &p) ? UINT64_MAX : p;
}

uint64_t lattio_layout_local_sites(const lattio_layout *l)
{
    uint64_t p;
    if (!dims_ok(l)) return 0;
    return product(l->count, l->ndims, &p) ? UINT64_MAX : p;
}

uint64_t lattio_layout_buffer_sites(const lattio_layout *l)
{
    uint64_t p, ext[LATTIO_MAX_DIMS];
    if (!dims_ok(l)) return 0;
    if (buffer_extents(l, ext) || product(ext, l->ndims, &p)) return UINT64_MAX;
    return p;
}

/* UINT64_MAX (never a valid rank) for a NULL or malformed argument. */
uint64_t lattio_layout_file_rank(const lattio_layout *l, const uint64_t *coord)
{
    if (!dims_ok(l) || !coord || !is_permutation(l->file_order, l->ndims)) return UINT64_MAX;
    uint64_t r = 0;
    for (int i = 0; i < l->ndims; i++) {
        const int d = l->file_order[i];
        r = r * l->global[d] + coord[d];
    }
    return r;
}

/* --- plans and cursors --------------------------------------------------- */

/* Stride in sites of each lattice dimension in a lexicographic array whose
 * dimension i (slowest first) is lattice dimension order[i], of extent
 * ext[order[i]]. */
static void strides(int nd, const int *order, const uint64_t *ext, uint64_t *stride)
{
    uint64_t s = 1;
    for (int i = nd - 1; i >= 0; i--) {
        stride[order[i]] = s;
        s *= ext[order[i]];
    }
}

/* The box (local_sites > 0) in file order over a target array with the given
 * strides, whose first site sits at coordinates origin[]. */
static void plan_build(const lattio_layout *l, const uint64_t *stride, const uint64_t *origin,
                       plan *p)
{
    p->nd = 0;
    p->base = 0;
    for (int i = 0; i < l->ndims; i++) {
        const int d = l->file_order[i];
        const uint64_t n = l->count[d];
        p->base += origin[d] * stride[d];
        if (n == 1) continue;
        if (p->nd > 0 && p->stride[p->nd - 1] == n * stride[d]) {
            p->n[p->nd - 1] *= n;
            p->stride[p->nd - 1] = stride[d];
        } else {
            p->n[p->nd] = n;
            p->stride[p->nd] = stride[d];
            p->nd++;
        }
    }
    if (p->nd == 0) {
        p->n[0] = 1;
        p->stride[0] = 1;
        p->nd = 1;
    }
}

/* Plan over the caller's buffer: memory order, ghosts included. */
static void memory_plan(const lattio_layout *l, plan *p)
{
    uint64_t ext[LATTIO_MAX_DIMS], stride[LATTIO_MAX_DIMS];
    buffer_extents(l, ext);
    strides(l->ndims, l->mem_order, ext, stride);
    plan_build(l, stride, l->halo_lo, p);
}

/* Plan over the file.  Its rows are contiguous in the file: when the
 * fastest remaining dimension is strided, each site is a row of its own. */
static void file_plan(const lattio_layout *l, plan *p)
{
    uint64_t stride[LATTIO_MAX_DIMS];
    strides(l->ndims, l->file_order, l->global, stride);
    plan_build(l, stride, l->lo, p);
    if (p->stride[p->nd - 1] != 1) {
        p->n[p->nd] = 1;
        p->stride[p->nd] = 1;
        p->nd++;
    }
}

/* Place the cursor on site k of the plan's numbering (one division per
 * dimension, once per call). */
static void cursor_seek(const plan *p, uint64_t k, cursor *c)
{
    c->pos = p->base;
    for (int i = p->nd - 1; i >= 0; i--) {
        c->c[i] = k % p->n[i];
        k /= p->n[i];
        c->pos += c->c[i] * p->stride[i];
    }
}

/* Move to the first site of the next row. */
static void cursor_next_row(const plan *p, cursor *c)
{
    const int last = p->nd - 1;
    c->pos -= c->c[last] * p->stride[last];
    c->c[last] = 0;
    for (int i = last - 1; i >= 0; i--) {
        if (c->c[i] + 1 < p->n[i]) {
            c->c[i]++;
            c->pos += p->stride[i];
            return;
        }
        c->pos -= c->c[i] * p->stride[i];
        c->c[i] = 0;
    }
}

/* Sites left in the cursor's row, at most n. */
static uint64_t row_left(const plan *p, const cursor *c, uint64_t n)
{
    const uint64_t left = p->n[p->nd - 1] - c->c[p->nd - 1];
    return left < n ? left : n;
}

/* --- pack / unpack ------------------------------------------------------- */

/* Validate the layout and the range [first, first + n) of local sites. */
static int check_range(const lattio_layout *l, uint64_t first, uint64_t n)
{
    RETURN_IF_ERROR(lattio_layout_check(l));
    const uint64_t local = lattio_layout_local_sites(l);
    RETURN_IF(first > local || n > local - first, LATTIO_ERR_ARG);
    RETURN_IF(n > SIZE_MAX / l->site_bytes, LATTIO_ERR_OVERFLOW);
    return LATTIO_OK;
}

/* Copy len sites of sb bytes, spaced dst_step / src_step bytes apart. */
static void copy_sites(unsigned char *dst, size_t dst_step, const unsigned char *src,
                       size_t src_step, uint64_t len, size_t sb)
{
    if (dst_step == sb && src_step == sb) {
        memcpy(dst, src, (size_t)len * sb);
        return;
    }
    for (uint64_t k = 0; k < len; k++, dst += dst_step, src += src_step) memcpy(dst, src, sb);
}

/* Copy sites [first, first + n) between the buffer `mem` and packed order:
 * to_packed selects the direction. */
static void transfer(const lattio_layout *l, uint64_t first, uint64_t n, unsigned char *dst,
                     const unsigned char *src, int to_packed)
{
    plan p;
    cursor c;
    const size_t sb = l->site_bytes;
    memory_plan(l, &p);
    const size_t mem_step = (size_t)p.stride[p.nd - 1] * sb;
    cursor_seek(&p, first, &c);
    while (n > 0) {
        const uint64_t len = row_left(&p, &c, n);
        const size_t at = (size_t)c.pos * sb, bytes = (size_t)len * sb;
        if (to_packed) {
            copy_sites(dst, sb, src + at, mem_step, len, sb);
            dst += bytes;
        } else {
            copy_sites(dst + at, mem_step, src, sb, len, sb);
            src += bytes;
        }
        n -= len;
        cursor_next_row(&p, &c);
    }
}

int lattio_layout_pack(const lattio_layout *l, const void *local, uint64_t first, uint64_t n,
                       void *packed)
{
    RETURN_IF_ERROR(check_range(l, first, n));
    if (n == 0) return LATTIO_OK;
    RETURN_IF(!local || !packed, LATTIO_ERR_ARG);
    transfer(l, first, n, packed, local, 1);
    return LATTIO_OK;
}

int lattio_layout_unpack(const lattio_layout *l, const void *packed, uint64_t first, uint64_t n,
                         void *local)
{
    RETURN_IF_ERROR(check_range(l, first, n));
    if (n == 0) return LATTIO_OK;
    RETURN_IF(!local || !packed, LATTIO_ERR_ARG);
    transfer(l, first, n, local, packed, 0);
    return LATTIO_OK;
}

/* --- file runs ----------------------------------------------------------- */

/* Store the first `count` runs of sites [first, first + n). */
static void emit_runs(const lattio_layout *l, const plan *p, uint64_t first, uint64_t n,
                      lattio_run *runs, size_t count)
{
    cursor c;
    const uint64_t sb = l->site_bytes;
    uint64_t packed = 0;
    cursor_seek(p, first, &c);
    for (size_t j = 0; j < count; j++) {
        const uint64_t len = row_left(p, &c, n);
        runs[j].file_offset = c.pos * sb;
        runs[j].packed_offset = packed * sb;
        runs[j].bytes = len * sb;
        packed += len;
        n -= len;
        cursor_next_row(p, &c);
    }
}

int lattio_layout_runs(const lattio_layout *l, uint64_t first, uint64_t n, lattio_run *runs,
                       size_t max, size_t *nruns)
{
    RETURN_IF(!nruns, LATTIO_ERR_ARG);
    *nruns = 0;
    RETURN_IF(!runs && max > 0, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(check_range(l, first, n));
    if (n == 0) return LATTIO_OK;
    plan p;
    file_plan(l, &p);
    const uint64_t row = p.n[p.nd - 1];
    const uint64_t total = (first + n - 1) / row - first / row + 1;
    RETURN_IF(total > SIZE_MAX, LATTIO_ERR_OVERFLOW);
    *nruns = (size_t)total;
    emit_runs(l, &p, first, n, runs, max < total ? max : (size_t)total);
    return LATTIO_OK;
}

int lattio_layout_slab_of(int nd, const uint64_t *dims, uint64_t elements, uint64_t parts, uint64_t index,
                          lattio_layout *l)
{
    if (!dims || !l || nd < 1 || nd > LATTIO_MAX_DIMS) return LATTIO_ERR_ARG;
    uint64_t lo[LATTIO_MAX_DIMS] = {0}, count[LATTIO_MAX_DIMS];
    memcpy(count, dims, (size_t)nd * sizeof *dims);
    int rc = lattio_split(dims[nd - 1], parts, index, &lo[nd - 1], &count[nd - 1]);
    if (rc == LATTIO_OK) rc = lattio_layout_init(l, nd, dims, lo, count, elements * 8);
    for (int d = 0; rc == LATTIO_OK && d < nd; d++) l->file_order[d] = l->mem_order[d] = nd - 1 - d;
    return rc == LATTIO_OK ? lattio_layout_check(l) : rc;
}
