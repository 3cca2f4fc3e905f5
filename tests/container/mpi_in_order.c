/* In-order verification of the MPI reader (docs/format.md 8.6): every rank
 * writes 3 chunks + 7 bytes; rank 0 flips one byte in chunk 1 of the last
 * task.  Reading that stream in order returns the bytes of chunk 1 until
 * the read that reaches the chunk's end, which fails; leaving the
 * part-read chunk (seek, close) checks its rest and fails there; a read
 * starting inside an unchecked chunk fails at once; other streams and
 * no_verify read fine. */
#include "mpiutil.h"

#define SIZE (3 * (uint64_t)T_CAP + 7)
#define BAD_POS ((uint64_t)T_CAP + 1000) /* in chunk 1 */

static lattio_container *open_read(int no_verify)
{
    lattio_container_options opt;
    lattio_container *c = NULL;
    lattio_container_options_default(&opt);
    opt.no_verify = no_verify;
    CHECK_OK(lattio_container_open(MPI_COMM_WORLD, "c.ltc", LATTIO_MODE_READ, 0, MPI_INFO_NULL, &opt, &c));
    return c;
}

/* Read `n` at the position; return the status, *mism the pattern mismatches. */
static int piece(lattio_container *c, uint32_t t, uint64_t n, size_t *mism)
{
    unsigned char buf[500];
    uint64_t got = 0, pos = lattio_container_tell(c);
    int rc = lattio_container_read(c, buf, n, &got);
    *mism = rc == LATTIO_OK ? pattern_mismatches(t, pos, buf, (size_t)got) : 0;
    return rc;
}

/* In pieces of 500 from 0: the first failure is the read reaching the end
 * of chunk 1, after the flipped byte was returned. */
static void in_order(uint32_t bad)
{
    lattio_container *c = open_read(0);
    size_t mism = 0, seen = 0;
    int rc = LATTIO_OK;
    CHECK_OK(lattio_container_select(c, bad));
    while (rc == LATTIO_OK && lattio_container_tell(c) < SIZE) {
        rc = piece(c, bad, 500, &mism);
        seen += mism;
    }
    CHECK_STATUS(rc, LATTIO_ERR_CONTAINER_CHECKSUM);
    CHECK_U64(lattio_container_tell(c), 2500); /* the read [2500, 3000) holds 2944 */
    CHECK_INT((int)seen, 1);                   /* returned by the read [2000, 2500) */
    CHECK_OK(lattio_container_close(c));
}

/* Leaving a part-read chunk checks its rest; a read inside an unchecked
 * chunk is checked before anything is returned. */
static void leaving(uint32_t bad)
{
    lattio_container *c = open_read(0);
    size_t mism = 0;
    CHECK_OK(lattio_container_select(c, bad));
    CHECK_OK(piece(c, bad, 100, &mism));              /* chunk 0, part-read */
    CHECK_OK(lattio_container_seek(c, T_CAP + 10));   /* chunk 0's rest is good */
    CHECK_STATUS(piece(c, bad, 10, &mism), LATTIO_ERR_CONTAINER_CHECKSUM);
    CHECK_OK(lattio_container_seek(c, 2 * (uint64_t)T_CAP)); /* chunk 2: good */
    CHECK_OK(piece(c, bad, 100, &mism));
    CHECK_INT((int)mism, 0);
    CHECK_OK(lattio_container_seek(c, T_CAP)); /* chunk 2's rest checked: good */
    CHECK_OK(piece(c, bad, 100, &mism));       /* chunk 1 from its start: in order */
    CHECK_STATUS(lattio_container_seek(c, 0), LATTIO_ERR_CONTAINER_CHECKSUM);
    CHECK_U64(lattio_container_tell(c), 0);    /* the seek took place */
    CHECK_OK(lattio_container_seek(c, 0));
    CHECK_OK(lattio_container_close(c));
}

/* A part-read bad chunk fails the close, on every rank. */
static void at_close(uint32_t bad)
{
    lattio_container *c = open_read(0);
    size_t mism = 0;
    if (mpitest_rank == 0) {
        CHECK_OK(lattio_container_select(c, bad));
        CHECK_OK(lattio_container_seek(c, T_CAP));
        CHECK_OK(piece(c, bad, 100, &mism));
    }
    CHECK_STATUS(lattio_container_close(c), LATTIO_ERR_CONTAINER_CHECKSUM);
}

/* Every other stream in pieces, and the bad one without verification. */
static void others(uint32_t bad)
{
    lattio_container *c = open_read(0);
    size_t mism = 0, seen = 0;
    for (uint32_t t = 0; t < (uint32_t)mpitest_size; t++) {
        if (t == bad) continue;
        CHECK_OK(lattio_container_select(c, t));
        int rc = LATTIO_OK;
        while (rc == LATTIO_OK && lattio_container_tell(c) < SIZE) {
            rc = piece(c, t, 500, &mism);
            CHECK_OK(rc);
            seen += mism;
        }
        CHECK(lattio_container_eof(c));
    }
    CHECK_INT((int)seen, 0);
    CHECK_OK(lattio_container_close(c));
    c = open_read(1);
    CHECK_OK(lattio_container_select(c, bad));
    int rc = LATTIO_OK;
    while (rc == LATTIO_OK && lattio_container_tell(c) < SIZE) {
        rc = piece(c, bad, 500, &mism);
        CHECK_OK(rc);
        seen += mism;
    }
    CHECK_INT((int)seen, 1);
    CHECK_OK(lattio_container_close(c));
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    lattio_container *c = NULL;
    const uint32_t bad = (uint32_t)mpitest_size - 1;
    unsigned char *buf = malloc(SIZE);
    pattern_fill((uint32_t)mpitest_rank, 0, buf, SIZE);
    CHECK_OK(m_create(MPI_COMM_WORLD, "c.ltc", 0, &c));
    CHECK_OK(lattio_container_write(c, buf, SIZE));
    CHECK_OK(lattio_container_close(c));
    free(buf);
    if (mpitest_rank == 0) {
        FILE *f = fopen("c.ltc", "r+b");
        long at = (long)t_chunk((uint32_t)mpitest_size, bad, 1) + (long)(BAD_POS - T_CAP);
        int ch = 0;
        CHECK(f && fseek(f, at, SEEK_SET) == 0 && (ch = fgetc(f)) != EOF);
        if (f && fseek(f, at, SEEK_SET) == 0) fputc(ch ^ 0x40, f);
        if (f) fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    in_order(bad);
    leaving(bad);
    at_close(bad);
    others(bad);
    return mpitest_finish();
}
