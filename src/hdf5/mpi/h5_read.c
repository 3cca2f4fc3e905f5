/* h5_read.c -- a field read from an HDF5 dataset of either layout: the
 * object found and its layout detected, shape and type checked against
 * the caller's layout, the bytes moved through the field pipe
 * (h5_move.c), the stored checksums compared (the object's examination,
 * metadata and verdict: ../h5_object.c, as the serial read's). */
#include "h5_mpi.h"

#include <stdio.h>
#include <string.h>

/* What one read needs across its steps. */
typedef struct h5r {
    MPI_Comm comm;
    lattio_file *f;
    const lattio_h5_options *o;
    lattio_h5_object x; /* the object read */
} h5r;

/* Local: where the dataset's bytes are for the lattio transport (0 and
 * *raw = 0: HDF5 must move them: chunked, filtered, external, or asked). */
static int storage(h5r *r, hid_t ds, uint64_t *offset, int *raw)
{
    *raw = 0;
    *offset = 0;
    H5D_space_status_t st;
    RETURN_IF_ERROR(H5_CHECK(H5Dget_space_status(ds, &st), "space status"));
    if (st == H5D_SPACE_STATUS_NOT_ALLOCATED) {
        lattio_detail_set("dataset %s was never written (no storage allocated)", r->x.object);
        return LATTIO_FAIL(LATTIO_ERR_HDF5_LAYOUT, "no data");
    }
    hid_t dcpl = H5Dget_create_plist(ds);
    RETURN_IF_ERROR(H5_CHECK(dcpl, "creation properties"));
    const int contiguous = H5Pget_layout(dcpl) == H5D_CONTIGUOUS && H5Pget_external_count(dcpl) == 0;
    H5Pclose(dcpl);
    const haddr_t off = contiguous ? H5Dget_offset(ds) : HADDR_UNDEF;
    if (off != HADDR_UNDEF && r->o->transport != LATTIO_H5_TRANSPORT_HDF5) {
        *offset = (uint64_t)off;
        *raw = 1;
    }
    return LATTIO_OK;
}

/* What read_data carries from one direction to the next. */
typedef struct h5rd {
    void *local;
    int whole;     /* the ranks read the whole field: sums are compared */
    uint64_t want; /* reals per site of each dataset */
    lattio_field_read_info *info;
    lattio_h5_info *h5;
    int fmt0;       /* the first dataset's format (every direction's must match) */
    int stored_all; /* Qlua: every dataset had its .sha256 */
} h5rd;

/* One dataset of the read: its handle, format and where its bytes are. */
typedef struct h5dir {
    hid_t ds;
    int fmt, raw; /* raw: contiguous, read by lattio's strategies at `off` */
    uint64_t off;
} h5dir;

/* Local: direction mu's type and shape (its format the first direction's)
 * and its storage. */
static int direction_check(h5r *r, h5rd *c, int mu, h5dir *dir)
{
    uint64_t reals = 0;
    RETURN_IF_ERROR(lattio_h5_object_shape(&r->x, dir->ds, c->want, &dir->fmt, &reals));
    if (mu > 0 && dir->fmt != c->fmt0) return LATTIO_FAIL(LATTIO_ERR_HDF5_LAYOUT, "directions differ in type");
    c->fmt0 = dir->fmt;
    return storage(r, dir->ds, &dir->off, &dir->raw);
}

/* Collective: Qlua's stored sum of direction `name` against the data's. */
static int direction_qlua_sum(h5r *r, h5rd *c, const h5dir *dir, const char *name, const lattio_h5_move *m)
{
    int have = 0;
    char where[LATTIO_H5_PATH_MAX + 16]; /* the dataset's path: group/direction */
    snprintf(where, sizeof where, "%s%s%s", r->x.object, r->x.group ? "/" : "", r->x.group ? name : "");
    const int rc = lattio_xfer_agree(r->f, lattio_h5_qlua_compare(dir->ds, where, &m->qsum, &have));
    c->stored_all = c->stored_all && have;
    return rc;
}

/* Local: what reading direction mu reports. */
static void direction_report(const h5rd *c, const h5dir *dir, const lattio_h5_move *m, int mu)
{
    c->info->computed = m->sum;
    c->info->rounds += m->rounds;
    c->info->threaded = m->threaded;
    if (!c->h5) return;
    if (mu < 4) c->h5->sha256[mu] = m->qsum;
    c->h5->ndatasets++;
    c->h5->transport = dir->raw ? LATTIO_H5_TRANSPORT_LATTIO : LATTIO_H5_TRANSPORT_HDF5;
    c->h5->no_collective_cause = m->no_coll;
}

/* Collective: direction mu of a group (dataset "mu"), else the dataset,
 * read; Qlua's sum compared when the read is whole. */
static int read_direction(h5r *r, h5rd *c, int mu)
{
    char name[12];
    snprintf(name, sizeof name, "%d", mu);
    h5dir dir = {.ds = lattio_h5_object_set(&r->x, mu)};
    int rc = r->x.group && dir.ds < 0 ? lattio_h5_fail(LATTIO_ERR_HDF5_LAYOUT, name) : LATTIO_OK;
    if (rc == LATTIO_OK) rc = direction_check(r, c, mu, &dir);
    rc = lattio_xfer_agree(r->f, rc);
    lattio_h5_move m = {.f = r->f, .dset = dir.raw ? -1 : dir.ds, .mtype = -1, .offset = dir.off, .d = r->x.d, .l = &r->x.fl,
                        .fmt = dir.fmt, .elements = c->want, .win_first = (uint64_t)mu * c->want, .partial = !c->whole,
                        .sum_kind = r->x.layout == LATTIO_H5_QLUA ? LATTIO_STAGE_SUM_QLUA : LATTIO_STAGE_SUM_SCIDAC};
    if (r->x.d->skip_checksum || !c->whole) m.sum_kind = LATTIO_STAGE_SUM_NONE;
    if (rc == LATTIO_OK) rc = lattio_h5_move_read(&m, c->local);
    if (rc == LATTIO_OK && r->x.layout == LATTIO_H5_QLUA && m.sum_kind != LATTIO_STAGE_SUM_NONE)
        rc = direction_qlua_sum(r, c, &dir, name, &m);
    if (rc == LATTIO_OK) direction_report(c, &dir, &m, mu);
    lattio_h5_object_close_set(&r->x, dir.ds);
    return rc;
}

