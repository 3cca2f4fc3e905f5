/* serial.c -- the serial reference reader: a whole field read through the
 * core LIME reader in bounded chunks of whole sites, its SciDAC checksum
 * computed on the stored bytes and compared with the stored one, the reals
 * converted to native doubles. */
#include "field_internal.h"

#include <string.h>

#define CHUNK_BYTES (UINT64_C(4) << 20)

/* Where converted values go: native reals of one format. */
typedef struct {
    void *data; /* NULL: checksum only */
    int format; /* LATTIO_REAL_F32_NATIVE or LATTIO_REAL_F64_NATIVE */
    size_t real_bytes;
} lattio_values;

/* Make the field's binary record current in the reader. */
static int select_binary(lattio_lime_reader *r, const lattio_field_info *fi)
{
    return lattio_lime_reader_goto(r, &fi->binary); /* its header read again at its offset and compared */
}

/* A subset record's sites [first, first + n) (lexicographic in its
 * hypercube) summed with their lattice ranks, as QIO sums them. */
static int sum_subset(const lattio_field_info *fi, const unsigned char *buf, uint64_t first, uint64_t n, uint64_t site,
                      lattio_scidac_sum *sum)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = first + i, rank = 0, stride = 1;
        for (int d = 0; d < fi->nd; d++) {
            const uint64_t ext = fi->hyper_upper[d] - fi->hyper_lower[d] + 1;
            rank += (fi->hyper_lower[d] + k % ext) * stride;
            k /= ext;
            stride *= fi->dims[d];
        }
        RETURN_IF_ERROR(lattio_scidac_sum_ranked(sum, buf + i * site, (size_t)site, (size_t)site, 1, &rank));
    }
    return LATTIO_OK;
}

/* Checksum (and convert) sites [first, first + n) held in buf. */
static int digest_chunk(const lattio_field_info *fi, const unsigned char *buf, uint64_t first,
                        uint64_t n, uint64_t site, const lattio_values *out, lattio_scidac_sum *sum)
{
    if (fi->recordtype == 1) RETURN_IF_ERROR(lattio_scidac_sum_global(sum, buf, (size_t)(n * site)));
    else if (fi->recordtype == 2) RETURN_IF_ERROR(sum_subset(fi, buf, first, n, site, sum));
    else RETURN_IF_ERROR(lattio_scidac_sum_sites(sum, buf, (size_t)site, n, first));
    if (!out->data) return LATTIO_OK;
    const size_t real = (size_t)fi->precision / 8;
    const int fmt = real == 4 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE;
    return lattio_convert_reals((unsigned char *)out->data + first * site / real * out->real_bytes,
                                out->format, buf, fmt, (size_t)(n * site / real));
}

static int check_out(const lattio_field_info *fi, const lattio_values *out, uint64_t n_out)
{
    if (!out->data) return LATTIO_OK;
    RETURN_IF(fi->precision != 32 && fi->precision != 64, LATTIO_ERR_UNSUPPORTED);
    RETURN_IF(out->format != LATTIO_REAL_F32_NATIVE && out->format != LATTIO_REAL_F64_NATIVE, LATTIO_ERR_ARG);
    RETURN_IF(n_out < fi->binary.length / (uint64_t)(fi->precision / 8), LATTIO_ERR_ARG);
    return LATTIO_OK;
}

static int read_sites(lattio_lime_reader *r, const lattio_field_info *fi, unsigned char *buf,
                      uint64_t per_chunk, const lattio_values *out, lattio_scidac_sum *sum)
{
    const uint64_t site = fi->typesize * fi->datacount;
    const uint64_t nsites = fi->binary.length / site;
    for (uint64_t first = 0; first < nsites; first += per_chunk) {
        const uint64_t n = nsites - first < per_chunk ? nsites - first : per_chunk;
        RETURN_IF_ERROR(lattio_lime_reader_read_at(r, first * site, buf, (size_t)(n * site)));
        RETURN_IF_ERROR(digest_chunk(fi, buf, first, n, site, out, sum));
    }
    return LATTIO_OK;
}

int lattio_field_read_double(lattio_lime_reader *r, const lattio_field_info *fi, double *out,
                             uint64_t n_out, lattio_scidac_sum *computed)
{
    return lattio_field_read_values(r, fi, LATTIO_REAL_F64_NATIVE, out, n_out, computed);
}

int lattio_field_read_values(lattio_lime_reader *r, const lattio_field_info *fi, int mem_format,
                             void *values, uint64_t n_out, lattio_scidac_sum *computed)
{
    RETURN_IF(!r || !fi || fi->typesize == 0 || fi->datacount == 0, LATTIO_ERR_ARG);
    const lattio_values v = {values, mem_format, mem_format == LATTIO_REAL_F32_NATIVE ? 4 : 8};
    const lattio_values *out = &v;
    RETURN_IF_ERROR(check_out(fi, out, n_out));
    RETURN_IF_ERROR(select_binary(r, fi));
    const uint64_t site = fi->typesize * fi->datacount;
    RETURN_IF(site > SIZE_MAX / 2, LATTIO_ERR_OVERFLOW);
    const uint64_t per_chunk = fi->recordtype == 1 ? 1 : site >= CHUNK_BYTES ? 1 : CHUNK_BYTES / site;
    unsigned char *buf = lattio_malloc((size_t)(per_chunk * site));
    RETURN_IF(!buf, LATTIO_ERR_NOMEM);
    lattio_scidac_sum sum = {0, 0};
    const int rc = read_sites(r, fi, buf, per_chunk, out, &sum);
    lattio_free(buf);
    if (rc < 0) return rc;
    if (computed) *computed = sum;
    if (fi->has_checksum && (sum.suma != fi->stored.suma || sum.sumb != fi->stored.sumb))
        return lattio_field_sum_mismatch(fi, sum);
    return LATTIO_OK;
}

int lattio_field_verify(const char *path, int index, lattio_field_info *fi_out,
                        lattio_scidac_sum *computed)
{
    lattio_lime_reader *r;
    lattio_field_info fi;
    RETURN_IF_ERROR(lattio_lime_reader_open(path, &r));
    int rc = lattio_field_info_read(r, index, &fi);
    if (rc == LATTIO_OK) {
        rc = lattio_field_read_double(r, &fi, NULL, 0, computed);
        if (rc == LATTIO_OK && !fi.has_checksum)
            rc = LATTIO_FAIL(LATTIO_ERR_NO_CHECKSUM, "no scidac-checksum record");
        if (fi_out) *fi_out = fi;
        else lattio_field_info_free(&fi);
    }
    lattio_lime_reader_close(r);
    return rc;
}

int lattio_field_sum_mismatch(const lattio_field_info *fi, lattio_scidac_sum sum)
{
    LATTIO_TRACE("field %d: %s record at offset %llu: checksum %x %x, stored %x %x", fi->index,
                 fi->binary.type, (unsigned long long)fi->binary.offset, (unsigned)sum.suma,
                 (unsigned)sum.sumb, (unsigned)fi->stored.suma, (unsigned)fi->stored.sumb);
    lattio_detail_set("field %d, %s record at offset %llu: SciDAC checksum %08x %08x computed, %08x %08x stored",
                      fi->index, fi->binary.type, (unsigned long long)fi->binary.offset, (unsigned)sum.suma,
                      (unsigned)sum.sumb, (unsigned)fi->stored.suma, (unsigned)fi->stored.sumb);
    return LATTIO_FAIL(LATTIO_ERR_CHECKSUM, "computed SciDAC checksum != stored");
}
