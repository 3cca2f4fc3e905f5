/* Checksums on read: one byte flipped in chunk 1 of task 2 makes every read
 * touching that chunk fail with ERR_CONTAINER_CHECKSUM (also a read of a
 * few bytes: the chunk is checked as a whole) while chunk 0 and the other
 * tasks read fine, and NO_VERIFY reads the flipped byte.  The stream CRC in
 * the FINAL trailer equals a bitwise CRC-32 of what each task wrote; a
 * wrong stream CRC (trailer resealed) fails a read to the stream's end.  A
 * version-1 container written without stream CRCs stays readable. */
#include "contest.h"

#define NT 5u

static void write_file(const char *path, const unsigned char *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(b, 1, len, f) == len);
    if (f) fclose(f);
}

/* Offset of task t's chunk blk trailer in a single-file container of NT. */
static size_t trailer(uint32_t t, uint64_t blk) { return (size_t)t_chunk(NT, t, blk) + T_STRIDE - 64; }

static void flipped_chunk(const unsigned char *orig, size_t len)
{
    unsigned char *b = malloc(len), *buf = malloc(8 * T_CAP);
    memcpy(b, orig, len);
    b[t_chunk(NT, 2, 1) + 100] ^= 0x20;
    write_file("flip.ltc", b, len);
    lattio_container_reader *r = NULL;
    CHECK_OK(lattio_container_open_serial("flip.ltc", 0, &r)); /* trailers are intact */
    uint64_t size = t_size(2);
    CHECK_STATUS(lattio_container_reader_read(r, 2, 0, buf, (size_t)size), LATTIO_ERR_CONTAINER_CHECKSUM);
    CHECK_STATUS(lattio_container_reader_read(r, 2, T_CAP + 5, buf, 3), LATTIO_ERR_CONTAINER_CHECKSUM);
    CHECK_OK(lattio_container_reader_read(r, 2, 0, buf, T_CAP)); /* chunk 0 */
    CHECK_OK(lattio_container_reader_read(r, 2, 2 * T_CAP, buf, T_CAP)); /* chunk 2 */
    CHECK_STATUS(lattio_container_reader_chunk(r, 2, 1, NULL, buf, 8 * T_CAP), LATTIO_ERR_CONTAINER_CHECKSUM);
    for (uint32_t t = 0; t < NT; t++) {
        if (t == 2) continue;
        CHECK_OK(lattio_container_reader_read(r, t, 0, buf, (size_t)t_size(t)));
        CHECK_INT(pattern_mismatches(t, 0, buf, (size_t)t_size(t)), 0);
    }
    lattio_container_reader_close(r);
    CHECK_OK(lattio_container_open_serial("flip.ltc", LATTIO_CONTAINER_NO_VERIFY, &r));
    CHECK_OK(lattio_container_reader_read(r, 2, 0, buf, (size_t)size));
    CHECK_INT(pattern_mismatches(2, 0, buf, (size_t)size), 1);
    lattio_container_chunk_info ci;
    CHECK_OK(lattio_container_reader_chunk(r, 2, 1, &ci, buf, T_CAP));
    CHECK_U64(ci.used, T_CAP);
    CHECK_U64(ci.file_offset, t_chunk(NT, 2, 1));
    CHECK_U64(ci.stream_offset, T_CAP);
    CHECK_INT(ci.final, 0);
    lattio_container_reader_close(r);
    free(buf);
    free(b);
}

static void stream_crcs(void)
{
    lattio_container_reader *r = NULL;
    uint32_t crc = 0;
    CHECK_OK(lattio_container_open_serial("c.ltc", 0, &r));
    for (uint32_t t = 0; t < NT; t++) {
        CHECK_OK(lattio_container_reader_stream_crc(r, t, &crc));
        CHECK_U64(crc, t_pattern_crc(t, 0, t_size(t)));
    }
    CHECK_STATUS(lattio_container_reader_stream_crc(r, NT, &crc), LATTIO_ERR_CONTAINER_TASK);
    lattio_container_reader_close(r);
}

/* Task 1's FINAL trailer gets a wrong stream CRC, resealed. */
static void wrong_stream_crc(const unsigned char *orig, size_t len)
{
    unsigned char *b = malloc(len), buf[200];
    memcpy(b, orig, len);
    size_t tr = trailer(1, 0);
    lattio_store_be32(b + tr + 52, lattio_load_be32(b + tr + 52) ^ 1);
    lattio_store_be32(b + tr + 60, t_crc32(0, b + tr, 60));
    write_file("scrc.ltc", b, len);
    lattio_container_reader *r = NULL;
    CHECK_OK(lattio_container_open_serial("scrc.ltc", 0, &r));
    CHECK_OK(lattio_container_reader_read(r, 1, 50, buf, 50)); /* not from 0: not checked */
    CHECK_OK(lattio_container_reader_read(r, 1, 0, buf, 60));
    CHECK_STATUS(lattio_container_reader_read(r, 1, 60, buf, 40), LATTIO_ERR_CONTAINER_CHECKSUM);
    lattio_container_reader_close(r);
    CHECK_OK(lattio_container_open_serial("scrc.ltc", LATTIO_CONTAINER_NO_VERIFY, &r));
    CHECK_OK(lattio_container_reader_read(r, 1, 0, buf, 100));
    lattio_container_reader_close(r);
    free(b);
}

/* Header flag off and stream CRCs zeroed (resealed): as a container written
 * before stream CRCs existed. */
static void without_stream_crcs(const unsigned char *orig, size_t len)
{
    unsigned char *b = malloc(len), *buf = malloc(8 * T_CAP);
    memcpy(b, orig, len);
    lattio_store_be32(b + 44, 0);
    lattio_store_be32(b + 92, t_crc32(0, b, 92));
    for (uint32_t t = 0; t < NT; t++) {
        uint64_t nb = t_size(t) ? (t_size(t) + T_CAP - 1) / T_CAP : 1;
        size_t tr = trailer(t, nb - 1);
        lattio_store_be32(b + tr + 52, 0);
        lattio_store_be32(b + tr + 60, t_crc32(0, b + tr, 60));
    }
    write_file("v1.ltc", b, len);
    lattio_container_reader *r = NULL;
    lattio_container_info info;
    uint32_t crc = 0;
    CHECK_OK(lattio_container_open_serial("v1.ltc", 0, &r));
    CHECK_OK(lattio_container_reader_info(r, &info));
    CHECK_INT(info.stream_crcs, 0);
    CHECK_STATUS(lattio_container_reader_stream_crc(r, 2, &crc), LATTIO_ERR_NOT_FOUND);
    for (uint32_t t = 0; t < NT; t++)
        CHECK_OK(lattio_container_reader_read(r, t, 0, buf, (size_t)t_size(t)));
    lattio_container_reader_close(r);
    free(buf);
    free(b);
}

int main(void)
{
    size_t len = 0;
    CHECK_OK(t_write_container("c.ltc", NT, 1));
    t_check_file("c.ltc", NT, 1, 0, 0, NT);
    unsigned char *orig = test_slurp("c.ltc", &len);
    CHECK(orig != NULL && len == T_START + 6 * NT * T_STRIDE + 64);
    if (!orig || len != T_START + 6 * NT * T_STRIDE + 64) return test_finish();
    flipped_chunk(orig, len);
    stream_crcs();
    wrong_stream_crc(orig, len);
    without_stream_crcs(orig, len);
    free(orig);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
