/* h5_types.c -- the HDF5 types of lattice fields: QDP++'s and Qlua's
 * committed complex / colour types written, and any type of reals read. */
#include "h5_internal.h"

#include <string.h>

/* --- reading: what a dataset's type holds ------------------------------------ */

/* 32 or 64 when t's fields are those of IEEE 754 binary32 / binary64 (the
 * field positions and the exponent bias), 0 when not, -1 when unreadable. */
static int ieee_width(hid_t t, size_t size)
{
    static const struct {
        size_t size, spos, epos, esize, msize, bias;
        int bits;
    } ieee[2] = {{4, 31, 23, 8, 23, 127, 32}, {8, 63, 52, 11, 52, 1023, 64}};
    size_t spos, epos, esize, mpos, msize;
    if (H5Tget_fields(t, &spos, &epos, &esize, &mpos, &msize) < 0) return -1;
    for (int i = 0; i < 2; i++)
        if (size == ieee[i].size && spos == ieee[i].spos && epos == ieee[i].epos && esize == ieee[i].esize &&
            mpos == 0 && msize == ieee[i].msize && H5Tget_ebias(t) == ieee[i].bias)
            return ieee[i].bits;
    return 0;
}

/* An IEEE binary32 / binary64 float of either byte order: IEEE 754's field
 * positions and exponent bias, the implied leading mantissa bit, all bits
 * used.  A float HDF5 would convert (another bias, no implied bit) would be
 * read as IEEE and give other numbers, so it is refused. */
static int float_format(hid_t t, int *fmt)
{
    const size_t size = H5Tget_size(t);
    const H5T_order_t order = H5Tget_order(t);
    const int bits = ieee_width(t, size);
    if (bits < 0) return LATTIO_ERR_HDF5_LAYOUT;
    const int exact = H5Tget_norm(t) == H5T_NORM_IMPLIED && H5Tget_offset(t) == 0 && H5Tget_precision(t) == 8 * size;
    if (!bits || !exact || (order != H5T_ORDER_LE && order != H5T_ORDER_BE)) {
        lattio_detail_set("a float of %zu bytes that is not IEEE binary32/binary64 (bias %zu, %s mantissa bit)", size,
                          H5Tget_ebias(t), H5Tget_norm(t) == H5T_NORM_IMPLIED ? "implied" : "no implied");
        return LATTIO_FAIL(LATTIO_ERR_HDF5_LAYOUT, "float type");
    }
    const int be = order == H5T_ORDER_BE;
    *fmt = bits == 32 ? (be ? LATTIO_REAL_F32_BE : LATTIO_REAL_F32_LE) : (be ? LATTIO_REAL_F64_BE : LATTIO_REAL_F64_LE);
    return LATTIO_OK;
}

/* The compound's two members are named r, i (QDP++, Qlua) or re, im (Grid). */
static int complex_named(hid_t t)
{
    static const char *const names[2][2] = {{"r", "i"}, {"re", "im"}};
    char *m[2] = {H5Tget_member_name(t, 0), H5Tget_member_name(t, 1)};
    int named = 0;
    for (int k = 0; k < 2; k++)
        if (m[0] && m[1] && strcmp(m[0], names[k][0]) == 0 && strcmp(m[1], names[k][1]) == 0) named = 1;
    if (!named)
        lattio_detail_set("compound members '%s', '%s': not r, i or re, im", m[0] ? m[0] : "?", m[1] ? m[1] : "?");
    for (int i = 0; i < 2; i++)
        if (m[i]) H5free_memory(m[i]);
    return named ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_HDF5_LAYOUT, "complex member names");
}

/* Member i of compound t is an IEEE float (its format into *fmt). */
static int member_float(hid_t t, unsigned i, int *fmt)
{
    hid_t mt = H5Tget_member_type(t, i);
    int rc = mt < 0 || H5Tget_class(mt) != H5T_FLOAT ? LATTIO_FAIL(LATTIO_ERR_HDF5_LAYOUT, "complex member not a float")
                                                     : float_format(mt, fmt);
    if (mt >= 0) H5Tclose(mt);
    return rc;
}

/* A complex number: two floats of one format named r, i or re, im, packed. */
static int complex_format(hid_t t, int *fmt)
{
    if (H5Tget_nmembers(t) != 2) return LATTIO_FAIL(LATTIO_ERR_HDF5_LAYOUT, "compound of 2 members");
    int fmts[2];
    RETURN_IF_ERROR(complex_named(t));
    RETURN_IF_ERROR(member_float(t, 0, &fmts[0]));
    RETURN_IF_ERROR(member_float(t, 1, &fmts[1]));
    const size_t sz = lattio_real_size(fmts[0]);
    RETURN_IF(fmts[0] != fmts[1] || H5Tget_member_offset(t, 0) != 0 || H5Tget_member_offset(t, 1) != sz ||
                  H5Tget_size(t) != 2 * sz,
              LATTIO_FAIL(LATTIO_ERR_HDF5_LAYOUT, "complex members not two packed reals of one type"));
    *fmt = fmts[0];
    return LATTIO_OK;
}

