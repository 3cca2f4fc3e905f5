/* h5_examine.c -- what an HDF5 object is, judged without trusting the file
 * (lattio_h5_examine), and the walks that list a file's lattice fields or
 * find one (lattio_h5_list_fields, lattio_h5_find_field, run by the serial
 * and the collective listings alike): datasets of reals or complex
 * compounds with a lattice's dimensions, and Qlua gauge groups (datasets
 * "0".."3"), in name order.  An object that cannot be read, a field whose
 * storage or filters lattio refuses, and a Qlua group with a direction or
 * a checksum missing end the listing with its status: nothing damaged is
 * skipped. */
#include "h5_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>

#define MAX_ATTRS 4096 /* attributes of one field's dataset */

/* Every attribute of obj can be opened (a damaged attribute message makes
 * a Qlua dataset look like a QDP++ one when skipped). */
static int attributes_readable(hid_t obj, const char *path)
{
    H5O_info_t oi;
    if (H5Oget_info2(obj, &oi, H5O_INFO_NUM_ATTRS) < 0) return lattio_h5_damaged(path, "attributes cannot be counted");
    if (oi.num_attrs > MAX_ATTRS) {
        lattio_detail_set("%s: %llu attributes, more than %d", path, (unsigned long long)oi.num_attrs, MAX_ATTRS);
        return LATTIO_FAIL(LATTIO_ERR_HDF5_LIMIT, "attributes");
    }
    for (hsize_t i = 0; i < oi.num_attrs; i++) {
        hid_t a = H5Aopen_by_idx(obj, ".", H5_INDEX_CRT_ORDER, H5_ITER_NATIVE, i, H5P_DEFAULT, H5P_DEFAULT);
        if (a < 0) a = H5Aopen_by_idx(obj, ".", H5_INDEX_NAME, H5_ITER_NATIVE, i, H5P_DEFAULT, H5P_DEFAULT);
        if (a < 0) return lattio_h5_damaged(path, "an attribute cannot be read");
        hid_t t = H5Aget_type(a), s = H5Aget_space(a);
        const int ok = t >= 0 && s >= 0;
        if (t >= 0) H5Tclose(t);
        if (s >= 0) H5Sclose(s);
        H5Aclose(a);
        if (!ok) return lattio_h5_damaged(path, "an attribute's type or shape cannot be read");
    }
    H5Eclear2(H5E_DEFAULT);
    return LATTIO_OK;
}

/* Whether type t is made of floats only (a float, an r,i compound of
 * floats, arrays of these): a candidate field type, which must then be
 * one lattio reads; anything else (integers, strings, records) is not a
 * field.  < 0: the type cannot be read. */
static int float_based(hid_t t, int depth)
{
    switch (H5Tget_class(t)) {
    case H5T_FLOAT:
        return 1;
    case H5T_COMPOUND: {
        const int n = H5Tget_nmembers(t);
        if (n < 0) return -1;
        int all = n == 2;
        for (int i = 0; i < n && all > 0; i++) {
            hid_t m = H5Tget_member_type(t, (unsigned)i);
            all = m < 0 ? -1 : H5Tget_class(m) == H5T_FLOAT;
            if (m >= 0) H5Tclose(m);
        }
        return all;
    }
    case H5T_ARRAY: {
        if (depth >= 4) return 0;
        hid_t b = H5Tget_super(t);
        const int r = b < 0 ? -1 : float_based(b, depth + 1);
        if (b >= 0) H5Tclose(b);
        return r;
    }
    case H5T_NO_CLASS:
        return -1;
    default:
        return 0;
    }
}

/* --- storage ------------------------------------------------------------------ */

/* The dataset's bytes exist, inside the file, in storage lattio reads:
 * no external raw files (a FIFO or device among them would block), no
 * virtual dataset, every filter available, every chunk written, and its
 * dimensions times its type size no more than what is stored (a damaged
 * dataspace would otherwise ask for terabytes). */
