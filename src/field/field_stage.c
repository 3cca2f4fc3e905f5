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

int lattio_field_stage_init(lattio_field_stage *st, const lattio_layout *l, int mem_fmt, int disk_fmt,
                            uint64_t elements, void *local)
{
    memset(st, 0, sizeof *st);
    st->l = l;
    st->mem_fmt = mem_fmt;
    st->disk_fmt = disk_fmt;
    st->elements = elements;
    st->local = local;
    st->disk_site = (size_t)elements * lattio_real_size(disk_fmt);
    st->packed = lattio_layout_is_packed(l);
    st->block_sites = FUSE_BYTES / l->site_bytes ? FUSE_BYTES / l->site_bytes : 1;
    for (int i = 0; i < 2 && !st->packed; i++) {
        st->block[i] = lattio_malloc((size_t)st->block_sites * l->site_bytes);
        RETURN_IF(!st->block[i], LATTIO_FAIL(LATTIO_ERR_NOMEM, "staging block"));
    }
    return LATTIO_OK;
}

void lattio_field_stage_free(lattio_field_stage *st)
{
    lattio_free(st->block[0]);
    lattio_free(st->block[1]);
    st->block[0] = st->block[1] = NULL;
}

lattio_scidac_sum lattio_field_stage_sum(const lattio_field_stage *st)
{
    lattio_scidac_sum s = st->sum[0];
    lattio_scidac_sum_combine(&s, &st->sum[1]);
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

int lattio_field_stage_fill(void *ctx, int lane, uint64_t first, uint64_t n, unsigned char *dst)
{
    lattio_field_stage *st = ctx;
    const size_t msite = st->l->site_bytes;
    for (uint64_t s = first; s < first + n;) {
        uint64_t rank;
        const uint64_t k = piece(st, s, first + n, &rank);
        const unsigned char *src = (const unsigned char *)st->local + s * msite;
        unsigned char *out = dst + (s - first) * st->disk_site;
        phase(st, lane, LATTIO_STAGE_CONVERT);
        if (!st->packed) {
            RETURN_IF_ERROR(lattio_layout_pack(st->l, st->local, s, k, st->block[lane]));
            src = st->block[lane];
        }
        RETURN_IF_ERROR(lattio_convert_reals(out, st->disk_fmt, src, st->mem_fmt, (size_t)(k * st->elements)));
        phase(st, lane, LATTIO_STAGE_CHECKSUM);
        RETURN_IF_ERROR(lattio_scidac_sum_sites(&st->sum[lane], out, st->disk_site, k, rank));
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
        const unsigned char *in = src + (s - first) * st->disk_site;
        phase(st, lane, LATTIO_STAGE_CHECKSUM);
        RETURN_IF_ERROR(lattio_scidac_sum_sites(&st->sum[lane], in, st->disk_site, k, rank));
        if (st->sum_only) {
            s += k;
            continue;
        }
        phase(st, lane, LATTIO_STAGE_CONVERT);
        unsigned char *out = st->packed ? (unsigned char *)st->local + s * msite : st->block[lane];
        RETURN_IF_ERROR(lattio_convert_reals(out, st->mem_fmt, in, st->disk_fmt, (size_t)(k * st->elements)));
        if (!st->packed) RETURN_IF_ERROR(lattio_layout_unpack(st->l, st->block[lane], s, k, st->local));
        s += k;
    }
    return LATTIO_OK;
}
