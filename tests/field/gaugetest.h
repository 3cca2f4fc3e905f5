/* gaugetest.h -- helpers for the gauge format tests: whole files in
 * memory, gauge fields read through lattio_gauge_read. */
#ifndef GAUGETEST_H
#define GAUGETEST_H

#include "fieldtest.h"

#include <math.h>

/* Read a gauge file; NULL (and a failed check) on any error but a checksum. */
static inline double *gt_read(const char *path, lattio_gauge_info *info, int expect)
{
    double *u = NULL;
    const int rc = lattio_gauge_read(path, info, &u);
    CHECK_STATUS(rc, expect);
    return u;
}

static inline int gt_write_file(const char *name, const void *p, size_t n)
{
    FILE *f = fopen(name, "wb");
    int ok = f && fwrite(p, 1, n, f) == n;
    if (f) ok = fclose(f) == 0 && ok;
    return ok;
}

/* Payload of the first binary record of a LIME file anywhere (not only testdata). */
static inline unsigned char *gt_binary(const char *path, size_t *len)
{
    lattio_lime_reader *r = NULL;
    lattio_record_info info;
    unsigned char *buf = NULL;
    if (lattio_lime_reader_open(path, &r) != LATTIO_OK) return NULL;
    while (lattio_lime_reader_next(r, &info) == LATTIO_OK) {
        if (strcmp(info.type, "scidac-binary-data") && strcmp(info.type, "ildg-binary-data"))
            continue;
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

static inline uint64_t gt_volume(const lattio_gauge_info *in)
{
    return in->dims[0] * in->dims[1] * in->dims[2] * in->dims[3];
}

#endif
