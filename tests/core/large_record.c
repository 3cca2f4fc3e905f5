/* large_record.c -- a record of 4 GiB + 16 bytes written in one call and
 * read back: no 32-bit count or offset truncation anywhere on the path.
 * Labelled "large" (several GiB of disk and memory, tens of seconds). */
#include "testutil.h"

#include <unistd.h>

#define BIG (UINT64_C(4) * 1024 * 1024 * 1024 + 16)

static const uint64_t spots[] = {0, 4095, (UINT64_C(1) << 31) - 1, UINT64_C(1) << 31,
                                 (UINT64_C(1) << 32) - 1, UINT64_C(1) << 32, BIG - 1};
#define NSPOTS (sizeof spots / sizeof spots[0])

static unsigned char mark(size_t i) { return (unsigned char)(0xA0 + i); }

int main(void)
{
    unsigned char *buf = calloc(BIG, 1); /* untouched pages stay zero and cheap */
    CHECK(buf != NULL);
    if (!buf) return test_finish();
    for (size_t i = 0; i < NSPOTS; i++) buf[spots[i]] = mark(i);
    lattio_lime_writer *w = NULL;
    CHECK_OK(lattio_lime_writer_open("big.lime", LATTIO_LIME_CREATE, &w));
    CHECK_OK(lattio_lime_writer_record(w, "head", "h", 1, 1, 0));
    CHECK_OK(lattio_lime_writer_record(w, "big", buf, BIG, 0, 0));
    CHECK_OK(lattio_lime_writer_record(w, "tail", "t", 1, 0, 1));
    CHECK_OK(lattio_lime_writer_close(w));
    free(buf);

    lattio_lime_reader *r = NULL;
    lattio_record_info info;
    CHECK_OK(lattio_lime_reader_open("big.lime", &r));
    CHECK_OK(lattio_lime_reader_find(r, "big", 0, &info));
    CHECK_U64(info.offset, 152);
    CHECK_U64(info.length, BIG);
    for (size_t i = 0; i < NSPOTS; i++) {
        unsigned char b[2] = {0, 0};
        size_t n = spots[i] + 2 <= BIG ? 2 : 1;
        CHECK_OK(lattio_lime_reader_read_at(r, spots[i], b, n));
        CHECK_INT(b[0], mark(i));
        if (n == 2 && !(i + 1 < NSPOTS && spots[i + 1] == spots[i] + 1)) CHECK_INT(b[1], 0);
    }
    /* one sequential read of the whole payload in 1 GiB pieces */
    size_t piece = (size_t)1 << 30, got = 0;
    unsigned char *p = malloc(piece);
    uint64_t total = 0, marks = 0;
    do {
        CHECK_OK(lattio_lime_reader_read(r, p, piece, &got));
        for (size_t i = 0; i < NSPOTS; i++)
            if (spots[i] >= total && spots[i] < total + got) marks += p[spots[i] - total] == mark(i);
        total += got;
    } while (got > 0);
    CHECK_U64(total, BIG);
    CHECK_U64(marks, NSPOTS);
    CHECK_OK(lattio_lime_reader_next(r, &info));
    CHECK_STR(info.type, "tail");
    CHECK_U64(info.offset, 152 + 144 + BIG + 0);
    lattio_lime_reader_close(r);
    free(p);
    size_t count = 1, nrec = 0;
    CHECK_OK(lattio_lime_check("big.lime", NULL, 0, &count, &nrec));
    CHECK_INT(nrec, 3);
    unlink("big.lime");
    return test_finish();
}
