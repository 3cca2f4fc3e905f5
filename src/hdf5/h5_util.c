/* h5_util.c -- HDF5 plumbing of src/hdf5: silence and messages, targets,
 * property lists, attributes. */
#include "h5_internal.h"
#include "fsinfo.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

void lattio_h5_quiet_begin(lattio_h5_quiet *q)
{
    q->fn = NULL;
    q->data = NULL;
    H5Eget_auto2(H5E_DEFAULT, &q->fn, &q->data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

void lattio_h5_quiet_end(const lattio_h5_quiet *q) { H5Eset_auto2(H5E_DEFAULT, q->fn, q->data); }

int lattio_h5_call_begin(lattio_h5_call *c, const char *target)
{
    lattio_detail_clear();
    RETURN_IF_ERROR(lattio_h5_split(target, &c->file, &c->object));
    lattio_h5_quiet_begin(&c->q);
    return LATTIO_OK;
}

void lattio_h5_call_end(lattio_h5_call *c)
{
    lattio_h5_quiet_end(&c->q);
    lattio_free(c->file);
    lattio_free(c->object);
    c->file = c->object = NULL;
}

/* The walk keeps the innermost description (the cause), the outermost
 * function (the API call) and which classes of error the stack holds: a
 * filter pipeline (H5E_PLINE), a checksum filter's mismatch, or I/O below
 * HDF5 (H5E_IO, MPI) as the innermost cause. */
typedef struct walk_state {
    char api[64], cause[160];
    int pline, checksum, mpi, io;
} walk_state;

static herr_t walk(unsigned n, const H5E_error2_t *e, void *data)
{
    walk_state *w = data;
    if (n == 0 && e->func_name) snprintf(w->api, sizeof w->api, "%s", e->func_name);
    if (e->desc && e->desc[0]) snprintf(w->cause, sizeof w->cause, "%s", e->desc);
    w->pline |= e->maj_num == H5E_PLINE;
    /* I/O below HDF5 failed when MPI did anywhere in the stack, or when
     * the innermost error (walked last) is a failed read or seek; a bad
     * address fails inside HDF5 first (H5E_ARGS, or H5E_IO/H5E_BADRANGE) */
    w->mpi |= e->min_num == H5E_MPI || e->min_num == H5E_MPIERRSTR;
    w->io = w->mpi || (e->maj_num == H5E_IO && (e->min_num == H5E_READERROR || e->min_num == H5E_SEEKERROR));
    /* HDF5's Fletcher32 filter reports its mismatch as a storage read error
     * named after itself (H5Zfletcher32.c), the one message matched */
    w->checksum |= e->maj_num == H5E_STORAGE && e->min_num == H5E_READERROR && e->desc &&
                   strstr(e->desc, "Fletcher32") != NULL;
    return 0;
}

static int h5_fail_walked(int status, const char *what, walk_state *w)
{
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, walk, w);
    if (w->cause[0]) lattio_detail_set("%s: %s (%s)", what, w->cause, w->api);
    else lattio_detail_set("%s", what);
    H5Eclear2(H5E_DEFAULT);
    return LATTIO_FAIL(status, what);
}

int lattio_h5_fail(int status, const char *what)
{
    walk_state w = {{0}, {0}, 0, 0, 0, 0};
    return h5_fail_walked(status, what, &w);
}

int lattio_h5_io_failed(const char *path, const char *what)
{
    walk_state w = {{0}, {0}, 0, 0, 0, 0};
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, walk, &w);
    H5Eclear2(H5E_DEFAULT);
    if (!w.io) return LATTIO_OK;
    lattio_detail_set("%s: %s: %s (%s)", path && path[0] ? path : "/", what, w.cause, w.api);
    return LATTIO_FAIL(LATTIO_ERR_READ, what);
}

