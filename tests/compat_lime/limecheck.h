/* limecheck.h -- assertions for the C-LIME compatibility tests.  These tests
 * are C-LIME programs: they include only lime.h from the library, so the
 * assertions here print C-LIME status numbers rather than lattio names. */
#ifndef LIMECHECK_H
#define LIMECHECK_H

#include "lime.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int lc_failures;
static int lc_checks;

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        lc_checks++;                                                                     \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);     \
            lc_failures++;                                                               \
        }                                                                                \
    } while (0)

#define CHECK_INT(a, b)                                                                  \
    do {                                                                                 \
        long long a_ = (long long)(a), b_ = (long long)(b);                              \
        lc_checks++;                                                                     \
        if (a_ != b_) {                                                                  \
            fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__,  \
                    #a, #b, a_, b_);                                                     \
            lc_failures++;                                                               \
        }                                                                                \
    } while (0)

#define CHECK_U64(a, b)                                                                  \
    do {                                                                                 \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                 \
        lc_checks++;                                                                     \
        if (a_ != b_) {                                                                  \
            fprintf(stderr, "%s:%d: %s == %s failed: %" PRIu64 " != %" PRIu64 "\n",       \
                    __FILE__, __LINE__, #a, #b, a_, b_);                                 \
            lc_failures++;                                                               \
        }                                                                                \
    } while (0)

#define CHECK_STR(a, b)                                                                  \
    do {                                                                                 \
        const char *a_ = (a), *b_ = (b);                                                 \
        lc_checks++;                                                                     \
        if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                         \
            fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", __FILE__,       \
                    __LINE__, #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)");           \
            lc_failures++;                                                               \
        }                                                                                \
    } while (0)

/* A test's main returns lc_finish(). */
static inline int lc_finish(void)
{
    if (lc_failures)
        fprintf(stderr, "%d of %d checks failed\n", lc_failures, lc_checks);
    else
        printf("all %d checks passed\n", lc_checks);
    return lc_failures ? 1 : 0;
}

/* Directory of the real test files: $LATTIO_TESTDATA, else the build's. */
static inline const char *lc_datadir(void)
{
    const char *d = getenv("LATTIO_TESTDATA");
#ifdef LATTIO_TESTDATA
    if (!d || !*d) d = LATTIO_TESTDATA;
#endif
    return d ? d : ".";
}

/* Read a whole file; caller frees.  NULL on failure. */
static inline unsigned char *lc_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *p = malloc(cap);
    while (p) {
        size_t got = fread(p + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        unsigned char *q = realloc(p, cap *= 2);
        if (!q) free(p);
        p = q;
    }
    fclose(f);
    if (p && len) *len = n;
    return p;
}

/* Big-endian field readers and a hand-made LIME header, independent of the
 * library under test. */
static inline uint64_t lc_be(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v = (v << 8) | p[i];
    return v;
}

static inline void lc_header(unsigned char h[144], const char *type, uint64_t len, int mb,
                             int me)
{
    memset(h, 0, 144);
    h[0] = 0x45, h[1] = 0x67, h[2] = 0x89, h[3] = 0xab;
    h[5] = 1;
    h[6] = (unsigned char)((mb ? 0x80 : 0) | (me ? 0x40 : 0));
    for (int i = 0; i < 8; i++) h[8 + i] = (unsigned char)(len >> (56 - 8 * i));
    memcpy(h + 16, type, strlen(type));
}

/* Append a whole record (header, payload, zero padding) to buf at *pos. */
static inline void lc_record(unsigned char *buf, size_t *pos, const char *type,
                             const void *data, size_t len, int mb, int me)
{
    lc_header(buf + *pos, type, len, mb, me);
    *pos += 144;
    memcpy(buf + *pos, data, len);
    *pos += len;
    size_t pad = (8 - len % 8) % 8;
    memset(buf + *pos, 0, pad);
    *pos += pad;
}

/* Write bytes to a file; 0 on success. */
static inline int lc_spit(const char *path, const void *buf, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = fwrite(buf, 1, n, f);
    return (fclose(f) != 0 || w != n) ? -1 : 0;
}

/* Compare a file's bytes with expected ones; reports the first difference. */
static inline int lc_file_equals(const char *path, const unsigned char *want, size_t n)
{
    size_t len = 0;
    unsigned char *got = lc_slurp(path, &len);
    int ok = got && len == n && memcmp(got, want, n) == 0;
    if (!ok && got) {
        size_t i = 0;
        while (i < len && i < n && got[i] == want[i]) i++;
        fprintf(stderr, "%s: %zu bytes, expected %zu; first difference at %zu\n", path, len, n,
                i);
    }
    free(got);
    return ok;
}

/* Size of the file behind f (flushed first); the position is kept. */
static inline long lc_file_size(FILE *f)
{
    fflush(f);
    long here = ftell(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, here, SEEK_SET);
    return n;
}

#endif
