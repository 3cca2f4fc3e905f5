/* collective.c -- the collective strategy for lattices: per round, each
 * rank's file runs (a slab of its box, lattio_slab_plan, of at most
 * COLL_MAX_RUNS runs) become an hindexed file view at the lattice's first
 * byte, its sites are staged into a bounded buffer and moved with
 * MPI_File_write_all / read_all.  The number of rounds is the largest
 * box's slab count, agreed once per call, so all make the same collective
 * calls and no other; a rank with nothing left (or a local error) takes
 * part with an empty transfer.
 *
 * Guard: Open MPI's OMPIO component (its default collective-write module,
 * fcoll/vulcan, corrupted legal writes; open-mpi/ompi#12718) is not trusted.
 * After each collective write round every rank reads its own runs back with
 * an independent read, compares, and rewrites differing runs with
 * independent writes (counted, traced).  LATTIO_TRUST_COLLECTIVE=1 skips it.
 *
 * Detecting OMPIO: MPI_File_get_info cannot tell (both components return
 * only the caller's hints in Open MPI 4.1), so the guard asks MPI_T: an
 * Open MPI component's control variables exist only while the component is
 * available, and Open MPI selects the allowed io component of highest
 * priority.  The selection list (MCA variable "io": OMPI_MCA_io, mpirun
 * --mca io, parameter files) says which components are allowed;
 * "io_ompio_priority" >= every allowed ROMIO component's priority means
 * OMPIO (4.1.4 here: ompio 30, romio321 10).  Without MPI_T the environment
 * (OMPI_MCA_io) decides. */
#include "strategy.h"
#include "testhooks.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define COLL_STAGING ((uint64_t)16 << 20) /* packed bytes per round */
#define COLL_MAX_RUNS ((uint64_t)1 << 16) /* file runs per round */
#define COLL_BLOCK ((uint64_t)1 << 30)    /* largest block of a derived type */

static uint64_t repairs_; /* runs this process rewrote after a collective write */

/* Test hooks (lattio_collective_test_hooks): a smaller staging buffer, the
 * guard forced on, and a simulated corrupting library. */
#ifdef LATTIO_TEST_HOOKS
static uint64_t staging_bytes_ = COLL_STAGING;
static int force_guard_, inject_;

uint64_t lattio_collective_repairs(void) { return repairs_; }

void lattio_collective_test_hooks(uint64_t staging_bytes, int force_guard, int inject)
{
    staging_bytes_ = staging_bytes ? staging_bytes : COLL_STAGING;
    force_guard_ = force_guard;
    inject_ = inject;
}
#else
#define staging_bytes_ COLL_STAGING
#define force_guard_ 0
#define inject_ 0
#endif

/* --- is the MPI library trusted with collective writes? ------------------ */

int lattio_collective_untrusted(const lattio_file *f)
{
    static int ompio = -1; /* the io component does not change during a run */
    if (ompio < 0) {
        ompio = lattio_mpi_is_open_mpi() && lattio_mpi_ompio_selected();
        LATTIO_TRACE("collective writes %s", ompio ? "verified (Open MPI with OMPIO) unless LATTIO_TRUST_COLLECTIVE=1"
                                                   : "trusted");
    }
    return ompio && !(f && f->cfg.trust_collective); /* LATTIO_TRUST_COLLECTIVE=1: trusted */
}

/* --- derived types of any size ------------------------------------------- */

/* Byte runs (offsets relative to the view, or to the buffer) as one hindexed
 * type of bytes, in blocks of at most 1 GiB so no int length overflows. */