static int storage_refused(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int storage_refused(const char *path, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    lattio_detail_set("%s: %s", path, what);
    H5Eclear2(H5E_DEFAULT);
    return LATTIO_FAIL(LATTIO_ERR_HDF5_STORAGE, "storage");
}

static int filters_available(hid_t dcpl, const char *path)
{
    const int n = H5Pget_nfilters(dcpl);
    if (n < 0) return lattio_h5_damaged(path, "filter pipeline cannot be read");
    for (int i = 0; i < n; i++) {
        unsigned flags = 0, config = 0;
        size_t nvalues = 0;
        char name[64] = "";
        const H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags, &nvalues, NULL, sizeof name, name, &config);
        if (id < 0) return lattio_h5_damaged(path, "filter pipeline cannot be read");
        if (H5Zfilter_avail(id) <= 0 || !(config & H5Z_FILTER_CONFIG_DECODE_ENABLED)) {
            char clean[64];
            size_t k = 0;
            for (const char *c = name; *c && k + 1 < sizeof clean; c++) clean[k++] = *c >= 32 && *c < 127 ? *c : '?';
            clean[k] = '\0';
            lattio_detail_set("%s: filter %d%s%s%s is not available to this HDF5 library", path, (int)id,
                              k ? " (" : "", clean, k ? ")" : "");
            H5Eclear2(H5E_DEFAULT);
            return LATTIO_FAIL(LATTIO_ERR_HDF5_FILTER, "filter unavailable");
        }
    }
    return LATTIO_OK;
}

/* Chunked: every chunk written and inside the file. */
static int chunks_whole(hid_t ds, hid_t dcpl, const char *path, const hsize_t *dims, int rank, hsize_t eof)
{
    hsize_t cdims[H5S_MAX_RANK], want = 1, have = 0;
    if (H5Pget_chunk(dcpl, rank, cdims) != rank) return lattio_h5_damaged(path, "chunk shape cannot be read");
    for (int i = 0; i < rank; i++) {
        if (cdims[i] == 0) return lattio_h5_damaged(path, "a chunk dimension is 0");
        const hsize_t k = (dims[i] + cdims[i] - 1) / cdims[i];
        if (want > (hsize_t)LATTIO_H5_MAX_CHUNKS / k)
            return storage_refused(path, "more than %llu chunks", LATTIO_H5_MAX_CHUNKS);
        want *= k;
    }
    hid_t space = H5Dget_space(ds);
    int rc = space >= 0 && H5Dget_num_chunks(ds, space, &have) >= 0 ? LATTIO_OK
                                                                  : lattio_h5_damaged(path, "chunk index cannot be read");
    if (rc == LATTIO_OK && have != want)
        rc = storage_refused(path, "%llu of its %llu chunks written", (unsigned long long)have, (unsigned long long)want);
    for (hsize_t i = 0; i < have && rc == LATTIO_OK; i++) {
        hsize_t off[H5S_MAX_RANK];
        unsigned mask = 0;
        haddr_t addr = HADDR_UNDEF;
        hsize_t size = 0;
        if (H5Dget_chunk_info(ds, space, i, off, &mask, &addr, &size) < 0)
            rc = lattio_h5_damaged(path, "chunk index cannot be read");
        else if (addr == HADDR_UNDEF || size == 0 || addr > eof || size > eof - addr)
            rc = storage_refused(path, "chunk %llu lies outside the file (at byte %llu)", (unsigned long long)i,
                                 (unsigned long long)addr);
    }
    if (space >= 0) H5Sclose(space);
    return rc;
}

/* Local: the bytes a dataset of `rank` dimensions `dims` of elements of
 * type_size bytes needs (refused beyond 2^64). */
static int data_bytes(const char *path, size_t type_size, const hsize_t *dims, int rank, uint64_t *bytes)
{
    *bytes = type_size;
    for (int i = 0; i < rank; i++) {
        if (dims[i] && *bytes > UINT64_MAX / dims[i]) return storage_refused(path, "dimensions beyond 2^64 bytes");
        *bytes *= dims[i];
    }
    return LATTIO_OK;
}

/* Local: where the file's data may lie: its size, or HDF5's end of
 * allocation when that is smaller (HDF5 reads nothing beyond it). */
static int data_end(hid_t fid, const char *path, hsize_t *eof)
{
    haddr_t eoa = HADDR_UNDEF;
    if (H5Fget_filesize(fid, eof) < 0) return lattio_h5_damaged(path, "file size unknown");
    if (H5Fget_eoa(fid, &eoa) >= 0 && eoa < *eof) *eof = eoa;
    H5Eclear2(H5E_DEFAULT);
    return LATTIO_OK;
}

/* Local: the dataset's storage layout, one lattio reads: contiguous,
 * chunked or compact, inside the file, with filters it has. */
