/* serial_write.c -- fields written serially as the strict QIO record sets
 * (ILDG or SciDAC, the records lattio_field_write writes; several fields of
 * one kind as QIO's multi-record file) through the core LIME writer:
 * big-endian reals converted in bounded chunks of whole sites, the SciDAC
 * checksum computed on the way. */
#include "field_internal.h"

#include <string.h>

#define CHUNK_BYTES (UINT64_C(4) << 20)

static int put_record(lattio_lime_writer *w, const lattio_field_info *fi, int rec, int mb, int me)
{
    size_t len;
    RETURN_IF_ERROR(lattio_field_payload(fi, rec, NULL, 0, &len));
    char *p = lattio_malloc(len);
    RETURN_IF(!p, LATTIO_ERR_NOMEM);
    int rc = lattio_field_payload(fi, rec, p, len, &len);
    if (rc == LATTIO_OK)
        rc = lattio_lime_writer_record(w, lattio_field_record_type(rec), p, len, mb, me);
    lattio_free(p);
    return rc;
}

/* The binary record: big-endian reals, SciDAC checksum on the way. */
static int put_binary(lattio_lime_writer *w, const char *type, const lattio_field_info *fi,
                      int mem_format, const void *values, lattio_scidac_sum *sum)
{
    const int fmt = fi->precision == 32 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE;
    const size_t site = (size_t)fi->typesize * fi->datacount, real = (size_t)fi->precision / 8;
    const size_t mem_real = lattio_real_size(mem_format), per_site = site / real;
    const uint64_t chunk = site >= CHUNK_BYTES ? 1 : CHUNK_BYTES / site;
    RETURN_IF_ERROR(lattio_lime_writer_begin(w, type, fi->volume * site, 0, 0));
    unsigned char *buf = lattio_malloc((size_t)chunk * site);
    RETURN_IF(!buf, LATTIO_ERR_NOMEM);
    int rc = LATTIO_OK;
    for (uint64_t first = 0; rc == LATTIO_OK && first < fi->volume; first += chunk) {
        const uint64_t n = fi->volume - first < chunk ? fi->volume - first : chunk;
        rc = lattio_convert_reals(buf, fmt, (const unsigned char *)values + first * per_site * mem_real,
                                  mem_format, (size_t)n * per_site);
        if (rc == LATTIO_OK) rc = lattio_scidac_sum_sites(sum, buf, site, n, first);
        if (rc == LATTIO_OK) rc = lattio_lime_writer_write(w, buf, (size_t)n * site);
    }
    lattio_free(buf);
    return rc != LATTIO_OK ? rc : lattio_lime_writer_end(w);
}

/* The binary record's payload (from offset data, volume x site bytes) read
 * back from the file being written: its SciDAC checksum must be the one
 * written. */
static int reread(lattio_lime_writer *w, const lattio_field_info *fi, uint64_t data, lattio_scidac_sum sum)
{
    const uint64_t site = fi->typesize * fi->datacount;
    const uint64_t chunk = site >= CHUNK_BYTES ? 1 : CHUNK_BYTES / site;
    unsigned char *buf = lattio_malloc((size_t)(chunk * site));
    RETURN_IF(!buf, LATTIO_ERR_NOMEM);
    lattio_scidac_sum back = {0, 0};
    int rc = LATTIO_OK;
    for (uint64_t first = 0; rc == LATTIO_OK && first < fi->volume; first += chunk) {
        const uint64_t n = fi->volume - first < chunk ? fi->volume - first : chunk;
        rc = lattio_lime_writer_reread(w, data + first * site, buf, (size_t)(n * site));
        if (rc == LATTIO_OK) rc = lattio_scidac_sum_sites(&back, buf, (size_t)site, n, first);
    }
    lattio_free(buf);
    RETURN_IF_ERROR(rc);
    RETURN_IF(back.suma != sum.suma || back.sumb != sum.sumb,
              LATTIO_FAIL(LATTIO_ERR_VERIFY, "binary record read back: SciDAC checksum differs"));
    return LATTIO_OK;
}

/* Other writers' records (checked by the callers: lattio_field_check_metadata,
 * gauge_lime.c's make_info), each a message of its own, before the file's first set. */
static int put_other(lattio_lime_writer *w, const lattio_field_info *fi)
{
    for (int i = 0; i < fi->n_other; i++)
        RETURN_IF_ERROR(lattio_lime_writer_record(w, fi->other[i].type, fi->other[i].text,
                                                  strlen(fi->other[i].text), 1, 1));
    return LATTIO_OK;
}

