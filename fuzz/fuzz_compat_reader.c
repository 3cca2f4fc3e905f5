/* fuzz_compat_reader.c -- libFuzzer target for the C-LIME compatibility
 * reader (compat/lime/lime.c through lime.h).
 *
 * The input is a whole file, opened with fmemopen.  Every record is visited
 * with limeReaderNextRecord; its payload is read in odd-sized pieces, with
 * limeReaderSeek back to the start (the bytes must read the same twice), an
 * out-of-range seek (must clamp and report LIME_ERR_SEEK), and a second
 * reader on a second stream given the state with limeReaderSetState (must
 * read the same bytes).  Invariants are asserted with abort(). */
#include "lime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_ASSERT(cond)                                                                \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "fuzz_compat_reader.c:%d: invariant violated: %s\n",         \
                    __LINE__, #cond);                                                    \
            abort();                                                                     \
        }                                                                                \
    } while (0)

#define PIECE_MAX 1031

static void check_header(LimeReader *r, size_t size)
{
    const char *type = limeReaderType(r);
    FUZZ_ASSERT(type != NULL && strlen(type) <= 128);
    n_uint64_t len = limeReaderBytes(r);
    FUZZ_ASSERT(limeReaderPadBytes(r) == (8 - len % 8) % 8);
    FUZZ_ASSERT(limeReaderMBFlag(r) == 0 || limeReaderMBFlag(r) == 1);
    FUZZ_ASSERT(limeReaderMEFlag(r) == 0 || limeReaderMEFlag(r) == 1);
    FUZZ_ASSERT(limeEOM(r) == limeReaderMEFlag(r));
    FUZZ_ASSERT(r->rec_start >= 144 && r->rec_start <= size);
    off_t next = limeGetReaderPointer(r);
    FUZZ_ASSERT(next >= 0 && (n_uint64_t)next == r->rec_start + len + limeReaderPadBytes(r));
}

/* The first bytes of the payload, read twice (after a seek back) and by a
 * second reader on its own stream; all three must agree. */
static void check_reread(LimeReader *r, FILE *other)
{
    unsigned char a[64], b[64];
    n_uint64_t na = sizeof a, nb = sizeof b;
    int st = limeReaderReadData(a, &na, r);
    if (st != LIME_SUCCESS) return;
    FUZZ_ASSERT(limeReaderSeek(r, 0, SEEK_SET) == LIME_SUCCESS);
    if (limeReaderReadData(b, &nb, r) == LIME_SUCCESS) {
        FUZZ_ASSERT(nb == na && memcmp(a, b, (size_t)na) == 0);
    }
    FUZZ_ASSERT(limeReaderSeek(r, -1, SEEK_SET) == LIME_ERR_SEEK && r->rec_ptr == 0);
    LimeReader *r2 = limeCreateReader(other);
    if (r2) {
        FUZZ_ASSERT(limeReaderSetState(r2, r) == LIME_SUCCESS);
        nb = sizeof b;
        if (limeReaderReadData(b, &nb, r2) == LIME_SUCCESS)
            FUZZ_ASSERT(nb == na && memcmp(a, b, (size_t)na) == 0);
        limeDestroyReader(r2);
    }
    FUZZ_ASSERT(limeReaderSeek(r, 0, SEEK_SET) == LIME_SUCCESS);
}

/* Read the whole payload in odd pieces; never more than the record holds. */
static void read_all(LimeReader *r, unsigned seed)
{
    static unsigned char buf[PIECE_MAX];
    n_uint64_t len = limeReaderBytes(r), done = 0;
    for (unsigned i = 0;; i++) {
        n_uint64_t n = 1 + (seed * 31u + i * 17u) % PIECE_MAX;
        int st = limeReaderReadData(buf, &n, r);
        FUZZ_ASSERT(st == LIME_SUCCESS || st == LIME_EOR || st == LIME_ERR_READ);
        FUZZ_ASSERT(n <= PIECE_MAX);
        done += n;
        FUZZ_ASSERT(done <= len);
        if (st != LIME_SUCCESS) break;
        if (i == 2) { /* a seek forward and back inside the record */
            int s = limeReaderSeek(r, 5, SEEK_CUR);
            FUZZ_ASSERT(s == LIME_SUCCESS || s == LIME_ERR_SEEK);
            FUZZ_ASSERT(r->rec_ptr <= len);
            done = r->rec_ptr;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    unsigned char *copy = malloc(size), *copy2 = malloc(size);
    if (!copy || !copy2) goto out;
    memcpy(copy, data, size);
    memcpy(copy2, data, size);
    FILE *f = fmemopen(copy, size, "rb"), *f2 = fmemopen(copy2, size, "rb");
    LimeReader *r = f ? limeCreateReader(f) : NULL;
    if (r && f2) {
        int st, k = 0;
        while ((st = limeReaderNextRecord(r)) == LIME_SUCCESS) {
            check_header(r, size);
            if (k % 2 == 0) check_reread(r, f2);
            if (k % 3 != 2) read_all(r, (unsigned)k + data[0]);
            k++;
        }
        FUZZ_ASSERT(st == LIME_EOF || st == LIME_ERR_READ || st == LIME_ERR_SEEK);
        /* a failed seek leaves the reader on its record, as in C-LIME */
        FUZZ_ASSERT(limeReaderType(r) == NULL || st == LIME_ERR_SEEK);
        if (k > 0) /* a damaged header is met again at the same place */
            FUZZ_ASSERT(limeReaderNextRecord(r) == st || st == LIME_ERR_SEEK);
        if (k > 0) FUZZ_ASSERT(limeSetReaderPointer(r, 0) == LIME_SUCCESS &&
                               limeReaderNextRecord(r) == LIME_SUCCESS);
    }
    limeDestroyReader(r);
    if (f) fclose(f);
    if (f2) fclose(f2);
out:
    free(copy);
    free(copy2);
    return 0;
}
