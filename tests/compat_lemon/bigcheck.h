/* bigcheck.h -- pieces of the large-data Lemon tests: reading windows of the
 * file on disk (rank 0) for comparison with expected bytes. */
#ifndef LATTIO_LEMON_BIGCHECK_H
#define LATTIO_LEMON_BIGCHECK_H

#include "lemontest.h"

#include <fcntl.h>
#include <unistd.h>

typedef unsigned char (*byte_fn)(uint64_t payload_offset);

/* Rank 0: the n payload bytes at payload offset `at` (payload at file offset
 * `base`) equal fn(offset). */
static inline int window_ok(const char *path, uint64_t base, uint64_t at, size_t n, byte_fn fn)
{
    unsigned char buf[256];
    int fd = open(path, O_RDONLY);
    if (fd < 0 || n > sizeof buf) return 0;
    ssize_t got = pread(fd, buf, n, (off_t)(base + at));
    close(fd);
    if (got != (ssize_t)n) return 0;
    for (size_t i = 0; i < n; i++)
        if (buf[i] != fn(at + i)) {
            fprintf(stderr, "%s: payload byte %llu differs\n", path, (unsigned long long)(at + i));
            return 0;
        }
    return 1;
}

/* Rank 0: the bytes at file offset `at` equal want[0..n). */
static inline int bytes_at(const char *path, uint64_t at, const unsigned char *want, size_t n)
{
    unsigned char buf[256];
    int fd = open(path, O_RDONLY);
    if (fd < 0 || n > sizeof buf) return 0;
    ssize_t got = pread(fd, buf, n, (off_t)at);
    close(fd);
    return got == (ssize_t)n && memcmp(buf, want, n) == 0;
}

/* Every rank learns rank 0's verdict. */
static inline void check_root(int ok)
{
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK(ok);
}

#endif
