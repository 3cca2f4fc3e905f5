/* nb_record_padding.c -- Lemon defect 3: records written with
 * lattio_record_iwrite_at get their zero padding (lengths 11*np+3, never a
 * multiple of 8), the next header lands right after it, the caller's buffer
 * may be reused at once, a record left pending at close is completed and
 * padded, and a short record (allow_short, no padding) ended while a
 * request is pending still gets its full length on disk.  Bytes are
 * checked against a hand-built image. */
#include "nbutil.h"

#define PIECE 11

static unsigned char byte_at(uint64_t i) { return (unsigned char)(i * 7 + 1); }

/* Rank r writes [3 + 11*(np-1-r), +11); rank 0 also the first 3 bytes. */
static void write_odd(lattio_file *f, uint64_t len, lattio_request **ra, lattio_request **rb)
{
    unsigned char buf[PIECE];
    uint64_t off = 3 + (uint64_t)(mpitest_size - 1 - mpitest_rank) * PIECE;
    for (int i = 0; i < PIECE; i++) buf[i] = byte_at(off + (uint64_t)i);
    CHECK_OK(lattio_record_begin(f, "odd", len, 0, 0));
    CHECK_OK(lattio_record_iwrite_at(f, off, buf, PIECE, ra));
    memset(buf, 0xEE, sizeof buf); /* the request owns a copy */
    for (int i = 0; i < 3; i++) buf[i] = byte_at((uint64_t)i);
    CHECK_OK(lattio_record_iwrite_at(f, 0, buf, mpitest_rank == 0 ? 3 : 0, rb));
    memset(buf, 0xEE, sizeof buf);
    CHECK_OK(lattio_record_end(f, 0));
}

static void expected(image *im, uint64_t len)
{
    unsigned char *p = malloc(len);
    for (uint64_t i = 0; i < len; i++) p[i] = byte_at(i);
    unsigned char s[16] = {0};
    memcpy(s, "halfhalf", 8);
    image_record(im, "first", "x", 1, 1, 0);
    image_record(im, "odd", p, len, 0, 0);
    image_record(im, "next", "nxt", 3, 0, 0);
    image_record(im, "odd", p, len, 0, 0);
    image_record(im, "short", s, 16, 0, 1);
    free(p);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    uint64_t len = 3 + (uint64_t)mpitest_size * PIECE;
    CHECK(len % 8 != 0);
    lattio_file *f = NULL;
    lattio_request *ra = NULL, *rb = NULL, *rc = NULL, *rd = NULL, *rs = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "pad.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_write(f, "first", "x", 1, 1, 0));
    write_odd(f, len, &ra, &rb);
    uint64_t next = 152 + 144 + len + (8 - len % 8);
    CHECK_U64(lattio_file_position(f), next);
    CHECK_OK(lattio_record_write(f, "next", "nxt", 3, 0, 0));
    CHECK_OK(lattio_wait(&rb));
    CHECK_OK(lattio_wait(&ra));
    write_odd(f, len, &rc, &rd); /* left pending */
    CHECK_OK(lattio_record_begin(f, "short", 16, 0, 1));
    CHECK_OK(lattio_record_iwrite_at(f, 0, "halfhalf", mpitest_rank == 0 ? 8 : 0, &rs));
    CHECK_OK(lattio_record_end(f, 1)); /* 8 bytes short, no padding: extended at close */
    CHECK_OK(lattio_close(f));
    image im = {0};
    expected(&im, len);
    check_file("pad.lime", &im);
    free(im.b);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
