/* contest.h -- shared pieces of the container tests: the deterministic byte
 * each task writes at each stream offset, and the on-disk geometry computed
 * independently of the library (docs/format.md, section 8). */
#ifndef LATTIO_CONTEST_H
#define LATTIO_CONTEST_H

#include "testutil.h"
#include "container/container_internal.h"

#include <stdint.h>

/* Byte i of task t's stream. */
static inline unsigned char pattern_byte(uint32_t t, uint64_t i)
{
    return (unsigned char)(t * 131u + i * 7u + (i >> 9) * 13u + 1u);
}

static inline void pattern_fill(uint32_t t, uint64_t first, unsigned char *buf, size_t n)
{
    for (size_t k = 0; k < n; k++) buf[k] = pattern_byte(t, first + k);
}

/* Count of bytes in buf that differ from task t's pattern from `first` on. */
static inline size_t pattern_mismatches(uint32_t t, uint64_t first, const unsigned char *buf, size_t n)
{
    size_t bad = 0;
    for (size_t k = 0; k < n; k++) bad += buf[k] != pattern_byte(t, first + k);
    return bad;
}

/* Geometry as the format defines it: align 512, chunk_hint 1000 gives a
 * stride of round_up(1000 + 64, 512) = 1536 and 1472 data bytes per chunk;
 * block b, task t at 512 + (b * ntasks + t) * 1536. */
#define T_ALIGN 512u
#define T_HINT 1000u
#define T_STRIDE 1536u
#define T_CAP 1472u
#define T_START 512u

static inline uint64_t t_chunk(uint32_t ntasks, uint32_t t, uint64_t b)
{
    return T_START + (b * ntasks + t) * (uint64_t)T_STRIDE;
}

/* Stream size of task t in the tests' size table: empty, small, several
 * chunks plus a bit, exactly one chunk, exactly two. */
static inline uint64_t t_size(uint32_t t)
{
    static const uint64_t sizes[5] = {0, 100, 5 * (uint64_t)T_CAP + 3, T_CAP, 2 * (uint64_t)T_CAP};
    return sizes[t % 5] + (t / 5) * 11;
}

/* Write a container of ntasks streams of t_size(t) bytes with the serial
 * writer, interleaving tasks in pieces of 333 bytes (task 2 mod 5 in one
 * write larger than a chunk).  close_it 0 abandons it before close, as a
 * killed writer.  Returns a lattio status. */
static inline int t_write_container(const char *path, uint32_t ntasks, int close_it)
{
    lattio_container_writer *w = NULL;
    unsigned char *buf = malloc(8 * (size_t)T_CAP);
    uint64_t done[64] = {0};
    int rc = buf && ntasks <= 64 ? lattio_container_create_serial(path, ntasks, T_HINT, T_ALIGN, &w)
                                 : LATTIO_ERR_ARG;
    for (int more = 1; rc == LATTIO_OK && more;) {
        more = 0;
        for (uint32_t t = 0; t < ntasks && rc == LATTIO_OK; t++) {
            uint64_t left = t_size(t) - done[t], k = t % 5 == 2 ? left : (left < 333 ? left : 333);
            if (!left) continue;
            pattern_fill(t, done[t], buf, (size_t)k);
            rc = lattio_container_writer_write(w, t, buf, (size_t)k);
            done[t] += k;
            more = 1;
        }
    }
    free(buf);
    if (!close_it) return rc == LATTIO_OK ? lattio_container_writer_abandon(w) : rc;
    int crc = lattio_container_writer_close(w);
    return rc < 0 ? rc : crc;
}

#endif
