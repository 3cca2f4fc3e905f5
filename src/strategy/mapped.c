/* mapped.c -- the mapped strategy: every rank maps the file range its
 * sites span (mmap, MAP_SHARED) and converts its sites straight into the
 * file's pages in the page cache (writing) or out of them (reading).  No
 * write or read call moves the payload, so there is no copy between a
 * staging buffer and the page cache, and the ranks of a node do not queue
 * behind the lock a local file system takes for every write call: on one
 * node their copies into the page cache run side by side.
 *
 * Used only where the page cache is the file (xfer.c, mapped_eligible):
 * every rank on one node and the file on a local disk or tmpfs.  Writing,
 * the rank first reserves its range's blocks (fallocate), so a full file
 * system is an error here and never a fault on a page later; a file system
 * that cannot reserve (EOPNOTSUPP) or a mapping that fails sends this
 * rank's sites through the independent strategy instead (neither makes a
 * collective call, so ranks may differ).  Reading, the file must hold the
 * whole range (fstat) and the page cache all of it (mincore) before it is
 * read through the mapping; a range partly on disk only goes the
 * independent way (a disk error under a mapping would be a signal, not a
 * status).  Durable writes start the
 * kernel's writeback of each finished stretch, as independent writes do.
 * Each slab's pages leave the rank's page tables when it is done, so its
 * resident set stays one slab's stretch of the file.  The strategy makes no
 * MPI call at all. */
#define _GNU_SOURCE /* fallocate */
#include "strategy.h"

#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAP_RUNS 64
/* Sites per round: the rank's box is walked in slabs of this many bytes,
 * and a durable write starts the writeback of a slab's stretch of the file
 * two slabs later (by then the other ranks have filled its shared pages). */
#define MAP_SLAB ((uint64_t)16 << 20)
#define MAP_WB_LAG 2
/* Bytes of file per block the two lanes take in turn (with a helper). */
#define MAP_BLOCK ((uint64_t)256 << 10)

typedef struct mapping {
    int fd;
    unsigned char *at; /* the mapping of file bytes [from, from + len) */
    uint64_t from, len;
} mapping;

typedef struct map_call {
    lattio_move *m;
    mapping *mp;
    int writing, lane;
    uint64_t lo, hi; /* file bytes this batch touched (absolute) */
} map_call;

/* One slab on one or two lanes: blocks of `block` sites taken in turn
 * through an atomic counter by this thread (lane 0) and, with a helper
 * thread, lane 1; each lane keeps the file bytes it touched. */
typedef struct map_slab {
    lattio_move *m;
    mapping *mp;
    int writing;
    uint64_t first, n, block;
    _Atomic uint64_t next;
    uint64_t lo[2], hi[2];
} map_slab;

/* Local: the absolute file range [*lo, *hi) of this rank's sites (they are
 * numbered in file order: the first site's run starts it, the last's ends
 * it). */
static int span(const lattio_move *m, uint64_t total, uint64_t *lo, uint64_t *hi)
{
    lattio_run r;
    size_t n = 0;
    RETURN_IF_ERROR(lattio_layout_runs(m->l, 0, 1, &r, 1, &n));
    *lo = m->base + r.file_offset;
    RETURN_IF_ERROR(lattio_layout_runs(m->l, total - 1, 1, &r, 1, &n));
    *hi = m->base + r.file_offset + r.bytes;
    RETURN_IF(*hi <= *lo, LATTIO_ERR_LAYOUT);
    return LATTIO_OK;
}

/* Local: fn(ctx, first, count) for each run of the mapping's pages that
 * the page cache does not hold (mincore), page indices from the mapping's
 * start; stops at fn's first non-zero return, returned (or -1 when
 * mincore fails). */
