/* h5_object.c -- one field object of an HDF5 file as a reader meets it,
 * MPI-free: found and judged as the listing judges it, its layout, its
 * metadata from the attributes, a dataset's shape and type against the
 * caller's layout, and the read's checksum verdict.  The serial read
 * (h5_serial.c) and the collective one (mpi/h5_read.c) share these, so
 * both say the same of the same file. */
#include "h5_internal.h"

#include <stdio.h>
#include <string.h>

int lattio_h5_object_shape(const lattio_h5_object *r, hid_t ds, uint64_t want, int *fmt, uint64_t *reals)
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

int lattio_h5_object_detect(lattio_h5_object *r)
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
    if (r->want_layout != LATTIO_H5_AUTO && r->want_layout != r->layout) {
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

/* The stored SciDAC sums of a dataset object into fi. */
static int stored_sums(const lattio_h5_object *r, lattio_field_info *fi)
{
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

int lattio_h5_object_describe(lattio_h5_object *r, lattio_field_info *fi)
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
    return r->group ? LATTIO_OK : stored_sums(r, fi);
}

int lattio_h5_qlua_compare(hid_t ds, const char *name, const lattio_qlua_sum *got, int *have)
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

int lattio_h5_object_verdict(const lattio_h5_object *r, int fmt, int whole, int stored_all,
                             lattio_field_read_info *info)
{
    lattio_field_info *fi = &info->field;
    fi->precision = lattio_real_size(fmt) == 4 ? 32 : 64;
    fi->precision_code = fi->precision == 32 ? 'F' : 'D';
    fi->typesize = r->d->elements / fi->datacount * (uint64_t)(fi->precision / 8);
    if (!whole) info->checksum = LATTIO_CHECKSUM_PARTIAL;
    else if (r->d->skip_checksum) info->checksum = LATTIO_CHECKSUM_SKIPPED;
    else if (r->layout == LATTIO_H5_QLUA) info->checksum = stored_all ? LATTIO_CHECKSUM_VERIFIED : LATTIO_CHECKSUM_MISSING;
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

hid_t lattio_h5_object_set(const lattio_h5_object *r, int mu)
{
    if (!r->group) return r->obj;
    char name[12];
    snprintf(name, sizeof name, "%d", mu);
    return H5Dopen2(r->obj, name, H5P_DEFAULT);
}

void lattio_h5_object_close_set(const lattio_h5_object *r, hid_t ds)
{
    if (r->group && ds >= 0) H5Dclose(ds);
}
