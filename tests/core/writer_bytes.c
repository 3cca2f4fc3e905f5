/* writer_bytes.c -- the bytes the writer puts on disk, against bytes built
 * by hand here and against the C-LIME reference writer's own test file. */
#include "testutil.h"

/* Expected file for two records, built without the library. */
static size_t expected_two(unsigned char *out)
{
    memset(out, 0, 1024);
    unsigned char *h = out;
    const unsigned char magic[6] = {0x45, 0x67, 0x89, 0xAB, 0, 1};
    memcpy(h, magic, 6), h[6] = 0x80, h[15] = 5, memcpy(h + 16, "first", 5);
    memcpy(out + 144, "hello", 5); /* + 3 NUL */
    h = out + 152;
    memcpy(h, magic, 6), h[6] = 0x40, h[15] = 0, memcpy(h + 16, "empty", 5);
    h = out + 296;
    memcpy(h, magic, 6), h[6] = 0xC0, h[15] = 16, memcpy(h + 16, "sixteen", 7);
    memcpy(out + 440, "0123456789abcdef", 16);
    return 456;
}

static void two_records(void)
{
    lattio_lime_writer *w = NULL;
    CHECK_OK(lattio_lime_writer_open("two.lime", LATTIO_LIME_CREATE, &w));
    CHECK_OK(lattio_lime_writer_record(w, "first", "hello", 5, 1, 0));
    CHECK_U64(lattio_lime_writer_offset(w), 152);
    CHECK_OK(lattio_lime_writer_record(w, "empty", NULL, 0, 0, 1));
    CHECK_OK(lattio_lime_writer_begin(w, "sixteen", 16, 1, 1));
    CHECK_OK(lattio_lime_writer_write(w, "0123", 4));
    CHECK_OK(lattio_lime_writer_write(w, "", 0));
    CHECK_OK(lattio_lime_writer_write(w, "456789abcdef", 12));
    CHECK_OK(lattio_lime_writer_end(w));
    CHECK_OK(lattio_lime_writer_close(w));
    unsigned char want[1024];
    size_t n = expected_two(want), len = 0;
    unsigned char *got = test_slurp("two.lime", &len);
    CHECK_INT(len, n);
    CHECK(got && len == n && memcmp(got, want, n) == 0);
    free(got);
}

/* Rewrite lime_writer_test1.lime record by record from its payloads and
 * flags: the result must be identical, byte for byte. */
static void reference_file(void)
{
    size_t len = 0;
    unsigned char *ref = test_slurp(test_data("lime_writer_test1.lime"), &len);
    lattio_lime_reader *r = NULL;
    lattio_lime_writer *w = NULL;
    CHECK_OK(lattio_lime_reader_open(test_data("lime_writer_test1.lime"), &r));
    CHECK_OK(lattio_lime_writer_open("copy.lime", LATTIO_LIME_CREATE, &w));
    lattio_record_info info;
    int n = 0;
    while (r && w && lattio_lime_reader_next(r, &info) == LATTIO_OK) {
        char buf[256];
        CHECK_OK(lattio_lime_reader_read_at(r, 0, buf, (size_t)info.length));
        CHECK_OK(lattio_lime_writer_record(w, info.type, buf, info.length, info.mb, info.me));
        n++;
    }
    CHECK_INT(n, 5);
    lattio_lime_reader_close(r);
    CHECK_OK(lattio_lime_writer_close(w));
    size_t clen = 0;
    unsigned char *copy = test_slurp("copy.lime", &clen);
    CHECK_INT(clen, len);
    CHECK(copy && ref && clen == len && memcmp(copy, ref, len) == 0);
    free(copy);
    free(ref);
}

int main(void)
{
    two_records();
    reference_file();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
