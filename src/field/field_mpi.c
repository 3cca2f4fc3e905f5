/* field_mpi.c -- ILDG/SciDAC fields through the MPI layer: the record set
 * written collectively, the binary record moved in bounded rounds (a slab
 * of every rank's box per round, converted in a staging buffer and
 * checksummed with global site ranks), verification after writing, and the
 * collective reader with checksum verification. */
#include "field_internal.h"
#include "io/io_internal.h"
#include "testhooks.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- descriptors ---------------------------------------------------------- */

void lattio_field_desc_default(lattio_field_desc *d, int kind, int mem_format, int disk_format,
                               uint64_t elements)
{
    if (!d) return;
    memset(d, 0, sizeof *d);
    d->kind = kind;
    d->mem_format = mem_format;
    d->disk_format = disk_format;
    d->elements = elements;
    d->datacount = 1;
    if (kind == LATTIO_FIELD_ILDG_GAUGE || kind == LATTIO_FIELD_SU3_GAUGE) {
        d->elements = 72;
        d->datacount = 4;
        d->colors = 3;
    }
}

static int is_gauge_kind(int kind)
{
    return kind == LATTIO_FIELD_ILDG_GAUGE || kind == LATTIO_FIELD_SU3_GAUGE;
}

static int is_native(int fmt)
{
    return fmt == LATTIO_REAL_F32_NATIVE || fmt == LATTIO_REAL_F64_NATIVE;
}

/* Staging bound: the descriptor's, the environment's, or the default. */
static uint64_t staging_bound(const lattio_field_desc *d)
{
    if (d->staging_bytes) return d->staging_bytes;
    const char *e = getenv("LATTIO_STAGING_BYTES");
    if (e && *e) {
        char *end;
        const unsigned long long v = strtoull(e, &end, 10);
        if (*end == '\0' && v > 0) return (uint64_t)v;
        LATTIO_TRACE("LATTIO_STAGING_BYTES=%s ignored", e);
    }
    return LATTIO_FIELD_STAGING_DEFAULT;
}

/* The layout's sites are the descriptor's elements in memory format. */
static int check_memory(const lattio_field_desc *d, const lattio_layout *l, const void *local)
{
    RETURN_IF(!d || !l, LATTIO_ERR_ARG);
    RETURN_IF(!local && lattio_layout_local_sites(l) > 0, LATTIO_ERR_ARG);
    RETURN_IF(!is_native(d->mem_format), LATTIO_ERR_ARG);
    RETURN_IF(d->elements == 0 || d->elements > SIZE_MAX / 16, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lattio_layout_check(l));
    RETURN_IF(l->site_bytes != d->elements * lattio_real_size(d->mem_format), LATTIO_ERR_ARG);
    return LATTIO_OK;
}

/* --- rounds: slabs of the local box --------------------------------------- */

/* This rank's box in file order, cut into chunks: one index in each file
 * dimension slower than k, up to t indices of dimension k, whole faster
 * dimensions.  Every chunk is a box and a contiguous range of the rank's
 * sites numbered in file order (lattio_layout_pack's numbering). */
typedef struct plan {
    const lattio_layout *l;
    int nd, k;
    uint64_t c[LATTIO_MAX_DIMS]; /* local extents, file order */
    uint64_t inner;              /* sites of one index of dimension k */
    uint64_t t, per;             /* thickness, chunks per index of the slower dims */
    uint64_t nchunks, max_sites;
} plan;

static void make_plan(plan *p, const lattio_layout *l, size_t site, uint64_t staging)
{
    memset(p, 0, sizeof *p);
    p->l = l;
    p->nd = l->ndims;
    for (int i = 0; i < p->nd; i++) p->c[i] = l->count[l->file_order[i]];
    if (lattio_layout_local_sites(l) == 0) return;
    const uint64_t budget = staging / site ? staging / site : 1;
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
    p->max_sites = p->t * inner;
}

/* Chunk q as a box layout `cl` (staging in file order, `site` bytes per
 * site) and its site range [*first, *first + *n) of the rank's numbering;
 * q beyond the last chunk gives an empty box. */
static void chunk_box(const plan *p, uint64_t q, size_t site, lattio_layout *cl, uint64_t *first,
                      uint64_t *n)
{
    const lattio_layout *l = p->l;
    *cl = *l;
    memset(cl->halo_lo, 0, sizeof cl->halo_lo);
    memset(cl->halo_hi, 0, sizeof cl->halo_hi);
    memcpy(cl->mem_order, l->file_order, sizeof cl->mem_order);
    cl->site_bytes = site;
    *first = *n = 0;
    if (q >= p->nchunks) {
        memset(cl->lo, 0, sizeof cl->lo);
        memset(cl->count, 0, sizeof cl->count);
        return;
    }
    uint64_t outer = q / p->per, j = (q % p->per) * p->t;
    const uint64_t thick = p->c[p->k] - j < p->t ? p->c[p->k] - j : p->t;
    uint64_t before = 0, stride = 1;
    for (int i = p->k - 1; i >= 0; i--) { /* mixed radix over the slower dims */
        const int d = l->file_order[i];
        const uint64_t idx = outer % p->c[i];
        outer /= p->c[i];
        cl->lo[d] = l->lo[d] + idx;
        cl->count[d] = 1;
        before += idx * stride;
        stride *= p->c[i];
    }
    const int dk = l->file_order[p->k];
    cl->lo[dk] = l->lo[dk] + j;
    cl->count[dk] = thick;
    *first = (before * p->c[p->k] + j) * p->inner;
    *n = thick * p->inner;
}

