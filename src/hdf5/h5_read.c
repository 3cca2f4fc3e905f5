/* h5_read.c -- a field read from an HDF5 dataset of either layout: the
 * object found and its layout detected, shape and type checked against
 * the caller's layout, the bytes moved through the field pipe
 * (h5_move.c), the stored checksums compared; and the list of the
 * fields a file holds. */
#include "h5_internal.h"

#include <stdio.h>
#include <string.h>

/* What one read needs across its steps. */
typedef struct h5r {
    MPI_Comm comm;
    lattio_file *f;
    hid_t fid, obj;
    const char *object;
    const lattio_field_desc *d;
    const lattio_layout *l;
    lattio_layout fl; /* memory layout, file_order of the dataset(s) */
    const lattio_h5_options *o;
    int layout, group; /* group: a Qlua gauge group of nd datasets */
    int gauge_colors;  /* N of an SU(N) gauge field, 0 for other fields */
} h5r;

/* Local: dataset ds has the lattice of r->fl and `want` reals per site. */
static int check_shape(h5r *r, hid_t ds, uint64_t want, int *fmt, uint64_t *reals)
{
    hid_t sp = H5Dget_space(ds), t = H5Dget_type(ds);
    hsize_t dims[H5S_MAX_RANK];
    const int rank = sp < 0 ? -1 : H5Sget_simple_extent_dims(sp, dims, NULL);
    int rc = rank < 0 || t < 0 ? lattio_h5_fail(LATTIO_ERR_HDF5, "dataset space") : LATTIO_OK;
    if (rc == LATTIO_OK) rc = lattio_h5_type_reals(t, reals, fmt);
    const int nd = r->fl.ndims;
    if (rc == LATTIO_OK && rank < nd) {
        lattio_detail_set("dataset has %d dimensions, the lattice %d", rank, nd);
        rc = LATTIO_FAIL(LATTIO_ERR_FIELD_DIMS, "rank");
    }
    for (int i = 0; i < nd && rc == LATTIO_OK; i++)
        if (dims[i] != r->fl.global[r->fl.file_order[i]]) {
            lattio_detail_set("dataset dimension %d is %llu, the layout's %llu (%s order)", i,
                              (unsigned long long)dims[i], (unsigned long long)r->fl.global[r->fl.file_order[i]],
                              r->layout == LATTIO_H5_QLUA ? "Qlua's x,y,z,t" : "QDP++'s t,z,y,x");
            rc = LATTIO_FAIL(LATTIO_ERR_FIELD_DIMS, "dims");
        }
    for (int i = nd; i < rank && rc == LATTIO_OK; i++) *reals *= dims[i];
    if (rc == LATTIO_OK && *reals != want) {
        lattio_detail_set("dataset holds %llu reals per site, the descriptor %llu", (unsigned long long)*reals,
                          (unsigned long long)want);
        rc = LATTIO_FAIL(LATTIO_ERR_FIELD_LENGTH, "reals per site");
    }
    if (t >= 0) H5Tclose(t);
    if (sp >= 0) H5Sclose(sp);
    return rc;
}

/* Local: where the dataset's bytes are for the lattio transport (0 and
 * *raw = 0: HDF5 must move them: chunked, filtered, external, or asked). */