static int each_missing(const mapping *mp, uint64_t page, int (*fn)(void *, uint64_t, uint64_t), void *ctx)
{
    enum { PIECE = 1 << 16 }; /* pages per mincore call */
    unsigned char *vec = lattio_malloc(PIECE);
    if (!vec) return -1;
    const uint64_t npages = (mp->len + page - 1) / page;
    uint64_t run = 0, nrun = 0; /* the missing run being gathered */
    int rc = 0;
    for (uint64_t p0 = 0; rc == 0 && p0 < npages; p0 += PIECE) {
        const uint64_t n = npages - p0 < PIECE ? npages - p0 : PIECE;
        const uint64_t bytes = (p0 + n) * page > mp->len ? mp->len - p0 * page : n * page;
        if (mincore(mp->at + p0 * page, (size_t)bytes, vec) != 0) rc = -1;
        for (uint64_t i = 0; rc == 0 && i < n; i++) {
            if (!(vec[i] & 1)) {
                if (nrun == 0) run = p0 + i;
                nrun++;
            } else if (nrun) {
                rc = fn(ctx, run, nrun);
                nrun = 0;
            }
        }
    }
    if (rc == 0 && nrun) rc = fn(ctx, run, nrun);
    lattio_free(vec);
    return rc;
}

static int count_pages(void *ctx, uint64_t first, uint64_t n)
{
    (void)first;
    *(uint64_t *)ctx += n;
    return 0;
}

typedef struct refill_ctx {
    const mapping *mp;
    uint64_t page;
    unsigned char *buf;
} refill_ctx;

#define REFILL_CALL ((uint64_t)1 << 20)

/* Read pages [first, first + n) of the mapping with pread (into a scratch
 * buffer, discarded): the page cache holds them afterwards, and a disk
 * error is a return value here, not a signal later; 1 on an error or an
 * early end of file. */
static int refill_pages(void *ctx, uint64_t first, uint64_t n)
{
    const refill_ctx *c = ctx;
    uint64_t at = c->mp->from + first * c->page, end = c->mp->from + (first + n) * c->page;
    if (end > c->mp->from + c->mp->len) end = c->mp->from + c->mp->len;
    while (at < end) {
        const size_t want = end - at < REFILL_CALL ? (size_t)(end - at) : (size_t)REFILL_CALL;
        const ssize_t got = pread(c->mp->fd, c->buf, want, (off_t)at);
        if (got <= 0) return 1;
        at += (uint64_t)got;
    }
    return 0;
}

/* Local: 1 when every page of the mapping is in the page cache (mincore),
 * so reading it makes no disk I/O: a disk error under a mapping is a
 * signal (SIGBUS), not a status, and lattio never lets one reach the
 * caller.  Where at most a quarter of the range is missing (pages the
 * kernel evicted from a file otherwise cached), those pages are first read
 * in with pread, so a partly evicted file is still read through the
 * mapping; a mostly cold file is not (the independent strategy reads it
 * once).  Pages evicted between this check and the read are read again by
 * the kernel; only a disk error at that moment would still signal. */
static int resident(const mapping *mp, size_t page)
{
    uint64_t missing = 0;
    if (each_missing(mp, page, count_pages, &missing) != 0) return 0;
    if (missing == 0) return 1;
    if (missing * page > mp->len / 4) {
        LATTIO_TRACE("mapped: %llu of %llu pages not in the page cache", (unsigned long long)missing,
                     (unsigned long long)((mp->len + page - 1) / page));
        return 0;
    }
    refill_ctx c = {mp, page, lattio_malloc(REFILL_CALL)};
    int ok = c.buf && each_missing(mp, page, refill_pages, &c) == 0;
    lattio_free(c.buf);
    uint64_t still = 0;
    ok = ok && each_missing(mp, page, count_pages, &still) == 0 && still == 0;
    LATTIO_TRACE("mapped: %llu pages read into the page cache first%s", (unsigned long long)missing,
                 ok ? "" : "; still not all there");
    return ok;
}

/* Local.  Map [lo, hi): 1 when mapped, 0 when this rank should use the
 * independent strategy instead, or a failure status. */