/* Collective: the maximum of v over the ranks. */
static int max_over_ranks(lattio_file *f, uint64_t *v)
{
    uint64_t m = 0;
    RETURN_IF_ERROR(MPI_CHECK(MPI_Allreduce(v, &m, 1, MPI_UINT64_T, MPI_MAX, f->comm),
                              LATTIO_ERR_MPI));
    *v = m;
    return LATTIO_OK;
}

/* Collective: XOR the partial sums of all ranks. */
static int xor_over_ranks(lattio_file *f, lattio_scidac_sum *sum)
{
    uint32_t in[2] = {sum->suma, sum->sumb}, out[2];
    RETURN_IF_ERROR(MPI_CHECK(MPI_Allreduce(in, out, 2, MPI_UINT32_T, MPI_BXOR, f->comm),
                              LATTIO_ERR_MPI));
    sum->suma = out[0];
    sum->sumb = out[1];
    return LATTIO_OK;
}

/* The moving state of one transfer.  Writes alternate between two staging
 * buffers: round q+1 is converted and checksummed into one while round q
 * is written from the other (non-blocking, lattio_lattice_iwrite_part). */
typedef struct mover {
    lattio_file *f;
    const lattio_layout *l;
    plan p;
    int mem_fmt, disk_fmt;
    uint64_t elements;
    size_t disk_site;
    unsigned char *buf[2];   /* staging; reads without a helper use buf[0] only */
    unsigned char *block;    /* writes: one cache block of packed sites (memory format) */
    unsigned char *hblock;   /* writes: the helper thread's block */
    int timed;               /* staging charges PACK/CHECKSUM (not on the helper thread) */
    int threaded;            /* a helper thread took part */
    uint64_t block_sites;
    uint64_t rounds;
    lattio_scidac_sum sum;
} mover;

/* Sites per fused pack/convert/checksum block: about 64 KiB, so the
 * converted bytes are checksummed while they are still in the cache. */
#define FUSE_BYTES (64u << 10)

static void mover_free(mover *m)
{
    lattio_free(m->buf[0]);
    lattio_free(m->buf[1]);
    lattio_free(m->block);
    lattio_free(m->hblock);
    m->buf[0] = m->buf[1] = m->block = m->hblock = NULL;
}

/* Local: the buffers: two blocks of memory-format sites (one per thread),
 * and two staging buffers, or one for a read without a helper thread. */
static int mover_alloc(mover *m, size_t big, int writing, int threaded)
{
    if (m->p.max_sites == 0) return LATTIO_OK;
    RETURN_IF(m->p.max_sites > SIZE_MAX / big, LATTIO_ERR_NOMEM);
    const size_t bytes = (size_t)(m->p.max_sites * big);
    m->buf[0] = lattio_malloc(bytes);
    RETURN_IF(!m->buf[0], LATTIO_ERR_NOMEM);
    if (writing || threaded) m->buf[1] = lattio_malloc(bytes);
    m->block_sites = FUSE_BYTES / m->l->site_bytes ? FUSE_BYTES / m->l->site_bytes : 1;
    m->block = lattio_malloc((size_t)m->block_sites * m->l->site_bytes);
    m->hblock = lattio_malloc((size_t)m->block_sites * m->l->site_bytes);
    RETURN_IF((writing || threaded) && !m->buf[1], LATTIO_ERR_NOMEM);
    RETURN_IF(!m->block || !m->hblock, LATTIO_ERR_NOMEM);
    return LATTIO_OK;
}

static int mover_init(mover *m, lattio_file *f, const lattio_layout *l, const lattio_field_desc *d,
                      int disk_fmt, int writing, int threaded)
{
    memset(m, 0, sizeof *m);
    m->f = f;
    m->l = l;
    m->mem_fmt = d->mem_format;
    m->disk_fmt = disk_fmt;
    m->timed = 1;
    m->elements = d->elements;
    m->disk_site = (size_t)d->elements * lattio_real_size(disk_fmt);
    const size_t big = m->disk_site > l->site_bytes ? m->disk_site : l->site_bytes;
    make_plan(&m->p, l, big, staging_bound(d));
    int rc = mover_alloc(m, big, writing, threaded);
    if (rc < 0) rc = LATTIO_FAIL(rc, "staging");
    m->rounds = m->p.nchunks;
    rc = lattio_agree(f->comm, rc);
    if (rc == LATTIO_OK) rc = lattio_agree(f->comm, max_over_ranks(f, &m->rounds));
    if (rc < 0) mover_free(m);
    return rc;
}

/* The caller's buffer holds the sites in file order, without ghosts: it
 * can be converted straight into or out of staging. */
static int packed_already(const lattio_layout *l)
{
    for (int d = 0; d < l->ndims; d++)
        if (l->halo_lo[d] || l->halo_hi[d] || l->mem_order[d] != l->file_order[d]) return 0;
    return 1;
}

#ifdef LATTIO_TEST_HOOKS
static int corrupt_left; /* chunks still to corrupt */

void lattio_field_test_corrupt_writes(int n) { corrupt_left = n; }
#endif

