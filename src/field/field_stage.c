/* field_stage.c -- the field pipeline's staging, MPI-free: a rank's sites
 * packed (when its buffer has ghosts or another memory order), converted
 * between the memory and the disk format and checksummed with their global
 * site ranks, fused in one pass over blocks small enough to stay in the
 * cache.  The MPI layer calls it through a stager (src/io/xfer.h) on one
 * or two lanes (threads) at once, each with its own block and partial
 * checksum; the partial sums are XORed at the end. */
#include "field_internal.h"
#include "testhooks.h"

#include <stdatomic.h>
#include <string.h>

/* Sites per fused block: about 64 KiB of memory-format sites. */
#define FUSE_BYTES (64u << 10)

#ifdef LATTIO_TEST_HOOKS
static atomic_int corrupt_left; /* staged sites still to corrupt */

void lattio_field_test_corrupt_writes(int n) { atomic_store(&corrupt_left, n); }
#endif

/* Test hook: flip a bit in each of the first sites staged from now on
 * (lattio_field_test_corrupt_writes: that many sites, over any number of
 * fills, after their checksum). */
static void maybe_corrupt(unsigned char *dst, uint64_t n, size_t site)
{
#ifdef LATTIO_TEST_HOOKS
    for (uint64_t i = 0; i < n; i++) {
        int left = atomic_load(&corrupt_left);
        while (left > 0 && !atomic_compare_exchange_weak(&corrupt_left, &left, left - 1)) {
        }
        if (left <= 0) return;
        dst[i * site] ^= 0x40;
    }
#else
    (void)dst, (void)n, (void)site;
#endif
}

int lattio_field_check_memory(const lattio_field_desc *d, const lattio_layout *l, const void *local)
{
    RETURN_IF(!d || !l, LATTIO_ERR_ARG);
    RETURN_IF(!local && lattio_layout_local_sites(l) > 0, LATTIO_ERR_ARG);
    RETURN_IF(d->mem_format != LATTIO_REAL_F32_NATIVE && d->mem_format != LATTIO_REAL_F64_NATIVE, LATTIO_ERR_ARG);
    RETURN_IF(d->elements == 0 || d->elements > SIZE_MAX / 16, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lattio_layout_check(l));
    RETURN_IF(l->site_bytes != d->elements * lattio_real_size(d->mem_format), LATTIO_ERR_ARG);
    return LATTIO_OK;
}

int lattio_field_stage_init(lattio_field_stage *st, const lattio_layout *l, int mem_fmt, int disk_fmt,
                            uint64_t elements, void *local)
{
    memset(st, 0, sizeof *st);
    st->l = l;
    st->mem_fmt = mem_fmt;
    st->disk_fmt = disk_fmt;
    st->elements = st->mem_elements = elements;
    st->local = local;
    st->disk_site = (size_t)elements * lattio_real_size(disk_fmt);
    st->sum_kind = LATTIO_STAGE_SUM_SCIDAC;
    st->sum_fmt = disk_fmt;
    st->packed = lattio_layout_is_packed(l);
    st->block_sites = FUSE_BYTES / l->site_bytes ? FUSE_BYTES / l->site_bytes : 1;
    for (int i = 0; i < 2 && !st->packed; i++) {
        st->block[i] = lattio_malloc((size_t)st->block_sites * l->site_bytes);
        RETURN_IF(!st->block[i], LATTIO_FAIL(LATTIO_ERR_NOMEM, "staging block"));
    }
    return LATTIO_OK;
}

int lattio_field_stage_checksum(lattio_field_stage *st, int kind, int fmt)
{
    RETURN_IF(lattio_real_size(fmt) != lattio_real_size(st->disk_fmt), LATTIO_ERR_ARG);
    st->sum_kind = kind;
    st->sum_fmt = fmt;
    for (int i = 0; i < 2 && kind != LATTIO_STAGE_SUM_NONE && fmt != st->disk_fmt && !st->scratch[i]; i++) {
        st->scratch[i] = lattio_malloc((size_t)st->block_sites * st->disk_site);
        RETURN_IF(!st->scratch[i], LATTIO_FAIL(LATTIO_ERR_NOMEM, "checksum block"));
    }
    return LATTIO_OK;
}

int lattio_field_stage_window(lattio_field_stage *st, uint64_t mem_elements, uint64_t first)
{
    RETURN_IF(first > mem_elements || st->elements > mem_elements - first, LATTIO_ERR_ARG);
    RETURN_IF(st->l->site_bytes != mem_elements * lattio_real_size(st->mem_fmt), LATTIO_ERR_ARG);
    st->mem_elements = mem_elements;
    st->win_first = first;
    return LATTIO_OK;
}

void lattio_field_stage_free(lattio_field_stage *st)
{
    for (int i = 0; i < 2; i++) {
        lattio_free(st->block[i]);
        lattio_free(st->scratch[i]);
        st->block[i] = st->scratch[i] = NULL;
    }
}

lattio_scidac_sum lattio_field_stage_sum(const lattio_field_stage *st)
{
    lattio_scidac_sum s = st->sum[0];
    lattio_scidac_sum_combine(&s, &st->sum[1]);
    return s;
}

lattio_qlua_sum lattio_field_stage_qlua_sum(const lattio_field_stage *st)
{
    lattio_qlua_sum s = st->qsum[0];
    lattio_qlua_sum_combine(&s, &st->qsum[1]);
    return s;
}

