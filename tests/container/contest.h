/* contest.h -- shared pieces of the container tests: the deterministic byte
 * each task writes at each stream offset, and the on-disk geometry computed
 * independently of the library (docs/format.md, section 8). */
#ifndef LATTIO_CONTEST_H
#define LATTIO_CONTEST_H

#include "testutil.h"
#include "container/container_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* CRC-32 (zlib polynomial), bit by bit: independent of the library's. */
static inline uint32_t t_crc32(uint32_t crc, const unsigned char *p, size_t n)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/* CRC-32 of task t's pattern bytes [first, first + n). */
static inline uint32_t t_pattern_crc(uint32_t t, uint64_t first, uint64_t n)
{
    uint32_t crc = 0;
    for (uint64_t i = 0; i < n; i++) {
        unsigned char b = pattern_byte(t, first + i);
        crc = t_crc32(crc, &b, 1);
    }
    return crc;
}

/* First task of file f of nf when n tasks are split evenly: ceil(f*n/nf). */
static inline uint32_t t_first(uint32_t f, uint32_t n, uint32_t nf)
{
    return (uint32_t)(((uint64_t)f * n + nf - 1) / nf);
}

/* Name of file f of the container `path`: path, path.000001, ... */
static inline void t_member(char *out, size_t size, const char *path, uint32_t f)
{
    if (f == 0) snprintf(out, size, "%s", path);
    else snprintf(out, size, "%s.%06u", path, (unsigned)f);
}

/* Check one physical file, computed from the format alone: header fields,
 * every chunk's data (task t's pattern, t_size(t) bytes) and trailer
 * (task, FINAL, block, used, stream offset, data CRC, stream CRC in the
 * FINAL one), the footer and the file's size.  File f of nf holds tasks
 * [first, first + tasks) of ntasks. */
static inline void t_check_file(const char *name, uint32_t ntasks, uint32_t nf, uint32_t f,
                                uint32_t first, uint32_t tasks)
{
    size_t len = 0;
    unsigned char *b = test_slurp(name, &len);
    CHECK(b != NULL && len > T_START && memcmp(b, "LATTIOTC", 8) == 0);
    if (!b || len <= T_START) { free(b); return; }
    CHECK_U64(lattio_load_be32(b + 8), 1);
    CHECK_U64(lattio_load_be32(b + 24), ntasks);
    CHECK_U64(lattio_load_be32(b + 28), nf);
    CHECK_U64(lattio_load_be32(b + 32), f);
    CHECK_U64(lattio_load_be32(b + 36), first);
    CHECK_U64(lattio_load_be32(b + 40), tasks);
    CHECK_U64(lattio_load_be32(b + 44), 1); /* stream CRCs in FINAL trailers */
    CHECK_U64(lattio_load_be64(b + 56), T_STRIDE);
    CHECK_U64(lattio_load_be32(b + 92), t_crc32(0, b, 92));
    uint64_t nblocks = 0, total = 0;
    for (uint32_t i = 0; i < tasks; i++) {
        uint32_t t = first + i;
        uint64_t size = t_size(t), nb = size ? (size + T_CAP - 1) / T_CAP : 1;
        nblocks = nb > nblocks ? nb : nblocks;
        total += size;
        for (uint64_t blk = 0; blk < nb; blk++) {
            uint64_t used = size - blk * T_CAP < T_CAP ? size - blk * T_CAP : T_CAP;
            uint64_t off = T_START + (blk * tasks + i) * (uint64_t)T_STRIDE;
            if (off + T_STRIDE > len) { CHECK(0); free(b); return; }
            CHECK_INT(pattern_mismatches(t, blk * T_CAP, b + off, (size_t)used), 0);
            const unsigned char *tr = b + off + T_STRIDE - 64;
            CHECK(memcmp(tr, "LTIOCHNK", 8) == 0);
            CHECK_U64(lattio_load_be32(tr + 16), t);
            CHECK_U64(lattio_load_be32(tr + 20), blk == nb - 1 ? 1 : 0);
            CHECK_U64(lattio_load_be64(tr + 24), blk);
            CHECK_U64(lattio_load_be64(tr + 32), used);
            CHECK_U64(lattio_load_be64(tr + 40), blk * T_CAP);
            CHECK_U64(lattio_load_be32(tr + 48), t_crc32(0, b + off, (size_t)used));
            CHECK_U64(lattio_load_be32(tr + 52), blk == nb - 1 ? t_pattern_crc(t, 0, size) : 0);
            CHECK_U64(lattio_load_be32(tr + 60), t_crc32(0, tr, 60));
        }
    }
    CHECK_U64(len, T_START + nblocks * tasks * T_STRIDE + 64);
    CHECK(memcmp(b + len - 64, "LTIOCEND", 8) == 0);
    CHECK_U64(lattio_load_be64(b + len - 48), nblocks);
    CHECK_U64(lattio_load_be64(b + len - 40), total);
    free(b);
}

/* Write a container of ntasks streams of t_size(t) bytes with the serial
 * writer, interleaving tasks in pieces of 333 bytes (task 2 mod 5 in one
 * write larger than a chunk), in nfiles physical files (first_tasks: NULL
 * or the first task of each).  close_it 0 abandons it before close, as a
 * killed writer.  Returns a lattio status. */
static inline int t_write_files(const char *path, uint32_t ntasks, uint32_t nfiles,
                                const uint32_t *first_tasks, int close_it)
{
    lattio_container_writer *w = NULL;
    lattio_container_serial_options o = {T_HINT, T_ALIGN, nfiles, first_tasks, 0};
    unsigned char *buf = malloc(8 * (size_t)T_CAP);
    uint64_t done[64] = {0};
    int rc = buf && ntasks <= 64 ? lattio_container_create_serial_ex(path, ntasks, &o, &w)
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

static inline int t_write_container(const char *path, uint32_t ntasks, int close_it)
{
    return t_write_files(path, ntasks, 1, NULL, close_it);
}

#endif
