/* milc.c -- MILC version 5 binary gauge files (formats.md): a 96-byte
 * header in the writer's byte order (magic 20103, dims x y z t, a 64-byte
 * time stamp, order, sum29, sum31), then float32 links in ILDG order. */
#include "gauge_internal.h"

#include <stdio.h>
#include <string.h>

#define MILC_MAGIC 20103u
#define MILC_HEADER 96

static uint32_t load32(const unsigned char *p, int little)
{
    if (!little) return lattio_load_be32(p);
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static void store32(unsigned char *p, uint32_t v, int little)
{
    if (!little) {
        lattio_store_be32(p, v);
        return;
    }
    for (int i = 0; i < 4; i++, v >>= 8) p[i] = (unsigned char)(v & 0xff);
}

#define PROBLEM(info, ...) snprintf((info)->problem, sizeof (info)->problem, __VA_ARGS__)

static int parse_header(const unsigned char *h, uint64_t size, lattio_gauge_info *info)
{
    const int little = lattio_load_be32(h) != MILC_MAGIC;
    if (load32(h, little) != MILC_MAGIC) {
        PROBLEM(info, "MILC: magic number is not 20103 in either byte order");
        return LATTIO_FAIL(LATTIO_ERR_BAD_HEADER, "MILC magic");
    }
    info->little_endian = little;
    for (int d = 0; d < 4; d++) {
        const int32_t v = (int32_t)load32(h + 4 + 4 * d, little); /* MILC stores C ints */
        if (v <= 0) {
            PROBLEM(info, "MILC: dimension %c is %ld, not positive", "xyzt"[d], (long)v);
            return LATTIO_FAIL(LATTIO_ERR_BAD_HEADER, "MILC dims");
        }
        info->dims[d] = (uint64_t)v;
    }
    const uint32_t order = load32(h + 84, little);
    if (order != 0) {
        PROBLEM(info, "MILC: site order %u is not 0 (lexicographic)", (unsigned)order);
        return LATTIO_FAIL(LATTIO_ERR_UNSUPPORTED, "MILC order");
    }
    info->stored[0] = load32(h + 88, little);
    info->stored[1] = load32(h + 92, little);
    uint64_t volume, bytes;
    if (gauge_volume(info->dims, 4 * 72, &volume, &bytes) != LATTIO_OK) {
        PROBLEM(info, "MILC: bad dimensions %llu %llu %llu %llu", (unsigned long long)info->dims[0],
                (unsigned long long)info->dims[1], (unsigned long long)info->dims[2],
                (unsigned long long)info->dims[3]);
        return LATTIO_FAIL(LATTIO_ERR_BAD_HEADER, "MILC dims");
    }
    info->volume = volume;
    info->data_length = bytes;
    if (size - MILC_HEADER != bytes) {
        PROBLEM(info, "MILC: %llu bytes of link data, the header implies %llu",
                (unsigned long long)(size - MILC_HEADER), (unsigned long long)bytes);
        return LATTIO_FAIL(size - MILC_HEADER < bytes ? LATTIO_ERR_TRUNCATED_PAYLOAD
                                                       : LATTIO_ERR_FIELD_LENGTH,
                           "MILC size");
    }
    return LATTIO_OK;
}

int gauge_milc_read(const lattio_source *src, lattio_gauge_info *info, double **u)
{
    unsigned char h[MILC_HEADER];
    if (src->size < MILC_HEADER) {
        PROBLEM(info, "MILC: file shorter than the 96-byte header");
        return LATTIO_FAIL(LATTIO_ERR_TRUNCATED_HEADER, "MILC header short");
    }
    RETURN_IF_ERROR(lattio_source_read_exact(src, 0, h, MILC_HEADER, LATTIO_ERR_TRUNCATED_HEADER));
    info->precision = 32;
    info->rows = 3;
    info->data_offset = MILC_HEADER;
    info->checksum_kind = LATTIO_GSUM_MILC;
    info->has_checksum = 1;
    RETURN_IF_ERROR(parse_header(h, src->size, info));
    RETURN_IF_ERROR(gauge_alloc(info->volume, 3, u));
    gauge_sum sum = {LATTIO_GSUM_MILC, 0, 0, 0};
    RETURN_IF_ERROR(gauge_read_links(src, MILC_HEADER, info->volume,
                                     gauge_file_fmt(32, info->little_endian), 3, 3, *u, &sum));
    info->computed[0] = sum.a;
    info->computed[1] = sum.b;
    return LATTIO_OK;
}

int gauge_milc_write(gauge_out *o, const lattio_gauge_write_options *opt, const uint64_t dims[4],
                     const double *u)
{
    const int little = opt->little_endian;
    const uint64_t volume = dims[0] * dims[1] * dims[2] * dims[3];
    for (int d = 0; d < 4; d++) RETURN_IF(dims[d] > INT32_MAX, LATTIO_ERR_ARG);
    const int fmt = gauge_file_fmt(32, little);
    gauge_sum sum = {LATTIO_GSUM_MILC, 0, 0, 0};
    RETURN_IF_ERROR(gauge_write_links(NULL, u, volume, fmt, 3, 3, &sum));
    unsigned char h[MILC_HEADER];
    memset(h, 0, sizeof h);
    store32(h, MILC_MAGIC, little);
    for (int d = 0; d < 4; d++) store32(h + 4 + 4 * d, (uint32_t)dims[d], little);
    snprintf((char *)h + 20, 64, "%s", opt->label ? opt->label : "lattio");
    store32(h + 84, 0, little);
    store32(h + 88, sum.a, little);
    store32(h + 92, sum.b, little);
    RETURN_IF_ERROR(gauge_out_write(o, h, sizeof h));
    return gauge_write_links(o, u, volume, fmt, 3, 3, NULL);
}