/* Local: sites [s, s + k) of the chunk starting at the rank's site `first`
 * (global rank of site s: `rank`), packed if needed (in `block`),
 * converted into `out` and checksummed into *sum while hot; phases PACK
 * and CHECKSUM when m->timed. */
static int fuse_block(mover *m, const void *local, unsigned char *out, uint64_t first, uint64_t s,
                      uint64_t k, uint64_t rank, unsigned char *block, lattio_scidac_sum *sum)
{
    const size_t msite = m->l->site_bytes;
    const unsigned char *src = (const unsigned char *)local + (first + s) * msite;
    unsigned char *dst = out + s * m->disk_site;
    if (m->timed) lattio_prof_phase(m->f, LATTIO_PHASE_PACK);
    if (!packed_already(m->l)) {
        RETURN_IF_ERROR(lattio_layout_pack(m->l, local, first + s, k, block));
        src = block;
    }
    RETURN_IF_ERROR(lattio_convert_reals(dst, m->disk_fmt, src, m->mem_fmt,
                                         (size_t)(k * m->elements)));
    if (m->timed) lattio_prof_phase(m->f, LATTIO_PHASE_CHECKSUM);
    return lattio_scidac_sum_sites(sum, dst, m->disk_site, k, rank);
}

/* One round's staging: chunk q cut into blocks (rows along the fastest
 * file dimension, each in pieces of m->block_sites), which one or two
 * threads take in turn through the atomic counter `next`. */
typedef struct round {
    mover *m;
    const void *local;      /* writes: the caller's sites */
    void *into;             /* reads: the caller's buffer */
    unsigned char *out;     /* the staging buffer (disk format) */
    lattio_layout cl;       /* the chunk's box */
    uint64_t first, n;      /* its sites in the rank's numbering */
    uint64_t row, per_row, nblocks;
    atomic_uint_fast64_t next;
    lattio_scidac_sum hsum; /* the helper thread's partial checksum */
} round;

static void round_init(round *r, mover *m, const void *local, uint64_t q, unsigned char *out)
{
    r->m = m;
    r->local = local;
    r->into = NULL;
    r->out = out;
    chunk_box(&m->p, q, m->disk_site, &r->cl, &r->first, &r->n);
    r->row = r->n ? r->cl.count[r->cl.file_order[r->cl.ndims - 1]] : 0;
    r->per_row = r->n ? (r->row + m->block_sites - 1) / m->block_sites : 0;
    r->nblocks = r->n ? r->n / r->row * r->per_row : 0;
    r->hsum.suma = r->hsum.sumb = 0;
    atomic_init(&r->next, 0);
}

/* The global file rank of the first site of row i of chunk box cl. */
static uint64_t row_rank(const lattio_layout *cl, uint64_t i)
{
    uint64_t coord[LATTIO_MAX_DIMS];
    for (int d = 0; d < cl->ndims; d++) coord[d] = cl->lo[d];
    for (int k = cl->ndims - 2; k >= 0; k--) { /* mixed radix over the slower file dims */
        const int d = cl->file_order[k];
        coord[d] += i % cl->count[d];
        i /= cl->count[d];
    }
    return lattio_layout_file_rank(cl, coord);
}

/* Local, reading: sites [s, s + k) of round r's staged chunk (global rank
 * of site s: `rank`) checksummed, converted and put in place in the
 * caller's buffer (through `block` when it is not packed). */
static int unstage_block(round *r, uint64_t s, uint64_t k, uint64_t rank, unsigned char *block,
                         lattio_scidac_sum *sum)
{
    mover *m = r->m;
    const unsigned char *in = r->out + s * m->disk_site;
    RETURN_IF_ERROR(lattio_scidac_sum_sites(sum, in, m->disk_site, k, rank));
    const size_t count = (size_t)(k * m->elements);
    const int packed = packed_already(m->l);
    unsigned char *dst = packed ? (unsigned char *)r->into + (r->first + s) * m->l->site_bytes : block;
    RETURN_IF_ERROR(lattio_convert_reals(dst, m->mem_fmt, in, m->disk_fmt, count));
    return packed ? LATTIO_OK : lattio_layout_unpack(m->l, block, r->first + s, k, r->into);
}

/* Local: take blocks of round r until none is left (scratch `block`,
 * checksum into *sum); writes stage them, reads unstage them.  A failure
 * stops the other taker too. */
static int round_work(round *r, unsigned char *block, lattio_scidac_sum *sum)
{
    mover *m = r->m;
    for (;;) {
        const uint64_t b = atomic_fetch_add(&r->next, 1);
        if (b >= r->nblocks) return LATTIO_OK;
        const uint64_t i = b / r->per_row, j = b % r->per_row * m->block_sites;
        const uint64_t k = r->row - j < m->block_sites ? r->row - j : m->block_sites;
        const uint64_t rank = row_rank(&r->cl, i) + j;
        const int rc = r->into ? unstage_block(r, i * r->row + j, k, rank, block, sum)
                               : fuse_block(m, r->local, r->out, r->first, i * r->row + j, k,
                                            rank, block, sum);
        if (rc < 0) {
            atomic_store(&r->next, r->nblocks);
            return rc;
        }
    }
}

/* Test hook: flip a bit of the staged round (lattio_field_test_corrupt_writes). */
static void maybe_corrupt(const round *r)
{
#ifdef LATTIO_TEST_HOOKS
    if (r->n == 0 || corrupt_left <= 0) return;
    corrupt_left--;
    r->out[0] ^= 0x40;
#else
    (void)r;
#endif
}

