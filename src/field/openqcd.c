/* openqcd.c -- the openQCD export format (formats.md): a 24-byte
 * little-endian header (N0 = time, N1..N3 = x, y, z, then the plaquette as
 * Re tr, 3 for the unit field), then for every odd site in the order
 * ix = x3 + N3*(x2 + N2*(x1 + N1*x0)) eight double 3x3 matrices for the
 * directions +0, -0, +1, -1, +2, -2, +3, -3, where -mu is U_mu(x - mu). */
#include "gauge_internal.h"

#include <stdio.h>
#include <string.h>

#define OQ_HEADER 24
#define OQ_SITE_BYTES (8 * 144)
#define OQ_CHUNK 1024 /* odd sites per I/O */

#define PROBLEM(info, ...) snprintf((info)->problem, sizeof (info)->problem, __VA_ARGS__)

/* ILDG direction of openQCD direction d (0 = t, 1..3 = x, y, z). */
static int ildg_mu(int d)
{
    return d == 0 ? 3 : d - 1;
}

/* openQCD coordinates (t, x, y, z) of the n-th site in its order. */
static void oq_coords(uint64_t ix, const uint64_t n[4], uint64_t c[4])
{
    for (int d = 3; d >= 0; d--) {
        c[d] = ix % n[d];
        ix /= n[d];
    }
}

/* ILDG rank of openQCD coordinates c, shifted by -1 in direction `back` (-1: none). */
static uint64_t ildg_rank(const uint64_t c[4], const uint64_t n[4], int back)
{
    uint64_t x[4] = {c[1], c[2], c[3], c[0]}; /* x, y, z, t */
    const uint64_t ext[4] = {n[1], n[2], n[3], n[0]};
    if (back >= 0) {
        const int mu = ildg_mu(back);
        x[mu] = (x[mu] + ext[mu] - 1) % ext[mu];
    }
    return x[0] + ext[0] * (x[1] + ext[1] * (x[2] + ext[2] * x[3]));
}

/* Link matrix k (0..7) of an odd site: where it lives in u. */
static uint64_t link_index(const uint64_t c[4], const uint64_t n[4], int k)
{
    const int d = k / 2;
    const uint64_t r = ildg_rank(c, n, k % 2 ? d : -1);
    return (r * 4 + (uint64_t)ildg_mu(d)) * 18;
}

/* Call fn for every odd site in file order, in chunks: fn gets the
 * coordinates of each site in the chunk through the index k. */
typedef int (*oq_chunk_fn)(void *ctx, const uint64_t (*coords)[4], size_t n);

static int for_odd_sites(const uint64_t n[4], oq_chunk_fn fn, void *ctx)
{
    uint64_t (*coords)[4] = lattio_malloc(OQ_CHUNK * sizeof *coords);
    RETURN_IF(!coords, LATTIO_ERR_NOMEM);
    const uint64_t volume = n[0] * n[1] * n[2] * n[3];
    size_t k = 0;
    int rc = LATTIO_OK;
    for (uint64_t ix = 0; rc == LATTIO_OK && ix < volume; ix++) {
        uint64_t c[4];
        oq_coords(ix, n, c);
        if ((c[0] + c[1] + c[2] + c[3]) % 2 == 0) continue;
        memcpy(coords[k++], c, sizeof c);
        if (k == OQ_CHUNK) rc = fn(ctx, (const uint64_t(*)[4])coords, k), k = 0;
    }
    if (rc == LATTIO_OK && k) rc = fn(ctx, (const uint64_t(*)[4])coords, k);
    lattio_free(coords);
    return rc;
}

typedef struct oq_ctx {
    const lattio_source *src;
    gauge_out *out;
    const uint64_t *n;
    double *u;
    const double *cu;
    unsigned char *buf;
    uint64_t offset; /* file offset of the next chunk */
} oq_ctx;

