/* codec.c -- the container's on-disk records: the 96-byte header, the 64-byte
 * chunk trailer and the 64-byte footer, all big-endian with a CRC-32 of
 * their other bytes in their last four bytes (docs/format.md, section 8). */
#include "container_internal.h"

#include <string.h>

static const char HEADER_MAGIC[8] = {'L', 'A', 'T', 'T', 'I', 'O', 'T', 'C'};
static const char TRAILER_MAGIC[8] = {'L', 'T', 'I', 'O', 'C', 'H', 'N', 'K'};
static const char FOOTER_MAGIC[8] = {'L', 'T', 'I', 'O', 'C', 'E', 'N', 'D'};

uint32_t lattio_cont_crc32(uint32_t crc, const void *buf, size_t n)
{
    return lattio_crc32(crc, buf, n);
}

/* Combining CRCs works on polynomials over GF(2) modulo the CRC's
 * polynomial, in the CRC's bit-reversed form: bit 31 is x^0. */
#define CRC_POLY 0xedb88320u

/* a * b mod P. */
static uint32_t mul_mod(uint32_t a, uint32_t b)
{
    uint32_t product = 0;
    for (uint32_t bit = 1u << 31; bit && a; bit >>= 1) {
        if (a & bit) {
            product ^= b;
            a ^= bit;
        }
        b = (b & 1) ? (b >> 1) ^ CRC_POLY : b >> 1; /* b * x */
    }
    return product;
}

/* x^(8 n) mod P: square-and-multiply over the bits of 8 n. */
static uint32_t x_pow_8n(uint64_t n)
{
    uint32_t result = 1u << 31, square = 1u << 30; /* 1 and x */
    for (int i = 0; i < 3; i++) square = mul_mod(square, square); /* x^8 */
    for (; n; n >>= 1) {
        if (n & 1) result = mul_mod(result, square);
        square = mul_mod(square, square);
    }
    return result;
}

uint32_t lattio_cont_crc32_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b)
{
    return mul_mod(x_pow_8n(len_b), crc_a) ^ crc_b;
}

/* Store the CRC of bytes [0, size-4) in the last four bytes. */
static void seal(unsigned char *p, size_t size)
{
    lattio_store_be32(p + size - 4, lattio_cont_crc32(0, p, size - 4));
}

static int sealed(const unsigned char *p, size_t size)
{
    return lattio_load_be32(p + size - 4) == lattio_cont_crc32(0, p, size - 4);
}

static int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

void lattio_cont_header_encode(unsigned char out[LATTIO_CONT_HEADER_SIZE], const lattio_cont_header *h)
{
    memset(out, 0, LATTIO_CONT_HEADER_SIZE);
    memcpy(out, HEADER_MAGIC, 8);
    lattio_store_be32(out + 8, h->version);
    lattio_store_be32(out + 12, LATTIO_CONT_HEADER_SIZE);
    lattio_store_be64(out + 16, h->id);
    lattio_store_be32(out + 24, h->ntasks);
    lattio_store_be32(out + 28, h->nfiles);
    lattio_store_be32(out + 32, h->file_index);
    lattio_store_be32(out + 36, h->first_task);
    lattio_store_be32(out + 40, h->file_tasks);
    lattio_store_be32(out + 44, h->flags);
    lattio_store_be64(out + 48, h->align);
    lattio_store_be64(out + 56, h->stride);
    lattio_store_be64(out + 64, h->data_start);
    seal(out, LATTIO_CONT_HEADER_SIZE);
}

/* Every size field within the format's limits and consistent. */
static int header_consistent(const lattio_cont_header *h)
{
    RETURN_IF(h->ntasks == 0 || h->ntasks > LATTIO_CONT_MAX_TASKS, LATTIO_ERR_CONTAINER);
    RETURN_IF(h->nfiles == 0 || h->nfiles > h->ntasks || h->file_index >= h->nfiles,
              LATTIO_ERR_CONTAINER);
    RETURN_IF(h->file_tasks == 0 || h->first_task >= h->ntasks ||
              h->file_tasks > h->ntasks - h->first_task, LATTIO_ERR_CONTAINER);
    RETURN_IF(!is_pow2(h->align) || h->align < LATTIO_CONT_MIN_ALIGN ||
              h->align > LATTIO_CONT_MAX_ALIGN, LATTIO_ERR_CONTAINER);
    RETURN_IF(h->stride <= LATTIO_CONT_TRAILER_SIZE || h->stride > LATTIO_CONT_MAX_STRIDE ||
              h->stride % h->align, LATTIO_ERR_CONTAINER);
    RETURN_IF(h->data_start < LATTIO_CONT_HEADER_SIZE || h->data_start > LATTIO_CONT_MAX_STRIDE ||
              h->data_start % h->align, LATTIO_ERR_CONTAINER);
    return LATTIO_OK;
}

