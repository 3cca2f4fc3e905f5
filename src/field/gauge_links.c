/* gauge_links.c -- the pieces every gauge format shares: 32-bit word
 * checksums, link data in ILDG order with 2 or 3 stored rows read and
 * written in bounded chunks, the third-row reconstruction, output under a
 * temporary name.  The formats (nersc.c, milc.c, openqcd.c, gauge_lime.c)
 * build on them; the public entry points (gauge_io.c) on the formats. */
#include "gauge_internal.h"
#include "fsinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CHUNK_SITES 4096

static uint32_t rotl32(uint32_t v, unsigned n)
{
    n %= 32;
    return n ? (v << n) | (v >> (32 - n)) : v;
}

void gauge_sum_words(gauge_sum *s, const void *words, size_t n)
{
    const unsigned char *p = words;
    for (size_t i = 0; i < n; i++, s->word++) {
        uint32_t w;
        memcpy(&w, p + 4 * i, 4);
        if (s->kind == LATTIO_GSUM_NERSC) {
            s->a += w;
        } else if (s->kind == LATTIO_GSUM_MILC) {
            s->a ^= rotl32(w, (unsigned)(s->word % 29));
            s->b ^= rotl32(w, (unsigned)(s->word % 31));
        }
    }
}

int gauge_native_fmt(int fmt)
{
    return lattio_real_size(fmt) == 4 ? LATTIO_REAL_F32_NATIVE : LATTIO_REAL_F64_NATIVE;
}

int gauge_file_fmt(int precision, int little_endian)
{
    if (precision == 32) return little_endian ? LATTIO_REAL_F32_LE : LATTIO_REAL_F32_BE;
    return little_endian ? LATTIO_REAL_F64_LE : LATTIO_REAL_F64_BE;
}

int gauge_volume(const uint64_t dims[4], uint64_t bytes_per_site, uint64_t *volume,
                 uint64_t *bytes)
{
    uint64_t v = 1;
    for (int d = 0; d < 4; d++) {
        RETURN_IF(dims[d] < 1 || dims[d] > GAUGE_MAX_EXTENT, LATTIO_ERR_BAD_HEADER);
        RETURN_IF(v > UINT64_MAX / dims[d], LATTIO_ERR_OVERFLOW);
        v *= dims[d];
    }
    RETURN_IF(bytes_per_site && v > (UINT64_MAX >> 2) / bytes_per_site, LATTIO_ERR_OVERFLOW);
    RETURN_IF(v > SIZE_MAX / GAUGE_SITE_DOUBLES_MAX / sizeof(double), LATTIO_ERR_OVERFLOW);
    *volume = v;
    *bytes = v * bytes_per_site;
    return LATTIO_OK;
}

int gauge_alloc(uint64_t volume, int colors, double **u)
{
    RETURN_IF(colors < 1 || colors > LATTIO_GAUGE_MAX_COLORS, LATTIO_ERR_ARG);
    const size_t site = (size_t)GAUGE_SITE_DOUBLES_NC(colors);
    RETURN_IF(volume > SIZE_MAX / site / sizeof(double), LATTIO_ERR_OVERFLOW);
    *u = lattio_malloc((size_t)volume * site * sizeof(double));
    RETURN_IF(!*u, LATTIO_ERR_NOMEM);
    return LATTIO_OK;
}

double *lattio_gauge_alloc(uint64_t volume)
{
    return lattio_gauge_alloc_nc(volume, 3);
}

double *lattio_gauge_alloc_nc(uint64_t volume, int colors)
{
    double *u = NULL;
    return gauge_alloc(volume, colors, &u) == LATTIO_OK ? u : NULL;
}

void lattio_gauge_free(double *u)
{
    lattio_free(u);
}

void gauge_reconstruct_row(double *m)
{
    const double *a = m, *b = m + 6;
    double *c = m + 12;
    for (int k = 0; k < 3; k++) {
        const int i = (k + 1) % 3, j = (k + 2) % 3;
        /* (a x b)_k = a_i b_j - a_j b_i; c_k = conj of that */
        const double re = a[2 * i] * b[2 * j] - a[2 * i + 1] * b[2 * j + 1] -
                          (a[2 * j] * b[2 * i] - a[2 * j + 1] * b[2 * i + 1]);
        const double im = a[2 * i] * b[2 * j + 1] + a[2 * i + 1] * b[2 * j] -
                          (a[2 * j] * b[2 * i + 1] + a[2 * j + 1] * b[2 * i]);
        c[2 * k] = re;
        c[2 * k + 1] = -im;
    }
}

/* Native reals of n sites (rows per link of 2 nc reals each) into u,
 * rebuilding SU(3)'s third row when two are stored. */
static int expand_sites(const unsigned char *native, int nfmt, int rows, int nc, uint64_t n, double *u)
{
    const size_t row = 2 * (size_t)nc, per_site = (size_t)4 * rows * row;
    for (uint64_t s = 0; s < n; s++)
        for (int l = 0; l < 4; l++) {
            double *m = u + (s * 4 + (uint64_t)l) * row * (size_t)nc;
            const size_t first = (size_t)s * per_site + (size_t)l * rows * row;
            RETURN_IF_ERROR(lattio_convert_reals(m, LATTIO_REAL_F64_NATIVE,
                                                 native + first * lattio_real_size(nfmt), nfmt,
                                                 (size_t)rows * row));
            if (rows == 2 && nc == 3) gauge_reconstruct_row(m);
        }
    return LATTIO_OK;
}