static int layout_readable(hid_t dcpl, const char *path, H5D_layout_t *layout)
{
    *layout = H5Pget_layout(dcpl);
    const int external = H5Pget_external_count(dcpl);
    if (*layout == H5D_LAYOUT_ERROR || external < 0) return lattio_h5_damaged(path, "storage layout cannot be read");
    if (external > 0)
        return storage_refused(path, "raw data in %d external file(s); lattio reads data inside the file only",
                               external);
    if (*layout != H5D_CONTIGUOUS && *layout != H5D_CHUNKED && *layout != H5D_COMPACT)
        return storage_refused(path, "a virtual dataset (layout %d); lattio reads data inside the file only",
                               (int)*layout);
    return filters_available(dcpl, path);
}

/* Local: a contiguous or compact dataset stores exactly its `bytes`, a
 * contiguous one all inside the file's first eof bytes. */
static int whole_in_file(hid_t ds, const char *path, H5D_layout_t layout, uint64_t bytes, hsize_t eof)
{
    H5D_space_status_t st = H5D_SPACE_STATUS_ERROR;
    if (H5Dget_space_status(ds, &st) < 0) return lattio_h5_damaged(path, "storage cannot be read");
    /* (a compressed chunked dataset is "partly allocated": its chunks are counted instead) */
    if (st != H5D_SPACE_STATUS_ALLOCATED && layout == H5D_CONTIGUOUS)
        return storage_refused(path, "never written in full (no storage for %llu bytes)", (unsigned long long)bytes);
    if (layout == H5D_CHUNKED) return LATTIO_OK;
    const hsize_t stored = H5Dget_storage_size(ds);
    const haddr_t at = layout == H5D_CONTIGUOUS ? H5Dget_offset(ds) : 0;
    if (stored != bytes)
        return storage_refused(path, "stores %llu bytes, its dimensions need %llu", (unsigned long long)stored,
                               (unsigned long long)bytes);
    if (layout == H5D_CONTIGUOUS && (at == HADDR_UNDEF || at > eof || bytes > eof - at))
        return storage_refused(path, "its %llu bytes at byte %llu lie beyond the end of the file",
                               (unsigned long long)bytes, (unsigned long long)at);
    return LATTIO_OK;
}

static int check_storage(hid_t fid, hid_t ds, const char *path, size_t type_size, const hsize_t *dims, int rank)
{
    hsize_t eof = 0;
    uint64_t bytes = 0;
    RETURN_IF_ERROR(data_end(fid, path, &eof));
    RETURN_IF_ERROR(data_bytes(path, type_size, dims, rank, &bytes));
    hid_t dcpl = H5Dget_create_plist(ds);
    if (dcpl < 0) return lattio_h5_damaged(path, "creation properties cannot be read");
    H5D_layout_t layout = H5D_LAYOUT_ERROR;
    int rc = layout_readable(dcpl, path, &layout);
    if (rc == LATTIO_OK) rc = whole_in_file(ds, path, layout, bytes, eof);
    if (rc == LATTIO_OK && layout == H5D_CHUNKED) rc = chunks_whole(ds, dcpl, path, dims, rank, eof);
    H5Pclose(dcpl);
    H5Eclear2(H5E_DEFAULT);
    return rc;
}

/* An object that carries a lattice field's marks (checksums, Qlua's kind,
 * SciDAC's datatype) declares itself a field: when it is not one (a type
 * damaged into integers or references, a gauge group emptied), that is
 * damage to report, not an object to pass over. */
enum { MARK_SUMA = 1, MARK_SUMB = 2, MARK_SHA256 = 4, MARK_KIND = 8, MARK_DATATYPE = 16 };
static const char *const field_marks[] = {"suma", "sumb", ".sha256", ".kind", "scidac_datatype"};

/* The marks obj carries into *bits; an attribute that cannot be looked up
 * is a failure (an I/O error must never read as "no checksum"). */
static int marks_of(hid_t obj, const char *path, unsigned *bits)
{
    *bits = 0;
    for (unsigned i = 0; i < sizeof field_marks / sizeof *field_marks; i++) {
        const int has = lattio_h5_has_attr(obj, field_marks[i]); /* < 0: already classed, read or damage */
        RETURN_IF_ERROR(has);
        if (has) *bits |= 1u << i;
    }
    return LATTIO_OK;
}