static int map_range(lattio_move *m, uint64_t lo, uint64_t hi, int writing, mapping *mp)
{
    const char *name = lattio_xfer_disk_name(m->f);
    const long page = sysconf(_SC_PAGESIZE);
    mp->fd = -1;
    mp->at = NULL;
    if (!name || page <= 0 || hi > (uint64_t)INT64_MAX) return 0;
    mp->fd = open(name, (writing ? O_RDWR : O_RDONLY) | O_CLOEXEC);
    if (mp->fd < 0) { /* the name is not this file here: MPI-IO's handle still is */
        LATTIO_TRACE("mapped: cannot open %s (%d)", name, errno);
        return 0;
    }
    int rc = LATTIO_OK;
    if (writing && fallocate(mp->fd, 0, (off_t)lo, (off_t)(hi - lo)) != 0) {
        if (errno == EOPNOTSUPP || errno == ENOSYS) {
            LATTIO_TRACE("mapped: the file system cannot reserve blocks");
            return 0;
        }
        rc = LATTIO_FAIL_ERRNO(LATTIO_ERR_WRITE, "fallocate of the lattice's range");
    }
    struct stat st;
    if (rc == LATTIO_OK && !writing && (fstat(mp->fd, &st) != 0 || (uint64_t)st.st_size < hi))
        rc = LATTIO_FAIL(LATTIO_ERR_TRUNCATED_PAYLOAD, "file shorter than the lattice");
    if (rc != LATTIO_OK) return rc;
    mp->from = lo / (uint64_t)page * (uint64_t)page;
    mp->len = hi - mp->from;
    RETURN_IF(mp->len > SIZE_MAX, LATTIO_ERR_NOMEM);
    void *at = mmap(NULL, (size_t)mp->len, writing ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED,
                    mp->fd, (off_t)mp->from);
    if (at == MAP_FAILED) {
        LATTIO_TRACE("mapped: mmap of %llu bytes failed (%d)", (unsigned long long)mp->len, errno);
        return 0;
    }
    mp->at = at;
    if (writing || resident(mp, (size_t)page)) return 1;
    return 0;
}

static void unmap(mapping *mp)
{
    if (mp->at) munmap(mp->at, (size_t)mp->len);
    if (mp->fd >= 0) close(mp->fd);
    mp->at = NULL;
    mp->fd = -1;
}

/* One batch of runs: each run's sites converted into (out of) its pages. */
static int map_batch(void *ctx, uint64_t first, uint64_t n, const lattio_run *runs, size_t nruns)
{
    (void)n;
    map_call *c = ctx;
    const size_t sb = c->m->l->site_bytes;
    for (size_t i = 0; i < nruns; i++) {
        const uint64_t at = c->m->base + runs[i].file_offset;
        unsigned char *p = c->mp->at + (at - c->mp->from);
        const uint64_t s0 = first + runs[i].packed_offset / sb, k = runs[i].bytes / sb;
        RETURN_IF_ERROR(c->writing ? lattio_stage_fill(c->m->s, c->lane, s0, k, sb, p)
                                   : lattio_stage_drain(c->m->s, c->lane, s0, k, sb, p));
        if (at < c->lo) c->lo = at;
        if (at + runs[i].bytes > c->hi) c->hi = at + runs[i].bytes;
    }
    return LATTIO_OK;
}

/* Local: drop the mapping's page-table entries for file bytes [lo, hi)
 * once a slab is done, so the rank's resident set stays one slab's
 * stretch whatever its volume (MADV_DONTNEED keeps a shared file
 * mapping's contents: the pages stay in the page cache, dirty ones too,
 * and a later touch maps them again). */
static void release(const mapping *mp, uint64_t lo, uint64_t hi)
{
    const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    if (page == 0 || (uint64_t)-1 == page || hi <= lo) return;
    uint64_t a = (lo - mp->from) / page * page, b = (hi - mp->from + page - 1) / page * page;
    if (b > mp->len) b = mp->len;
    if (b > a) (void)madvise(mp->at + a, (size_t)(b - a), MADV_DONTNEED);
}

/* Take blocks of the slab on `lane` until none is left; a failure stops
 * the other lane. */
static int slab_take(map_slab *j, int lane)
{
    lattio_run runs[MAP_RUNS];
    const uint64_t nblocks = (j->n + j->block - 1) / j->block;
    for (;;) {
        const uint64_t b = atomic_fetch_add(&j->next, 1);
        if (b >= nblocks) return LATTIO_OK;
        const uint64_t at = b * j->block, k = j->n - at < j->block ? j->n - at : j->block;
        map_call c = {j->m, j->mp, j->writing, lane, UINT64_MAX, 0};
        const int rc = lattio_layout_runs_each(j->m->l, j->first + at, k, runs, MAP_RUNS, map_batch, &c);
        if (rc < 0) {
            atomic_store(&j->next, nblocks);
            return rc;
        }
        if (c.lo < j->lo[lane]) j->lo[lane] = c.lo;
        if (c.hi > j->hi[lane]) j->hi[lane] = c.hi;
    }
}

static int slab_helper(void *arg) { return slab_take(arg, 1); }

