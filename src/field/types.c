/* types.c -- the field types the community writes (QIO's USQCD record
 * conventions, QDP++'s and Chroma's site layouts): one table from which the
 * datatype string, the datum's typesize, its shape and the names of its
 * axes follow.  docs/format.md, "Field types", prints the same table. */
#include "field_internal.h"

#include <stdio.h>
#include <string.h>

/* Axis kinds of a datum, slowest first: S a spin index (spins), C a colour
 * index (colors). */
static const lattio_field_type TYPES[] = {
    {LATTIO_TYPE_COLOR_MATRIX, "colormatrix", "ColorMatrix", "CC", 1, "row col"},
    {LATTIO_TYPE_COLOR_VECTOR, "colorvector", "ColorVector", "C", 1, "color"},
    {LATTIO_TYPE_DIRAC_FERMION, "fermion", "DiracFermion", "SC", 1, "spin color"},
    {LATTIO_TYPE_DIRAC_PROPAGATOR, "propagator", "DiracPropagator", "SSCC", 1,
     "spin_sink spin_source color_sink color_source"},
    {LATTIO_TYPE_STAGGERED_PROPAGATOR, "staggered_propagator", "ColorMatrix", "CC", 1,
     "color_sink color_source"},
    {LATTIO_TYPE_COMPLEX, "complex", "Complex", "", 1, ""},
    {LATTIO_TYPE_REAL, "real", "Real", "", 0, ""},
};
#define NTYPES (int)(sizeof TYPES / sizeof TYPES[0])

const lattio_field_type *lattio_field_type_by_name(const char *name)
{
    for (int i = 0; name && i < NTYPES; i++)
        if (strcmp(TYPES[i].name, name) == 0) return &TYPES[i];
    return NULL;
}

const lattio_field_type *lattio_field_type_at(int i)
{
    return i >= 0 && i < NTYPES ? &TYPES[i] : NULL;
}

/* "USQCD_F3_Stem", "QDP_D_Stem", ...: the prefix, precision letter and
 * optional colour count before the stem. */
static const char *stem_of(const char *datatype)
{
    const char *p = NULL;
    if (strncmp(datatype, "USQCD_", 6) == 0) p = datatype + 6;
    else if (strncmp(datatype, "QDP_", 4) == 0) p = datatype + 4;
    if (!p || (*p != 'F' && *p != 'D')) return NULL;
    p++;
    while (*p >= '0' && *p <= '9') p++;
    return *p == '_' ? p + 1 : NULL;
}

const lattio_field_type *lattio_field_type_of(const char *datatype)
{
    const char *stem = datatype ? stem_of(datatype) : NULL;
    for (int i = 0; stem && i < NTYPES; i++) /* the first of a stem: colormatrix before staggered */
        if (strcmp(TYPES[i].stem, stem) == 0) return &TYPES[i];
    return NULL;
}

int lattio_field_type_datum(const lattio_field_type *t, int colors, int spins, int precision,
                            int shape[LATTIO_TYPE_MAX_AXES], int *rank, uint64_t *typesize)
{
    RETURN_IF(!t || !rank || (precision != 32 && precision != 64), LATTIO_ERR_ARG);
    RETURN_IF(colors < 0 || colors > LATTIO_TYPE_MAX_EXTENT || spins < 0 || spins > LATTIO_TYPE_MAX_EXTENT,
              LATTIO_ERR_ARG);
    uint64_t reals = t->is_complex ? 2 : 1;
    int n = 0;
    for (const char *k = t->kinds; *k; k++, n++) {
        const int extent = *k == 'S' ? (spins ? spins : 4) : (colors ? colors : 3);
        if (shape) shape[n] = extent;
        reals *= (uint64_t)extent;
    }
    *rank = n;
    if (typesize) *typesize = reals * (uint64_t)precision / 8;
    return LATTIO_OK;
}

int lattio_field_type_datatype(const lattio_field_type *t, int colors, int precision, char *out, size_t size)
{
    RETURN_IF(!t || !out || (precision != 32 && precision != 64), LATTIO_ERR_ARG);
    const char p = precision == 32 ? 'F' : 'D';
    int n;
    if (strchr(t->kinds, 'C')) n = snprintf(out, size, "USQCD_%c%d_%s", p, colors ? colors : 3, t->stem);
    else n = snprintf(out, size, "USQCD_%c_%s", p, t->stem);
    RETURN_IF(n < 0 || (size_t)n >= size, LATTIO_ERR_OVERFLOW);
    return LATTIO_OK;
}

/* QIO's datatype names carry the precision and the colours:
 * "QDP_D3_ColorMatrix", "USQCD_F2_DiracFermion" (PREFIX_<F|D>[N]_Name).
 * What they say must agree with <precision> and <colors>. */
static int check_name(const lattio_field_info *fi, int has_colors)
{
    const char *p = strchr(fi->datatype, '_');
    if (!p || (p[1] != 'F' && p[1] != 'D')) return LATTIO_OK;
    const int bits = p[1] == 'F' ? 32 : 64;
    long n = 0;
    const char *q = p + 2;
    for (; *q >= '0' && *q <= '9' && n < 100000; q++) n = 10 * n + (*q - '0');
    if (*q != '_') return LATTIO_OK; /* not the convention */
    if (fi->precision == 32 || fi->precision == 64) {
        if (bits != fi->precision) {
            lattio_detail_set("datatype %s says %d-bit, <precision> says %d-bit", fi->datatype, bits, fi->precision);
            return LATTIO_FAIL(LATTIO_ERR_BAD_METADATA, "precision against the datatype");
        }
    }
    if (q > p + 2 && has_colors && fi->colors && n != fi->colors) {
        lattio_detail_set("datatype %s says %ld colors, <colors> says %d", fi->datatype, n, fi->colors);
        return LATTIO_FAIL(LATTIO_ERR_BAD_METADATA, "colors against the datatype");
    }
    return LATTIO_OK;
}

int lattio_field_type_check(const lattio_field_info *fi)
{
    const lattio_field_type *t = lattio_field_type_of(fi->datatype);
    if (!t) return LATTIO_OK; /* no convention to hold it to */
    RETURN_IF_ERROR(check_name(fi, strchr(t->kinds, 'C') != NULL));
    if (fi->precision != 32 && fi->precision != 64) return LATTIO_OK;
    int rank;
    uint64_t want;
    const int colors = strchr(t->kinds, 'C') ? fi->colors : 0, spins = strchr(t->kinds, 'S') ? fi->spins : 0;
    if (lattio_field_type_datum(t, colors, spins, fi->precision, NULL, &rank, &want) != LATTIO_OK)
        return LATTIO_FAIL(LATTIO_ERR_BAD_METADATA, "colors or spins out of range");
    if (want == fi->typesize) return LATTIO_OK;
    char where[96] = "the field to write";
    if (fi->index >= 0)
        snprintf(where, sizeof where, "field %d (binary record at offset %llu)", fi->index,
                 (unsigned long long)fi->binary.offset);
    lattio_detail_set("%s: datatype %s with %d colors and %d spins at %d bits has typesize %llu, not %llu",
                      where, fi->datatype, colors ? colors : 3, spins ? spins : 4, fi->precision,
                      (unsigned long long)want, (unsigned long long)fi->typesize);
    return LATTIO_FAIL(LATTIO_ERR_FIELD_TYPESIZE, "typesize against the datatype");
}
