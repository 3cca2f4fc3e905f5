/* Hostile bytes: a good container with random bytes changed, fields set to
 * extreme values and random cuts.  Every open returns OK or a negative
 * status (never crashes or hangs, under the sanitizers), and whatever an
 * open accepts can be read in full within the sizes it reports (flipped
 * stream bytes fail their CRC). */
#include "contest.h"

#define NT 5u

static uint64_t rng = 88172645463325252ULL;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void try_open(const unsigned char *b, size_t len, int flags, int *accepted)
{
    FILE *f = fopen("h.ltc", "wb");
    fwrite(b, 1, len, f);
    fclose(f);
    lattio_container_reader *r = NULL;
    int rc = lattio_container_open_serial("h.ltc", flags, &r);
    CHECK(rc <= 0);
    if (rc != LATTIO_OK) return;
    (*accepted)++;
    lattio_container_info info;
    CHECK_OK(lattio_container_reader_info(r, &info));
    unsigned char buf[4096];
    for (uint32_t t = 0; t < info.ntasks && t < 64; t++) {
        uint64_t size = 0;
        CHECK_OK(lattio_container_reader_size(r, t, &size, NULL));
        for (uint64_t o = 0; o < size; o += sizeof buf) {
            size_t k = size - o < sizeof buf ? (size_t)(size - o) : sizeof buf;
            int rrc = lattio_container_reader_read(r, t, o, buf, k);
            CHECK(rrc == LATTIO_OK || rrc == LATTIO_ERR_CONTAINER_TRUNCATED ||
                  rrc == LATTIO_ERR_CONTAINER_CHECKSUM); /* data flips are detected */
        }
    }
    lattio_container_reader_close(r);
}

int main(void)
{
    size_t len = 0;
    int accepted = 0;
    CHECK_OK(t_write_container("good.ltc", NT, 1));
    unsigned char *orig = test_slurp("good.ltc", &len), *c = malloc(len);
    if (!orig || !c) return 1;
    for (int i = 0; i < 600; i++) {
        memcpy(c, orig, len);
        int flips = 1 + (int)(next() % 4);
        for (int k = 0; k < flips; k++) {
            size_t at = i % 3 == 0 ? (size_t)(next() % 96) : (size_t)(next() % len);
            c[at] = (unsigned char)(i % 2 ? next() : 0xff);
        }
        size_t n = i % 5 == 0 ? (size_t)(next() % len) : len;
        try_open(c, n, i % 2 ? LATTIO_CONTAINER_RECOVER : 0, &accepted);
    }
    CHECK(accepted > 0); /* flips in stream data leave a readable container */
    free(c);
    free(orig);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