/* Local: sites [first, first + n) through the mapping, on both lanes when
 * the rank has a helper thread; the file bytes touched in *lo, *hi. */
static int map_slab_move(lattio_move *m, mapping *mp, int writing, uint64_t first, uint64_t n, uint64_t *lo,
                         uint64_t *hi)
{
    const int helper = m->helper; /* agreed by every rank: a stager with two lanes */
    map_slab j = {m, mp, writing, first, n, n, 0, {UINT64_MAX, UINT64_MAX}, {0, 0}};
    if (helper) { /* blocks of about MAP_BLOCK bytes, at least a fused block of the stager */
        const uint64_t b = MAP_BLOCK / m->l->site_bytes;
        j.block = b > m->s->block_sites ? b : m->s->block_sites;
        if (j.block == 0) j.block = 1;
    }
    atomic_init(&j.next, 0);
    lattio_task t;
    if (helper) lattio_task_start(&t, m->crew, slab_helper, &j);
    const int mine = slab_take(&j, 0);
    const int theirs = helper ? lattio_task_join(&t) : LATTIO_OK;
    RETURN_IF_ERROR(mine);
    RETURN_IF_ERROR(theirs);
    *lo = j.lo[0] < j.lo[1] ? j.lo[0] : j.lo[1];
    *hi = j.hi[0] > j.hi[1] ? j.hi[0] : j.hi[1];
    return LATTIO_OK;
}

/* Local: all of this rank's sites through the mapping, slab by slab. */
static int map_move(lattio_move *m, mapping *mp, int writing)
{
    const size_t sb = m->l->site_bytes;
    lattio_slab_plan p;
    const uint64_t budget = m->s->staging_sites ? m->s->staging_sites : MAP_SLAB / sb;
    lattio_slab_plan_make(&p, m->l, budget ? budget : 1);
    m->rounds = p.nchunks;
    uint64_t done[MAP_WB_LAG + 1][2] = {{0}};
    for (uint64_t q = 0; q < p.nchunks; q++) {
        uint64_t first, n, lo, hi;
        lattio_slab_chunk(&p, q, &first, &n);
        lattio_prof_phase(m->f, LATTIO_PHASE_PACK);
        RETURN_IF_ERROR(map_slab_move(m, mp, writing, first, n, &lo, &hi));
        release(mp, lo, hi);
        if (!writing) continue;
        lattio_prof_phase(m->f, LATTIO_PHASE_IO);
        uint64_t *slot = done[q % (MAP_WB_LAG + 1)];
        if (q >= MAP_WB_LAG) { /* the stretch finished MAP_WB_LAG slabs ago */
            const uint64_t *old = done[(q - MAP_WB_LAG) % (MAP_WB_LAG + 1)];
            lattio_writeback_start(m->f, old[0], old[1] - old[0]);
        }
        slot[0] = lo;
        slot[1] = hi;
    }
    if (writing) /* the last stretches */
        for (uint64_t q = p.nchunks > MAP_WB_LAG ? p.nchunks - MAP_WB_LAG : 0; q < p.nchunks; q++) {
            const uint64_t *old = done[q % (MAP_WB_LAG + 1)];
            lattio_writeback_start(m->f, old[0], old[1] - old[0]);
        }
    return LATTIO_OK;
}

static int move(lattio_move *m, int writing)
{
    const uint64_t total = lattio_layout_local_sites(m->l);
    if (total == 0) return LATTIO_OK;
    uint64_t lo, hi;
    lattio_prof_phase(m->f, LATTIO_PHASE_SETUP);
    RETURN_IF_ERROR(span(m, total, &lo, &hi));
    mapping mp;
    int rc = map_range(m, lo, hi, writing, &mp);
    if (rc == 0) { /* this rank goes the independent way */
        unmap(&mp);
        LATTIO_TRACE("mapped strategy unavailable for this file: independent");
        return writing ? lattio_independent_ops.write(m) : lattio_independent_ops.read(m);
    }
    if (rc == 1) rc = map_move(m, &mp, writing);
    lattio_prof_phase(m->f, LATTIO_PHASE_IO);
    unmap(&mp);
    return rc;
}

static int mapped_write(lattio_move *m) { return move(m, 1); }
static int mapped_read(lattio_move *m) { return move(m, 0); }

const lattio_strategy_ops lattio_mapped_ops = {"mapped", mapped_write, mapped_read};