int lattio_h5_damaged(const char *path, const char *what)
{
    RETURN_IF_ERROR(lattio_h5_io_failed(path, what)); /* not damage: a read below HDF5 failed */
    lattio_detail_set("%s: %s", path && path[0] ? path : "/", what);
    return LATTIO_FAIL(LATTIO_ERR_HDF5_DAMAGED, what);
}

/* A failed call classed by HDF5's error stack (see walk), `otherwise` when
 * no class applies. */
static int h5_fail_classed(int otherwise, const char *what)
{
    walk_state w = {{0}, {0}, 0, 0, 0, 0};
    const int rc = h5_fail_walked(otherwise, what, &w);
    if (w.checksum) return LATTIO_FAIL(LATTIO_ERR_CHECKSUM, "filter checksum");
    if (w.pline) return LATTIO_FAIL(LATTIO_ERR_HDF5_FILTER, "filter");
    if (w.io) return LATTIO_FAIL(LATTIO_ERR_READ, what);
    return rc;
}

int lattio_h5_read_fail(void) { return h5_fail_classed(LATTIO_ERR_HDF5_DAMAGED, "H5Dread"); }

int lattio_h5_open_fail(void)
{
    /* the file was readable (its signature was), so what HDF5 cannot open
     * is damage, unless a read below HDF5 failed */
    const int rc = h5_fail_classed(LATTIO_ERR_HDF5_DAMAGED, "H5Fopen");
    return strstr(lattio_detail_peek(), "truncated file") ? LATTIO_FAIL(LATTIO_ERR_TRUNCATED_PAYLOAD, "truncated")
                                                          : rc;
}

int lattio_h5_split(const char *target, char **file, char **object)
{
    *file = *object = NULL;
    RETURN_IF(!target || !*target, LATTIO_ERR_ARG);
    /* the last ':' followed by '/' separates the object path, unless the
     * whole target names an existing file (a directory "run:/..." in it) */
    const char *sep = NULL;
    struct stat st;
    if (stat(target, &st) != 0 || !S_ISREG(st.st_mode))
        for (const char *p = target; (p = strstr(p, ":/")); p++) sep = p;
    const size_t n = sep ? (size_t)(sep - target) : strlen(target);
    RETURN_IF(n == 0, LATTIO_ERR_ARG);
    *file = lattio_malloc(n + 1);
    *object = lattio_strdup(sep ? sep + 1 : "/lattice");
    if (!*file || !*object) {
        lattio_free(*file);
        lattio_free(*object);
        *file = *object = NULL;
        return LATTIO_ERR_NOMEM;
    }
    memcpy(*file, target, n);
    (*file)[n] = '\0';
    return LATTIO_OK;
}

hid_t lattio_h5_fopen(const char *path, unsigned flags, hid_t fapl)
{
    (void)lattio_fs_refresh(path, NULL);
    return H5Fopen(path, flags, fapl);
}

/* --- attributes ------------------------------------------------------------ */

/* Create (or replace) scalar attribute `name` of file type t from v in
 * memory type mt. */
static int put(hid_t obj, const char *name, hid_t t, hid_t mt, const void *v)
{
    if (H5Aexists(obj, name) > 0 && H5Adelete(obj, name) < 0) return lattio_h5_fail(LATTIO_ERR_HDF5, name);
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = sp < 0 ? -1 : H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
    int rc = H5_CHECK(a, name);
    if (rc == LATTIO_OK) rc = H5_CHECK(H5Awrite(a, mt, v), name);
    if (a >= 0) H5Aclose(a);
    if (sp >= 0) H5Sclose(sp);
    return rc;
}

int lattio_h5_put_string(hid_t obj, const char *name, const char *value)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    const size_t n = strlen(value);
    int rc = H5_CHECK(t, name);
    if (rc == LATTIO_OK)
        rc = H5_CHECK(H5Tset_size(t, n ? n : 1) < 0 || H5Tset_strpad(t, H5T_STR_NULLPAD) < 0 ||
                              H5Tset_cset(t, H5T_CSET_UTF8) < 0 ? -1 : 0, name);
    if (rc == LATTIO_OK) rc = put(obj, name, t, t, n ? value : "");
    if (t >= 0) H5Tclose(t);
    return rc;
}

