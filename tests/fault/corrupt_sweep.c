/* corrupt_sweep.c -- issue 17, item 7: every truncation point and a
 * single-byte change of every byte of the headers and metadata of the real
 * gauge files (LIME headers and non-binary payloads; the NERSC text header),
 * read with lattio_gauge_read, and for t_qio's three non-gauge SciDAC fields
 * verified with lattio_field_verify (CI runs it under the sanitizers too).  Each
 * damaged file is either refused (a known status) or accepted only if what
 * it yields is the original field (same dims, same links): a change of
 * metadata never reinterprets the payload silently.  64 single-byte changes
 * spread over each checksummed binary payload are never accepted. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

static const char *const files[] = {"unity.lime", "t_dprec_ildg.lime", "lat.sample.l4444.ildg",
                                    "t_nersc.cfg"};

static long accepted_changed, refused, accepted_same;

/* Read path; 1 when accepted (read, checksum and header values hold). */
static int accepted(const char *path, lattio_gauge_info *info, double **u)
{
    *u = NULL;
    const int rc = lattio_gauge_read(path, info, u);
    CHECK(strcmp(lattio_error_name(rc), "UNKNOWN") != 0);
    if (rc != LATTIO_OK) return 0;
    if (info->has_checksum && (info->stored[0] != info->computed[0] || info->stored[1] != info->computed[1]))
        return 0;
    lattio_gauge_stats st;
    if (lattio_gauge_stats_compute_nc(*u, info->dims, info->colors, &st) != LATTIO_OK) return 0;
    return lattio_gauge_check_header(info, &st) == LATTIO_OK;
}

static void put(const char *path, const unsigned char *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fwrite(p, 1, n, f) == n);
    fclose(f);
}

/* One damaged copy: refused, or accepted with the original field. */
static void try_one(const unsigned char *img, size_t n, const lattio_gauge_info *orig,
                    const double *ou, const char *what, size_t at)
{
    put("damaged", img, n);
    lattio_gauge_info info;
    double *u = NULL;
    if (!accepted("damaged", &info, &u)) {
        refused++;
        lattio_gauge_free(u);
        return;
    }
    const int same = memcmp(info.dims, orig->dims, sizeof info.dims) == 0 &&
                     memcmp(u, ou, orig->volume * 72 * sizeof *u) == 0;
    if (!same) {
        fprintf(stderr, "%s at byte %zu: accepted with a different field\n", what, at);
        accepted_changed++;
    } else {
        accepted_same++;
    }
    CHECK(same);
    lattio_gauge_free(u);
}

/* Bytes [lo, hi) of img: truncation there, and a changed byte. */
static void sweep(unsigned char *img, size_t n, size_t lo, size_t hi, const lattio_gauge_info *orig,
                  const double *ou, const char *name)
{
    for (size_t at = lo; at < hi && at < n; at++) {
        try_one(img, at, orig, ou, name, at); /* cut at `at` */
        const unsigned char keep = img[at];
        img[at] = (unsigned char)(keep ^ (keep >= '0' && keep <= '8' ? 0x01 : 0x5a));
        try_one(img, n, orig, ou, name, at);
        img[at] = keep;
    }
}

