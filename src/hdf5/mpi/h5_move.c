/* h5_move.c -- one dataset's bytes through the field pipe.  The lattio
 * transport hands the pipe's stager to the MPI layer's one door
 * (lattio_xfer_*) on the raw region HDF5 allocated for a contiguous
 * dataset: the strategies, staging, helper thread and checksums of LIME
 * records, unchanged.  The HDF5 transport (chunked datasets, and on
 * request) moves the same staged bytes with collective H5Dwrite / H5Dread
 * of each rank's slabs in the dataset's own type, so HDF5 converts nothing
 * and stays collective; ranks out of slabs join with empty selections. */
#include "h5_mpi.h"

#include <string.h>

/* The format the sums read: Qlua's little-endian, SciDAC's big-endian. */
static int sum_format(int kind, int fmt)
{
    const int f32 = lattio_real_size(fmt) == 4;
    if (kind == LATTIO_STAGE_SUM_QLUA) return f32 ? LATTIO_REAL_F32_LE : LATTIO_REAL_F64_LE;
    return f32 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE;
}

/* Local: the pipe of this dataset over memory layout l (NULL local with
 * sum_only: checksums of the file's bytes). */
static int pipe_for(const lattio_h5_move *m, const lattio_layout *l, lattio_field_pipe *p, void *local,
                    int sum_only)
{
    lattio_field_desc d = *m->d;
    d.elements = m->elements;
    memset(p, 0, sizeof *p);
    RETURN_IF_ERROR(lattio_field_pipe_init(p, m->f, &d, l, m->fmt, local));
    if (!sum_only && m->elements != m->d->elements)
        RETURN_IF_ERROR(lattio_field_stage_window(&p->st, m->d->elements, m->win_first));
    RETURN_IF_ERROR(lattio_field_stage_checksum(&p->st, m->sum_kind, sum_format(m->sum_kind, m->fmt)));
    p->st.sum_only = sum_only;
    return LATTIO_OK;
}

/* Collective: XOR of every rank's sum of the kind the stage took into m
 * (the other stays zero; none: no reduction). */
static int reduce_sums(lattio_h5_move *m, const lattio_field_stage *st)
{
    MPI_Comm comm = lattio_xfer_comm(m->f);
    memset(&m->sum, 0, sizeof m->sum);
    memset(&m->qsum, 0, sizeof m->qsum);
    if (m->sum_kind == LATTIO_STAGE_SUM_SCIDAC) {
        m->sum = lattio_field_stage_sum(st);
        return lattio_field_xor_sum(comm, &m->sum);
    }
    if (m->sum_kind != LATTIO_STAGE_SUM_QLUA) return LATTIO_OK;
    lattio_qlua_sum q = lattio_field_stage_qlua_sum(st);
    return lattio_xfer_mpi(MPI_Allreduce(q.x, m->qsum.x, 32, MPI_UNSIGNED_CHAR, MPI_BXOR, comm), "sha256 sum");
}

/* --- the HDF5 transport -------------------------------------------------------- */

/* Select chunk q of plan (this rank's box l in file order) in the file
 * space fs (the dataset's trailing dimensions whole), or nothing. */
static int select_chunk(hid_t fs, const lattio_slab_plan *pl, const lattio_layout *l, uint64_t first, uint64_t n)
{
    if (n == 0) return H5Sselect_none(fs) < 0 ? -1 : 0;
    hsize_t start[H5S_MAX_RANK] = {0}, count[H5S_MAX_RANK], dims[H5S_MAX_RANK];
    const int rank = H5Sget_simple_extent_dims(fs, dims, NULL);
    if (rank < l->ndims) return -1;
    uint64_t s = first;
    for (int i = pl->nd - 1; i >= 0; i--) {
        start[i] = l->lo[l->file_order[i]] + s % pl->c[i];
        s /= pl->c[i];
        count[i] = i < pl->k ? 1 : i == pl->k ? n / pl->inner : pl->c[i];
    }
    for (int i = l->ndims; i < rank; i++) count[i] = dims[i];
    return H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ? -1 : 0;
}

/* Bytes per rank and collective H5Dwrite / H5Dread round when the field
 * descriptor sets no staging bound (as the collective strategy's rounds). */
#define H5_ROUND_BYTES ((uint64_t)16 << 20)

/* The HDF5 transport's state for one dataset. */
typedef struct h5io {
    lattio_slab_plan pl;
    uint64_t rounds;     /* the most any rank has */
    size_t site, elem;   /* bytes per disk site, per element of the type */
    unsigned char *buf;  /* one slab of disk sites */
    hid_t type, fs, dxpl;
} h5io;

