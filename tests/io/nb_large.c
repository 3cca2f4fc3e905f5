/* nb_large.c -- more than 2 GiB per rank through the non-blocking calls: a
 * 1-D lattice of 2049 sites of 1 MiB (with ghost sites) is written with
 * lattio_lattice_iwrite (pieces of at most 1 GiB, no int count anywhere),
 * bytes on disk around 2^31 are checked with pread against the formula,
 * then the lattice is read back with lattio_lattice_iread and a window
 * across 2^31 with lattio_record_iread_at. */
#include "nbutil.h"

#include <fcntl.h>
#include <unistd.h>

#define POISON_BYTE 0xA5

#define SB ((uint64_t)1 << 20)
#define SITES 2049 /* 2 GiB + 1 MiB */

static unsigned char val(uint64_t p) { return (unsigned char)(((p >> 31) * 97) ^ (p * 131 + (p >> 9) + 7)); }

/* Fill (or check) the interior of a buffer with one ghost site per side. */
static uint64_t sweep(unsigned char *buf, int check)
{
    uint64_t bad = 0;
    for (uint64_t p = 0; p < SITES * SB; p++) {
        if (check) bad += buf[SB + p] != val(p);
        else buf[SB + p] = val(p);
    }
    return bad;
}

static void check_disk(uint64_t data)
{
    int fd = open("large.lime", O_RDONLY);
    CHECK(fd >= 0);
    static const uint64_t at[] = {0, ((uint64_t)1 << 30) - 8, ((uint64_t)1 << 31) - 8,
                                  SITES * SB - 16};
    for (int i = 0; i < 4; i++) {
        unsigned char b[16];
        CHECK_INT(pread(fd, b, 16, (off_t)(data + at[i])), 16);
        int bad = 0;
        for (int k = 0; k < 16; k++) bad += b[k] != val(at[i] + (uint64_t)k);
        CHECK_INT(bad, 0);
    }
    CHECK_U64((uint64_t)lseek(fd, 0, SEEK_END), data + SITES * SB);
    close(fd);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    const uint64_t g = SITES, lo = 0, n = SITES, bytes = SITES * SB, total = (SITES + 2) * SB;
    lattio_layout l;
    CHECK_OK(lattio_layout_init(&l, 1, &g, &lo, &n, (size_t)SB));
    l.halo_lo[0] = l.halo_hi[0] = 1;
    unsigned char *buf = malloc(total);
    CHECK(buf != NULL);
    memset(buf, POISON_BYTE, total);
    sweep(buf, 0);
    lattio_file *f = NULL;
    lattio_request *req = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "large.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_begin(f, "big", bytes, 1, 1));
    CHECK_OK(lattio_lattice_iwrite(f, &l, 0, buf, &req));
    CHECK_OK(lattio_record_end(f, 0));
    CHECK_OK(lattio_wait(&req));
    CHECK_OK(lattio_close(f));
    check_disk(144);
    memset(buf, POISON_BYTE, total);
    lattio_record_info info;
    unsigned char win[64];
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "large.lime", LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_next(f, &info));
    CHECK_U64(info.length, bytes);
    CHECK_OK(lattio_lattice_iread(f, &l, 0, buf, &req));
    lattio_request *rw = NULL;
    CHECK_OK(lattio_record_iread_at(f, ((uint64_t)1 << 31) - 32, win, 64, &rw));
    CHECK_OK(lattio_wait(&rw));
    CHECK_OK(lattio_wait(&req));
    CHECK_OK(lattio_close(f));
    int bad = 0;
    for (int k = 0; k < 64; k++) bad += win[k] != val(((uint64_t)1 << 31) - 32 + (uint64_t)k);
    CHECK_INT(bad, 0);
    CHECK_U64(sweep(buf, 1), 0);
    CHECK(buf[0] == POISON_BYTE && buf[total - 1] == POISON_BYTE); /* ghosts untouched */
    free(buf);
    unlink("large.lime");
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