int gauge_read_links(const lattio_source *src, uint64_t offset, uint64_t volume, int fmt,
                     int rows, int colors, double *u, gauge_sum *sum)
{
    RETURN_IF(rows != colors && !(rows == 2 && colors == 3), LATTIO_ERR_ARG);
    const size_t real = lattio_real_size(fmt);
    const size_t site = (size_t)4 * rows * 2 * (size_t)colors * real;
    unsigned char *buf = lattio_malloc(CHUNK_SITES * site);
    RETURN_IF(!buf, LATTIO_ERR_NOMEM);
    const int nfmt = gauge_native_fmt(fmt);
    int rc = LATTIO_OK;
    for (uint64_t first = 0; rc == LATTIO_OK && first < volume; first += CHUNK_SITES) {
        const uint64_t n = volume - first < CHUNK_SITES ? volume - first : CHUNK_SITES;
        const size_t nreal = (size_t)n * site / real;
        rc = lattio_source_read_exact(src, offset + first * site, buf, (size_t)n * site,
                                      LATTIO_ERR_TRUNCATED_PAYLOAD);
        if (rc == LATTIO_OK) rc = lattio_convert_reals(buf, nfmt, buf, fmt, nreal);
        if (rc != LATTIO_OK) break;
        gauge_sum_words(sum, buf, (size_t)n * site / 4);
        rc = expand_sites(buf, nfmt, rows, colors, n, u + first * GAUGE_SITE_DOUBLES_NC(colors));
    }
    lattio_free(buf);
    return rc;
}

/* The stored rows of n sites of u as native reals of format nfmt. */
static int shrink_sites(const double *u, int nfmt, int rows, int nc, uint64_t n, unsigned char *out)
{
    const size_t real = lattio_real_size(nfmt), row = 2 * (size_t)nc;
    for (uint64_t s = 0; s < n; s++)
        for (int l = 0; l < 4; l++) {
            const double *m = u + (s * 4 + (uint64_t)l) * row * (size_t)nc;
            unsigned char *p = out + ((size_t)s * 4 + (size_t)l) * rows * row * real;
            RETURN_IF_ERROR(lattio_convert_reals(p, nfmt, m, LATTIO_REAL_F64_NATIVE, (size_t)rows * row));
        }
    return LATTIO_OK;
}

int gauge_write_links(gauge_out *o, const double *u, uint64_t volume, int fmt, int rows, int colors,
                      gauge_sum *sum)
{
    RETURN_IF(rows != colors && !(rows == 2 && colors == 3), LATTIO_ERR_ARG);
    const size_t real = lattio_real_size(fmt);
    const size_t site = (size_t)4 * rows * 2 * (size_t)colors * real;
    unsigned char *buf = lattio_malloc(CHUNK_SITES * site);
    RETURN_IF(!buf, LATTIO_ERR_NOMEM);
    const int nfmt = gauge_native_fmt(fmt);
    int rc = LATTIO_OK;
    for (uint64_t first = 0; rc == LATTIO_OK && first < volume; first += CHUNK_SITES) {
        const uint64_t n = volume - first < CHUNK_SITES ? volume - first : CHUNK_SITES;
        rc = shrink_sites(u + first * GAUGE_SITE_DOUBLES_NC(colors), nfmt, rows, colors, n, buf);
        if (rc != LATTIO_OK) break;
        if (sum) gauge_sum_words(sum, buf, (size_t)n * site / 4);
        if (!o) continue;
        rc = lattio_convert_reals(buf, fmt, buf, nfmt, (size_t)n * site / real);
        if (rc == LATTIO_OK) rc = gauge_out_write(o, buf, (size_t)n * site);
    }
    lattio_free(buf);
    return rc;
}

/* --- output under a temporary name ---------------------------------------- */

int gauge_out_open(gauge_out *o, const char *path)
{
    o->fd = -1;
    o->status = LATTIO_OK;
    o->path = path;
    o->at = 0;
    return lattio_temp_create(path, &o->fd, &o->tmp);
}

int gauge_out_write(gauge_out *o, const void *buf, size_t n)
{
    if (o->status == LATTIO_OK) o->status = lattio_pwrite_all(o->fd, o->at, buf, n); /* the core's writes */
    if (o->status == LATTIO_OK) o->at += n;
    return o->status;
}

int gauge_out_close(gauge_out *o, int ok)
{
    int rc = o->status;
    if (close(o->fd) != 0 && rc == LATTIO_OK) rc = LATTIO_FAIL_ERRNO(LATTIO_ERR_CLOSE, "close");
    if (rc == LATTIO_OK && !ok) rc = LATTIO_ERR_WRITE;
    if (rc == LATTIO_OK) rc = lattio_temp_publish(o->tmp, o->path);
    if (rc != LATTIO_OK) unlink(o->tmp);
    lattio_free(o->tmp);
    o->tmp = NULL;
    return rc;
}

int gauge_header_stats(const char *format, const double *u, const uint64_t dims[4], int nc, lattio_gauge_stats *st)
{
    RETURN_IF_ERROR(lattio_gauge_stats_compute_nc(u, dims, nc, st));
    if (isfinite(st->plaquette) && isfinite(st->link_trace)) return LATTIO_OK;
    lattio_detail_set("the links hold NaN or infinity: %s's header would carry a plaquette of %g, which no reader "
                      "can check (ILDG and SciDAC store such values with their checksum)",
                      format, st->plaquette);
    return LATTIO_FAIL(LATTIO_ERR_ARG, "links not finite");
}