/* Local: pack, convert and checksum chunk q into `out` (a staging
 * buffer) on this thread. */
static int stage_out(mover *m, const void *local, uint64_t q, round *r, unsigned char *out)
{
    round_init(r, m, local, q, out);
    RETURN_IF_ERROR(round_work(r, m->block, &m->sum));
    maybe_corrupt(r);
    return LATTIO_OK;
}

/* Without a helper thread, overlap of conversion with a non-blocking write
 * only when LATTIO_FIELD_OVERLAP=1: on a rank with one CPU, the MPI
 * library's asynchronous write (OMPIO's POSIX aio) competes with the
 * conversion for that CPU, and blocking rounds measured faster (page cache
 * 0.66 against 0.71 s per 1.2 GB at 1 rank; at 2 ranks 0.48 against 0.62 s;
 * bench/field.sh).  Rank 0's setting counts (agreed in write_mode). */
static int overlap_wanted(void)
{
    const char *e = getenv("LATTIO_FIELD_OVERLAP");
    return e && strcmp(e, "1") == 0;
}

/* Collective: round q's write from buffer `in`, non-blocking (*req) or
 * blocking. */
static int start_write(mover *m, const lattio_layout *cl, const unsigned char *in, int overlap,
                       lattio_request **req)
{
    *req = NULL;
    if (overlap) return lattio_lattice_iwrite_part(m->f, cl, 0, in, req);
    return lattio_lattice_write_part(m->f, cl, 0, in);
}

/* Collective: every round's chunk into the open record, double buffered:
 * round q is staged while round q-1's write runs, non-blocking (overlap)
 * or blocking (no overlap). */
static int write_rounds_async(mover *m, const void *local, int overlap)
{
    lattio_request *prev = NULL;
    int rc = LATTIO_OK;
    for (uint64_t q = 0; q < m->rounds && rc == LATTIO_OK; q++) {
        round r;
        lattio_request *req = NULL;
        rc = lattio_agree(m->f->comm, stage_out(m, local, q, &r, m->buf[q & 1]));
        lattio_prof_phase(m->f, LATTIO_PHASE_SYNC);
        const int wrc = lattio_wait(&prev);
        if (rc == LATTIO_OK) rc = wrc;
        if (rc == LATTIO_OK) rc = start_write(m, &r.cl, m->buf[q & 1], overlap, &req);
        prev = req;
    }
    const int wrc = lattio_wait(&prev);
    RETURN_IF_ERROR(rc);
    return wrc;
}

/* The helper thread's share of a round. */
static int helper_run(void *arg)
{
    round *r = arg;
    return round_work(r, r->m->hblock, &r->hsum);
}

/* Local, after round r's write: this thread joins the helper in staging
 * round `next` (started before the write), then waits for it. */
static int finish_round(mover *m, round *next, lattio_task *t)
{
    const int mine = round_work(next, m->block, &m->sum);
    const int theirs = lattio_task_join(t);
    lattio_scidac_sum_combine(&m->sum, &next->hsum);
    RETURN_IF_ERROR(mine);
    RETURN_IF_ERROR(theirs);
    maybe_corrupt(next);
    return LATTIO_OK;
}

/* Collective: every round's chunk into the open record with a helper
 * thread: while this thread writes round q (blocking), the helper stages
 * round q+1, and this thread takes the blocks still left once its write
 * is done, so neither waits while work remains.  Staging after the first
 * round is charged to PACK: it is the conversion the write did not hide. */
static int write_rounds_threaded(mover *m, const void *local)
{
    round rd[2];
    int rc = lattio_agree(m->f->comm, stage_out(m, local, 0, &rd[0], m->buf[0]));
    m->timed = 0;
    for (uint64_t q = 0; q < m->rounds && rc == LATTIO_OK; q++) {
        round *next = &rd[(q + 1) & 1];
        const int more = q + 1 < m->rounds;
        lattio_task t;
        if (more) {
            round_init(next, m, local, q + 1, m->buf[(q + 1) & 1]);
            lattio_task_start(&t, helper_run, next);
        }
        rc = lattio_lattice_write_part(m->f, &rd[q & 1].cl, 0, m->buf[q & 1]);
        lattio_prof_phase(m->f, LATTIO_PHASE_PACK);
        const int hrc = more ? finish_round(m, next, &t) : LATTIO_OK;
        if (rc == LATTIO_OK) rc = lattio_agree(m->f->comm, hrc);
    }
    m->timed = 1;
    return rc;
}

/* Local: this rank's wish for a conversion helper thread.
 * LATTIO_FIELD_THREADS=0 or 1 decides; otherwise yes when MPI was
 * initialised for threads (MPI_THREAD_FUNNELED or more: under
 * MPI_THREAD_SINGLE the standard allows no second thread, even one that
 * makes no MPI call), the rank may run on at least 2 CPUs and its node has
 * at least 2 CPUs per rank (so the helper takes a core no rank uses). */
static int helper_wanted(const lattio_file *f)
{
    const char *e = getenv("LATTIO_FIELD_THREADS");
    if (e && strcmp(e, "0") == 0) return 0;
    if (e && strcmp(e, "1") == 0) return 1;
    int level = MPI_THREAD_SINGLE;
    if (MPI_Query_thread(&level) != MPI_SUCCESS || level < MPI_THREAD_FUNNELED) return 0;
    return lattio_cpus_allowed() >= 2 && lattio_cpus_online() >= 2 * f->node_ranks;
}

