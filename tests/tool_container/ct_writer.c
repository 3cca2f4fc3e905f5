/* ct_writer.c -- MPI program for the `lattio container` tests and their
 * Python scripts (ctutil.py computes the same sizes and bytes).
 *
 *   ct_writer write PATH CAP ALIGN [SLOW_MS [in_place|- [NFILES]]]
 *     each rank writes task `rank`'s stream: ct_size(rank) bytes of
 *     ct_byte(rank, i), in pieces of 1000 bytes (tasks 3 mod 4: one write).
 *     CAP + 64 must be a multiple of ALIGN (then CAP is the chunk capacity).
 *     SLOW_MS > 0: every task writes 40 * CAP bytes one chunk at a time,
 *     sleeping SLOW_MS milliseconds after each (for the SIGKILL test).
 *     NFILES > 1: that many physical files (PATH, PATH.000001, ...).
 *   ct_writer read PATH CAP
 *     the ranks share the tasks (rank, rank + size, ...) and compare each
 *     stream's size and bytes with the expected ones (any rank count).
 * Exit status 0 when every check passed on every rank. */
#define _POSIX_C_SOURCE 200809L
#include "lattio.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SLOW_CHUNKS 40

static uint64_t ct_size(uint32_t t, uint64_t cap, int slow)
{
    if (slow) return SLOW_CHUNKS * cap;
    switch (t % 6) {
    case 0: return 3 * cap + 17;
    case 1: return 0;
    case 2: return cap;
    case 3: return 1;
    case 4: return 2 * cap - 5;
    default: return 5 * cap + 123;
    }
}

static unsigned char ct_byte(uint32_t t, uint64_t i)
{
    return (unsigned char)((i * 131u + (uint64_t)t * 7u + (i >> 8) * 3u + 1u) & 0xffu);
}

static void fill(uint32_t t, uint64_t first, unsigned char *buf, size_t n)
{
    for (size_t k = 0; k < n; k++) buf[k] = ct_byte(t, first + k);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int fail(int rank, const char *what, int rc)
{
    fprintf(stderr, "ct_writer rank %d: %s: %s (%s)\n", rank, what, lattio_strerror(rc),
            lattio_error_name(rc));
    return 1;
}

static int write_stream(lattio_container *c, uint32_t t, uint64_t cap, long slow_ms)
{
    uint64_t size = ct_size(t, cap, slow_ms > 0), done = 0;
    uint64_t piece = slow_ms > 0 ? cap : (t % 4 == 3 ? (size ? size : 1) : 1000);
    unsigned char *buf = malloc((size_t)piece);
    if (!buf) return LATTIO_ERR_NOMEM;
    int rc = LATTIO_OK;
    while (rc == LATTIO_OK && done < size) {
        uint64_t k = size - done < piece ? size - done : piece;
        fill(t, done, buf, (size_t)k);
        rc = lattio_container_write(c, buf, k);
        done += k;
        if (slow_ms > 0) sleep_ms(slow_ms);
    }
    free(buf);
    return rc;
}

static int do_write(int rank, int argc, char **argv)
{
    uint64_t cap = strtoull(argv[3], NULL, 10), align = strtoull(argv[4], NULL, 10);
    long slow_ms = argc > 5 ? atol(argv[5]) : 0;
    lattio_container_options opt;
    lattio_container_options_default(&opt);
    opt.align = align;
    opt.in_place = argc > 6 && strcmp(argv[6], "in_place") == 0;
    opt.nfiles = argc > 7 ? (uint32_t)atoi(argv[7]) : 0;
    lattio_container *c = NULL;
    int rc = lattio_container_open(MPI_COMM_WORLD, argv[2], LATTIO_MODE_CREATE, cap, MPI_INFO_NULL,
                                   &opt, &c);
    if (rc < 0) return fail(rank, "open", rc);
    int bad = 0;
    rc = write_stream(c, (uint32_t)rank, cap, slow_ms);
    if (rc < 0) bad = fail(rank, "write", rc);
    rc = lattio_container_close(c);
    if (rc < 0) bad = fail(rank, "close", rc);
    return bad;
}

static int check_task(lattio_container *c, uint32_t t, uint64_t cap, unsigned char *buf,
                      unsigned char *want)
{
    uint64_t size = 0, pos = 0, got = 0;
    if (lattio_container_select(c, t) < 0 || lattio_container_stream_size(c, t, &size) < 0) return 1;
    if (size != ct_size(t, cap, 0)) {
        fprintf(stderr, "task %u: size %llu, want %llu\n", t, (unsigned long long)size,
                (unsigned long long)ct_size(t, cap, 0));
        return 1;
    }
    while (pos < size) {
        if (lattio_container_read(c, buf, 777, &got) < 0 || got == 0) return 1;
        fill(t, pos, want, (size_t)got);
        if (memcmp(buf, want, (size_t)got) != 0) {
            fprintf(stderr, "task %u: bytes differ near %llu\n", t, (unsigned long long)pos);
            return 1;
        }
        pos += got;
    }
    return lattio_container_eof(c) ? 0 : 1;
}

static int do_read(int rank, int size, char **argv)
{
    uint64_t cap = strtoull(argv[3], NULL, 10);
    lattio_container *c = NULL;
    int rc = lattio_container_open(MPI_COMM_WORLD, argv[2], LATTIO_MODE_READ, 0, MPI_INFO_NULL,
                                   NULL, &c);
    if (rc < 0) return fail(rank, "open for reading", rc);
    unsigned char buf[777], want[777];
    int bad = 0;
    uint32_t n = lattio_container_ntasks(c);
    for (uint32_t t = (uint32_t)rank; t < n; t += (uint32_t)size) bad |= check_task(c, t, cap, buf, want);
    rc = lattio_container_close(c);
    if (rc < 0) bad = fail(rank, "close", rc);
    return bad;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1, bad = 1, total = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc >= 5 && strcmp(argv[1], "write") == 0)
        bad = do_write(rank, argc, argv);
    else if (argc >= 4 && strcmp(argv[1], "read") == 0)
        bad = do_read(rank, size, argv);
    else if (rank == 0)
        fprintf(stderr, "usage: ct_writer write PATH CAP ALIGN [SLOW_MS [in_place|- [NFILES]]] | read PATH CAP\n");
    MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return total ? 1 : 0;
}
