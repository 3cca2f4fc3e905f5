/* testutil.h -- assertions for lattio's serial tests.  Each assertion prints
 * both sides on failure and counts; a test's main returns test_finish(). */
#ifndef LATTIO_TESTUTIL_H
#define LATTIO_TESTUTIL_H

#include "lattio.h"
#include "testhooks.h" /* the library's test hooks (lattio_testing) */
#include "support.h"   /* the internal support calls (checksums, conversion, XML) */

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Outstanding allocations made through lattio's wrapper (src/core). */
long lattio_alloc_outstanding(void);

static int test_failures_;
static int test_checks_;

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        test_checks_++;                                                                  \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);     \
            test_failures_++;                                                            \
        }                                                                                \
    } while (0)

#define CHECK_INT(a, b)                                                                  \
    do {                                                                                 \
        long long a_ = (long long)(a), b_ = (long long)(b);                              \
        test_checks_++;                                                                  \
        if (a_ != b_) {                                                                  \
            fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__,  \
                    #a, #b, a_, b_);                                                     \
            test_failures_++;                                                            \
        }                                                                                \
    } while (0)

#define CHECK_U64(a, b)                                                                  \
    do {                                                                                 \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                 \
        test_checks_++;                                                                  \
        if (a_ != b_) {                                                                  \
            fprintf(stderr, "%s:%d: %s == %s failed: %" PRIu64 " != %" PRIu64 "\n",       \
                    __FILE__, __LINE__, #a, #b, a_, b_);                                 \
            test_failures_++;                                                            \
        }                                                                                \
    } while (0)

#define CHECK_STR(a, b)                                                                  \
    do {                                                                                 \
        const char *a_ = (a), *b_ = (b);                                                 \
        test_checks_++;                                                                  \
        if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                         \
            fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", __FILE__,       \
                    __LINE__, #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)");           \
            test_failures_++;                                                            \
        }                                                                                \
    } while (0)

/* Assert a lattio status, printing names. */
#define CHECK_STATUS(expr, expected)                                                     \
    do {                                                                                 \
        int s_ = (expr), e_ = (expected);                                                \
        test_checks_++;                                                                  \
        if (s_ != e_) {                                                                  \
            fprintf(stderr, "%s:%d: %s returned %s (%d), expected %s (%d)\n", __FILE__,   \
                    __LINE__, #expr, lattio_error_name(s_), s_, lattio_error_name(e_),   \
                    e_);                                                                 \
            test_failures_++;                                                            \
        }                                                                                \
    } while (0)

#define CHECK_OK(expr) CHECK_STATUS((expr), LATTIO_OK)

static inline int test_finish(void)
{
    if (test_failures_)
        fprintf(stderr, "%d of %d checks failed\n", test_failures_, test_checks_);
    else
        printf("all %d checks passed\n", test_checks_);
    return test_failures_ ? 1 : 0;
}

/* Path of a real test file shipped in tests/data/real. */
static inline const char *test_data(const char *name)
{
    static char buf[4][4096];
    static int k;
    char *b = buf[k++ & 3];
    snprintf(b, sizeof buf[0], "%s/%s", LATTIO_TESTDATA, name);
    return b;
}

/* Make this node's view of `path` current before reading what other nodes
 * wrote (a network file system whose clients cache sizes and attributes:
 * GlusterFS, NFS): an fsync through a new descriptor and a statx that
 * bypasses the kernel's attribute cache (the library's lattio_fs_refresh;
 * it changes no byte).  Harmless elsewhere. */
int lattio_fs_refresh(const char *path, uint64_t *size); /* src/core/fsinfo.h */
static inline void test_fresh(const char *path) { (void)lattio_fs_refresh(path, NULL); }

/* Read a whole small file; caller frees.  Returns NULL on failure. */
static inline unsigned char *test_slurp(const char *path, size_t *len)
{
    test_fresh(path);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = malloc(n > 0 ? (size_t)n : 1);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    if (p && len) *len = (size_t)n;
    return p;
}

/* Files in the working directory left by lattio's temporary-name protocol. */
static inline int test_count_temporaries(void)
{
    int n = 0;
    DIR *d = opendir(".");
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strstr(e->d_name, ".lattio-tmp.")) n++;
    if (d) closedir(d);
    return n;
}

/* Remove what earlier runs left of that protocol in the working directory. */
static inline void test_remove_temporaries(void)
{
    DIR *d = opendir(".");
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strstr(e->d_name, ".lattio-tmp.")) unlink(e->d_name);
    if (d) closedir(d);
}

#endif
