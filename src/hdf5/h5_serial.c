/* h5_serial.c -- HDF5 fields on one process, MPI-free: the listing and
 * lookup (the guard's first pass, then the same walk as the collective
 * calls on HDF5's serial driver) and the whole-field read, one outermost
 * slice of each dataset at a time in the dataset's own type, through the
 * field stage (conversion, SciDAC or Qlua sums) and the same verdict as
 * the collective read (h5_object.c). */
#include "h5_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int lattio_h5_serial_available(void) { return 1; }

/* The first pass, then `path` opened read-only and fn(fid, data). */
static int with_file(const char *path, lattio_h5_file_fn fn, void *data)
{
    lattio_detail_clear();
    lattio_h5_quiet q;
    lattio_h5_quiet_begin(&q);
    int rc = lattio_h5_first_pass(path, fn, data);
    hid_t fid = rc == LATTIO_OK ? lattio_h5_fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
    if (rc == LATTIO_OK && fid < 0) rc = lattio_h5_open_fail();
    if (rc == LATTIO_OK) rc = fn(fid, data);
    if (fid >= 0 && H5Fclose(fid) < 0 && rc == LATTIO_OK) rc = lattio_h5_fail(LATTIO_ERR_HDF5, "close");
    H5Eclear2(H5E_DEFAULT);
    lattio_h5_quiet_end(&q);
    return rc;
}

int lattio_h5_list_serial(const char *path, int nd, lattio_h5_entry *out, int max, int *count)
{
    RETURN_IF(!path || !count || (max > 0 && !out) || nd < 0 || nd > LATTIO_MAX_DIMS, LATTIO_ERR_ARG);
    *count = 0;
    lattio_h5_listing v = {.nd = nd ? nd : 4, .max = max, .out = out};
    const int rc = with_file(path, lattio_h5_list_fields, &v);
    *count = v.count;
    return rc;
}

int lattio_h5_find_serial(const char *target, int nd, lattio_h5_entry *e)
{
    RETURN_IF(!target || !e || nd < 0 || nd > LATTIO_MAX_DIMS, LATTIO_ERR_ARG);
    memset(e, 0, sizeof *e);
    char *file = NULL, *object = NULL;
    RETURN_IF_ERROR(lattio_h5_split(target, &file, &object));
    lattio_h5_finding f = {object, nd ? nd : 4, e, 0};
    const int rc = with_file(file, lattio_h5_find_field, &f);
    lattio_free(file);
    lattio_free(object);
    return rc;
}

/* Every field of FILE (counted, then listed) into *list (malloc'd). */
static int list_all(const char *file, int nd, lattio_h5_entry **list, int *count)
{
    int rc = lattio_h5_list_serial(file, nd, NULL, 0, count);
    if (rc != LATTIO_OK || *count == 0) return rc;
    *list = malloc((size_t)*count * sizeof **list);
    RETURN_IF(!*list, LATTIO_ERR_NOMEM);
    int all = 0;
    rc = lattio_h5_list_serial(file, nd, *list, *count, &all);
    if (rc == LATTIO_OK && all != *count) rc = LATTIO_FAIL(LATTIO_ERR_HDF5, "the file changed while it was listed");
    return rc;
}

int lattio_h5_fields_serial(const char *target, int nd, char *file, size_t file_size, lattio_h5_entry **list,
                            int *count)
{
    RETURN_IF(!target || !list || !count || !file || !file_size, LATTIO_ERR_ARG);
    *list = NULL, *count = 0, file[0] = '\0';
    struct stat st;
    const int whole = stat(target, &st) == 0 && S_ISREG(st.st_mode);
    char *f = NULL, *object = NULL;
    int rc = whole ? LATTIO_OK : lattio_h5_split(target, &f, &object);
    const char *name = whole ? target : f;
    if (rc == LATTIO_OK && strlen(name) >= file_size) rc = LATTIO_FAIL(LATTIO_ERR_ARG, "file name too long");
    if (rc == LATTIO_OK) snprintf(file, file_size, "%s", name);
    if (rc == LATTIO_OK && whole) rc = list_all(target, nd, list, count);
    else if (rc == LATTIO_OK) {
        *list = malloc(sizeof **list);
        rc = *list ? lattio_h5_find_serial(target, nd, *list) : LATTIO_ERR_NOMEM;
        *count = rc == LATTIO_OK;
    }
    lattio_free(f);
    lattio_free(object);
    if (rc != LATTIO_OK) {
        free(*list);
        *list = NULL, *count = 0;
    }
    return rc;
}