static int read_chunk(void *p, const uint64_t (*coords)[4], size_t k)
{
    oq_ctx *c = p;
    const size_t bytes = k * OQ_SITE_BYTES;
    RETURN_IF_ERROR(lattio_source_read_exact(c->src, c->offset, c->buf, bytes,
                                             LATTIO_ERR_TRUNCATED_PAYLOAD));
    c->offset += bytes;
    for (size_t s = 0; s < k; s++)
        for (int m = 0; m < 8; m++)
            RETURN_IF_ERROR(lattio_convert_reals(c->u + link_index(coords[s], c->n, m),
                                                 LATTIO_REAL_F64_NATIVE,
                                                 c->buf + s * OQ_SITE_BYTES + (size_t)m * 144,
                                                 LATTIO_REAL_F64_LE, 18));
    return LATTIO_OK;
}

static int write_chunk(void *p, const uint64_t (*coords)[4], size_t k)
{
    oq_ctx *c = p;
    for (size_t s = 0; s < k; s++)
        for (int m = 0; m < 8; m++)
            RETURN_IF_ERROR(lattio_convert_reals(c->buf + s * OQ_SITE_BYTES + (size_t)m * 144,
                                                 LATTIO_REAL_F64_LE,
                                                 c->cu + link_index(coords[s], c->n, m),
                                                 LATTIO_REAL_F64_NATIVE, 18));
    return gauge_out_write(c->out, c->buf, k * OQ_SITE_BYTES);
}

int gauge_openqcd_read(const lattio_source *src, lattio_gauge_info *info, double **u)
{
    unsigned char h[OQ_HEADER];
    RETURN_IF_ERROR(lattio_source_read_exact(src, 0, h, OQ_HEADER, LATTIO_ERR_TRUNCATED_HEADER));
    if (gauge_openqcd_header(h, src->size, info->dims) != LATTIO_OK) {
        PROBLEM(info, "openQCD: header extents do not give the file size");
        return LATTIO_FAIL(LATTIO_ERR_BAD_HEADER, "openQCD header");
    }
    const uint64_t n[4] = {info->dims[3], info->dims[0], info->dims[1], info->dims[2]};
    info->volume = n[0] * n[1] * n[2] * n[3];
    info->precision = 64;
    info->little_endian = 1;
    info->rows = 3;
    info->data_offset = OQ_HEADER;
    info->data_length = src->size - OQ_HEADER;
    double plaq;
    RETURN_IF_ERROR(lattio_convert_reals(&plaq, LATTIO_REAL_F64_NATIVE, h + 16, LATTIO_REAL_F64_LE, 1));
    info->has_plaquette = 1;
    info->plaquette = plaq / 3.0;
    RETURN_IF_ERROR(gauge_alloc(info->volume, 3, u));
    oq_ctx c = {src, NULL, n, *u, NULL, lattio_malloc(OQ_CHUNK * OQ_SITE_BYTES), OQ_HEADER};
    RETURN_IF(!c.buf, LATTIO_ERR_NOMEM);
    const int rc = for_odd_sites(n, read_chunk, &c);
    lattio_free(c.buf);
    return rc;
}

int gauge_openqcd_write(gauge_out *o, const uint64_t dims[4], const double *u)
{
    for (int d = 0; d < 4; d++) RETURN_IF(dims[d] % 2 != 0 || dims[d] > INT32_MAX, LATTIO_ERR_ARG);
    lattio_gauge_stats st;
    RETURN_IF_ERROR(gauge_header_stats("openQCD", u, dims, 3, &st));
    const uint64_t n[4] = {dims[3], dims[0], dims[1], dims[2]};
    unsigned char h[OQ_HEADER];
    for (int d = 0; d < 4; d++)
        for (int b = 0; b < 4; b++) h[4 * d + b] = (unsigned char)(n[d] >> (8 * b));
    const double plaq = 3.0 * st.plaquette;
    RETURN_IF_ERROR(lattio_convert_reals(h + 16, LATTIO_REAL_F64_LE, &plaq, LATTIO_REAL_F64_NATIVE, 1));
    RETURN_IF_ERROR(gauge_out_write(o, h, sizeof h));
    oq_ctx c = {NULL, o, n, NULL, u, lattio_malloc(OQ_CHUNK * OQ_SITE_BYTES), 0};
    RETURN_IF(!c.buf, LATTIO_ERR_NOMEM);
    const int rc = for_odd_sites(n, write_chunk, &c);
    lattio_free(c.buf);
    return rc;
}
