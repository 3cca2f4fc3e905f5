/* durable_writeback.c -- durable writes with early writeback (each
 * independent piece of at least 1 MiB handed to the kernel's writeback at
 * once; pieces of 32 MiB; non-blocking pieces at their completion): a
 * 48 MiB record written by 1-4 ranks, blocking (one rank's run spans
 * several pieces at 1 rank) and non-blocking, gives the bytes computed
 * here, the same file as with LATTIO_WRITEBACK=0, and leaves no
 * descriptor open after close.  The test stands in for sync_file_range
 * (then makes the system call itself) and counts the bytes handed to
 * writeback: every byte a rank wrote, blocking or not (non-blocking
 * pieces of 256 KiB are handed over as the runs they form), none with
 * LATTIO_WRITEBACK=0. */
#define _GNU_SOURCE /* sync_file_range */
#include "mpitest.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static uint64_t handed; /* bytes this rank handed to writeback */

int sync_file_range(int fd, off64_t offset, off64_t nbytes, unsigned int flags)
{
    handed += (uint64_t)nbytes;
    return (int)syscall(SYS_sync_file_range, fd, offset, nbytes, flags);
}

#define SITE 4096u
#define SITES (12u * 1024u) /* 48 MiB */

static unsigned char byte_at(uint64_t i)
{
    return (unsigned char)((i * 2654435761u) >> 11 ^ i >> 20);
}

static int open_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    for (struct dirent *e; d && (e = readdir(d));) n += e->d_name[0] != '.';
    if (d) closedir(d);
    return n;
}

static void write_file(const char *path, int writeback, int nonblocking)
{
    setenv("LATTIO_WRITEBACK", writeback ? "1" : "0", 1);
    const uint64_t g[1] = {SITES};
    uint64_t lo[1], count[1];
    CHECK_OK(lattio_split(SITES, (uint64_t)mpitest_size, (uint64_t)mpitest_rank, lo, count));
    lattio_layout l;
    CHECK_OK(lattio_layout_init(&l, 1, g, lo, count, SITE));
    const size_t n = (size_t)count[0] * SITE;
    unsigned char *buf = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++) buf[i] = byte_at(lo[0] * SITE + i);
    lattio_options opt;
    lattio_options_default(&opt);
    opt.durable = 1;
    const int before = open_fds();
    handed = 0;
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, &opt, &f));
    CHECK_OK(lattio_record_begin(f, "lattio-test", (uint64_t)SITES * SITE, 1, 1));
    if (nonblocking) {
        lattio_request *req = NULL;
        CHECK_OK(lattio_lattice_iwrite(f, &l, 0, buf, &req));
        CHECK_OK(lattio_wait(&req));
    } else {
        CHECK_OK(lattio_lattice_write(f, &l, 0, buf));
    }
    CHECK_OK(lattio_record_end(f, 0));
    CHECK_OK(lattio_close(f));
    CHECK_INT(open_fds(), before);
    CHECK_U64(handed, writeback ? (uint64_t)n : 0); /* every rank's run is >= 1 MiB */
    free(buf);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Rank 0: the payload of the only record, byte by byte. */
static void check_payload(const char *path)
{
    size_t n = 0;
    unsigned char *p = test_slurp(path, &n);
    CHECK(p && n == 144 + (size_t)SITES * SITE);
    uint64_t bad = 0;
    for (size_t i = 0; p && i < (size_t)SITES * SITE; i++) bad += p[144 + i] != byte_at(i);
    CHECK_U64(bad, 0);
    free(p);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    write_file("wb.lime", 1, 0);
    write_file("nbwb.lime", 1, 1);
    write_file("nowb.lime", 0, 0);
    if (mpitest_rank == 0) {
        check_payload("wb.lime");
        check_payload("nbwb.lime");
        size_t a = 0, b = 0;
        unsigned char *pa = test_slurp("wb.lime", &a), *pb = test_slurp("nowb.lime", &b);
        CHECK(pa && pb && a == b && memcmp(pa, pb, a) == 0);
        free(pa);
        free(pb);
    }
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