/* --- the whole-field read ---------------------------------------------------- */

/* One dataset's sites through the stage, one outermost slice per H5Dread
 * in the dataset's own type (HDF5 converts nothing). */
static int drain_dataset(hid_t ds, lattio_field_stage *st, uint64_t slices, uint64_t per_slice)
{
    hid_t fs = H5Dget_space(ds), t = H5Dget_type(ds);
    hsize_t dims[H5S_MAX_RANK], start[H5S_MAX_RANK] = {0};
    const int rank = fs < 0 ? -1 : H5Sget_simple_extent_dims(fs, dims, NULL);
    const size_t bytes = (size_t)(per_slice * st->disk_site);
    unsigned char *buf = rank > 0 && t >= 0 ? lattio_malloc(bytes ? bytes : 1) : NULL;
    hsize_t count[H5S_MAX_RANK];
    memcpy(count, dims, sizeof count);
    count[0] = 1;
    hid_t ms = H5Screate_simple(1, (hsize_t[]){bytes / H5Tget_size(t)}, NULL);
    int rc = !buf || ms < 0 ? LATTIO_FAIL(rank > 0 && t >= 0 ? LATTIO_ERR_NOMEM : LATTIO_ERR_HDF5, "slice") : LATTIO_OK;
    for (uint64_t k = 0; k < slices && rc == LATTIO_OK; k++) {
        start[0] = k;
        if (H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) < 0)
            rc = lattio_h5_fail(LATTIO_ERR_HDF5, "slice selection");
        else if (H5Dread(ds, t, ms, fs, H5P_DEFAULT, buf) < 0) rc = lattio_h5_read_fail();
        else rc = lattio_field_stage_drain(st, 0, k * per_slice, per_slice, buf);
    }
    if (ms >= 0) H5Sclose(ms);
    lattio_free(buf);
    if (t >= 0) H5Tclose(t);
    if (fs >= 0) H5Sclose(fs);
    return rc;
}

/* What the read of the datasets carries from one to the next. */
typedef struct sread {
    void *values;
    uint64_t want; /* reals per site of each dataset */
    int fmt0, stored_all;
    lattio_field_read_info *info;
} sread;

/* The stage of dataset mu: its reals (the window of each memory site
 * for a group's direction) and the sums the layout's writer made. */
static int stage_for(const lattio_h5_object *r, const sread *c, int mu, int fmt, int kind, lattio_field_stage *st)
{
    const int f32 = lattio_real_size(fmt) == 4;
    const int sum_fmt = r->layout == LATTIO_H5_QLUA ? (f32 ? LATTIO_REAL_F32_LE : LATTIO_REAL_F64_LE)
                                                    : (f32 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE);
    RETURN_IF_ERROR(lattio_field_stage_init(st, &r->fl, r->d->mem_format, fmt, c->want, c->values));
    if (c->want != r->d->elements) RETURN_IF_ERROR(lattio_field_stage_window(st, r->d->elements, (uint64_t)mu * c->want));
    return lattio_field_stage_checksum(st, kind, sum_fmt);
}

/* Qlua's stored sum of dataset ds (direction mu of a group) against the data's. */
static int qlua_sum(const lattio_h5_object *r, sread *c, hid_t ds, int mu, const lattio_field_stage *st)
{
    const lattio_qlua_sum q = lattio_field_stage_qlua_sum(st);
    char where[LATTIO_H5_PATH_MAX + 16];
    if (r->group) snprintf(where, sizeof where, "%s/%d", r->object, mu);
    else snprintf(where, sizeof where, "%s", r->object);
    int have = 0;
    const int rc = lattio_h5_qlua_compare(ds, where, &q, &have);
    c->stored_all = c->stored_all && have;
    return rc;
}

