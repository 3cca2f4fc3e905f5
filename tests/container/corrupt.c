/* Damaged containers, each with its own status: truncated, bad magic, bad
 * version, header sizes inconsistent, trailer inconsistent with its
 * position, footer contradicting the streams or the file size, several
 * physical files.  Fields are changed and the record's CRC resealed, so the
 * check that fires is the one under test. */
#include "contest.h"

#include <libdeflate.h>

#define NT 5u

static unsigned char *orig;
static size_t orig_len;

static void reseal(unsigned char *rec, size_t size)
{
    lattio_store_be32(rec + size - 4, (uint32_t)libdeflate_crc32(0, rec, size - 4));
}

static int open_bytes(const unsigned char *b, size_t len, int flags)
{
    FILE *f = fopen("bad.ltc", "wb");
    if (!f) return -9999;
    fwrite(b, 1, len, f);
    fclose(f);
    lattio_container_reader *r = NULL;
    int rc = lattio_container_open_serial("bad.ltc", flags, &r);
    lattio_container_reader_close(r);
    return rc;
}

static unsigned char *copy(void)
{
    unsigned char *c = malloc(orig_len);
    memcpy(c, orig, orig_len);
    return c;
}

static void header_cases(void)
{
    unsigned char *c = copy();
    c[0] = 'X';
    CHECK_STATUS(open_bytes(c, orig_len, 0), LATTIO_ERR_CONTAINER_MAGIC);
    memcpy(c, orig, orig_len);
    lattio_store_be32(c + 8, 2); /* version 2, CRC left alone: version decides first */
    CHECK_STATUS(open_bytes(c, orig_len, 0), LATTIO_ERR_CONTAINER_VERSION);
    CHECK_STATUS(open_bytes(c, orig_len, LATTIO_CONTAINER_RECOVER), LATTIO_ERR_CONTAINER_VERSION);
    memcpy(c, orig, orig_len);
    c[20] ^= 1; /* id changed without resealing: CRC */
    CHECK_STATUS(open_bytes(c, orig_len, 0), LATTIO_ERR_CONTAINER);
    memcpy(c, orig, orig_len);
    lattio_store_be64(c + 56, T_STRIDE + 100); /* stride not a multiple of align */
    reseal(c, 96);
    CHECK_STATUS(open_bytes(c, orig_len, 0), LATTIO_ERR_CONTAINER);
    memcpy(c, orig, orig_len);
    lattio_store_be32(c + 24, 0xffffffffu); /* more tasks than the format allows */
    reseal(c, 96);
    CHECK_STATUS(open_bytes(c, orig_len, LATTIO_CONTAINER_RECOVER), LATTIO_ERR_CONTAINER);
    memcpy(c, orig, orig_len);
    lattio_store_be32(c + 24, NT + 3); /* tasks the file has no room for */
    lattio_store_be32(c + 40, NT + 3);
    reseal(c, 96);
    CHECK_STATUS(open_bytes(c, orig_len, 0), LATTIO_ERR_CONTAINER);
    memcpy(c, orig, orig_len);
    lattio_store_be32(c + 28, 2); /* two physical files */
    reseal(c, 96);
    CHECK_STATUS(open_bytes(c, orig_len, 0), LATTIO_ERR_CONTAINER_FILES);
    free(c);
}

static void truncated_cases(void)
{
    CHECK_STATUS(open_bytes(orig, 0, 0), LATTIO_ERR_CONTAINER_TRUNCATED);
    CHECK_STATUS(open_bytes(orig, 50, 0), LATTIO_ERR_CONTAINER_TRUNCATED);
    CHECK_STATUS(open_bytes(orig, 50, LATTIO_CONTAINER_RECOVER), LATTIO_ERR_CONTAINER_TRUNCATED);
    CHECK_STATUS(open_bytes(orig, orig_len / 2, 0), LATTIO_ERR_CONTAINER_TRUNCATED);
    CHECK_STATUS(open_bytes(orig, orig_len - 1, 0), LATTIO_ERR_CONTAINER_TRUNCATED);
    CHECK_STATUS(open_bytes(orig, orig_len / 2, LATTIO_CONTAINER_RECOVER), LATTIO_OK);
}

static void chunk_and_footer_cases(void)
{
    unsigned char *c = copy();
    unsigned char *tr = c + t_chunk(NT, 2, 1) + T_STRIDE - 64; /* task 2, block 1: full */
    lattio_store_be64(tr + 32, T_CAP - 1); /* not full, yet not final */
    reseal(tr, 64);
    CHECK_STATUS(open_bytes(c, orig_len, 0), LATTIO_ERR_CONTAINER_CHUNK);
    memcpy(c, orig, orig_len);
    lattio_store_be64(tr + 24, 7); /* block number not its position */
    reseal(tr, 64);
    CHECK_STATUS(open_bytes(c, orig_len, 0), LATTIO_ERR_CONTAINER_CHUNK);
    memcpy(c, orig, orig_len);
    memset(tr, 0, 64); /* trailer missing in a closed container */
    CHECK_STATUS(open_bytes(c, orig_len, 0), LATTIO_ERR_CONTAINER_CHUNK);
    memcpy(c, orig, orig_len);
    unsigned char *ft = c + orig_len - 64;
    lattio_store_be64(ft + 24, lattio_load_be64(ft + 24) + 1); /* total bytes off by one */
    reseal(ft, 64);
    CHECK_STATUS(open_bytes(c, orig_len, 0), LATTIO_ERR_CONTAINER);
    memcpy(c, orig, orig_len);
    lattio_store_be64(ft + 16, lattio_load_be64(ft + 16) + 1); /* blocks vs file size */
    reseal(ft, 64);
    CHECK_STATUS(open_bytes(c, orig_len, 0), LATTIO_ERR_CONTAINER);
    free(c);
}

int main(void)
{
    CHECK_OK(t_write_container("good.ltc", NT, 1));
    orig = test_slurp("good.ltc", &orig_len);
    CHECK(orig != NULL && orig_len > 4 * T_STRIDE);
    if (!orig) return test_finish();
    CHECK_STATUS(open_bytes(orig, orig_len, 0), LATTIO_OK);
    header_cases();
    truncated_cases();
    chunk_and_footer_cases();
    free(orig);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