static int put_all(lattio_lime_writer *w, lattio_field_info *fi, int mem_format, const void *values,
                   int verify, int file_header)
{
    const int ildg = fi->kind == LATTIO_FIELD_ILDG_GAUGE;
    if (file_header) RETURN_IF_ERROR(put_other(w, fi));
    lattio_set_record head[LATTIO_SET_HEAD_MAX];
    const int n = lattio_field_set_head(ildg, file_header, head);
    for (int i = 0; i < n; i++) RETURN_IF_ERROR(put_record(w, fi, head[i].rec, head[i].mb, head[i].me));
    lattio_scidac_sum sum = {0, 0};
    const uint64_t data = lattio_lime_writer_offset(w) + LATTIO_LIME_HEADER_SIZE;
    RETURN_IF_ERROR(put_binary(w, ildg ? "ildg-binary-data" : "scidac-binary-data", fi, mem_format, values, &sum));
    if (verify) RETURN_IF_ERROR(reread(w, fi, data, sum));
    fi->stored = sum;
    return put_record(w, fi, LATTIO_REC_CHECKSUM, 0, 1);
}

/* The whole lattice, one block, file order = memory order, no halo. */
static int check_whole(const lattio_field_desc *d, const lattio_layout *l, const void *values)
{
    RETURN_IF(!d || !l || !values, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lattio_layout_check(l));
    RETURN_IF(d->mem_format != LATTIO_REAL_F32_NATIVE && d->mem_format != LATTIO_REAL_F64_NATIVE, LATTIO_ERR_ARG);
    RETURN_IF(d->disk_format != LATTIO_REAL_F32_BE && d->disk_format != LATTIO_REAL_F64_BE, LATTIO_ERR_ARG);
    RETURN_IF(d->elements == 0 || d->datacount == 0 || d->elements % d->datacount, LATTIO_ERR_ARG);
    RETURN_IF(l->site_bytes != d->elements * lattio_real_size(d->mem_format), LATTIO_ERR_ARG);
    for (int i = 0; i < l->ndims; i++) {
        RETURN_IF(l->lo[i] != 0 || l->count[i] != l->global[i], LATTIO_FAIL(LATTIO_ERR_LAYOUT, "not the whole lattice"));
        RETURN_IF(l->file_order[i] != i || l->mem_order[i] != i, LATTIO_FAIL(LATTIO_ERR_LAYOUT, "reordered"));
        RETURN_IF(l->halo_lo[i] || l->halo_hi[i], LATTIO_FAIL(LATTIO_ERR_LAYOUT, "halo"));
    }
    RETURN_IF_ERROR(lattio_field_check_metadata(d));
    return lattio_field_desc_type_check(d, l);
}

int lattio_field_write_serial(const char *path, const lattio_field_desc *d, const lattio_layout *l,
                              const void *values)
{
    return lattio_fields_write_serial(path, d, l, 1, &values);
}

int lattio_fields_write_serial(const char *path, const lattio_field_desc *d, const lattio_layout *l, int n,
                               const void *const *values)
{
    RETURN_IF(!path || n < 1 || !values, LATTIO_ERR_ARG);
    for (int i = 0; i < n; i++) RETURN_IF_ERROR(check_whole(d, l, values[i]));
    lattio_field_info fi;
    lattio_field_describe(&fi, d, l);
    return lattio_field_put_sets(path, &fi, d->mem_format, n, values, d->verify);
}

int lattio_field_put_set(const char *path, lattio_field_info *fi, int mem_format, const void *values,
                         int verify)
{
    return lattio_field_put_sets(path, fi, mem_format, 1, &values, verify);
}

int lattio_field_put_sets(const char *path, lattio_field_info *fi, int mem_format, int n,
                          const void *const *values, int verify)
{
    lattio_lime_writer *w;
    RETURN_IF_ERROR(lattio_lime_writer_open(path, LATTIO_LIME_CREATE, &w));
    int rc = LATTIO_OK;
    for (int i = 0; rc == LATTIO_OK && i < n; i++) {
        fi->index = i;
        rc = put_all(w, fi, mem_format, values[i], verify, i == 0);
    }
    if (rc != LATTIO_OK) {
        /* an open, short record makes close discard the temporary file */
        lattio_lime_writer_begin(w, "lattio-aborted", 1, 0, 0);
        lattio_lime_writer_close(w);
        return rc;
    }
    return lattio_lime_writer_close(w);
}