/* Dataset mu (of a group) or the dataset: shape, bytes, sums. */
static int read_set(lattio_h5_object *r, sread *c, int mu)
{
    hid_t ds = lattio_h5_object_set(r, mu);
    int fmt = 0;
    uint64_t reals = 0;
    int rc = ds < 0 ? lattio_h5_fail(LATTIO_ERR_HDF5_LAYOUT, "direction") : LATTIO_OK;
    if (rc == LATTIO_OK) rc = lattio_h5_object_shape(r, ds, c->want, &fmt, &reals);
    if (rc == LATTIO_OK && mu > 0 && fmt != c->fmt0) rc = LATTIO_FAIL(LATTIO_ERR_HDF5_LAYOUT, "directions differ in type");
    c->fmt0 = fmt;
    lattio_field_stage st;
    memset(&st, 0, sizeof st);
    const int kind = r->d->skip_checksum              ? LATTIO_STAGE_SUM_NONE
                     : r->layout == LATTIO_H5_QLUA ? LATTIO_STAGE_SUM_QLUA
                                                    : LATTIO_STAGE_SUM_SCIDAC;
    if (rc == LATTIO_OK) rc = stage_for(r, c, mu, fmt, kind, &st);
    const uint64_t slices = r->fl.global[r->fl.file_order[0]];
    if (rc == LATTIO_OK) rc = drain_dataset(ds, &st, slices, lattio_layout_global_sites(&r->fl) / slices);
    if (rc == LATTIO_OK && kind == LATTIO_STAGE_SUM_SCIDAC) c->info->computed = lattio_field_stage_sum(&st);
    if (rc == LATTIO_OK && kind == LATTIO_STAGE_SUM_QLUA) rc = qlua_sum(r, c, ds, mu, &st);
    lattio_field_stage_free(&st);
    lattio_h5_object_close_set(r, ds);
    return rc;
}

/* The open file's object read whole into values. */
static int read_object(lattio_h5_object *r, void *values, lattio_field_read_info *info)
{
    RETURN_IF_ERROR(lattio_h5_object_detect(r));
    RETURN_IF_ERROR(lattio_h5_object_describe(r, &info->field));
    const int nsets = r->group ? r->l->ndims : 1;
    RETURN_IF(r->group && r->d->elements % (uint64_t)nsets, LATTIO_FAIL(LATTIO_ERR_FIELD_LENGTH, "group"));
    sread c = {.values = values, .want = r->d->elements / (uint64_t)nsets, .stored_all = 1, .info = info};
    for (int mu = 0; mu < nsets; mu++) RETURN_IF_ERROR(read_set(r, &c, mu));
    return lattio_h5_object_verdict(r, c.fmt0, 1, c.stored_all, info);
}

/* The layout is one process's whole lattice. */
static int whole_lattice(const lattio_layout *l)
{
    if (lattio_layout_local_sites(l) != lattio_layout_global_sites(l)) {
        lattio_detail_set("a serial read takes the whole lattice (lo 0, count = global, no halo)");
        return LATTIO_FAIL(LATTIO_ERR_LAYOUT, "not whole");
    }
    return LATTIO_OK;
}

int lattio_h5_read_serial(const char *target, const lattio_field_desc *d, const lattio_layout *l, void *values,
                          lattio_field_read_info *info)
{
    lattio_field_read_info mine;
    if (!info) info = &mine;
    memset(info, 0, sizeof *info);
    RETURN_IF(!target || !d || !l || !values, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(whole_lattice(l));
    RETURN_IF_ERROR(lattio_field_check_memory(d, l, values));
    lattio_h5_call call;
    RETURN_IF_ERROR(lattio_h5_call_begin(&call, target));
    int rc = lattio_h5_is_hdf5(call.file) ? lattio_h5_guard_target(call.file, call.object, l->ndims)
                                          : LATTIO_FAIL(LATTIO_ERR_UNKNOWN_FORMAT, "not HDF5");
    lattio_h5_object r = {.object = call.object, .d = d, .l = l, .want_layout = LATTIO_H5_AUTO, .fid = -1, .obj = -1};
    if (rc == LATTIO_OK) r.fid = lattio_h5_fopen(call.file, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (rc == LATTIO_OK && r.fid < 0) rc = lattio_h5_open_fail();
    if (rc == LATTIO_OK) rc = read_object(&r, values, info);
    if (r.obj >= 0) H5Oclose(r.obj);
    if (r.fid >= 0) H5Fclose(r.fid);
    if (rc < 0 || info == &mine) lattio_field_info_free(&info->field);
    lattio_h5_call_end(&call);
    return rc;
}