/* Collective: *yes = 1 when every rank wants a helper thread. */
static int helper_agreed(lattio_file *f, int *yes)
{
    *yes = helper_wanted(f);
    return MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, yes, 1, MPI_INT, MPI_MIN, f->comm), LATTIO_ERR_MPI);
}

/* Collective: how the rounds run, the same on every rank: 2 with a helper
 * thread (every rank wants one), else 1 with overlapped non-blocking writes
 * (LATTIO_FIELD_OVERLAP=1 on rank 0), else 0, blocking. */
static int write_mode(lattio_file *f, int *mode)
{
    int overlap = overlap_wanted(), helper = 0;
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(&overlap, 1, MPI_INT, 0, f->comm), LATTIO_ERR_MPI));
    RETURN_IF_ERROR(helper_agreed(f, &helper));
    *mode = helper ? 2 : overlap;
    return LATTIO_OK;
}

/* Collective: every round's chunk into the open record, and the checksum
 * of the whole record on every rank. */
static int write_rounds(mover *m, const void *local)
{
    m->sum.suma = m->sum.sumb = 0;
    int mode = 0;
    RETURN_IF_ERROR(write_mode(m->f, &mode));
    m->threaded = mode == 2;
    RETURN_IF_ERROR(mode == 2 ? write_rounds_threaded(m, local)
                              : write_rounds_async(m, local, mode));
    return xor_over_ranks(m->f, &m->sum);
}

/* Collective: read chunk q of every rank into a staging buffer (the
 * other one than round q-1's when there are two) and prepare its round. */
static int read_round(mover *m, void *local, uint64_t q, round *r)
{
    round_init(r, m, NULL, q, m->buf[m->buf[1] ? q & 1 : 0]);
    r->into = local;
    return lattio_lattice_read_part(m->f, &r->cl, 0, r->out);
}

/* The helper thread's share of a read round. */
static int unstage_run(void *arg)
{
    round *r = arg;
    return round_work(r, r->m->hblock, &r->hsum);
}

/* Local: this thread's share of round r, then the helper's end (when
 * started): the sums combined. */
static int unstage_finish(mover *m, round *r, lattio_task *t)
{
    const int mine = round_work(r, m->block, &m->sum);
    const int theirs = t ? lattio_task_join(t) : LATTIO_OK;
    lattio_scidac_sum_combine(&m->sum, &r->hsum);
    RETURN_IF_ERROR(mine);
    return theirs;
}

/* Collective: every round's chunk from the current record.  With a helper
 * thread (two buffers) the helper checksums and converts round q while
 * this thread reads round q+1, then this thread takes the blocks of round
 * q still left.  Unstaging after the reads is charged to PACK. */
static int read_rounds(mover *m, void *local, int threaded)
{
    round r[2];
    int rc = m->rounds ? read_round(m, local, 0, &r[0]) : LATTIO_OK;
    for (uint64_t q = 0; q < m->rounds && rc == LATTIO_OK; q++) {
        round *cur = &r[threaded ? q & 1 : 0];
        lattio_task t;
        if (threaded) lattio_task_start(&t, unstage_run, cur);
        if (threaded && q + 1 < m->rounds) rc = read_round(m, local, q + 1, &r[(q + 1) & 1]);
        lattio_prof_phase(m->f, LATTIO_PHASE_PACK);
        const int src = unstage_finish(m, cur, threaded ? &t : NULL);
        if (rc == LATTIO_OK) rc = lattio_agree(m->f->comm, src);
        if (rc == LATTIO_OK && !threaded && q + 1 < m->rounds)
            rc = read_round(m, local, q + 1, &r[0]);
    }
    RETURN_IF_ERROR(rc);
    return xor_over_ranks(m->f, &m->sum);
}

/* --- verification after writing ------------------------------------------- */

/* Collective: make every rank's writes visible to every rank's reads. */
static int sync_barrier_sync(lattio_file *f)
{
    RETURN_IF_ERROR(lattio_agree(f->comm, MPI_CHECK(MPI_File_sync(f->fh), LATTIO_ERR_SYNC)));
    RETURN_IF_ERROR(MPI_CHECK(MPI_Barrier(f->comm), LATTIO_ERR_MPI));
    return lattio_agree(f->comm, MPI_CHECK(MPI_File_sync(f->fh), LATTIO_ERR_SYNC));
}

/* Local: the checksum of sites [lo, lo + n) of the open record, read in
 * bounded pieces (the sites' ranks are their positions: file order). */
static int sum_stored(lattio_file *f, size_t site, uint64_t lo, uint64_t n, uint64_t bound,
                      lattio_scidac_sum *sum)
{
    const uint64_t per = bound / site ? bound / site : 1;
    unsigned char *buf = n ? lattio_malloc((size_t)((per < n ? per : n) * site)) : NULL;
    RETURN_IF(n && !buf, LATTIO_ERR_NOMEM);
    int rc = LATTIO_OK;
    for (uint64_t s = lo; rc == LATTIO_OK && s < lo + n; s += per) {
        const uint64_t k = lo + n - s < per ? lo + n - s : per;
        rc = lattio_read_at(f, f->rec_data + s * site, buf, k * site);
        if (rc == LATTIO_OK) rc = lattio_scidac_sum_sites(sum, buf, site, k, s);
    }
    lattio_free(buf);
    return rc;
}