static void one_file(const char *name)
{
    size_t n = 0;
    unsigned char *img = test_slurp(test_data(name), &n);
    CHECK(img != NULL);
    if (!img) return;
    lattio_gauge_info orig;
    double *ou = NULL;
    CHECK(accepted(test_data(name), &orig, &ou));
    if (!ou) return;
    uint64_t bin_lo = orig.data_offset, bin_hi = orig.data_offset + orig.data_length;
    if (n >= 4 && ((uint32_t)img[0] << 24 | (uint32_t)img[1] << 16 | (uint32_t)img[2] << 8 | img[3]) == LATTIO_LIME_MAGIC) { /* every header and metadata payload */
        lattio_lime_reader *r = NULL;
        lattio_record_info rec;
        CHECK_OK(lattio_lime_reader_open(test_data(name), &r));
        while (lattio_lime_reader_next(r, &rec) == LATTIO_OK) {
            sweep(img, n, rec.offset, rec.data_offset, &orig, ou, name);
            if (rec.data_offset != orig.binary.data_offset)
                sweep(img, n, rec.data_offset, rec.data_offset + rec.length, &orig, ou, name);
        }
        lattio_lime_reader_close(r);
    } else { /* NERSC: the text header */
        sweep(img, n, 0, bin_lo, &orig, ou, name);
    }
    if (orig.has_checksum) /* the payload: changes are never accepted */
        for (int k = 0; k < 64; k++) {
            const size_t at = (size_t)(bin_lo + (bin_hi - bin_lo) * (uint64_t)k / 64 + 3);
            const unsigned char keep = img[at];
            img[at] ^= 0x10;
            put("damaged", img, n);
            lattio_gauge_info info;
            double *u = NULL;
            const int acc = accepted("damaged", &info, &u);
            if (acc) fprintf(stderr, "%s: payload byte %zu changed, accepted\n", name, at);
            CHECK(!acc);
            lattio_gauge_free(u);
            img[at] = keep;
        }
    lattio_gauge_free(ou);
    free(img);
}

/* --- fields that are not gauge fields (t_qio: three random SciDAC fields) --- */

#define QIO_FIELDS 3

/* The fields' shapes when every field verifies (checksums); 0 otherwise. */
static int fields_verify(const char *path, lattio_field_info fi[QIO_FIELDS])
{
    for (int k = 0; k < QIO_FIELDS; k++) {
        const int rc = lattio_field_verify(path, k, &fi[k], NULL);
        CHECK(strcmp(lattio_error_name(rc), "UNKNOWN") != 0);
        if (rc != LATTIO_OK) {
            while (k-- > 0) lattio_field_info_free(&fi[k]);
            return 0;
        }
    }
    return 1;
}

static int same_shape(const lattio_field_info *a, const lattio_field_info *b)
{
    return a->nd == b->nd && memcmp(a->dims, b->dims, sizeof a->dims) == 0 &&
           a->typesize == b->typesize && a->datacount == b->datacount &&
           a->precision == b->precision && a->binary.data_offset == b->binary.data_offset &&
           a->binary.length == b->binary.length && a->recordtype == b->recordtype;
}

static void qio_file(const char *name)
{
    size_t n = 0;
    unsigned char *img = test_slurp(test_data(name), &n);
    lattio_field_info orig[QIO_FIELDS], got[QIO_FIELDS];
    CHECK(img && fields_verify(test_data(name), orig));
    if (!img) return;
    lattio_lime_reader *r = NULL;
    lattio_record_info rec;
    CHECK_OK(lattio_lime_reader_open(test_data(name), &r));
    while (lattio_lime_reader_next(r, &rec) == LATTIO_OK) {
        const int binary = strcmp(rec.type, "scidac-binary-data") == 0;
        const uint64_t end = binary ? rec.data_offset : rec.data_offset + rec.length;
        for (uint64_t at = rec.offset; at < end; at++)
            for (int cut = 0; cut < 2; cut++) {
                const unsigned char keep = img[at];
                if (!cut) img[at] = (unsigned char)(keep ^ (keep >= '0' && keep <= '8' ? 0x01 : 0x5a));
                put("damaged", img, cut ? (size_t)at : n);
                img[at] = keep;
                if (!fields_verify("damaged", got)) {
                    refused++;
                    continue;
                }
                int same = 1;
                for (int k = 0; k < QIO_FIELDS; k++) {
                    same = same && same_shape(&got[k], &orig[k]);
                    lattio_field_info_free(&got[k]);
                }
                if (!same) fprintf(stderr, "%s at byte %llu: accepted with another shape\n", name,
                                   (unsigned long long)at);
                CHECK(same);
                accepted_same += same;
                accepted_changed += !same;
            }
    }
    lattio_lime_reader_close(r);
    for (int k = 0; k < QIO_FIELDS; k++) lattio_field_info_free(&orig[k]);
    free(img);
}

int main(void)
{
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) one_file(files[i]);
    qio_file("t_qio.intel-scalar.lime");
    printf("%ld damaged copies refused, %ld accepted as the original field, %ld accepted changed\n",
           refused, accepted_same, accepted_changed);
    return test_finish();
}
