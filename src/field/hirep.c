/* hirep.c -- HiRep's gauge configuration format (docs/format.md 7.5), the
 * one SU(N) code of the community that stores N in its header: five
 * big-endian int32 (NG, T, X, Y, Z), the average plaquette as a big-endian
 * double (Re tr / NG over sites and planes), then for every site, t
 * slowest and z fastest, the four links in HiRep's direction order (t, x,
 * y, z), each an NG x NG complex matrix of big-endian doubles, row-major.
 * No checksum: the plaquette is the check. */
#include "gauge_internal.h"

#include <stdio.h>
#include <string.h>

#define HIREP_HEADER 28
#define CHUNK_SITES 1024

#define PROBLEM(info, ...) snprintf((info)->problem, sizeof (info)->problem, __VA_ARGS__)

/* HiRep's direction of lattio's mu (x, y, z, t): 1, 2, 3, 0. */
static int hirep_dir(int mu) { return (mu + 1) % 4; }

int gauge_hirep_header(const unsigned char h[HIREP_HEADER], uint64_t size, int *colors, uint64_t dims[4])
{
    uint32_t v[5];
    for (int i = 0; i < 5; i++) v[i] = lattio_load_be32(h + 4 * i);
    RETURN_IF(v[0] < 2 || v[0] > LATTIO_GAUGE_MAX_COLORS, LATTIO_ERR_BAD_HEADER);
    for (int i = 1; i < 5; i++) RETURN_IF(v[i] == 0 || v[i] > GAUGE_MAX_EXTENT, LATTIO_ERR_BAD_HEADER);
    const uint64_t ildg[4] = {v[2], v[3], v[4], v[1]}; /* x, y, z, t */
    uint64_t volume, bytes;
    RETURN_IF_ERROR(gauge_volume(ildg, 64 * (uint64_t)v[0] * v[0], &volume, &bytes));
    RETURN_IF(size != HIREP_HEADER + bytes, LATTIO_ERR_BAD_HEADER);
    if (colors) *colors = (int)v[0];
    if (dims) memcpy(dims, ildg, sizeof ildg);
    return LATTIO_OK;
}

/* lattio's site rank of HiRep's k-th site (t slowest, then x, y, z). */
static uint64_t site_of(uint64_t k, const uint64_t d[4])
{
    const uint64_t z = k % d[2], y = k / d[2] % d[1], x = k / d[2] / d[1] % d[0], t = k / d[2] / d[1] / d[0];
    return x + d[0] * (y + d[1] * (z + d[2] * t));
}

/* Copy (or, writing, gather) n sites from HiRep order k0.. between buf (file
 * reals, native order) and u (lattio's order). */
static void move_sites(double *buf, double *u, uint64_t k0, uint64_t n, const uint64_t d[4], int nc, int to_u)
{
    const size_t m = 2 * (size_t)nc * (size_t)nc;
    for (uint64_t k = 0; k < n; k++) {
        double *site = u + site_of(k0 + k, d) * 4 * m;
        for (int mu = 0; mu < 4; mu++) {
            double *file = buf + (k * 4 + (uint64_t)hirep_dir(mu)) * m;
            if (to_u) memcpy(site + (size_t)mu * m, file, m * sizeof *file);
            else memcpy(file, site + (size_t)mu * m, m * sizeof *file);
        }
    }
}

int gauge_hirep_read(const lattio_source *src, lattio_gauge_info *info, double **u)
{
    unsigned char h[HIREP_HEADER];
    RETURN_IF_ERROR(lattio_source_read_exact(src, 0, h, HIREP_HEADER, LATTIO_ERR_TRUNCATED_HEADER));
    int nc = 0;
    if (gauge_hirep_header(h, src->size, &nc, info->dims) != LATTIO_OK) {
        PROBLEM(info, "HiRep: header (NG, T, X, Y, Z) does not give the file size");
        return LATTIO_FAIL(LATTIO_ERR_BAD_HEADER, "HiRep header");
    }
    info->volume = info->dims[0] * info->dims[1] * info->dims[2] * info->dims[3];
    info->precision = 64;
    info->rows = info->colors = nc;
    info->data_offset = HIREP_HEADER;
    info->data_length = src->size - HIREP_HEADER;
    RETURN_IF_ERROR(lattio_convert_reals(&info->plaquette, LATTIO_REAL_F64_NATIVE, h + 20, LATTIO_REAL_F64_BE, 1));
    info->has_plaquette = 1;
    RETURN_IF_ERROR(gauge_alloc(info->volume, nc, u));
    const size_t site = (size_t)GAUGE_SITE_DOUBLES_NC(nc);
    double *buf = lattio_malloc(CHUNK_SITES * site * sizeof *buf);
    RETURN_IF(!buf, LATTIO_ERR_NOMEM);
    int rc = LATTIO_OK;
    for (uint64_t k = 0; rc == LATTIO_OK && k < info->volume; k += CHUNK_SITES) {
        const uint64_t n = info->volume - k < CHUNK_SITES ? info->volume - k : CHUNK_SITES;
        rc = lattio_source_read_exact(src, HIREP_HEADER + k * site * 8, buf, (size_t)n * site * 8,
                                      LATTIO_ERR_TRUNCATED_PAYLOAD);
        if (rc == LATTIO_OK) rc = lattio_convert_reals(buf, LATTIO_REAL_F64_NATIVE, buf, LATTIO_REAL_F64_BE, (size_t)n * site);
        if (rc == LATTIO_OK) move_sites(buf, *u, k, n, info->dims, nc, 1);
    }
    lattio_free(buf);
    return rc;
}

int gauge_hirep_write(gauge_out *o, const lattio_gauge_write_options *opt, const uint64_t dims[4], const double *u)
{
    const int nc = opt->colors ? opt->colors : 3;
    for (int d = 0; d < 4; d++) RETURN_IF(dims[d] > INT32_MAX, LATTIO_ERR_ARG);
    lattio_gauge_stats st;
    RETURN_IF_ERROR(gauge_header_stats("HiRep", u, dims, nc, &st));
    unsigned char h[HIREP_HEADER];
    const uint64_t v[5] = {(uint64_t)nc, dims[3], dims[0], dims[1], dims[2]};
    for (int i = 0; i < 5; i++) lattio_store_be32(h + 4 * i, (uint32_t)v[i]);
    RETURN_IF_ERROR(lattio_convert_reals(h + 20, LATTIO_REAL_F64_BE, &st.plaquette, LATTIO_REAL_F64_NATIVE, 1));
    RETURN_IF_ERROR(gauge_out_write(o, h, sizeof h));
    const uint64_t volume = dims[0] * dims[1] * dims[2] * dims[3];
    const size_t site = (size_t)GAUGE_SITE_DOUBLES_NC(nc);
    double *buf = lattio_malloc(CHUNK_SITES * site * sizeof *buf);
    RETURN_IF(!buf, LATTIO_ERR_NOMEM);
    int rc = LATTIO_OK;
    for (uint64_t k = 0; rc == LATTIO_OK && k < volume; k += CHUNK_SITES) {
        const uint64_t n = volume - k < CHUNK_SITES ? volume - k : CHUNK_SITES;
        move_sites(buf, (double *)u, k, n, dims, nc, 0);
        rc = lattio_convert_reals(buf, LATTIO_REAL_F64_BE, buf, LATTIO_REAL_F64_NATIVE, (size_t)n * site);
        if (rc == LATTIO_OK) rc = gauge_out_write(o, buf, (size_t)n * site * 8);
    }
    lattio_free(buf);
    return rc;
}