/* Collective: re-read the open binary record (split evenly over the ranks
 * by site rank, not by the writing layout) and compare its checksum. */
static int verify_record(mover *m, uint64_t volume, uint64_t bound, int *same)
{
    lattio_file *f = m->f;
    RETURN_IF_ERROR(sync_barrier_sync(f));
    uint64_t lo, n;
    lattio_scidac_sum got = {0, 0};
    int rc = lattio_split(volume, (uint64_t)f->size, (uint64_t)f->rank, &lo, &n);
    if (rc == LATTIO_OK) rc = sum_stored(f, m->disk_site, lo, n, bound, &got);
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    RETURN_IF_ERROR(xor_over_ranks(f, &got));
    *same = got.suma == m->sum.suma && got.sumb == m->sum.sumb;
    if (!*same)
        LATTIO_TRACE("verify: binary record at %llu reads %x %x, written %x %x",
                     (unsigned long long)(f->rec_data - LATTIO_LIME_HEADER_SIZE),
                     (unsigned)got.suma, (unsigned)got.sumb, (unsigned)m->sum.suma,
                     (unsigned)m->sum.sumb);
    return LATTIO_OK;
}

/* Collective: write (and verify, rewriting up to d->verify_retries times). */
static int write_verified(mover *m, const lattio_field_desc *d, const void *local,
                          uint64_t volume, int *retries)
{
    *retries = 0;
    RETURN_IF_ERROR(write_rounds(m, local));
    if (!d->verify) return LATTIO_OK;
    RETURN_IF(m->f->npending > 0, LATTIO_ERR_PENDING);
    for (;;) {
        int same = 0;
        RETURN_IF_ERROR(verify_record(m, volume, staging_bound(d), &same));
        if (same) return LATTIO_OK;
        if (*retries >= d->verify_retries)
            return LATTIO_FAIL(LATTIO_ERR_VERIFY, "binary record differs after rewrites");
        ++*retries;
        RETURN_IF_ERROR(write_rounds(m, local));
    }
}

/* --- writing the record set ----------------------------------------------- */

/* Local: the descriptor makes sense for this layout. */
static int check_write_desc(const lattio_field_desc *d, const lattio_layout *l,
                            const void *local)
{
    RETURN_IF_ERROR(check_memory(d, l, local));
    RETURN_IF(d->disk_format != LATTIO_REAL_F32_BE && d->disk_format != LATTIO_REAL_F64_BE,
              LATTIO_ERR_ARG);
    RETURN_IF(d->datacount == 0 || d->elements % d->datacount, LATTIO_ERR_ARG);
    if (d->kind == LATTIO_FIELD_ILDG_GAUGE)
        RETURN_IF(l->ndims != 4 || d->elements != 72 || d->datacount != 4, LATTIO_ERR_ARG);
    return LATTIO_OK;
}

/* Local: the metadata of the field to write (strings point into d). */
static void describe(lattio_field_info *fi, const lattio_field_desc *d, const lattio_layout *l)
{
    static const char *const file_xml =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><info>written by lattio</info>";
    static const char *const record_xml =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><info>lattice field</info>";
    memset(fi, 0, sizeof *fi);
    const int prec = d->disk_format == LATTIO_REAL_F32_BE ? 32 : 64;
    fi->kind = d->kind;
    fi->nd = l->ndims;
    for (int i = 0; i < l->ndims; i++) fi->dims[i] = l->global[l->file_order[l->ndims - 1 - i]];
    fi->volume = lattio_layout_global_sites(l);
    fi->precision = prec;
    fi->precision_code = prec == 32 ? 'F' : 'D';
    if (d->datatype) snprintf(fi->datatype, sizeof fi->datatype, "%s", d->datatype);
    else if (is_gauge_kind(d->kind))
        snprintf(fi->datatype, sizeof fi->datatype, "USQCD_%c3_ColorMatrix", fi->precision_code);
    else snprintf(fi->datatype, sizeof fi->datatype, "lattio_%c_real", fi->precision_code);
    if (d->date) snprintf(fi->date, sizeof fi->date, "%s", d->date);
    strcpy(fi->record_version, "1.1");
    fi->colors = d->colors;
    fi->spins = d->spins;
    fi->datacount = d->datacount;
    fi->typesize = d->elements / d->datacount * (uint64_t)(prec / 8);
    fi->lfn = (char *)(d->lfn ? d->lfn : "lattio");
    fi->file_xml = (char *)(d->file_xml ? d->file_xml : file_xml);
    fi->record_xml = (char *)(d->record_xml ? d->record_xml : record_xml);
}

/* Collective: one metadata record of the set (rank 0's payload). */
static int put_record(lattio_file *f, const lattio_field_info *fi, int rec, int mb, int me)
{
    size_t len = 0;
    char *p = NULL;
    int rc = lattio_field_payload(fi, rec, NULL, 0, &len);
    if (rc == LATTIO_OK && !(p = lattio_malloc(len))) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "xml");
    if (rc == LATTIO_OK) rc = lattio_field_payload(fi, rec, p, len, &len);
    rc = lattio_agree(f->comm, rc);
    if (rc == LATTIO_OK) rc = lattio_record_write(f, lattio_field_record_type(rec), p, len, mb, me);
    lattio_free(p);
    return rc;
}