int lattio_h5_put_u32(hid_t obj, const char *name, uint32_t v, int big_endian)
{
    return put(obj, name, big_endian ? H5T_STD_U32BE : H5T_STD_U32LE, H5T_NATIVE_UINT32, &v);
}

int lattio_h5_put_i64(hid_t obj, const char *name, int64_t v, int big_endian)
{
    return put(obj, name, big_endian ? H5T_STD_I64BE : H5T_STD_I64LE, H5T_NATIVE_INT64, &v);
}

int lattio_h5_put_bytes32(hid_t obj, const char *name, const unsigned char *v, int big_endian)
{
    const hsize_t n = 32;
    hid_t t = H5Tarray_create2(big_endian ? H5T_STD_U8BE : H5T_STD_U8LE, 1, &n);
    hid_t mt = H5Tarray_create2(H5T_NATIVE_UCHAR, 1, &n);
    int rc = H5_CHECK(t < 0 || mt < 0 ? -1 : 0, name);
    if (rc == LATTIO_OK) rc = put(obj, name, t, mt, v);
    if (mt >= 0) H5Tclose(mt);
    if (t >= 0) H5Tclose(t);
    return rc;
}

int lattio_h5_has_attr(hid_t obj, const char *name)
{
    const htri_t has = H5Aexists(obj, name);
    return has < 0 ? lattio_h5_damaged(name, "attribute cannot be looked up") : has > 0;
}

/* Open attribute `name` holding exactly one element (ERR_NOT_FOUND when
 * absent, ERR_HDF5_ATTRIBUTE when not scalar). */
static int open_scalar(hid_t obj, const char *name, hid_t *a)
{
    *a = -1;
    const int has = lattio_h5_has_attr(obj, name);
    RETURN_IF_ERROR(has);
    if (!has) return LATTIO_ERR_NOT_FOUND;
    *a = H5Aopen(obj, name, H5P_DEFAULT);
    RETURN_IF_ERROR(H5_CHECK(*a, name));
    hid_t sp = H5Aget_space(*a);
    const hssize_t n = sp < 0 ? -1 : H5Sget_simple_extent_npoints(sp);
    if (sp >= 0) H5Sclose(sp);
    if (n == 1) return LATTIO_OK;
    H5Aclose(*a);
    *a = -1;
    lattio_detail_set("attribute %s has %lld elements, not 1", name, (long long)n);
    return LATTIO_FAIL(LATTIO_ERR_HDF5_ATTRIBUTE, name);
}

int lattio_h5_get_string(hid_t obj, const char *name, char **value)
{
    *value = NULL;
    hid_t a;
    RETURN_IF_ERROR(open_scalar(obj, name, &a));
    hid_t t = H5Aget_type(a);
    int rc = t >= 0 && H5Tget_class(t) == H5T_STRING ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_HDF5_ATTRIBUTE, name);
    if (rc == LATTIO_OK && H5Tis_variable_str(t) > 0) {
        char *s = NULL;
        hid_t mt = H5Tcopy(H5T_C_S1);
        H5Tset_size(mt, H5T_VARIABLE);
        rc = H5_CHECK(H5Aread(a, mt, &s), name);
        if (rc == LATTIO_OK) *value = lattio_strdup(s ? s : "");
        if (s) H5free_memory(s);
        H5Tclose(mt);
    } else if (rc == LATTIO_OK) {
        const size_t n = H5Tget_size(t);
        if (n == 0 || n > LATTIO_FIELD_XML_MAX) rc = LATTIO_FAIL(LATTIO_ERR_HDF5_ATTRIBUTE, name);
        char *s = rc == LATTIO_OK ? lattio_calloc(1, n + 1) : NULL;
        if (rc == LATTIO_OK && !s) rc = LATTIO_ERR_NOMEM;
        if (rc == LATTIO_OK) rc = H5_CHECK(H5Aread(a, t, s), name);
        if (rc == LATTIO_OK) *value = s;
        else lattio_free(s);
    }
    if (rc == LATTIO_OK && !*value) rc = LATTIO_ERR_NOMEM;
    if (t >= 0) H5Tclose(t);
    H5Aclose(a);
    return rc;
}