int lattio_h5_type_reals(hid_t type, uint64_t *reals, int *fmt)
{
    switch (H5Tget_class(type)) {
    case H5T_FLOAT:
        *reals = 1;
        return float_format(type, fmt);
    case H5T_COMPOUND:
        *reals = 2;
        return complex_format(type, fmt);
    case H5T_ARRAY: {
        hsize_t d[H5S_MAX_RANK];
        const int n = H5Tget_array_ndims(type);
        RETURN_IF(n < 1 || n > H5S_MAX_RANK || H5Tget_array_dims2(type, d) < 0, LATTIO_ERR_HDF5_LAYOUT);
        hid_t base = H5Tget_super(type);
        RETURN_IF_ERROR(H5_CHECK(base, "array base type"));
        int rc = lattio_h5_type_reals(base, reals, fmt);
        H5Tclose(base);
        for (int i = 0; i < n && rc == LATTIO_OK; i++) {
            RETURN_IF(d[i] == 0 || *reals > (UINT64_C(1) << 40) / d[i], LATTIO_ERR_HDF5_LAYOUT);
            *reals *= d[i];
        }
        return rc;
    }
    default:
        lattio_detail_set("element type is neither float, complex compound nor an array of these");
        return LATTIO_FAIL(LATTIO_ERR_HDF5_LAYOUT, "element type class");
    }
}

/* The array levels of t down to its non-array base: up to two levels of
 * one or two dimensions each (levels[k][0..1], 0 where absent); -1 when
 * deeper or wider; *base_class the base's class. */
static int array_levels(hid_t t, hsize_t levels[2][2], H5T_class_t *base_class)
{
    int n = 0;
    hid_t cur = H5Tcopy(t);
    while (cur >= 0 && H5Tget_class(cur) == H5T_ARRAY) {
        const int r = H5Tget_array_ndims(cur);
        hsize_t d[H5S_MAX_RANK];
        if (n == 2 || r < 1 || r > 2 || H5Tget_array_dims2(cur, d) < 0) n = -1;
        if (n < 0) break;
        levels[n][0] = d[0], levels[n][1] = r == 2 ? d[1] : 0;
        n++;
        hid_t super = H5Tget_super(cur);
        H5Tclose(cur);
        cur = super;
    }
    *base_class = cur >= 0 ? H5Tget_class(cur) : H5T_NO_CLASS;
    if (cur >= 0) H5Tclose(cur);
    return cur < 0 ? -1 : n;
}

const char *lattio_h5_type_kind(hid_t type, int *colors)
{
    hsize_t lv[2][2] = {{0, 0}, {0, 0}};
    H5T_class_t base;
    const int n = array_levels(type, lv, &base);
    *colors = 0;
    if (n < 0 || base != H5T_COMPOUND) return NULL;
    const hsize_t c = n ? lv[n - 1][0] : 0; /* the colour level is the innermost */
    if (c > LATTIO_GAUGE_MAX_COLORS || (n && c < 2)) return NULL;
    *colors = (int)c;
    if (n == 0) return "complex";
    const int vec = lv[n - 1][1] == 0, mat = lv[n - 1][1] == c;
    if (n == 1) return vec ? "colorvector" : mat ? "colormatrix" : NULL;
    if (lv[0][0] != 4) return NULL;
    if (lv[0][1] == 0 && vec) return "fermion";
    if (lv[0][1] == 4 && mat) return "propagator";
    return NULL;
}

/* --- writing: QDP++'s and Qlua's named types ---------------------------------- */

/* The named type `name` at the root: the file's when it equals t (then t
 * is closed and the committed one returned), t committed under that name
 * when the file has none, else t itself (left transient). */