static int runs_type(const lattio_run *runs, size_t nruns, MPI_Datatype *t)
{
    uint64_t n = 0;
    for (size_t i = 0; i < nruns; i++) n += (runs[i].bytes + COLL_BLOCK - 1) / COLL_BLOCK;
    RETURN_IF(n > INT_MAX || n == 0, LATTIO_ERR_OVERFLOW);
    int *len = lattio_malloc((size_t)n * sizeof *len);
    MPI_Aint *disp = lattio_malloc((size_t)n * sizeof *disp);
    int rc = !len || !disp ? LATTIO_FAIL(LATTIO_ERR_NOMEM, "hindexed type") : LATTIO_OK;
    size_t k = 0;
    for (size_t i = 0; rc == LATTIO_OK && i < nruns; i++)
        for (uint64_t done = 0; done < runs[i].bytes; done += COLL_BLOCK, k++) {
            uint64_t left = runs[i].bytes - done;
            if (runs[i].file_offset + done > (uint64_t)LLONG_MAX) rc = LATTIO_ERR_OVERFLOW;
            disp[k] = (MPI_Aint)(runs[i].file_offset + done);
            len[k] = (int)(left < COLL_BLOCK ? left : COLL_BLOCK);
        }
    if (rc == LATTIO_OK)
        rc = MPI_CHECK(MPI_Type_create_hindexed((int)n, len, disp, MPI_BYTE, t), LATTIO_ERR_MPI);
    if (rc == LATTIO_OK) rc = MPI_CHECK(MPI_Type_commit(t), LATTIO_ERR_MPI);
    lattio_free(len);
    lattio_free(disp);
    return rc;
}

/* `bytes` (> 0) contiguous bytes as one element: one run at offset 0. */
static int bytes_type(uint64_t bytes, MPI_Datatype *t)
{
    const lattio_run whole = {0, 0, bytes};
    return runs_type(&whole, 1, t);
}

/* --- rounds ---------------------------------------------------------------- */

typedef struct coll {
    lattio_move *m;
    lattio_file *f;
    const lattio_layout *l;
    uint64_t base;           /* absolute file offset of the lattice's first byte */
    lattio_slab_plan p;      /* this rank's slabs */
    uint64_t first, k;       /* this round's sites */
    unsigned char *staging;  /* max_sites * site_bytes */
    unsigned char *verify;   /* the same size, guard only */
    lattio_run *runs;
    size_t cap;
    uint64_t round_end;      /* absolute end of this round's furthest run */
    int guard;
} coll;

/* Slab q's sites and their runs (at most COLL_MAX_RUNS by the budget). */
static int round_runs(coll *c, uint64_t q, size_t *nruns)
{
    lattio_slab_chunk(&c->p, q, &c->first, &c->k);
    for (;;) {
        RETURN_IF_ERROR(lattio_layout_runs(c->l, c->first, c->k, c->runs, c->cap, nruns));
        if (*nruns <= c->cap) break;
        RETURN_IF(*nruns > COLL_MAX_RUNS, LATTIO_ERR_OVERFLOW);
        lattio_run *more = lattio_realloc(c->runs, *nruns * sizeof *more);
        RETURN_IF(!more, LATTIO_ERR_NOMEM);
        c->runs = more;
        c->cap = *nruns;
    }
    uint64_t origin = c->runs[0].packed_offset;
    c->round_end = c->base;
    for (size_t i = 0; i < *nruns; i++) {
        c->runs[i].packed_offset -= origin;
        uint64_t end = c->base + c->runs[i].file_offset + c->runs[i].bytes;
        if (end > c->round_end) c->round_end = end;
    }
    return LATTIO_OK;
}

static int byte_view(lattio_file *f)
{
    return MPI_CHECK(MPI_File_set_view(f->fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL),
                     LATTIO_ERR_MPI);
}

/* Collective.  The round's collective call on the view set: `use` (0 or
 * 1) buffers of type mtype; the MPI return code (writes under the test
 * hook: the staging corrupted around it, as a bad library would). */
static int call_all(coll *c, MPI_Datatype mtype, int use, uint64_t bytes, int writing, MPI_Status *st)
{
    lattio_file *f = c->f;
    const int inject = writing && use && inject_;
    if (inject) c->staging[bytes / 2] ^= 0x5A;
    int mrc = writing ? MPI_File_write_all(f->fh, c->staging, use, use ? mtype : MPI_BYTE, st)
                      : MPI_File_read_all(f->fh, c->staging, use, use ? mtype : MPI_BYTE, st);
    if (inject) c->staging[bytes / 2] ^= 0x5A;
    return mrc;
}

/* Local.  The call moved all `bytes`, else a short write or read. */
static int moved_all(coll *c, const MPI_Status *st, MPI_Datatype mtype, uint64_t bytes, int writing)
{
    MPI_Count got = 0;
    if (MPI_Get_elements_x(st, mtype, &got) != MPI_SUCCESS || (uint64_t)got == bytes) return LATTIO_OK;
    return writing ? lattio_short_write(c->f, bytes - (uint64_t)got) : lattio_short_read(c->f, c->round_end);
}