static int marked_yet_not_field(hid_t obj, const char *path, const char *why)
{
    unsigned bits = 0;
    RETURN_IF_ERROR(marks_of(obj, path, &bits));
    for (unsigned i = 0; i < sizeof field_marks / sizeof *field_marks; i++)
        if (bits & 1u << i) {
            lattio_detail_set("%s carries a lattice field's attribute %s, but %s", path, field_marks[i], why);
            return LATTIO_FAIL(LATTIO_ERR_HDF5_LAYOUT, "marked, not a field");
        }
    return LATTIO_H5_NOT_FIELD;
}

/* What examine_dataset learns of a dataset. */
typedef struct dsview {
    hid_t sp, t;
    hsize_t dims[H5S_MAX_RANK];
    int rank;
    uint64_t reals; /* per element of the type */
    int fmt;
} dsview;

/* Local: the dataset's shape and type can be read, its elements are
 * floats (else a field's marks on it are damage) and it has at least nd
 * non-empty dimensions (else LATTIO_H5_NOT_FIELD). */
static int shaped_like_field(hid_t ds, const char *path, int nd, dsview *v)
{
    v->sp = H5Dget_space(ds);
    v->t = H5Dget_type(ds);
    v->rank = v->sp < 0 ? -1 : H5Sget_simple_extent_dims(v->sp, v->dims, NULL);
    const int fb = v->t < 0 ? -1 : float_based(v->t, 0);
    if (v->rank < 0 || fb < 0) return lattio_h5_damaged(path, "dataset's shape or type cannot be read");
    if (!fb) return marked_yet_not_field(ds, path, "its element type is not real or complex floats");
    if (v->rank < nd) return LATTIO_H5_NOT_FIELD;
    for (int i = 0; i < v->rank; i++)
        if (v->dims[i] == 0) return LATTIO_H5_NOT_FIELD;
    return LATTIO_OK;
}

/* Local: the element type is one lattio reads (reals and their format into v). */
static int element_type_readable(const char *path, dsview *v)
{
    if (lattio_h5_type_reals(v->t, &v->reals, &v->fmt) == LATTIO_OK) return LATTIO_OK;
    char why[300];
    snprintf(why, sizeof why, "%s", lattio_detail_peek());
    lattio_detail_set("%s: element type not one lattio reads (IEEE binary32/64 floats, r,i or re,im compounds "
                      "of them, arrays of these)%s%s", path, why[0] ? ": " : "", why);
    return LATTIO_FAIL(LATTIO_ERR_HDF5_LAYOUT, "element type");
}

/* Local: the field type the element type's structure spells (not for a
 * gauge field, nor for a dataset with trailing dimensions). */
static void entry_type(lattio_h5_entry *e, const dsview *v, int nd)
{
    const char *kind = !e->gauge && v->rank == nd ? lattio_h5_type_kind(v->t, &e->type_colors) : NULL;
    snprintf(e->type, sizeof e->type, "%s", kind ? kind : "");
    if (!kind) e->type_colors = 0;
}

/* Local: the entry of a field of nd dimensions seen as v, with marks. */
static void entry_of(lattio_h5_entry *e, const dsview *v, int nd, unsigned marks)
{
    uint64_t reals = v->reals;
    e->layout = marks & (MARK_KIND | MARK_SHA256) ? LATTIO_H5_QLUA : LATTIO_H5_QDP;
    e->nd = nd;
    for (int i = 0; i < nd; i++) /* x fastest */
        e->dims[i] = e->layout == LATTIO_H5_QLUA ? v->dims[i] : v->dims[nd - 1 - i];
    for (int i = nd; i < v->rank; i++) reals *= v->dims[i];
    e->elements = reals;
    e->precision = lattio_real_size(v->fmt) == 4 ? 32 : 64;
    e->big_endian = v->fmt == LATTIO_REAL_F32_BE || v->fmt == LATTIO_REAL_F64_BE;
    e->gauge = nd == 4 && reals == 72;
    e->colors = e->gauge ? 3 : 0;
    /* QDP++'s SU(N): [..][4] of N x N complex matrices */
    const int n = lattio_gauge_colors_of(v->reals);
    if (!e->gauge && nd == 4 && v->rank == nd + 1 && v->dims[nd] == 4 && n >= 2 && n != 3) e->gauge = 1, e->colors = n;
    e->checksum = marks & MARK_SUMA ? 1 : marks & MARK_SHA256 ? 2 : 0;
    entry_type(e, v, nd);
}

/* Local: the stored checksums can be compared: a .sha256 of 32 bytes, or
 * both SciDAC words, each 32-bit. */