static int put_metadata(lattio_file *f, const lattio_field_info *fi, int ildg)
{
    /* the file header pair once per file, before its first record set (not
     * only at the start: a field after other records needs its dims too) */
    if (!lattio_file_has_type(f, lattio_field_record_type(LATTIO_REC_PRIVATE_FILE_XML))) {
        RETURN_IF_ERROR(put_record(f, fi, LATTIO_REC_PRIVATE_FILE_XML, 1, 0));
        RETURN_IF_ERROR(put_record(f, fi, LATTIO_REC_FILE_XML, 0, 1));
    }
    RETURN_IF_ERROR(put_record(f, fi, LATTIO_REC_PRIVATE_RECORD_XML, 1, 0));
    RETURN_IF_ERROR(put_record(f, fi, LATTIO_REC_RECORD_XML, 0, 0));
    if (ildg) RETURN_IF_ERROR(put_record(f, fi, LATTIO_REC_ILDG_FORMAT, 0, 0));
    if (ildg) RETURN_IF_ERROR(put_record(f, fi, LATTIO_REC_ILDG_LFN, 0, 0));
    return LATTIO_OK;
}

static int field_write(lattio_file *f, const lattio_field_desc *d, const lattio_layout *l,
                       const void *local, lattio_field_write_info *out)
{
    RETURN_IF_ERROR(lattio_agree(f->comm, check_write_desc(d, l, local)));
    lattio_field_info fi;
    describe(&fi, d, l);
    const int ildg = d->kind == LATTIO_FIELD_ILDG_GAUGE;
    RETURN_IF_ERROR(put_metadata(f, &fi, ildg));
    mover m;
    RETURN_IF_ERROR(mover_init(&m, f, l, d, d->disk_format, 1, 1));
    int retries = 0;
    int rc = lattio_record_begin(f, ildg ? "ildg-binary-data" : "scidac-binary-data",
                                 fi.volume * m.disk_site, 0, 0);
    if (rc == LATTIO_OK) rc = write_verified(&m, d, local, fi.volume, &retries);
    mover_free(&m);
    if (rc == LATTIO_OK) rc = lattio_record_end(f, 0);
    if (out) {
        out->sum = m.sum;
        out->rounds = m.rounds;
        out->threaded = m.threaded;
        out->retries = retries;
    }
    RETURN_IF_ERROR(rc);
    fi.stored = m.sum;
    return put_record(f, &fi, LATTIO_REC_CHECKSUM, 0, 1);
}

/* Timed as one call (lattio_profile_get): conversion in PACK, the SciDAC
 * sums in CHECKSUM, the record layer's phases as they come. */
int lattio_field_write(lattio_file *f, const lattio_field_desc *d, const lattio_layout *l,
                       const void *local, lattio_field_write_info *out)
{
    RETURN_IF(!f, LATTIO_ERR_ARG);
    if (out) memset(out, 0, sizeof *out);
    lattio_prof_begin(f, LATTIO_PHASE_SETUP);
    const int rc = lattio_file_outcome(f, field_write(f, d, l, local, out));
    return lattio_prof_end(f, rc, 0);
}

/* --- reading -------------------------------------------------------------- */

static int kind_matches(int want, const lattio_field_info *fi)
{
    if (!is_gauge_kind(want)) return 1;
    return is_gauge_kind(fi->kind);
}

/* Rank 0: describe field `index` (< 0: the first of d->kind's family). */
static int parse_on_root(const char *path, int index, int kind, lattio_field_info *fi)
{
    lattio_lime_reader *r;
    RETURN_IF_ERROR(lattio_lime_reader_open(path, &r));
    int rc = LATTIO_OK, count = 0;
    if (index >= 0) rc = lattio_field_info_read(r, index, fi);
    else rc = lattio_field_count(r, &count);
    for (int i = 0; index < 0 && rc == LATTIO_OK; i++) {
        if (i == count) {
            rc = LATTIO_FAIL(LATTIO_ERR_NOT_FOUND, "no field of the requested kind");
            break;
        }
        rc = lattio_field_info_read(r, i, fi);
        if (rc == LATTIO_OK && kind_matches(kind, fi)) break;
        if (rc == LATTIO_OK) lattio_field_info_free(fi);
    }
    lattio_lime_reader_close(r);
    return rc;
}

/* Collective: rank 0's string s (may be NULL) on every rank. */
static int bcast_string(lattio_file *f, char **s)
{
    uint64_t len = f->rank == 0 && *s ? strlen(*s) + 1 : 0;
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(&len, 1, MPI_UINT64_T, 0, f->comm), LATTIO_ERR_MPI));
    if (f->rank != 0) *s = len ? lattio_malloc((size_t)len) : NULL;
    RETURN_IF_ERROR(lattio_agree(f->comm, len && !*s ? LATTIO_ERR_NOMEM : LATTIO_OK));
    if (len == 0) return LATTIO_OK;
    RETURN_IF(len > INT32_MAX, LATTIO_ERR_OVERFLOW);
    return MPI_CHECK(MPI_Bcast(*s, (int)len, MPI_CHAR, 0, f->comm), LATTIO_ERR_MPI);
}

/* Collective: rank 0 parses, every rank receives the description and makes
 * the binary record current. */