/* Collective.  Set the round's view and move `bytes` bytes of staging with
 * the collective call; ranks with nothing pass bytes = 0 (ftype unused). */
static int transfer_round(coll *c, MPI_Datatype ftype, uint64_t bytes, int writing)
{
    lattio_file *f = c->f;
    MPI_Datatype mtype = MPI_DATATYPE_NULL;
    lattio_prof_phase(f, LATTIO_PHASE_SETUP);
    int rc = bytes ? bytes_type(bytes, &mtype) : LATTIO_OK;
    lattio_prof_phase(f, LATTIO_PHASE_IO);
    int vrc = MPI_File_set_view(f->fh, (MPI_Offset)c->base, MPI_BYTE,
                                bytes && rc == LATTIO_OK ? ftype : MPI_BYTE, "native", MPI_INFO_NULL);
    if (rc == LATTIO_OK) rc = MPI_CHECK(vrc, LATTIO_ERR_MPI);
    const int use = bytes && rc == LATTIO_OK;
    MPI_Status st;
    const int mrc = call_all(c, mtype, use, bytes, writing, &st);
    if (rc == LATTIO_OK) rc = MPI_CHECK(mrc, writing ? LATTIO_ERR_WRITE : LATTIO_ERR_READ);
    if (rc == LATTIO_OK && use) rc = moved_all(c, &st, mtype, bytes, writing);
    if (mtype != MPI_DATATYPE_NULL) MPI_Type_free(&mtype);
    return rc;
}

/* Local.  Read this round's runs back and rewrite those that differ. */
static int verify_round(coll *c, size_t nruns)
{
    for (size_t i = 0; i < nruns; i++) {
        const lattio_run *r = &c->runs[i];
        const unsigned char *want = c->staging + r->packed_offset;
        RETURN_IF_ERROR(lattio_read_at(c->f, c->base + r->file_offset, c->verify, r->bytes));
        if (memcmp(c->verify, want, (size_t)r->bytes) == 0) continue;
        uint64_t at = 0;
        while (c->verify[at] == want[at]) at++;
        LATTIO_TRACE("collective write corrupted %llu bytes at file offset %llu (first bad byte %llu): "
                     "rewritten", (unsigned long long)r->bytes,
                     (unsigned long long)(c->base + r->file_offset),
                     (unsigned long long)(c->base + r->file_offset + at));
        RETURN_IF_ERROR(lattio_write_at(c->f, c->base + r->file_offset, want, r->bytes));
        repairs_++;
    }
    return LATTIO_OK;
}

/* Local: stage this round's sites (writing: fill; reading: drain). */
static int stage(coll *c, int writing)
{
    lattio_lanes lanes;
    lattio_lanes_init(&lanes, c->m->s, c->l->site_bytes, writing, c->first, c->k, c->staging);
    lattio_prof_phase(c->f, LATTIO_PHASE_PACK);
    lattio_lanes_start(&lanes, c->m->crew);
    return lattio_lanes_finish(&lanes);
}

/* Local.  This rank's part of round q: its runs, staged (writes), as one
 * file type. */
static int prepare_round(coll *c, uint64_t q, int writing, size_t *nruns, MPI_Datatype *ftype)
{
    lattio_prof_phase(c->f, LATTIO_PHASE_SETUP);
    RETURN_IF_ERROR(round_runs(c, q, nruns));
    if (writing) RETURN_IF_ERROR(stage(c, 1));
    lattio_prof_phase(c->f, LATTIO_PHASE_SETUP);
    return runs_type(c->runs, nruns[0], ftype);
}

/* Collective.  A guarded write's round: every aggregator has written (on
 * one node a barrier shows it, one page cache; across nodes MPI-IO's
 * sync-barrier-sync, and this node's cached view of the file refreshed:
 * GlusterFS, NFS), then this rank's runs are read back and repaired. */