static int storage(h5r *r, hid_t ds, uint64_t *offset, int *raw)
{
    *raw = 0;
    *offset = 0;
    H5D_space_status_t st;
    RETURN_IF_ERROR(H5_CHECK(H5Dget_space_status(ds, &st), "space status"));
    if (st == H5D_SPACE_STATUS_NOT_ALLOCATED) {
        lattio_detail_set("dataset %s was never written (no storage allocated)", r->object);
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

/* Collective: find the object (soft links inside the file followed),
 * judge it as the listing does (damage, storage, filters, a Qlua group
 * whole) and take its layout. */
static int detect(h5r *r)
{
    char hard[LATTIO_H5_PATH_MAX];
    lattio_h5_entry e;
    RETURN_IF_ERROR(lattio_h5_resolve(r->fid, r->object, hard, sizeof hard));
    const int rc = lattio_h5_examine(r->fid, hard, r->l->ndims, &e);
    if (rc == LATTIO_H5_NOT_FIELD) {
        lattio_detail_set("%s is not a lattice field of %d dimensions", hard, r->l->ndims);
        return LATTIO_FAIL(LATTIO_ERR_HDF5_LAYOUT, "not a field");
    }
    RETURN_IF_ERROR(rc);
    r->obj = H5Oopen(r->fid, hard, H5P_DEFAULT);
    if (r->obj < 0) return lattio_h5_damaged(hard, "object cannot be opened");
    r->group = H5Iget_type(r->obj) == H5I_GROUP;
    r->layout = e.layout;
    r->gauge_colors = e.gauge ? e.colors : 0;
    if (r->o->layout != LATTIO_H5_AUTO && r->o->layout != r->layout) {
        lattio_detail_set("%s is in the %s layout, not the one asked for", r->object,
                          r->layout == LATTIO_H5_QLUA ? "Qlua" : "QDP++");
        return LATTIO_FAIL(LATTIO_ERR_HDF5_LAYOUT, "layout");
    }
    r->fl = *r->l;
    if (r->layout == LATTIO_H5_QLUA)
        for (int i = 0; i < r->l->ndims; i++) r->fl.file_order[i] = r->l->file_order[r->l->ndims - 1 - i];
    return LATTIO_OK;
}

/* An optional attribute's status: absent or of another type (a foreign
 * writer's) is passed over, unreadable is not (an I/O error never reads
 * as "no metadata"). */
static int optional(int rc)
{
    return rc == LATTIO_ERR_NOT_FOUND || rc == LATTIO_ERR_HDF5_ATTRIBUTE ? LATTIO_OK : rc;
}

/* A string attribute into dst (size bytes), when present. */
static int string_into(hid_t obj, const char *name, char *dst, size_t size)
{
    char *s = NULL;
    const int rc = lattio_h5_get_string(obj, name, &s);
    if (rc == LATTIO_OK) snprintf(dst, size, "%s", s);
    lattio_free(s);
    return optional(rc);
}

/* A small non-negative integer attribute (below `below`) into *dst, when present. */
static int count_into(hid_t obj, const char *name, int64_t below, uint64_t *dst)
{
    int64_t v;
    const int rc = lattio_h5_get_i64(obj, name, &v);
    if (rc == LATTIO_OK && v >= 0 && v < below) *dst = (uint64_t)v;
    return optional(rc);
}

/* Local: info->field from the object's attributes and shape. */
static int describe(h5r *r, lattio_field_info *fi)
{
    memset(fi, 0, sizeof *fi);
    const lattio_layout *l = r->l;
    fi->nd = l->ndims;
    for (int i = 0; i < l->ndims; i++) fi->dims[i] = l->global[l->file_order[l->ndims - 1 - i]];
    fi->volume = lattio_layout_global_sites(l);
    fi->kind = r->gauge_colors && l->ndims == 4 ? LATTIO_FIELD_ILDG_GAUGE : LATTIO_FIELD_GENERIC;
    strcpy(fi->record_version, "1.1");
    fi->datacount = fi->kind == LATTIO_FIELD_ILDG_GAUGE ? 4 : 1;
    uint64_t colors = 0, spins = 0, count = 0;
    RETURN_IF_ERROR(string_into(r->obj, "scidac_datatype", fi->datatype, sizeof fi->datatype));
    RETURN_IF_ERROR(string_into(r->obj, "scidac_date", fi->date, sizeof fi->date));
    RETURN_IF_ERROR(count_into(r->obj, "scidac_colors", 1000, &colors));
    RETURN_IF_ERROR(count_into(r->obj, "scidac_spins", 1000, &spins));
    RETURN_IF_ERROR(count_into(r->obj, "scidac_datacount", INT64_MAX, &count));
    fi->colors = (int)colors;
    if (fi->kind == LATTIO_FIELD_ILDG_GAUGE) { /* N from the dataset's type */
        fi->ildg_colors = r->gauge_colors;
        if (!fi->colors) fi->colors = r->gauge_colors;
    }
    fi->spins = (int)spins;
    if (count > 0 && r->d->elements % count == 0) fi->datacount = count;
    RETURN_IF_ERROR(optional(lattio_h5_get_string(r->obj, "ildg_data_lfn", &fi->lfn)));
    RETURN_IF_ERROR(optional(lattio_h5_get_string(r->obj, "file_xml", &fi->file_xml)));
    RETURN_IF_ERROR(optional(lattio_h5_get_string(r->obj, "record_xml", &fi->record_xml)));
    if (r->group) return LATTIO_OK;
    uint32_t a, b;
    const int ra = lattio_h5_get_u32(r->obj, "suma", &a), rb = lattio_h5_get_u32(r->obj, "sumb", &b);
    if (ra == LATTIO_OK && rb == LATTIO_OK) {
        fi->has_checksum = 1;
        fi->stored = (lattio_scidac_sum){a, b};
    } else if (ra != LATTIO_ERR_NOT_FOUND || rb != LATTIO_ERR_NOT_FOUND) {
        if (!lattio_detail_peek()[0]) lattio_detail_set("%s: suma/sumb attributes incomplete or not integers", r->object);
        return LATTIO_FAIL(LATTIO_ERR_HDF5_ATTRIBUTE, "suma/sumb");
    }
    return LATTIO_OK;
}

/* Local: the stored Qlua sum of dataset ds compared (ERR_CHECKSUM), or
 * absent (*have 0). */
static int qlua_compare(hid_t ds, const char *name, const lattio_qlua_sum *got, int *have)
{
    unsigned char want[32];
    const int rc = lattio_h5_get_bytes32(ds, ".sha256", want);
    *have = rc == LATTIO_OK;
    if (rc == LATTIO_ERR_NOT_FOUND) return LATTIO_OK;
    RETURN_IF_ERROR(rc);
    if (memcmp(want, got->x, 32) == 0) return LATTIO_OK;
    lattio_detail_set("%s: .sha256 differs from the data's (Qlua's per-site SHA-256 sum)", name);
    return LATTIO_FAIL(LATTIO_ERR_CHECKSUM, ".sha256");
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
    RETURN_IF_ERROR(check_shape(r, dir->ds, c->want, &dir->fmt, &reals));
    if (mu > 0 && dir->fmt != c->fmt0) return LATTIO_FAIL(LATTIO_ERR_HDF5_LAYOUT, "directions differ in type");
    c->fmt0 = dir->fmt;
    return storage(r, dir->ds, &dir->off, &dir->raw);
}

/* Collective: Qlua's stored sum of direction `name` against the data's. */
static int direction_qlua_sum(h5r *r, h5rd *c, const h5dir *dir, const char *name, const lattio_h5_move *m)
{
    int have = 0;
    char where[LATTIO_H5_PATH_MAX + 16]; /* the dataset's path: group/direction */
    snprintf(where, sizeof where, "%s%s%s", r->object, r->group ? "/" : "", r->group ? name : "");
    const int rc = lattio_xfer_agree(r->f, qlua_compare(dir->ds, where, &m->qsum, &have));
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
    h5dir dir = {.ds = r->group ? H5Dopen2(r->obj, name, H5P_DEFAULT) : r->obj};
    int rc = r->group && dir.ds < 0 ? lattio_h5_fail(LATTIO_ERR_HDF5_LAYOUT, name) : LATTIO_OK;
    if (rc == LATTIO_OK) rc = direction_check(r, c, mu, &dir);
    rc = lattio_xfer_agree(r->f, rc);
    lattio_h5_move m = {.f = r->f, .dset = dir.raw ? -1 : dir.ds, .mtype = -1, .offset = dir.off, .d = r->d, .l = &r->fl,
                        .fmt = dir.fmt, .elements = c->want, .win_first = (uint64_t)mu * c->want, .partial = !c->whole,
                        .sum_kind = r->layout == LATTIO_H5_QLUA ? LATTIO_STAGE_SUM_QLUA : LATTIO_STAGE_SUM_SCIDAC};
    if (r->d->skip_checksum || !c->whole) m.sum_kind = LATTIO_STAGE_SUM_NONE;
    if (rc == LATTIO_OK) rc = lattio_h5_move_read(&m, c->local);
    if (rc == LATTIO_OK && r->layout == LATTIO_H5_QLUA && m.sum_kind != LATTIO_STAGE_SUM_NONE)
        rc = direction_qlua_sum(r, c, &dir, name, &m);
    if (rc == LATTIO_OK) direction_report(c, &dir, &m, mu);
    if (r->group && dir.ds >= 0) H5Dclose(dir.ds);
    return rc;
}

/* Local: the field's precision and the read's checksum state; ERR_CHECKSUM
 * when a stored SciDAC sum differs, ERR_NO_CHECKSUM when one is required. */
static int read_verdict(const h5r *r, const h5rd *c)
{
    lattio_field_read_info *info = c->info;
    lattio_field_info *fi = &info->field;
    fi->precision = lattio_real_size(c->fmt0) == 4 ? 32 : 64;
    fi->precision_code = fi->precision == 32 ? 'F' : 'D';
    fi->typesize = r->d->elements / fi->datacount * (uint64_t)(fi->precision / 8);
    if (!c->whole) info->checksum = LATTIO_CHECKSUM_PARTIAL;
    else if (r->d->skip_checksum) info->checksum = LATTIO_CHECKSUM_SKIPPED;
    else if (r->layout == LATTIO_H5_QLUA) info->checksum = c->stored_all ? LATTIO_CHECKSUM_VERIFIED : LATTIO_CHECKSUM_MISSING;
    else if (!fi->has_checksum) info->checksum = LATTIO_CHECKSUM_MISSING;
    else if (fi->stored.suma != info->computed.suma || fi->stored.sumb != info->computed.sumb) {
        lattio_detail_set("%s: SciDAC checksum %08x %08x stored, %08x %08x computed", r->object, (unsigned)fi->stored.suma,
                          (unsigned)fi->stored.sumb, (unsigned)info->computed.suma, (unsigned)info->computed.sumb);
        return LATTIO_FAIL(LATTIO_ERR_CHECKSUM, "suma/sumb");
    } else info->checksum = LATTIO_CHECKSUM_VERIFIED;
    if (info->checksum == LATTIO_CHECKSUM_MISSING && r->d->require_checksum)
        return LATTIO_FAIL(LATTIO_ERR_NO_CHECKSUM, "no stored checksum");
    return LATTIO_OK;
}

/* Collective: the dataset(s) read, each sum compared when whole. */
static int read_data(h5r *r, void *local, int whole, lattio_field_read_info *info, lattio_h5_info *h5)
{
    const int nsets = r->group ? r->l->ndims : 1;
    h5rd c = {.local = local, .whole = whole, .want = r->group ? r->d->elements / (uint64_t)nsets : r->d->elements,
              .info = info, .h5 = h5, .stored_all = 1};
    int rc = r->group && r->d->elements % (uint64_t)nsets ? LATTIO_FAIL(LATTIO_ERR_FIELD_LENGTH, "group") : LATTIO_OK;
    for (int mu = 0; mu < nsets && rc == LATTIO_OK; mu++) rc = read_direction(r, &c, mu);
    RETURN_IF_ERROR(rc);
    return read_verdict(r, &c);
}

static int h5_read(h5r *r, const char *file, void *local, lattio_field_read_info *info, lattio_h5_info *h5)
{
    RETURN_IF_ERROR(lattio_xfer_agree(r->f, lattio_field_check_memory(r->d, r->l, local)));
    uint64_t mine = lattio_layout_local_sites(r->l), total = 0;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Allreduce(&mine, &total, 1, MPI_UINT64_T, MPI_SUM, r->comm), "sites"));
    hid_t fapl = lattio_h5_fapl(r->comm, lattio_xfer_hints(r->f), 0);
    RETURN_IF_ERROR(lattio_xfer_agree(r->f, H5_CHECK(fapl, "file access properties")));
    r->fid = lattio_h5_fopen(file, H5F_ACC_RDONLY, fapl);
    H5Pclose(fapl);
    int rc = lattio_xfer_agree(r->f, r->fid < 0 ? lattio_h5_open_fail() : LATTIO_OK);
    if (rc == LATTIO_OK) rc = lattio_xfer_agree(r->f, detect(r));
    if (rc == LATTIO_OK) rc = lattio_xfer_agree(r->f, describe(r, &info->field));
    if (rc == LATTIO_OK) rc = read_data(r, local, total == lattio_layout_global_sites(r->l), info, h5);
    if (h5) h5->layout = r->layout;
    if (r->obj >= 0) H5Oclose(r->obj);
    if (r->fid >= 0) H5Fclose(r->fid);
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
    h5r r = {.object = call.object, .d = d, .l = l, .o = o, .fid = -1, .obj = -1};
    int rc = lattio_open(comm, file, LATTIO_MODE_READ, MPI_INFO_NULL, o->file, &r.f);
    if (rc == LATTIO_OK) {
        r.comm = lattio_xfer_comm(r.f);
        int rank = 0;
        MPI_Comm_rank(r.comm, &rank);
        int first = LATTIO_OK; /* HDF5 at all, then the object examined in the guard's child */
        if (rank == 0) first = lattio_h5_is_hdf5(file) ? lattio_h5_guard_target(file, r.object, l->ndims)
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