static hid_t named(hid_t file, const char *name, hid_t t)
{
    if (t < 0 || file < 0) return t;
    if (H5Lexists(file, name, H5P_DEFAULT) > 0) {
        hid_t have = H5Topen2(file, name, H5P_DEFAULT);
        if (have >= 0 && H5Tequal(have, t) > 0) {
            H5Tclose(t);
            return have;
        }
        if (have >= 0) H5Tclose(have);
        return t;
    }
    if (H5Tcommit2(file, name, t, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

static hid_t array_of(hid_t file, const char *name, hid_t base, int n, hsize_t a, hsize_t b)
{
    if (base < 0) return base;
    const hsize_t d[2] = {a, b};
    hid_t t = H5Tarray_create2(base, (unsigned)n, d);
    H5Tclose(base);
    return named(file, name, t);
}

static hid_t new_complex(hid_t real, size_t sz)
{
    hid_t c = H5Tcreate(H5T_COMPOUND, 2 * sz);
    if (c >= 0 && (H5Tinsert(c, "r", 0, real) < 0 || H5Tinsert(c, "i", sz, real) < 0)) {
        H5Tclose(c);
        return -1;
    }
    return c;
}

/* The complex type in the layout's byte order and precision, committed as
 * .Complex<P> (file >= 0).  The type returned, the base of the colour
 * types, is a transient twin: HDF5 1.10 leaks an open object at every
 * H5Dget_type of a dataset whose committed type has a committed base,
 * and a file opened for writing then fails to close. */
static hid_t complex_type(hid_t file, hid_t real, int bits)
{
    const size_t sz = (size_t)bits / 8;
    if (file >= 0) {
        hid_t committed = named(file, bits == 32 ? ".ComplexFloat" : ".ComplexDouble", new_complex(real, sz));
        if (committed < 0) return -1;
        H5Tclose(committed);
    }
    return new_complex(real, sz);
}

/* .ColorMatrix<P><N> (N x N complex) or .ColorVector<P><N> (N complex), as
 * QDP++ and Qlua name them. */
static hid_t colour_type_n(hid_t file, hid_t real, int bits, int matrix, int n)
{
    char name[64];
    snprintf(name, sizeof name, matrix ? ".ColorMatrix%s%d" : ".ColorVector%s%d", bits == 32 ? "Float" : "Double", n);
    return array_of(file, name, complex_type(file, real, bits), matrix ? 2 : 1, (hsize_t)n, matrix ? (hsize_t)n : 0);
}

static hid_t colour_type(hid_t file, hid_t real, int bits, int matrix)
{
    return colour_type_n(file, real, bits, matrix, 3);
}

/* What = Propagator, DiracFermion or DiracPropagator: 4 (x 4) of `colour`. */
static hid_t spin_type(hid_t file, const char *what, int bits, hid_t colour, int n)
{
    char name[64];
    snprintf(name, sizeof name, ".%s%s3", what, bits == 32 ? "Float" : "Double");
    return array_of(file, name, colour, n, 4, n == 2 ? 4 : 0);
}

/* QDP++'s layout: a gauge field [..][4] of .ColorMatrix<P><N>, a
 * propagator [..] of .Propagator<P>3, other fields [..][n] of reals, one
 * real per site [..] as QDP++'s HDF5Writer writes a LatticeReal. */
static hid_t qdp_type(hid_t file, hid_t real, int gauge, uint64_t reals, int bits, int colors, lattio_h5_shape *shape)
{
    if (gauge) {
        const int n = colors > 0 ? colors : 3;
        shape->dims[shape->rank++] = reals / (2 * (uint64_t)(n * n));
        return colour_type_n(file, real, bits, 1, n);
    }
    if (reals == 288 && colors == 3) return spin_type(file, "Propagator", bits, colour_type(file, real, bits, 1), 2);
    if (reals > 1) shape->dims[shape->rank++] = reals;
    return H5Tcopy(real);
}

hid_t lattio_h5_make_type(hid_t file, int layout, int gauge, uint64_t reals, int bits, int colors,
                          lattio_h5_shape *shape, int nd)
{
    const int be = layout == LATTIO_H5_QLUA;
    shape->rank = nd;
    shape->fmt = bits == 32 ? (be ? LATTIO_REAL_F32_BE : LATTIO_REAL_F32_LE) : (be ? LATTIO_REAL_F64_BE : LATTIO_REAL_F64_LE);
    shape->reals = reals;
    shape->kind = NULL;
    const hid_t real = bits == 32 ? (be ? H5T_IEEE_F32BE : H5T_IEEE_F32LE) : (be ? H5T_IEEE_F64BE : H5T_IEEE_F64LE);
    if (layout == LATTIO_H5_QDP) return qdp_type(file, real, gauge, reals, bits, colors, shape);
    /* Qlua: one object per site, of the kind its reals make (an SU(N)
     * gauge group's direction: N x N) */
    if (colors > 0 && colors != 3 && reals == 2 * (uint64_t)(colors * colors)) {
        shape->kind = "LatticeColorMatrix";
        return colour_type_n(file, real, bits, 1, colors);
    }
    switch (reals) {
    case 1:
        shape->kind = "LatticeReal";
        return H5Tcopy(real);
    case 2:
        shape->kind = "LatticeComplex";
        return complex_type(file, real, bits);
    case 6:
        shape->kind = "LatticeColorVector";
        return colour_type(file, real, bits, 0);
    case 18:
        shape->kind = "LatticeColorMatrix";
        return colour_type(file, real, bits, 1);
    case 24:
        shape->kind = "LatticeDiracFermion";
        return spin_type(file, "DiracFermion", bits, colour_type(file, real, bits, 0), 1);
    case 288:
        shape->kind = "LatticeDiracPropagator";
        return spin_type(file, "DiracPropagator", bits, colour_type(file, real, bits, 1), 2);
    default:
        lattio_detail_set("Qlua has no lattice object of %llu reals per site (1, 2, 6, 18, 24, 288)",
                          (unsigned long long)reals);
        return -1;
    }
}