static int sums_comparable(hid_t ds, const char *path, const lattio_h5_entry *e, unsigned marks)
{
    if (e->checksum == 2) {
        unsigned char sum[32];
        RETURN_IF_ERROR(lattio_h5_get_bytes32(ds, ".sha256", sum));
    }
    if (!(marks & (MARK_SUMA | MARK_SUMB))) return LATTIO_OK;
    uint32_t a = 0, b = 0;
    int rc = lattio_h5_get_u32(ds, "suma", &a);
    if (rc == LATTIO_OK) rc = lattio_h5_get_u32(ds, "sumb", &b);
    if (rc != LATTIO_ERR_NOT_FOUND) return rc;
    lattio_detail_set("%s: suma without sumb, or sumb without suma", path);
    return LATTIO_FAIL(LATTIO_ERR_HDF5_ATTRIBUTE, "suma/sumb");
}

/* Describe dataset ds at `path` as a field of nd lattice dimensions into
 * e: LATTIO_OK, LATTIO_H5_NOT_FIELD, or the status of what is wrong. */
static int examine_dataset(hid_t fid, hid_t ds, const char *path, int nd, lattio_h5_entry *e)
{
    memset(e, 0, sizeof *e);
    dsview v;
    memset(&v, 0, sizeof v);
    unsigned marks = 0;
    int rc = shaped_like_field(ds, path, nd, &v);
    if (rc == LATTIO_OK) rc = element_type_readable(path, &v);
    if (rc == LATTIO_OK && lattio_h5_guard_checks()) rc = attributes_readable(ds, path);
    if (rc == LATTIO_OK) rc = check_storage(fid, ds, path, H5Tget_size(v.t), v.dims, v.rank);
    if (rc == LATTIO_OK && snprintf(e->path, sizeof e->path, "%s", path) >= (int)sizeof e->path)
        rc = LATTIO_FAIL(LATTIO_ERR_HDF5_LIMIT, "path length");
    if (rc == LATTIO_OK) rc = marks_of(ds, path, &marks);
    if (rc == LATTIO_OK) entry_of(e, &v, nd, marks);
    if (rc == LATTIO_OK) rc = sums_comparable(ds, path, e, marks);
    H5Eclear2(H5E_DEFAULT);
    if (v.t >= 0) H5Tclose(v.t);
    if (v.sp >= 0) H5Sclose(v.sp);
    return rc;
}

static int examine_path(hid_t fid, const char *path, int nd, lattio_h5_entry *e)
{
    hid_t ds = H5Dopen2(fid, path, H5P_DEFAULT);
    if (ds < 0) return lattio_h5_damaged(path, "dataset cannot be opened");
    const int rc = examine_dataset(fid, ds, path, nd, e);
    H5Dclose(ds);
    return rc;
}

/* Group `path` holds Qlua marks (.kind or .sha256) on a dataset "0".."nd-1":
 * a Qlua gauge field, which must then be whole. */
static int qlua_marked(hid_t fid, const char *path, int nd)
{
    for (int mu = 0; mu < nd; mu++) {
        char name[LATTIO_H5_PATH_MAX + 16];
        snprintf(name, sizeof name, "%s/%d", path, mu);
        const htri_t there = H5Lexists(fid, name, H5P_DEFAULT);
        if (there < 0) return lattio_h5_damaged(name, "link cannot be looked up");
        if (!there) continue;
        hid_t o = H5Oopen(fid, name, H5P_DEFAULT);
        if (o < 0) return lattio_h5_damaged(name, "object cannot be opened");
        unsigned marks = 0;
        const int rc = H5Iget_type(o) == H5I_DATASET ? marks_of(o, name, &marks) : LATTIO_OK;
        H5Oclose(o);
        H5Eclear2(H5E_DEFAULT);
        RETURN_IF_ERROR(rc);
        if (marks & (MARK_KIND | MARK_SHA256)) return 1;
    }
    return 0;
}

static int qlua_missing(const char *path, int mu, const char *what)
{
    lattio_detail_set("Qlua gauge group %s: direction %d %s", path, mu, what);
    return LATTIO_FAIL(LATTIO_ERR_HDF5_LAYOUT, "Qlua group");
}

/* A group without Qlua directions is no field, unless it carries a field's
 * marks (lattio writes a Qlua field's metadata on its group). */
