/* gauge_internal.h -- the gauge formats' private header, in three tiers:
 * the shared pieces (gauge_links.c), the formats (nersc.c, milc.c,
 * openqcd.c, gauge_lime.c, detect.c) on them, the public entry points
 * (gauge_io.c) on the formats.  No tier calls one above it. */
#ifndef LATTIO_GAUGE_INTERNAL_H
#define LATTIO_GAUGE_INTERNAL_H

#include "field_internal.h"

#define GAUGE_SITE_DOUBLES_NC(n) (8 * (uint64_t)(n) * (uint64_t)(n)) /* 4 links x N x N complex */
#define GAUGE_SITE_DOUBLES_MAX GAUGE_SITE_DOUBLES_NC(LATTIO_GAUGE_MAX_COLORS)
#define GAUGE_MAX_EXTENT (UINT64_C(1) << 24)

/* Running checksum over stored 32-bit words in host order. */
typedef struct gauge_sum {
    int kind;      /* LATTIO_GSUM_NERSC or _MILC; anything else: nothing */
    uint64_t word; /* index of the next word (MILC) */
    uint32_t a, b; /* NERSC: a; MILC: sum29, sum31 */
} gauge_sum;

/* Add n 32-bit words (host order, any alignment) to the sum. */
void gauge_sum_words(gauge_sum *s, const void *words, size_t n);

/* The native format of the same width as file format fmt. */
int gauge_native_fmt(int fmt);
/* LATTIO_REAL_F32_BE/LE or F64_BE/LE from precision and byte order. */
int gauge_file_fmt(int precision, int little_endian);

/* Check four extents (each 1..GAUGE_MAX_EXTENT) and give the volume and
 * volume * bytes_per_site (ERR_BAD_HEADER / ERR_OVERFLOW). */
int gauge_volume(const uint64_t dims[4], uint64_t bytes_per_site, uint64_t *volume,
                 uint64_t *bytes);

/* Read `volume` sites of links stored in ILDG order, `rows` rows of each
 * colors x colors matrix in file format fmt, from src at offset; fill u
 * (SU(3)'s third row rebuilt when rows == 2) and the checksum.  rows is
 * colors, or 2 for 3 colours (ERR_ARG). */
int gauge_read_links(const lattio_source *src, uint64_t offset, uint64_t volume, int fmt,
                     int rows, int colors, double *u, gauge_sum *sum);

/* Third row of a 3x3 complex row-major matrix: conj(row0 x row1). */
void gauge_reconstruct_row(double *m);
/* The observables a format's header carries (NERSC, openQCD, HiRep) of
 * links u: ERR_ARG when they are not finite (NaN or infinite links), as no
 * reader could check the header against them. */
int gauge_header_stats(const char *format, const double *u, const uint64_t dims[4], int nc, lattio_gauge_stats *st);

/* An output file written under a temporary name and renamed at the end. */
typedef struct gauge_out {
    int fd;
    int status; /* first error; later writes do nothing */
    char *tmp;
    const char *path;
    uint64_t at; /* bytes written */
} gauge_out;

int gauge_out_open(gauge_out *o, const char *path);
int gauge_out_write(gauge_out *o, const void *buf, size_t n);
/* Rename into place when ok and no write failed, else remove; returns the
 * first error. */
int gauge_out_close(gauge_out *o, int ok);

/* Write (o != NULL) and/or checksum the links of u as `rows` rows per
 * matrix in file format fmt. */
int gauge_write_links(gauge_out *o, const double *u, uint64_t volume, int fmt, int rows, int colors,
                      gauge_sum *sum);

/* Per format.  The read functions fill *info and *u (allocated here). */
int gauge_nersc_read(const lattio_source *src, lattio_gauge_info *info, double **u);
int gauge_milc_read(const lattio_source *src, lattio_gauge_info *info, double **u);
int gauge_openqcd_read(const lattio_source *src, lattio_gauge_info *info, double **u);
int gauge_lime_read(const char *path, lattio_gauge_info *info, double **u);
int gauge_openqcd_header(const unsigned char h[24], uint64_t size, uint64_t dims[4]);
int gauge_hirep_read(const lattio_source *src, lattio_gauge_info *info, double **u);
/* HiRep: NG in 2 .. LATTIO_GAUGE_MAX_COLORS and extents whose links give the file size. */
int gauge_hirep_header(const unsigned char h[28], uint64_t size, int *colors, uint64_t dims[4]);

int gauge_nersc_write(gauge_out *o, const lattio_gauge_write_options *opt, const uint64_t dims[4],
                      const double *u);
int gauge_milc_write(gauge_out *o, const lattio_gauge_write_options *opt, const uint64_t dims[4],
                     const double *u);
int gauge_openqcd_write(gauge_out *o, const uint64_t dims[4], const double *u);
int gauge_hirep_write(gauge_out *o, const lattio_gauge_write_options *opt, const uint64_t dims[4],
                      const double *u);
int gauge_lime_write(const char *path, int format, const lattio_gauge_write_options *opt,
                     const uint64_t dims[4], const double *u);

/* Allocate volume * 8 colors^2 doubles (ERR_NOMEM / ERR_OVERFLOW / ERR_ARG). */
int gauge_alloc(uint64_t volume, int colors, double **u);

#endif
