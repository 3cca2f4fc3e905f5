/* site.c -- the site of a field (the axes after its lattice ones) from its
 * metadata: the field-type table's axes for its datatype, a gauge field's
 * links, or its reals per datum.  `lattio info --fields`, Python's load
 * and lattio.open all take their shapes from here. */
#include "field_internal.h"

#include <stdio.h>
#include <string.h>

static void site_axis(lattio_field_site *s, uint64_t extent, const char *name)
{
    const size_t n = strlen(s->axes);
    s->shape[s->rank++] = extent;
    snprintf(s->axes + n, sizeof s->axes - n, "%s%s", n ? " " : "", name);
}

/* A field whose datatype is not of the table: by its reals per datum (an
 * even count as complex numbers, an N x N colour matrix as one), axes s0,
 * s1, ... */
static void untyped_site(const lattio_field_info *fi, uint64_t per, lattio_field_site *s)
{
    const size_t dt = strlen(fi->datatype);
    const int real = per == 1 || (dt >= 4 && strcmp(fi->datatype + dt - 4, "Real") == 0) ||
                     (dt >= 5 && strcmp(fi->datatype + dt - 5, "_real") == 0) || per % 2;
    const uint64_t nc = fi->colors > 0 ? (uint64_t)fi->colors : 3;
    char name[16];
    uint64_t ext[3];
    int n = 0;
    if (fi->datacount > 1) ext[n++] = fi->datacount;
    s->is_complex = !real;
    if (real && per > 1) ext[n++] = per;
    else if (!real && strstr(fi->datatype, "ColorMatrix") && per / 2 == nc * nc) ext[n++] = nc, ext[n++] = nc;
    else if (!real && per / 2 > 1) ext[n++] = per / 2;
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "s%d", i);
        site_axis(s, ext[i], name);
    }
}

int lattio_field_site_of(const lattio_field_info *fi, lattio_field_site *s)
{
    RETURN_IF(!fi || !s, LATTIO_ERR_ARG);
    memset(s, 0, sizeof *s);
    if (fi->precision != 32 && fi->precision != 64) {
        lattio_detail_set("field %d holds %c data, not 32/64-bit reals", fi->index,
                          fi->precision_code ? fi->precision_code : '?');
        return LATTIO_FAIL(LATTIO_ERR_UNSUPPORTED, "not 32/64-bit reals");
    }
    const uint64_t per = fi->typesize / ((uint64_t)fi->precision / 8);
    if (lattio_field_is_gauge_kind(fi->kind)) {
        const uint64_t n = (uint64_t)lattio_field_gauge_colors(fi);
        s->type = "gauge", s->is_complex = 1;
        site_axis(s, 4, "mu"), site_axis(s, n, "row"), site_axis(s, n, "col");
        return LATTIO_OK;
    }
    const lattio_field_type *t = lattio_field_type_of(fi->datatype);
    int shape[LATTIO_TYPE_MAX_AXES], rank = 0;
    if (!t || lattio_field_type_datum(t, strchr(t->kinds, 'C') ? fi->colors : 0, strchr(t->kinds, 'S') ? fi->spins : 0,
                                      fi->precision, shape, &rank, NULL) != LATTIO_OK) {
        untyped_site(fi, per, s);
        return LATTIO_OK;
    }
    s->type = t->name, s->is_complex = t->is_complex;
    if (fi->datacount > 1) site_axis(s, fi->datacount, "datum");
    const char *name = t->axes;
    for (int i = 0; i < rank; i++) {
        char one[32];
        size_t n = strcspn(name, " ");
        snprintf(one, sizeof one, "%.*s", (int)n, name);
        site_axis(s, (uint64_t)shape[i], one);
        name += n + (name[n] == ' ');
    }
    return LATTIO_OK;
}
