/* fuzz_lime.c -- libFuzzer target for the LIME scanner (src/core).
 *
 * The input is a whole file.  Two independent passes over it:
 *   1. lattio_lime_check_source with a small problems array;
 *   2. a record iteration with lattio_lime_header_at that reads every payload
 *      in odd-sized pieces through lattio_source_read_exact.
 * Invariants that must hold for any input are asserted with abort(), so a
 * violation is reported by libFuzzer as a crash like a memory error is. */
#include "internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_ASSERT(cond)                                                                \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "fuzz_lime.c:%d: invariant violated: %s\n", __LINE__, #cond);  \
            abort();                                                                     \
        }                                                                                \
    } while (0)

/* Statuses lattio_lime_header_at may return for a memory source. */
static int header_status_allowed(int rc)
{
    switch (rc) {
    case LATTIO_OK:
    case LATTIO_ERR_EOF:
    case LATTIO_ERR_TRAILING_BYTES:
    case LATTIO_ERR_BAD_MAGIC:
    case LATTIO_ERR_TRUNCATED_HEADER:
    case LATTIO_ERR_BAD_VERSION:
    case LATTIO_ERR_TYPE_UNTERMINATED:
    case LATTIO_ERR_LENGTH_OVERFLOW:
    case LATTIO_ERR_LENGTH_BEYOND_EOF:
    case LATTIO_ERR_TRUNCATED_PAYLOAD:
        return 1;
    default:
        return 0;
    }
}

/* Everything that must be true of a record header_at accepted. */
static void check_record(const uint8_t *data, size_t size, uint64_t off,
                         const lattio_record_info *info)
{
    FUZZ_ASSERT(info->offset == off);
    FUZZ_ASSERT(info->data_offset == off + LATTIO_LIME_HEADER_SIZE);
    FUZZ_ASSERT(info->data_offset <= size);
    FUZZ_ASSERT(info->length <= size - info->data_offset);
    FUZZ_ASSERT(info->padding == (8 - info->length % 8) % 8);
    FUZZ_ASSERT(info->version == LATTIO_LIME_VERSION);
    FUZZ_ASSERT(info->mb == !!(data[off + 6] & LATTIO_LIME_FLAG_MB));
    FUZZ_ASSERT(info->me == !!(data[off + 6] & LATTIO_LIME_FLAG_ME));
    FUZZ_ASSERT(lattio_load_be32(data + off) == LATTIO_LIME_MAGIC);
    FUZZ_ASSERT(lattio_load_be64(data + off + 8) == info->length);
    size_t tlen = strlen(info->type);
    FUZZ_ASSERT(tlen <= LATTIO_LIME_TYPE_MAX);
    /* the type as stored; NUL-terminated in the field unless it fills all 128 bytes */
    FUZZ_ASSERT(memcmp(info->type, data + off + 16, tlen) == 0);
    FUZZ_ASSERT(tlen == LATTIO_LIME_TYPE_MAX || data[off + 16 + tlen] == 0);
}

/* Re-encoding the decoded fields reproduces bytes 0..16+tlen of the header
 * whenever the decoder accepted the header without complaint. */
static void check_reencode(const uint8_t *data, uint64_t off)
{
    lattio_record_info d;
    unsigned char h[LATTIO_LIME_HEADER_SIZE];
    if (lattio_lime_header_decode(data + off, &d) != LATTIO_OK) return;
    FUZZ_ASSERT(lattio_lime_header_encode(h, d.type, d.length, d.mb, d.me) == LATTIO_OK);
    const size_t tl = strlen(d.type); /* with the NUL unless the type fills the field */
    FUZZ_ASSERT(memcmp(h, data + off, 16 + tl + (tl < LATTIO_LIME_TYPE_MAX)) == 0);
}

