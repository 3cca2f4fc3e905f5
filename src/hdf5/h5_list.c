/* h5_list.c -- the lattice fields an HDF5 file holds (lattio_h5_list):
 * datasets of reals or complex compounds with a lattice's dimensions, and
 * Qlua gauge groups (datasets "0".."3"), in name order. */
#include "h5_internal.h"

#include <stdio.h>
#include <string.h>

typedef struct visit {
    int nd, max, count, status;
    lattio_h5_entry *out;
    char group[256]; /* the last Qlua gauge group found: its datasets are not fields of their own */
} visit;

/* Describe dataset ds at `path` into e; 0 when it is not a lattice field. */
static int entry_of(hid_t ds, const char *path, int nd, lattio_h5_entry *e)
{
    memset(e, 0, sizeof *e);
    hid_t sp = H5Dget_space(ds), t = H5Dget_type(ds);
    hsize_t dims[H5S_MAX_RANK];
    const int rank = sp < 0 ? -1 : H5Sget_simple_extent_dims(sp, dims, NULL);
    uint64_t reals = 0;
    int fmt = 0, ok = rank >= nd && t >= 0 && lattio_h5_type_reals(t, &reals, &fmt) == LATTIO_OK;
    for (int i = 0; i < rank && ok; i++) ok = dims[i] > 0;
    if (ok) {
        ok = snprintf(e->path, sizeof e->path, "%s", path) < (int)sizeof e->path;
        e->layout = lattio_h5_has_attr(ds, ".kind") || lattio_h5_has_attr(ds, ".sha256") ? LATTIO_H5_QLUA : LATTIO_H5_QDP;
        e->nd = nd;
        for (int i = 0; i < nd; i++) /* x fastest */
            e->dims[i] = e->layout == LATTIO_H5_QLUA ? dims[i] : dims[nd - 1 - i];
        for (int i = nd; i < rank; i++) reals *= dims[i];
        e->elements = reals;
        e->precision = lattio_real_size(fmt) == 4 ? 32 : 64;
        e->big_endian = fmt == LATTIO_REAL_F32_BE || fmt == LATTIO_REAL_F64_BE;
        e->gauge = nd == 4 && reals == 72;
        e->checksum = lattio_h5_has_attr(ds, "suma") ? 1 : lattio_h5_has_attr(ds, ".sha256") ? 2 : 0;
    }
    H5Eclear2(H5E_DEFAULT);
    if (t >= 0) H5Tclose(t);
    if (sp >= 0) H5Sclose(sp);
    return ok;
}

static void add(visit *v, const lattio_h5_entry *e)
{
    if (v->count < v->max) v->out[v->count] = *e;
    v->count++;
}

/* A group of datasets "0".."nd-1" of colour matrices: a Qlua gauge field. */
static int gauge_group(hid_t fid, const char *path, int nd, lattio_h5_entry *e)
{
    lattio_h5_entry d[LATTIO_MAX_DIMS];
    for (int mu = 0; mu < nd; mu++) {
        char name[sizeof e->path + 16];
        if (snprintf(name, sizeof name, "%s/%d", path, mu) >= (int)sizeof name) return 0;
        if (H5Lexists(fid, name, H5P_DEFAULT) <= 0) return 0;
        hid_t ds = H5Dopen2(fid, name, H5P_DEFAULT);
        const int ok = ds >= 0 && entry_of(ds, name, nd, &d[mu]) && d[mu].layout == LATTIO_H5_QLUA &&
                       d[mu].elements == 18 && (mu == 0 || memcmp(d[mu].dims, d[0].dims, sizeof d[0].dims) == 0);
        if (ds >= 0) H5Dclose(ds);
        H5Eclear2(H5E_DEFAULT);
        if (!ok) return 0;
    }
    *e = d[0];
    if (snprintf(e->path, sizeof e->path, "%s", path) >= (int)sizeof e->path) return 0;
    e->elements = 18 * (uint64_t)nd;
    e->gauge = nd == 4;
    return 1;
}

static herr_t each(hid_t fid, const char *name, const H5O_info_t *info, void *data)
{
    visit *v = data;
    char path[sizeof v->group - 16];
    if (snprintf(path, sizeof path, "/%s", strcmp(name, ".") == 0 ? "" : name) >= (int)sizeof path)
        return 0; /* a path too long to report */
    lattio_h5_entry e;
    if (info->type == H5O_TYPE_GROUP && strcmp(name, ".") != 0 && gauge_group(fid, path, v->nd, &e)) {
        add(v, &e);
        snprintf(v->group, sizeof v->group, "%s/", path);
    } else if (info->type == H5O_TYPE_DATASET) {
        if (v->group[0] && strncmp(path, v->group, strlen(v->group)) == 0) return 0;
        hid_t ds = H5Dopen2(fid, path, H5P_DEFAULT);
        if (ds >= 0 && entry_of(ds, path, v->nd, &e)) add(v, &e);
        if (ds >= 0) H5Dclose(ds);
    }
    H5Eclear2(H5E_DEFAULT);
    return 0;
}

int lattio_h5_list(MPI_Comm comm, const char *path, int nd, lattio_h5_entry *out, int max, int *count)
{
    RETURN_IF(!path || !count || (max > 0 && !out) || nd < 0 || nd > LATTIO_MAX_DIMS, LATTIO_ERR_ARG);
    *count = 0;
    lattio_detail_clear();
    lattio_h5_quiet q;
    lattio_h5_quiet_begin(&q);
    visit v = {.nd = nd ? nd : 4, .max = max, .out = out};
    int rank = 0, sig = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) sig = lattio_h5_is_hdf5(path);
    int rc = lattio_xfer_mpi(MPI_Bcast(&sig, 1, MPI_INT, 0, comm), "signature");
    if (rc == LATTIO_OK && !sig) rc = LATTIO_FAIL(LATTIO_ERR_UNKNOWN_FORMAT, "not HDF5");
    hid_t fapl = rc == LATTIO_OK ? lattio_h5_fapl(comm, MPI_INFO_NULL, 0) : -1;
    hid_t fid = fapl >= 0 ? lattio_h5_fopen(path, H5F_ACC_RDONLY, fapl) : -1;
    if (rc == LATTIO_OK && fid < 0) rc = lattio_h5_open_fail();
    if (rc == LATTIO_OK) rc = H5_CHECK(H5Ovisit2(fid, H5_INDEX_NAME, H5_ITER_INC, each, &v, H5O_INFO_BASIC), "visit");
    if (fid >= 0) H5Fclose(fid);
    if (fapl >= 0) H5Pclose(fapl);
    lattio_h5_quiet_end(&q);
    *count = v.count;
    int all = rc;
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MIN, comm);
    return all;
}