static void phase(const lattio_field_stage *st, int lane, int p)
{
    if (lane == 0 && st->phase) st->phase(st->phase_ctx, p);
}

/* The next piece of [s, end): at most a block, within one row (so its
 * sites have consecutive global ranks, the first's in *rank). */
static uint64_t piece(const lattio_field_stage *st, uint64_t s, uint64_t end, uint64_t *rank)
{
    const uint64_t row = lattio_layout_row_sites(st->l);
    uint64_t k = row - s % row;
    if (k > end - s) k = end - s;
    if (k > st->block_sites) k = st->block_sites;
    *rank = lattio_layout_local_rank(st->l, s);
    return k;
}

/* The k file sites at `bytes` (disk format), global ranks from `rank` on,
 * into lane's sum. */
static int sum_piece(lattio_field_stage *st, int lane, const unsigned char *bytes, uint64_t k, uint64_t rank)
{
    if (st->sum_kind == LATTIO_STAGE_SUM_NONE) return LATTIO_OK;
    phase(st, lane, LATTIO_STAGE_CHECKSUM);
    if (st->sum_fmt != st->disk_fmt) {
        RETURN_IF_ERROR(lattio_convert_reals(st->scratch[lane], st->sum_fmt, bytes, st->disk_fmt,
                                             (size_t)(k * st->elements)));
        bytes = st->scratch[lane];
    }
    if (st->sum_kind == LATTIO_STAGE_SUM_SCIDAC)
        return lattio_scidac_sum_sites(&st->sum[lane], bytes, st->disk_site, k, rank);
    uint64_t coord[LATTIO_MAX_DIMS];
    const lattio_layout *l = st->l;
    for (int i = l->ndims - 1; i >= 0; i--) { /* file order, the fastest last */
        const uint64_t g = l->global[l->file_order[i]];
        coord[i] = rank % g;
        rank /= g;
    }
    return lattio_qlua_sum_sites(&st->qsum[lane], bytes, st->disk_site, k, l->ndims, coord);
}

/* Convert k sites between memory (the window of each) and disk bytes. */
static int convert_sites(const lattio_field_stage *st, int to_disk, unsigned char *disk, unsigned char *mem,
                         uint64_t k)
{
    if (st->mem_elements == st->elements)
        return to_disk ? lattio_convert_reals(disk, st->disk_fmt, mem, st->mem_fmt, (size_t)(k * st->elements))
                       : lattio_convert_reals(mem, st->mem_fmt, disk, st->disk_fmt, (size_t)(k * st->elements));
    const size_t msz = lattio_real_size(st->mem_fmt);
    for (uint64_t i = 0; i < k; i++) {
        unsigned char *m = mem + i * st->l->site_bytes + st->win_first * msz, *d = disk + i * st->disk_site;
        RETURN_IF_ERROR(to_disk ? lattio_convert_reals(d, st->disk_fmt, m, st->mem_fmt, (size_t)st->elements)
                                : lattio_convert_reals(m, st->mem_fmt, d, st->disk_fmt, (size_t)st->elements));
    }
    return LATTIO_OK;
}

int lattio_field_stage_fill(void *ctx, int lane, uint64_t first, uint64_t n, unsigned char *dst)
{
    lattio_field_stage *st = ctx;
    const size_t msite = st->l->site_bytes;
    for (uint64_t s = first; s < first + n;) {
        uint64_t rank;
        const uint64_t k = piece(st, s, first + n, &rank);
        unsigned char *src = (unsigned char *)st->local + s * msite;
        unsigned char *out = dst + (s - first) * st->disk_site;
        phase(st, lane, LATTIO_STAGE_CONVERT);
        if (!st->packed) {
            RETURN_IF_ERROR(lattio_layout_pack(st->l, st->local, s, k, st->block[lane]));
            src = st->block[lane];
        }
        RETURN_IF_ERROR(convert_sites(st, 1, out, src, k));
        RETURN_IF_ERROR(sum_piece(st, lane, out, k, rank));
        s += k;
    }
    maybe_corrupt(dst, n, st->disk_site);
    return LATTIO_OK;
}

int lattio_field_stage_drain(void *ctx, int lane, uint64_t first, uint64_t n, const unsigned char *src)
{
    lattio_field_stage *st = ctx;
    const size_t msite = st->l->site_bytes;
    for (uint64_t s = first; s < first + n;) {
        uint64_t rank;
        const uint64_t k = piece(st, s, first + n, &rank);
        unsigned char *in = (unsigned char *)src + (s - first) * st->disk_site;
        RETURN_IF_ERROR(sum_piece(st, lane, in, k, rank));
        if (st->sum_only) {
            s += k;
            continue;
        }
        phase(st, lane, LATTIO_STAGE_CONVERT);
        unsigned char *out = st->packed ? (unsigned char *)st->local + s * msite : st->block[lane];
        /* a window leaves the memory site's other reals as they are */
        if (!st->packed && st->mem_elements != st->elements)
            RETURN_IF_ERROR(lattio_layout_pack(st->l, st->local, s, k, st->block[lane]));
        RETURN_IF_ERROR(convert_sites(st, 0, in, out, k));
        if (!st->packed) RETURN_IF_ERROR(lattio_layout_unpack(st->l, st->block[lane], s, k, st->local));
        s += k;
    }
    return LATTIO_OK;
}