/* Collective: the plan of slabs (the stager's bound, else H5_ROUND_BYTES a
 * round), the buffer, the type (the file's: HDF5 converts nothing), the
 * file space and the transfer properties. */
static int h5io_open(lattio_h5_move *m, const lattio_field_pipe *p, h5io *io)
{
    const uint64_t dflt = H5_ROUND_BYTES / p->st.disk_site;
    lattio_slab_plan_make(&io->pl, &p->fl, p->s.staging_sites ? p->s.staging_sites : dflt ? dflt : 1);
    io->site = p->st.disk_site;
    io->elem = 1;
    io->type = io->fs = io->dxpl = -1;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Allreduce(&io->pl.nchunks, &io->rounds, 1, MPI_UINT64_T, MPI_MAX,
                                                  lattio_xfer_comm(m->f)), "rounds"));
    io->buf = lattio_malloc(io->pl.max_sites ? (size_t)io->pl.max_sites * io->site : 1);
    io->type = m->mtype >= 0 ? H5Tcopy(m->mtype) : H5Dget_type(m->dset);
    io->fs = H5Dget_space(m->dset);
    io->dxpl = lattio_h5_dxpl();
    int rc = !io->buf ? LATTIO_FAIL(LATTIO_ERR_NOMEM, "slab")
                      : H5_CHECK(io->type < 0 || io->fs < 0 || io->dxpl < 0 ? -1 : 0, "dataset");
    rc = lattio_xfer_agree(m->f, rc);
    if (rc == LATTIO_OK) io->elem = H5Tget_size(io->type);
    return rc;
}

/* Collective: round q, this rank's slab (or nothing) through one
 * collective H5Dwrite / H5Dread, which every rank joins, failed or not. */
static int h5io_round(lattio_h5_move *m, lattio_field_pipe *p, h5io *io, uint64_t q, int writing)
{
    uint64_t first = 0, n = 0;
    lattio_slab_chunk(&io->pl, q, &first, &n);
    int lrc = LATTIO_OK;
    if (writing && n) {
        lattio_xfer_phase(m->f, LATTIO_PHASE_PACK);
        lrc = p->s.fill(p->s.ctx, 0, first, n, io->buf);
    }
    const hsize_t count = (hsize_t)(n * io->site / io->elem);
    hid_t ms = H5Screate_simple(1, n ? &count : (const hsize_t[]){1}, NULL);
    if (ms >= 0 && !n) H5Sselect_none(ms);
    if (ms < 0 || select_chunk(io->fs, &io->pl, &p->fl, first, n) < 0)
        lrc = lrc < 0 ? lrc : lattio_h5_fail(LATTIO_ERR_HDF5, "selection");
    lattio_xfer_phase(m->f, LATTIO_PHASE_IO);
    herr_t e = ms < 0 ? -1
               : writing ? H5Dwrite(m->dset, io->type, ms, io->fs, io->dxpl, io->buf)
                         : H5Dread(m->dset, io->type, ms, io->fs, io->dxpl, io->buf);
    if (lrc == LATTIO_OK && e < 0) lrc = writing ? lattio_h5_fail(LATTIO_ERR_WRITE, "H5Dwrite") : lattio_h5_read_fail();
    if (ms >= 0) H5Sclose(ms);
    if (!writing && n && lrc == LATTIO_OK) lrc = p->s.drain(p->s.ctx, 0, first, n, io->buf);
    return lattio_xfer_agree(m->f, lrc);
}

/* Local: why HDF5 did not transfer collectively (into m), and the state freed. */
static void h5io_close(lattio_h5_move *m, h5io *io)
{
    uint32_t local_cause = 0, global_cause = 0;
    if (io->dxpl >= 0 && H5Pget_mpio_no_collective_cause(io->dxpl, &local_cause, &global_cause) >= 0)
        m->no_coll = global_cause;
    if (io->dxpl >= 0) H5Pclose(io->dxpl);
    if (io->fs >= 0) H5Sclose(io->fs);
    if (io->type >= 0) H5Tclose(io->type);
    lattio_free(io->buf);
}

/* Collective: every rank's slabs of p->fl through H5Dwrite / H5Dread. */
static int hdf5_rounds(lattio_h5_move *m, lattio_field_pipe *p, int writing)
{
    h5io io;
    memset(&io, 0, sizeof io);
    int rc = h5io_open(m, p, &io);
    for (uint64_t q = 0; q < io.rounds && rc == LATTIO_OK; q++) rc = h5io_round(m, p, &io, q, writing);
    h5io_close(m, &io);
    m->rounds = io.rounds;
    m->threaded = 0;
    return rc;
}

