/* fuzz_xml.c -- libFuzzer target for the tolerant XML scanner (src/core/xml.c).
 *
 * The input is an XML payload, copied to an exact-size buffer (no NUL) so
 * any read beyond its length is reported.  Every getter is called for the
 * tags the field reader asks for, with and without a prefix; invariants on
 * the results are asserted with abort(). */
#include "internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_ASSERT(cond)                                                                \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "fuzz_xml.c:%d: invariant violated: %s\n", __LINE__, #cond); \
            abort();                                                                     \
        }                                                                                \
    } while (0)

static const char *const tags[] = {"lx",   "precision", "field", "dims",      "suma",
                                   "sumb", "typesize",  "date",  "ildg:lx",   "scidacRecord",
                                   "x",    "datatype",  "version", "a:b:c"};

static void scan(const char *x, size_t n, const char *tag)
{
    size_t off = 0, len = 0;
    const int rc = lattio_xml_find(x, n, tag, &off, &len);
    FUZZ_ASSERT(rc == LATTIO_OK || rc == LATTIO_ERR_NOT_FOUND || rc == LATTIO_ERR_BAD_XML);
    if (rc == LATTIO_OK) FUZZ_ASSERT(off <= n && len <= n - off);
    char s[32];
    const int rs = lattio_xml_string(x, n, tag, s, sizeof s);
    FUZZ_ASSERT(memchr(s, '\0', sizeof s) != NULL);
    if (rs == LATTIO_OK) FUZZ_ASSERT(rc == LATTIO_OK && strlen(s) <= len);
    int64_t v, vs[8];
    int k = -1;
    (void)lattio_xml_int(x, n, tag, &v);
    const int ri = lattio_xml_ints(x, n, tag, vs, 8, &k);
    FUZZ_ASSERT(k >= 0 && k <= 8);
    if (ri == LATTIO_OK) FUZZ_ASSERT(rc == LATTIO_OK);
    uint32_t h;
    (void)lattio_xml_hex32(x, n, tag, &h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *x = malloc(size ? size : 1);
    if (!x) return 0;
    memcpy(x, data, size);
    for (size_t t = 0; t < sizeof tags / sizeof tags[0]; t++) scan(x, size, tags[t]);
    char esc[64];
    char *z = malloc(size + 1);
    if (z) {
        memcpy(z, data, size);
        z[size] = '\0';
        size_t need = 0;
        const int re = lattio_xml_escape(z, esc, sizeof esc, &need);
        FUZZ_ASSERT(memchr(esc, '\0', sizeof esc) != NULL);
        FUZZ_ASSERT(re == LATTIO_OK ? strlen(esc) == need : need >= sizeof esc);
        free(z);
    }
    free(x);
    return 0;
}
