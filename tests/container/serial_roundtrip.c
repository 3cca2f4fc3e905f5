/* A container written by the serial writer: streams of 0, 100, several
 * chunks (one write larger than a chunk), exactly one and two chunks; the
 * bytes on disk where the format puts them, and the serial reader's view. */
#include "contest.h"

#define NT 7u

/* Header bytes, chunk data and file size, computed from the format alone. */
static void check_disk(const unsigned char *f, size_t len)
{
    CHECK(len > T_START && memcmp(f, "LATTIOTC", 8) == 0);
    CHECK_U64(lattio_load_be32(f + 8), 1);       /* version */
    CHECK_U64(lattio_load_be32(f + 24), NT);     /* tasks */
    CHECK_U64(lattio_load_be64(f + 48), T_ALIGN);
    CHECK_U64(lattio_load_be64(f + 56), T_STRIDE);
    CHECK_U64(lattio_load_be64(f + 64), T_START);
    uint64_t nblocks = 0;
    for (uint32_t t = 0; t < NT; t++) {
        uint64_t size = t_size(t), nb = size ? (size + T_CAP - 1) / T_CAP : 1;
        nblocks = nb > nblocks ? nb : nblocks;
        for (uint64_t b = 0; b < nb; b++) {
            uint64_t used = size - b * T_CAP < T_CAP ? size - b * T_CAP : T_CAP;
            uint64_t off = t_chunk(NT, t, b);
            if (off + T_STRIDE > len) { CHECK(0); return; }
            CHECK_INT(pattern_mismatches(t, b * T_CAP, f + off, (size_t)used), 0);
            const unsigned char *tr = f + off + T_STRIDE - 64;
            CHECK(memcmp(tr, "LTIOCHNK", 8) == 0);
            CHECK_U64(lattio_load_be32(tr + 16), t);
            CHECK_U64(lattio_load_be32(tr + 20), b == nb - 1 ? 1 : 0); /* FINAL */
            CHECK_U64(lattio_load_be64(tr + 24), b);
            CHECK_U64(lattio_load_be64(tr + 32), used);
        }
    }
    CHECK_U64(len, T_START + nblocks * NT * T_STRIDE + 64);
    CHECK(memcmp(f + len - 64, "LTIOCEND", 8) == 0);
    CHECK_U64(lattio_load_be64(f + len - 48), nblocks);
}

static void check_reader(void)
{
    lattio_container_reader *r = NULL;
    lattio_container_info info;
    CHECK_OK(lattio_container_open_serial("c.ltc", 0, &r));
    CHECK_OK(lattio_container_reader_info(r, &info));
    CHECK_INT(info.ntasks, NT);
    CHECK_INT(info.complete, 1);
    CHECK_U64(info.chunk, T_CAP);
    CHECK_U64(info.nblocks, 6);
    unsigned char *buf = malloc(8 * T_CAP);
    for (uint32_t t = 0; t < NT; t++) {
        uint64_t size = 0;
        int complete = 0;
        CHECK_OK(lattio_container_reader_size(r, t, &size, &complete));
        CHECK_U64(size, t_size(t));
        CHECK_INT(complete, 1);
        memset(buf, 0, 8 * T_CAP);
        CHECK_OK(lattio_container_reader_read(r, t, 0, buf, (size_t)size));
        CHECK_INT(pattern_mismatches(t, 0, buf, (size_t)size), 0);
        if (size > T_CAP) { /* a piece across a chunk boundary */
            CHECK_OK(lattio_container_reader_read(r, t, T_CAP - 5, buf, 10));
            CHECK_INT(pattern_mismatches(t, T_CAP - 5, buf, 10), 0);
        }
        CHECK_STATUS(lattio_container_reader_read(r, t, size, buf, 1), LATTIO_ERR_RECORD_OVERRUN);
    }
    CHECK_STATUS(lattio_container_reader_size(r, NT, buf ? (uint64_t *)(void *)buf : NULL, NULL),
                 LATTIO_ERR_CONTAINER_TASK);
    free(buf);
    lattio_container_reader_close(r);
}

int main(void)
{
    CHECK_OK(t_write_container("c.ltc", NT, 1));
    size_t len = 0;
    unsigned char *f = test_slurp("c.ltc", &len);
    CHECK(f != NULL);
    if (f) check_disk(f, len);
    free(f);
    check_reader();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