static int guard_round(coll *c, size_t nruns, uint64_t bytes, int rc)
{
    lattio_prof_phase(c->f, LATTIO_PHASE_SYNC);
    int b = c->f->place.nnodes > 1 ? lattio_xfer_sync(c->f) : MPI_CHECK(MPI_Barrier(c->f->comm), LATTIO_ERR_MPI);
    if (rc == LATTIO_OK) rc = b;
    lattio_prof_phase(c->f, LATTIO_PHASE_IO);
    if (rc == LATTIO_OK && bytes) rc = verify_round(c, nruns);
    return rc;
}

/* Collective.  Round q: stage, transfer, verify (writes) or drain (reads).
 * Returns this rank's status; every rank makes the same collective calls. */
static int one_round(coll *c, uint64_t q, int writing, int rc)
{
    size_t nruns = 0;
    MPI_Datatype ftype = MPI_DATATYPE_NULL;
    const int mine = rc == LATTIO_OK && q < c->p.nchunks;
    if (mine) rc = prepare_round(c, q, writing, &nruns, &ftype);
    const uint64_t bytes = mine && rc == LATTIO_OK ? c->k * c->l->site_bytes : 0;
    const int trc = transfer_round(c, ftype, bytes, writing);
    const int brc = byte_view(c->f);
    if (rc == LATTIO_OK) rc = trc;
    if (rc == LATTIO_OK) rc = brc;
    if (ftype != MPI_DATATYPE_NULL) MPI_Type_free(&ftype);
    if (writing && c->guard) rc = guard_round(c, nruns, bytes, rc);
    if (!writing && rc == LATTIO_OK && bytes) rc = stage(c, 0);
    return rc;
}

/* Local: slab budget: the staging bound, and few enough sites that a slab
 * has at most COLL_MAX_RUNS runs (a run is at least one row). */
static uint64_t budget(const lattio_move *m)
{
    const size_t sb = m->l->site_bytes;
    uint64_t b = m->s->staging_sites ? m->s->staging_sites : staging_bytes_ / sb;
    if (staging_bytes_ / sb < b) b = staging_bytes_ / sb; /* the test hook's bound */
    const uint64_t row = lattio_layout_row_sites(m->l);
    if (row && b / row >= COLL_MAX_RUNS) b = COLL_MAX_RUNS * row;
    return b ? b : 1;
}

/* Collective.  Move this rank's sites between the stager and the file. */
static int collective_move(lattio_move *m, int writing)
{
    lattio_file *f = m->f;
    const lattio_layout *l = m->l;
    coll c = {.m = m, .f = f, .l = l, .base = m->base};
    lattio_slab_plan_make(&c.p, l, budget(m));
    c.guard = writing && (force_guard_ || lattio_collective_untrusted(f));
    int rc = LATTIO_OK;
    uint64_t bytes = lattio_layout_global_sites(l) * l->site_bytes;
    if (m->base > (uint64_t)LLONG_MAX - bytes) rc = LATTIO_FAIL(LATTIO_ERR_OVERFLOW, "offset");
    if (rc == LATTIO_OK && c.p.max_sites) {
        c.staging = lattio_malloc((size_t)(c.p.max_sites * l->site_bytes));
        c.verify = c.guard ? lattio_malloc((size_t)(c.p.max_sites * l->site_bytes)) : NULL;
        c.cap = 64;
        c.runs = lattio_malloc(c.cap * sizeof *c.runs);
        if (!c.staging || !c.runs || (c.guard && !c.verify)) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "staging");
    }
    /* the rounds of the call: the largest slab count, agreed once */
    uint64_t rounds = 0;
    lattio_prof_phase(f, LATTIO_PHASE_SYNC);
    int arc = lattio_allreduce_u64(&c.p.nchunks, &rounds, 1, MPI_MAX, f->comm);
    if (rc == LATTIO_OK) rc = arc;
    m->rounds = c.p.nchunks;
    for (uint64_t q = 0; arc == LATTIO_OK && q < rounds; q++) rc = one_round(&c, q, writing, rc);
    lattio_free(c.runs);
    lattio_free(c.verify);
    lattio_free(c.staging);
    return rc;
}

static int collective_write(lattio_move *m) { return collective_move(m, 1); }
static int collective_read(lattio_move *m) { return collective_move(m, 0); }

const lattio_strategy_ops lattio_collective_ops = {"collective", collective_write, collective_read};