/* Read the payload in pieces of 1, 3, 5, 7, 11, ... bytes and compare. */
static void read_payload(const lattio_source *src, const uint8_t *data,
                         const lattio_record_info *info)
{
    static const size_t steps[] = {1, 3, 5, 7, 11, 13, 17, 4093};
    unsigned char buf[4093];
    uint64_t done = 0;
    for (size_t i = 0; done < info->length; i++) {
        uint64_t left = info->length - done;
        size_t n = steps[i % (sizeof steps / sizeof steps[0])];
        if (n > left) n = (size_t)left;
        int rc = lattio_source_read_exact(src, info->data_offset + done, buf, n,
                                          LATTIO_ERR_TRUNCATED_PAYLOAD);
        FUZZ_ASSERT(rc == LATTIO_OK);
        FUZZ_ASSERT(memcmp(buf, data + info->data_offset + done, n) == 0);
        done += n;
    }
    /* One byte beyond the payload end is either padding or end of data. */
    uint64_t end = info->data_offset + info->length;
    int rc = lattio_source_read_exact(src, end, buf, 1, LATTIO_ERR_TRUNCATED_PAYLOAD);
    FUZZ_ASSERT(rc == (end < src->size ? LATTIO_OK : LATTIO_ERR_TRUNCATED_PAYLOAD));
}

/* Iterate the records; returns how many were found before the first error
 * and stores that error (ERR_EOF for a clean end) in *last. */
static size_t iterate(const lattio_source *src, const uint8_t *data, size_t size, int *last)
{
    uint64_t off = 0;
    size_t n = 0;
    for (;;) {
        lattio_record_info info;
        int rc = lattio_lime_header_at(src, off, &info);
        FUZZ_ASSERT(header_status_allowed(rc));
        FUZZ_ASSERT(info.offset == off);
        if (rc == LATTIO_ERR_EOF) FUZZ_ASSERT(off >= size);
        if (rc == LATTIO_ERR_BAD_MAGIC) FUZZ_ASSERT(off == 0);
        if (rc == LATTIO_ERR_TRAILING_BYTES) FUZZ_ASSERT(off > 0);
        if (rc < 0) {
            *last = rc;
            return n;
        }
        FUZZ_ASSERT(off % 8 == 0);
        check_record(data, size, off, &info);
        check_reencode(data, off);
        read_payload(src, data, &info);
        uint64_t next = lattio_lime_next_offset(&info);
        FUZZ_ASSERT(next > off && next % 8 == 0);
        /* Only the last record may lack (part of) its padding. */
        if (next > size) FUZZ_ASSERT(lattio_lime_header_at(src, next, &info) == LATTIO_ERR_EOF);
        off = next;
        n++;
    }
}

/* header_at at offsets off the record chain, including past the end. */
static void probe_offsets(const lattio_source *src, const uint8_t *data, size_t size)
{
    const uint64_t probes[] = {size, (uint64_t)size + 8, size ? size - 1 : 0, size / 2,
                               size > 144 ? size - 144 : 0, UINT64_MAX - 100};
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        lattio_record_info info;
        int rc = lattio_lime_header_at(src, probes[i], &info);
        FUZZ_ASSERT(header_status_allowed(rc));
        if (probes[i] >= size) FUZZ_ASSERT(rc == LATTIO_ERR_EOF);
        if (rc == LATTIO_OK) check_record(data, size, probes[i], &info);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lattio_source src = lattio_source_memory(data, size);
    lattio_problem problems[3];
    size_t count = (size_t)-1, nrecords = (size_t)-1;
    memset(problems, 0xa5, sizeof problems);
    int crc = lattio_lime_check_source(&src, problems, 3, &count, &nrecords);
    FUZZ_ASSERT(crc <= 0);
    FUZZ_ASSERT((crc == LATTIO_OK) == (count == 0));
    if (count > 0) FUZZ_ASSERT(problems[0].status == crc);
    for (size_t i = 0; i < count && i < 3; i++) {
        FUZZ_ASSERT(problems[i].status < 0);
        FUZZ_ASSERT(problems[i].record >= -1);
        FUZZ_ASSERT(memchr(problems[i].message, 0, sizeof problems[i].message) != NULL);
    }

    int last = LATTIO_OK;
    size_t found = iterate(&src, data, size, &last);
    FUZZ_ASSERT(nrecords == found);
    if (last != LATTIO_ERR_EOF) {
        /* check reports the iteration's error, and it is the last problem. */
        FUZZ_ASSERT(crc != LATTIO_OK);
        if (count <= 3) FUZZ_ASSERT(problems[count - 1].status == last);
    }
    probe_offsets(&src, data, size);
    /* Checking twice gives the same answer (no hidden state). */
    size_t count2 = 0, nrecords2 = 0;
    FUZZ_ASSERT(lattio_lime_check_source(&src, NULL, 0, &count2, &nrecords2) == crc);
    FUZZ_ASSERT(count2 == count && nrecords2 == nrecords);
    return 0;
}