/* Collective: the dataset(s) read, each sum compared when whole. */
static int read_data(h5r *r, void *local, int whole, lattio_field_read_info *info, lattio_h5_info *h5)
{
    const int nsets = r->x.group ? r->x.l->ndims : 1;
    h5rd c = {.local = local, .whole = whole, .want = r->x.group ? r->x.d->elements / (uint64_t)nsets : r->x.d->elements,
              .info = info, .h5 = h5, .stored_all = 1};
    int rc = r->x.group && r->x.d->elements % (uint64_t)nsets ? LATTIO_FAIL(LATTIO_ERR_FIELD_LENGTH, "group") : LATTIO_OK;
    for (int mu = 0; mu < nsets && rc == LATTIO_OK; mu++) rc = read_direction(r, &c, mu);
    RETURN_IF_ERROR(rc);
    return lattio_h5_object_verdict(&r->x, c.fmt0, c.whole, c.stored_all, c.info);
}

static int h5_read(h5r *r, const char *file, void *local, lattio_field_read_info *info, lattio_h5_info *h5)
{
    RETURN_IF_ERROR(lattio_xfer_agree(r->f, lattio_field_check_memory(r->x.d, r->x.l, local)));
    uint64_t mine = lattio_layout_local_sites(r->x.l), total = 0;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Allreduce(&mine, &total, 1, MPI_UINT64_T, MPI_SUM, r->comm), "sites"));
    hid_t fapl = lattio_h5_fapl(r->comm, lattio_xfer_hints(r->f), 0);
    RETURN_IF_ERROR(lattio_xfer_agree(r->f, H5_CHECK(fapl, "file access properties")));
    r->x.fid = lattio_h5_fopen(file, H5F_ACC_RDONLY, fapl);
    H5Pclose(fapl);
    int rc = lattio_xfer_agree(r->f, r->x.fid < 0 ? lattio_h5_open_fail() : LATTIO_OK);
    if (rc == LATTIO_OK) rc = lattio_xfer_agree(r->f, lattio_h5_object_detect(&r->x));
    if (rc == LATTIO_OK) rc = lattio_xfer_agree(r->f, lattio_h5_object_describe(&r->x, &info->field));
    if (rc == LATTIO_OK) rc = read_data(r, local, total == lattio_layout_global_sites(r->x.l), info, h5);
    if (h5) h5->layout = r->x.layout;
    if (r->x.obj >= 0) H5Oclose(r->x.obj);
    if (r->x.fid >= 0) H5Fclose(r->x.fid);
    return rc;
}

int lattio_h5_read(MPI_Comm comm, const char *target, const lattio_field_desc *d, const lattio_layout *l,
                   void *local, const lattio_h5_options *o, lattio_field_read_info *info, lattio_h5_info *h5)
{
    lattio_h5_options dflt;
    lattio_field_read_info mine;
    if (!o) {
        lattio_h5_options_default(&dflt);
        dflt.layout = LATTIO_H5_AUTO;
        o = &dflt;
    }
    if (!info) info = &mine;
    memset(info, 0, sizeof *info);
    if (h5) memset(h5, 0, sizeof *h5);
    RETURN_IF_ERROR(lattio_h5_args_agree(comm, target, d, l, o, 0));
    RETURN_IF(!d || !l, LATTIO_ERR_ARG);
    lattio_h5_call call;
    RETURN_IF_ERROR(lattio_h5_call_begin(&call, target));
    const char *file = call.file;
    h5r r = {.o = o, .x = {.object = call.object, .d = d, .l = l, .want_layout = o->layout, .fid = -1, .obj = -1}};
    int rc = lattio_open(comm, file, LATTIO_MODE_READ, MPI_INFO_NULL, o->file, &r.f);
    if (rc == LATTIO_OK) {
        r.comm = lattio_xfer_comm(r.f);
        int rank = 0;
        MPI_Comm_rank(r.comm, &rank);
        int first = LATTIO_OK; /* HDF5 at all, then the object examined in the guard's child */
        if (rank == 0) first = lattio_h5_is_hdf5(file) ? lattio_h5_guard_target(file, r.x.object, l->ndims)
                                                       : LATTIO_FAIL(LATTIO_ERR_UNKNOWN_FORMAT, "not HDF5");
        if (MPI_Bcast(&first, 1, MPI_INT, 0, r.comm) != MPI_SUCCESS) first = LATTIO_FAIL(LATTIO_ERR_MPI, "first pass");
        lattio_xfer_call_begin(r.f, LATTIO_PHASE_SETUP);
        rc = first == LATTIO_OK ? h5_read(&r, file, local, info, h5) : first;
        rc = lattio_xfer_call_end(r.f, rc, 0);
        const int crc = lattio_close(r.f);
        if (rc == LATTIO_OK) rc = crc;
    }
    if (rc < 0 || info == &mine) lattio_field_info_free(&info->field);
    lattio_h5_call_end(&call);
    return rc;
}
