/* Recovery: a writer abandoned before close, and a closed container cut at
 * many points.  The recovery scan must give every task exactly the chunks
 * whose trailer lies within the file, up to its first missing one; the
 * expected sizes are computed here from the format, not by the library. */
#include "contest.h"

#include <unistd.h>

#define NT 5u

/* Recoverable bytes of task t when the file is cut to `len` bytes (the
 * writer closed it) or when it never finished (`abandoned`: only full
 * chunks carry a trailer). */
static uint64_t expected(uint32_t t, uint64_t len, int abandoned)
{
    uint64_t size = t_size(t), nb = size ? (size + T_CAP - 1) / T_CAP : 1, got = 0;
    for (uint64_t b = 0; b < nb; b++) {
        uint64_t used = size - b * T_CAP < T_CAP ? size - b * T_CAP : T_CAP;
        if (t_chunk(NT, t, b) + T_STRIDE > len) break;
        if (abandoned && used < T_CAP) break;
        got += used;
    }
    return got;
}

static void check_recovered(const char *path, uint64_t len, int abandoned)
{
    lattio_container_reader *r = NULL;
    int rc = lattio_container_open_serial(path, LATTIO_CONTAINER_RECOVER, &r);
    if (len < 96) {
        CHECK_STATUS(rc, LATTIO_ERR_CONTAINER_TRUNCATED);
        return;
    }
    CHECK_OK(rc);
    unsigned char *buf = malloc(8 * T_CAP);
    for (uint32_t t = 0; r && t < NT; t++) {
        uint64_t size = 99, want = expected(t, len, abandoned);
        CHECK_OK(lattio_container_reader_size(r, t, &size, NULL));
        CHECK_U64(size, want);
        if (size != want || size > 8 * T_CAP) continue;
        CHECK_OK(lattio_container_reader_read(r, t, 0, buf, (size_t)size));
        CHECK_INT(pattern_mismatches(t, 0, buf, (size_t)size), 0);
    }
    free(buf);
    lattio_container_reader_close(r);
}

static void abandoned_writer(void)
{
    lattio_container_reader *r = NULL;
    CHECK_OK(t_write_container("a.ltc", NT, 0));
    CHECK_STATUS(lattio_container_open_serial("a.ltc", 0, &r), LATTIO_ERR_CONTAINER_TRUNCATED);
    CHECK(r == NULL);
    FILE *f = fopen("a.ltc", "rb");
    fseek(f, 0, SEEK_END);
    uint64_t len = (uint64_t)ftell(f);
    fclose(f);
    check_recovered("a.ltc", len, 1);
    /* task 2 (5 chunks + 3 bytes) keeps its five full chunks */
    CHECK_U64(expected(2, len, 1), 5 * (uint64_t)T_CAP);
}

static void cut_container(void)
{
    size_t len = 0;
    CHECK_OK(t_write_container("c.ltc", NT, 1));
    unsigned char *orig = test_slurp("c.ltc", &len);
    if (!orig) { CHECK(0); return; }
    for (uint64_t cut = 0; cut < len; cut += 397) {
        FILE *f = fopen("cut.ltc", "wb");
        fwrite(orig, 1, (size_t)cut, f);
        fclose(f);
        check_recovered("cut.ltc", cut, 0);
    }
    check_recovered("c.ltc", len, 0); /* whole: everything */
    free(orig);
}

int main(void)
{
    abandoned_writer();
    cut_container();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