static int group_not_field(hid_t fid, const char *path)
{
    hid_t g = H5Oopen(fid, path, H5P_DEFAULT);
    if (g < 0) return lattio_h5_damaged(path, "group cannot be opened");
    const int rc = marked_yet_not_field(g, path, "it holds no Qlua directions 0..3");
    H5Oclose(g);
    return rc;
}

/* N of an N x N complex matrix of `reals` reals, N >= 2; else 0. */
static int matrix_colors(uint64_t reals)
{
    const int n = lattio_gauge_colors_of(reals);
    return n >= 2 ? n : 0;
}

/* A Qlua gauge group, all or nothing: every direction "0".."nd-1" a Qlua
 * dataset of colour matrices, of one type and one shape, and either every
 * one or none with a .sha256. */
static int examine_group(hid_t fid, const char *path, int nd, lattio_h5_entry *e)
{
    const int marked = qlua_marked(fid, path, nd);
    RETURN_IF_ERROR(marked);
    if (!marked) return group_not_field(fid, path);
    lattio_h5_entry d[LATTIO_MAX_DIMS];
    for (int mu = 0; mu < nd; mu++) {
        char name[LATTIO_H5_PATH_MAX + 16];
        snprintf(name, sizeof name, "%s/%d", path, mu);
        if (strlen(name) >= LATTIO_H5_PATH_MAX) return LATTIO_FAIL(LATTIO_ERR_HDF5_LIMIT, "path length");
        const htri_t there = H5Lexists(fid, name, H5P_DEFAULT);
        if (there < 0) return lattio_h5_damaged(name, "link cannot be looked up");
        if (!there) return qlua_missing(path, mu, "is missing");
        const int rc = examine_path(fid, name, nd, &d[mu]);
        if (rc == LATTIO_H5_NOT_FIELD || (rc == LATTIO_OK && d[mu].layout != LATTIO_H5_QLUA))
            return qlua_missing(path, mu, "is not a Qlua colour-matrix dataset");
        RETURN_IF_ERROR(rc);
        if (!matrix_colors(d[mu].elements)) return qlua_missing(path, mu, "does not hold N x N complex matrices");
        if (mu > 0 && (memcmp(d[mu].dims, d[0].dims, sizeof d[0].dims) != 0 || d[mu].precision != d[0].precision ||
                       d[mu].big_endian != d[0].big_endian || d[mu].elements != d[0].elements))
            return qlua_missing(path, mu, "differs from direction 0 in shape or type");
        if (mu > 0 && (d[mu].checksum == 2) != (d[0].checksum == 2)) {
            lattio_detail_set("Qlua gauge group %s: .sha256 on some directions only (0: %s, %d: %s)", path,
                              d[0].checksum == 2 ? "present" : "missing", mu, d[mu].checksum == 2 ? "present" : "missing");
            return LATTIO_FAIL(LATTIO_ERR_HDF5_ATTRIBUTE, "Qlua group checksums");
        }
    }
    *e = d[0];
    snprintf(e->path, sizeof e->path, "%s", path);
    e->elements = d[0].elements * (uint64_t)nd;
    e->gauge = nd == 4;
    e->colors = e->gauge ? matrix_colors(d[0].elements) : 0;
    return LATTIO_OK;
}

int lattio_h5_examine(hid_t fid, const char *path, int nd, lattio_h5_entry *e)
{
    H5O_info_t oi;
    if (H5Oget_info_by_name2(fid, path, &oi, H5O_INFO_BASIC, H5P_DEFAULT) < 0)
        return lattio_h5_damaged(path, "object cannot be opened");
    if (oi.type == H5O_TYPE_GROUP) return examine_group(fid, path, nd, e);
    if (oi.type == H5O_TYPE_DATASET) return examine_path(fid, path, nd, e);
    return LATTIO_H5_NOT_FIELD;
}

/* --- the listing ----------------------------------------------------------- */

static int each(hid_t fid, const char *path, H5O_type_t type, void *data)
{
    lattio_h5_listing *v = data;
    lattio_h5_entry e;
    const int rc = type == H5O_TYPE_GROUP ? examine_group(fid, path, v->nd, &e) : examine_path(fid, path, v->nd, &e);
    if (rc == LATTIO_H5_NOT_FIELD) return LATTIO_OK;
    RETURN_IF_ERROR(rc);
    if (v->count < v->max) v->out[v->count] = e;
    v->count++;
    return type == H5O_TYPE_GROUP ? LATTIO_H5_SKIP : LATTIO_OK; /* a gauge group's datasets are its own */
}