static int get_int(hid_t obj, const char *name, hid_t mem, void *v)
{
    hid_t a;
    RETURN_IF_ERROR(open_scalar(obj, name, &a));
    hid_t t = H5Aget_type(a);
    int rc = t >= 0 && H5Tget_class(t) == H5T_INTEGER ? H5_CHECK(H5Aread(a, mem, v), name)
                                                        : LATTIO_FAIL(LATTIO_ERR_HDF5_ATTRIBUTE, name);
    if (t >= 0) H5Tclose(t);
    H5Aclose(a);
    return rc;
}

/* A checksum word: any integer type whose value is 0 .. 2^32-1 (HDF5 would
 * clamp a negative or larger one into range, and a damaged suma would then
 * look like a checksum mismatch). */
int lattio_h5_get_u32(hid_t obj, const char *name, uint32_t *v)
{
    hid_t a;
    RETURN_IF_ERROR(open_scalar(obj, name, &a));
    hid_t t = H5Aget_type(a);
    const int is_int = t >= 0 && H5Tget_class(t) == H5T_INTEGER, is_signed = is_int && H5Tget_sign(t) == H5T_SGN_2;
    int64_t s = 0;
    uint64_t u = 0;
    int rc = !is_int ? LATTIO_FAIL(LATTIO_ERR_HDF5_ATTRIBUTE, name)
             : is_signed ? H5_CHECK(H5Aread(a, H5T_NATIVE_INT64, &s), name)
                         : H5_CHECK(H5Aread(a, H5T_NATIVE_UINT64, &u), name);
    if (rc == LATTIO_OK && is_signed) u = s < 0 ? UINT64_MAX : (uint64_t)s;
    if (rc == LATTIO_OK && u > UINT32_MAX) {
        if (is_signed && s < 0) lattio_detail_set("attribute %s is %lld, not a 32-bit checksum word", name, (long long)s);
        else lattio_detail_set("attribute %s is %llu, not a 32-bit checksum word", name, (unsigned long long)u);
        rc = LATTIO_FAIL(LATTIO_ERR_HDF5_ATTRIBUTE, name);
    }
    if (rc == LATTIO_OK) *v = (uint32_t)u;
    if (t >= 0) H5Tclose(t);
    H5Aclose(a);
    return rc;
}

int lattio_h5_get_i64(hid_t obj, const char *name, int64_t *v) { return get_int(obj, name, H5T_NATIVE_INT64, v); }

int lattio_h5_get_bytes32(hid_t obj, const char *name, unsigned char *v)
{
    hid_t a;
    RETURN_IF_ERROR(open_scalar(obj, name, &a));
    hid_t t = H5Aget_type(a);
    int rc = LATTIO_OK;
    /* an ARRAY[32] of bytes (Qlua) */
    if (t < 0 || H5Tget_class(t) != H5T_ARRAY || H5Tget_size(t) != 32) {
        lattio_detail_set("attribute %s is not 32 bytes", name);
        rc = LATTIO_FAIL(LATTIO_ERR_HDF5_ATTRIBUTE, name);
    }
    if (rc == LATTIO_OK) {
        const hsize_t n = 32;
        hid_t mt = H5Tarray_create2(H5T_NATIVE_UCHAR, 1, &n);
        rc = H5_CHECK(mt < 0 ? -1 : H5Aread(a, mt, v), name);
        if (mt >= 0) H5Tclose(mt);
    }
    if (t >= 0) H5Tclose(t);
    H5Aclose(a);
    return rc;
}