static int share_info(lattio_file *f, int index, int kind, lattio_field_info *fi)
{
    memset(fi, 0, sizeof *fi);
    int rc = f->path && f->base == 0 && !f->borrowed ? LATTIO_OK
                                                      : LATTIO_FAIL(LATTIO_ERR_UNSUPPORTED, "no path");
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    if (f->rank == 0) rc = parse_on_root(f->path, index, kind, fi);
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(fi, (int)sizeof *fi, MPI_BYTE, 0, f->comm), LATTIO_ERR_MPI));
    if (f->rank != 0) fi->lfn = fi->file_xml = fi->record_xml = NULL;
    rc = bcast_string(f, &fi->lfn);
    if (rc == LATTIO_OK) rc = bcast_string(f, &fi->file_xml);
    if (rc == LATTIO_OK) rc = bcast_string(f, &fi->record_xml);
    int found = -1;
    for (int i = 0; rc == LATTIO_OK && i < f->nindex && found < 0; i++)
        if (f->index[i].offset == fi->binary.offset && f->index[i].length == fi->binary.length)
            found = i;
    if (rc == LATTIO_OK && found < 0) rc = LATTIO_FAIL(LATTIO_ERR_STATE, "binary record not indexed");
    if (rc == LATTIO_OK) f->cur = found;
    if (rc < 0) lattio_field_info_free(fi);
    return rc;
}

/* Local: the caller's layout and descriptor against the stored field. */
static int check_read(const lattio_field_info *fi, const lattio_field_desc *d,
                      const lattio_layout *l, const void *local)
{
    RETURN_IF_ERROR(check_memory(d, l, local));
    RETURN_IF(fi->recordtype != 0, LATTIO_ERR_UNSUPPORTED);
    RETURN_IF(fi->precision != 32 && fi->precision != 64, LATTIO_ERR_FIELD_PRECISION);
    RETURN_IF(l->ndims != fi->nd, LATTIO_ERR_FIELD_DIMS);
    for (int i = 0; i < l->ndims; i++)
        RETURN_IF(l->global[l->file_order[i]] != fi->dims[fi->nd - 1 - i], LATTIO_ERR_FIELD_DIMS);
    RETURN_IF(fi->typesize * fi->datacount != d->elements * (uint64_t)(fi->precision / 8),
              LATTIO_ERR_FIELD_LENGTH);
    return LATTIO_OK;
}

/* Collective: how the checksum is treated, and the final status. */
static int judge(lattio_file *f, const lattio_field_info *fi, const lattio_field_desc *d,
                 const mover *m, int *state)
{
    uint64_t sites = lattio_layout_local_sites(m->l), total = 0;
    RETURN_IF_ERROR(MPI_CHECK(MPI_Allreduce(&sites, &total, 1, MPI_UINT64_T, MPI_SUM, f->comm),
                              LATTIO_ERR_MPI));
    if (d->skip_checksum) *state = LATTIO_CHECKSUM_SKIPPED;
    else if (total < fi->volume) *state = LATTIO_CHECKSUM_PARTIAL;
    else if (!fi->has_checksum) *state = LATTIO_CHECKSUM_MISSING;
    else *state = LATTIO_CHECKSUM_VERIFIED;
    if (*state == LATTIO_CHECKSUM_MISSING && d->require_checksum)
        return LATTIO_FAIL(LATTIO_ERR_NO_CHECKSUM, "no scidac-checksum record");
    if (*state != LATTIO_CHECKSUM_VERIFIED) return LATTIO_OK;
    if (m->sum.suma == fi->stored.suma && m->sum.sumb == fi->stored.sumb) return LATTIO_OK;
    LATTIO_TRACE("field %d: %s record at offset %llu: checksum %x %x, stored %x %x", fi->index,
                 fi->binary.type, (unsigned long long)fi->binary.offset, (unsigned)m->sum.suma,
                 (unsigned)m->sum.sumb, (unsigned)fi->stored.suma, (unsigned)fi->stored.sumb);
    return LATTIO_FAIL(LATTIO_ERR_CHECKSUM, "computed SciDAC checksum != stored");
}

int lattio_field_read(lattio_file *f, int index, const lattio_field_desc *d,
                      const lattio_layout *l, void *local, lattio_field_read_info *info)
{
    RETURN_IF(!f, LATTIO_ERR_ARG);
    if (info) memset(info, 0, sizeof *info);
    int rc = d ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_ARG, "desc");
    if (rc == LATTIO_OK && f->mode != LATTIO_MODE_READ) rc = LATTIO_FAIL(LATTIO_ERR_STATE, "mode");
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    lattio_field_info fi;
    RETURN_IF_ERROR(share_info(f, index, d->kind, &fi));
    rc = lattio_agree(f->comm, check_read(&fi, d, l, local));
    mover m;
    const int disk = fi.precision == 32 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE;
    int threaded = 0;
    if (rc == LATTIO_OK) rc = helper_agreed(f, &threaded);
    if (rc == LATTIO_OK) rc = mover_init(&m, f, l, d, disk, 0, threaded);
    int state = 0;
    if (rc == LATTIO_OK) {
        rc = read_rounds(&m, local, threaded);
        mover_free(&m);
        if (rc == LATTIO_OK) rc = judge(f, &fi, d, &m, &state);
        if (info) {
            info->computed = m.sum;
            info->checksum = state;
            info->rounds = m.rounds;
            info->threaded = threaded;
        }
    }
    if (info) info->field = fi;
    else lattio_field_info_free(&fi);
    return rc;
}