int lattio_cont_header_decode(const unsigned char in[LATTIO_CONT_HEADER_SIZE], lattio_cont_header *h)
{
    memset(h, 0, sizeof *h);
    RETURN_IF(memcmp(in, HEADER_MAGIC, 8) != 0, LATTIO_ERR_CONTAINER_MAGIC);
    h->version = lattio_load_be32(in + 8);
    RETURN_IF(h->version != LATTIO_CONTAINER_VERSION, LATTIO_ERR_CONTAINER_VERSION);
    RETURN_IF(!sealed(in, LATTIO_CONT_HEADER_SIZE), LATTIO_ERR_CONTAINER);
    RETURN_IF(lattio_load_be32(in + 12) != LATTIO_CONT_HEADER_SIZE, LATTIO_ERR_CONTAINER);
    h->flags = lattio_load_be32(in + 44);
    RETURN_IF(h->flags & ~LATTIO_CONT_HDR_STREAM_CRC, LATTIO_ERR_CONTAINER);
    for (int i = 72; i < LATTIO_CONT_HEADER_SIZE - 4; i++)
        RETURN_IF(in[i] != 0, LATTIO_ERR_CONTAINER);
    h->id = lattio_load_be64(in + 16);
    h->ntasks = lattio_load_be32(in + 24);
    h->nfiles = lattio_load_be32(in + 28);
    h->file_index = lattio_load_be32(in + 32);
    h->first_task = lattio_load_be32(in + 36);
    h->file_tasks = lattio_load_be32(in + 40);
    h->align = lattio_load_be64(in + 48);
    h->stride = lattio_load_be64(in + 56);
    h->data_start = lattio_load_be64(in + 64);
    return header_consistent(h);
}

void lattio_cont_trailer_encode(unsigned char out[LATTIO_CONT_TRAILER_SIZE], const lattio_cont_trailer *t)
{
    memset(out, 0, LATTIO_CONT_TRAILER_SIZE);
    memcpy(out, TRAILER_MAGIC, 8);
    lattio_store_be64(out + 8, t->id);
    lattio_store_be32(out + 16, t->task);
    lattio_store_be32(out + 20, t->flags);
    lattio_store_be64(out + 24, t->block);
    lattio_store_be64(out + 32, t->used);
    lattio_store_be64(out + 40, t->stream_offset);
    lattio_store_be32(out + 48, t->data_crc);
    lattio_store_be32(out + 52, t->stream_crc);
    seal(out, LATTIO_CONT_TRAILER_SIZE);
}

int lattio_cont_trailer_decode(const unsigned char in[LATTIO_CONT_TRAILER_SIZE], lattio_cont_trailer *t)
{
    memset(t, 0, sizeof *t);
    RETURN_IF(memcmp(in, TRAILER_MAGIC, 8) != 0, LATTIO_ERR_CONTAINER_MAGIC);
    RETURN_IF(!sealed(in, LATTIO_CONT_TRAILER_SIZE), LATTIO_ERR_CONTAINER_CHUNK);
    t->id = lattio_load_be64(in + 8);
    t->task = lattio_load_be32(in + 16);
    t->flags = lattio_load_be32(in + 20);
    t->block = lattio_load_be64(in + 24);
    t->used = lattio_load_be64(in + 32);
    t->stream_offset = lattio_load_be64(in + 40);
    t->data_crc = lattio_load_be32(in + 48);
    t->stream_crc = lattio_load_be32(in + 52);
    RETURN_IF(t->flags & ~LATTIO_CONT_FINAL, LATTIO_ERR_CONTAINER_CHUNK);
    return LATTIO_OK;
}

void lattio_cont_footer_encode(unsigned char out[LATTIO_CONT_FOOTER_SIZE], const lattio_cont_footer *f)
{
    memset(out, 0, LATTIO_CONT_FOOTER_SIZE);
    memcpy(out, FOOTER_MAGIC, 8);
    lattio_store_be64(out + 8, f->id);
    lattio_store_be64(out + 16, f->nblocks);
    lattio_store_be64(out + 24, f->total_bytes);
    seal(out, LATTIO_CONT_FOOTER_SIZE);
}

int lattio_cont_footer_decode(const unsigned char in[LATTIO_CONT_FOOTER_SIZE], lattio_cont_footer *f)
{
    memset(f, 0, sizeof *f);
    RETURN_IF(memcmp(in, FOOTER_MAGIC, 8) != 0, LATTIO_ERR_CONTAINER_MAGIC);
    RETURN_IF(!sealed(in, LATTIO_CONT_FOOTER_SIZE), LATTIO_ERR_CONTAINER);
    f->id = lattio_load_be64(in + 8);
    f->nblocks = lattio_load_be64(in + 16);
    f->total_bytes = lattio_load_be64(in + 24);
    return LATTIO_OK;
}