/* --- both transports ----------------------------------------------------------- */

/* Collective: move the pipe's sites (writing: the whole lattice). */
static int move(lattio_h5_move *m, lattio_field_pipe *p, int writing, int partial)
{
    if (m->dset >= 0) return hdf5_rounds(m, p, writing);
    const uint64_t bytes = lattio_layout_global_sites(&p->fl) * p->st.disk_site;
    RETURN_IF_ERROR(lattio_xfer_agree(m->f, lattio_xfer_region(m->f, m->offset, bytes)));
    lattio_xfer_info xi;
    int rc = writing ? lattio_xfer_write(m->f, &p->fl, 0, 0, &p->s, &xi) : lattio_xfer_read(m->f, &p->fl, 0, partial, &p->s, &xi);
    lattio_xfer_region_end(m->f);
    m->rounds = rc == LATTIO_OK ? xi.rounds : 0;
    m->threaded = rc == LATTIO_OK ? xi.threaded : 0;
    return rc;
}

/* Collective: the checksums of the dataset's bytes as stored, read by a
 * split of the file's lattice other than the writer's (slabs of its
 * slowest dimension in rank order). */
static int file_sums(lattio_h5_move *m, lattio_scidac_sum *sum, lattio_qlua_sum *qsum)
{
    MPI_Comm comm = lattio_xfer_comm(m->f);
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    RETURN_IF_ERROR(lattio_xfer_sync(m->f));
    const lattio_layout *l = m->l;
    uint64_t g[LATTIO_MAX_DIMS], lo[LATTIO_MAX_DIMS] = {0}, n[LATTIO_MAX_DIMS];
    for (int i = 0; i < l->ndims; i++) g[i] = n[i] = l->global[l->file_order[i]];
    lattio_layout vl;
    lattio_field_pipe p;
    memset(&p, 0, sizeof p);
    lattio_h5_move vm = *m;
    lattio_field_desc vd = *m->d;
    vd.elements = m->elements;
    vm.d = &vd;
    vm.l = &vl;
    const size_t site = m->elements * lattio_real_size(m->fmt);
    int rc = lattio_split(g[0], (uint64_t)size, (uint64_t)rank, &lo[0], &n[0]);
    if (rc == LATTIO_OK) rc = lattio_layout_init(&vl, l->ndims, g, lo, n, site);
    vd.mem_format = lattio_real_size(m->fmt) == 4 ? LATTIO_REAL_F32_NATIVE : LATTIO_REAL_F64_NATIVE;
    if (rc == LATTIO_OK) rc = pipe_for(&vm, &vl, &p, NULL, 1);
    rc = lattio_xfer_agree(m->f, rc);
    if (rc == LATTIO_OK) rc = move(&vm, &p, 0, 0);
    if (rc == LATTIO_OK) rc = reduce_sums(&vm, &p.st);
    lattio_field_pipe_free(&p);
    *sum = vm.sum;
    *qsum = vm.qsum;
    return rc;
}

int lattio_h5_move_write(lattio_h5_move *m, void *local)
{
    for (int attempt = 0;; attempt++) {
        lattio_field_pipe p;
        int rc = lattio_xfer_agree(m->f, pipe_for(m, m->l, &p, local, 0));
        if (rc == LATTIO_OK) rc = move(m, &p, 1, 0);
        if (rc == LATTIO_OK) rc = reduce_sums(m, &p.st);
        lattio_field_pipe_free(&p);
        RETURN_IF_ERROR(rc);
        if (!m->d->verify) return LATTIO_OK;
        lattio_scidac_sum s;
        lattio_qlua_sum q;
        RETURN_IF_ERROR(file_sums(m, &s, &q));
        const int same = m->sum_kind == LATTIO_STAGE_SUM_QLUA ? memcmp(q.x, m->qsum.x, 32) == 0
                                                               : s.suma == m->sum.suma && s.sumb == m->sum.sumb;
        if (same) return LATTIO_OK;
        LATTIO_TRACE("HDF5 verify: dataset's bytes differ from those written (attempt %d)", attempt);
        if (attempt >= m->d->verify_retries)
            return LATTIO_FAIL(LATTIO_ERR_VERIFY, "dataset differs after rewrites");
    }
}

int lattio_h5_move_read(lattio_h5_move *m, void *local)
{
    lattio_field_pipe p;
    int rc = lattio_xfer_agree(m->f, pipe_for(m, m->l, &p, local, 0));
    if (rc == LATTIO_OK) rc = move(m, &p, 0, m->partial);
    if (rc == LATTIO_OK) rc = reduce_sums(m, &p.st);
    lattio_field_pipe_free(&p);
    return rc;
}
