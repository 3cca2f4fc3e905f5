/* fieldtest.h -- helpers shared by the field tests: the raw bytes of the
 * n-th binary record of a real file, read with the core LIME reader. */
#ifndef FIELDTEST_H
#define FIELDTEST_H

#include "testutil.h"

/* Payload of the n-th (0-based) record whose type is scidac-binary-data or
 * ildg-binary-data; *len receives its length.  Caller frees. */
static inline unsigned char *ft_binary(const char *file, int n, size_t *len)
{
    lattio_lime_reader *r = NULL;
    lattio_record_info info;
    unsigned char *buf = NULL;
    if (lattio_lime_reader_open(test_data(file), &r) != LATTIO_OK) return NULL;
    int seen = -1;
    while (lattio_lime_reader_next(r, &info) == LATTIO_OK) {
        if (strcmp(info.type, "scidac-binary-data") && strcmp(info.type, "ildg-binary-data"))
            continue;
        if (++seen != n) continue;
        buf = malloc(info.length ? info.length : 1);
        if (buf && lattio_lime_reader_read_at(r, 0, buf, info.length) != LATTIO_OK) {
            free(buf);
            buf = NULL;
        }
        *len = info.length;
        break;
    }
    lattio_lime_reader_close(r);
    return buf;
}

/* Copy a real file into the working directory under `name`. */
static inline int ft_copy(const char *file, const char *name)
{
    size_t n;
    unsigned char *p = test_slurp(test_data(file), &n);
    FILE *f = fopen(name, "wb");
    int ok = p && f && fwrite(p, 1, n, f) == n;
    if (f) ok = fclose(f) == 0 && ok;
    free(p);
    return ok;
}

#endif