int lattio_h5_list_fields(hid_t fid, void *data) { return lattio_h5_walk(fid, each, data); }

/* In the guard's child: a chunked dataset read whole through HDF5's chunk
 * index, as the caller's read is about to (H5Dread of a damaged chunk
 * index can crash HDF5 1.10 inside its copies: hdf5.sweep, qdp_chunked
 * byte 2421 ^ 0x01); the bytes are dropped. */
static int chunks_readable(hid_t ds, const char *path)
{
    hid_t dcpl = H5Dget_create_plist(ds);
    const int chunked = dcpl >= 0 && H5Pget_layout(dcpl) == H5D_CHUNKED;
    if (dcpl >= 0) H5Pclose(dcpl);
    if (!chunked) return LATTIO_OK;
    hid_t t = H5Dget_type(ds), sp = H5Dget_space(ds);
    const hssize_t n = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
    const size_t size = t >= 0 ? H5Tget_size(t) : 0;
    void *buf = n > 0 && size > 0 && (uint64_t)n <= SIZE_MAX / size ? malloc((size_t)n * size) : NULL;
    const int rc = !buf                                                ? LATTIO_OK /* too large to check here */
                   : H5Dread(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0 ? lattio_h5_read_fail()
                                                                       : LATTIO_OK;
    free(buf);
    if (t >= 0) H5Tclose(t);
    if (sp >= 0) H5Sclose(sp);
    if (rc != LATTIO_OK && !lattio_detail_peek()[0]) lattio_detail_set("%s: its chunks cannot be read", path);
    return rc;
}

/* In the guard's child: every dataset of the field at hard path `path`
 * (a Qlua group's four, or the one) read through its chunk index. */
static int data_readable(hid_t fid, const char *path)
{
    if (!lattio_h5_guard_in_child()) return LATTIO_OK;
    hid_t obj = H5Oopen(fid, path, H5P_DEFAULT);
    if (obj < 0) return lattio_h5_damaged(path, "object cannot be opened");
    int rc = LATTIO_OK;
    if (H5Iget_type(obj) == H5I_DATASET) {
        rc = chunks_readable(obj, path);
    } else {
        for (int mu = 0; mu < LATTIO_MAX_DIMS && rc == LATTIO_OK; mu++) {
            char name[12];
            snprintf(name, sizeof name, "%d", mu);
            if (H5Lexists(obj, name, H5P_DEFAULT) <= 0) break;
            hid_t ds = H5Dopen2(obj, name, H5P_DEFAULT);
            rc = ds < 0 ? lattio_h5_damaged(path, "direction cannot be opened") : chunks_readable(ds, path);
            if (ds >= 0) H5Dclose(ds);
        }
    }
    H5Oclose(obj);
    return rc;
}

int lattio_h5_find_field(hid_t fid, void *data)
{
    lattio_h5_finding *f = data;
    char hard[LATTIO_H5_PATH_MAX];
    RETURN_IF_ERROR(lattio_h5_resolve(fid, f->object, hard, sizeof hard));
    const int rc = lattio_h5_examine(fid, hard, f->nd, f->e);
    if (rc == LATTIO_OK && f->read) return data_readable(fid, hard);
    if (rc != LATTIO_H5_NOT_FIELD) return rc;
    lattio_detail_set("%s is not a lattice field (a dataset of reals or complex numbers with %d lattice dimensions, "
                      "or a Qlua gauge group)", hard, f->nd);
    return LATTIO_FAIL(LATTIO_ERR_HDF5_LAYOUT, "not a field");
}

int lattio_h5_guard_file(const char *path, int nd)
{
    lattio_h5_listing v = {.nd = nd ? nd : 4};
    return lattio_h5_guarded(path, lattio_h5_list_fields, &v);
}

int lattio_h5_guard_target(const char *path, const char *object, int nd)
{
    lattio_h5_entry e;
    lattio_h5_finding f = {object, nd ? nd : 4, &e, 1};
    return lattio_h5_guarded(path, lattio_h5_find_field, &f);
}

int lattio_h5_first_pass(const char *path, lattio_h5_file_fn fn, void *data)
{
    if (!lattio_h5_is_hdf5(path)) return LATTIO_FAIL(LATTIO_ERR_UNKNOWN_FORMAT, "not HDF5");
    return lattio_h5_guarded(path, fn, data);
}
