/* lemontest.h -- helpers for the Lemon compatibility tests: an independent
 * serial LIME encoder for the expected file, the expected payload of a
 * lattice in any mapping, a local-buffer filler, and a byte comparison of
 * the file on disk (rank 0) whose verdict every rank shares. */
#ifndef LATTIO_LEMONTEST_H
#define LATTIO_LEMONTEST_H

#include "lemon.h"
#include "mpitest.h"

#include <stdint.h>

/* --- expected file, built in memory ---------------------------------------- */

typedef struct {
    unsigned char *b;
    size_t n, cap;
} expect_buf;

static inline void exp_bytes(expect_buf *e, const void *p, size_t n)
{
    if (e->n + n > e->cap) {
        e->cap = (e->n + n) * 2 + 256;
        e->b = realloc(e->b, e->cap);
    }
    if (p)
        memcpy(e->b + e->n, p, n);
    else
        memset(e->b + e->n, 0, n);
    e->n += n;
}

/* A LIME header, encoded by hand: magic, version 1, MB/ME bits, length,
 * NUL-padded type. */
static inline void exp_header(expect_buf *e, const char *type, uint64_t len, int mb, int me)
{
    unsigned char h[144] = {0x45, 0x67, 0x89, 0xab, 0x00, 0x01};
    h[6] = (unsigned char)((mb ? 0x80 : 0) | (me ? 0x40 : 0));
    for (int i = 0; i < 8; i++) h[8 + i] = (unsigned char)(len >> (56 - 8 * i));
    strncpy((char *)h + 16, type, 127);
    exp_bytes(e, h, sizeof h);
}

static inline void exp_record(expect_buf *e, const char *type, const void *payload, uint64_t len,
                              int mb, int me)
{
    exp_header(e, type, len, mb, me);
    exp_bytes(e, payload, (size_t)len);
    exp_bytes(e, NULL, (size_t)((8 - len % 8) % 8));
}

/* Rank 0 compares the whole file with e; every rank learns the verdict. */
static inline void check_file(const char *path, const expect_buf *e)
{
    int ok = 1;
    if (mpitest_rank == 0) {
        size_t n = 0;
        unsigned char *got = test_slurp(path, &n);
        ok = got && n == e->n && memcmp(got, e->b, n) == 0;
        if (!ok && got) {
            size_t i = 0;
            while (i < n && i < e->n && got[i] == e->b[i]) i++;
            fprintf(stderr, "%s: %zu bytes, expected %zu; first difference at %zu\n", path, n,
                    e->n, i);
        }
        free(got);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK(ok);
}

/* --- lattices ------------------------------------------------------------- */

typedef struct {
    int nd;
    int L[8];        /* global extents, lattice (communicator) order */
    int map[8];      /* file dimension i = lattice dimension map[i] */
    int lo[8], n[8]; /* this rank's box, lattice order */
    int site;        /* bytes per site */
} lattice_t;

/* Byte k of the site at global lattice coordinates g. */
static inline unsigned char site_byte(const lattice_t *t, const uint64_t *g, int k)
{
    uint64_t h = 1469598103934665603ULL;
    for (int d = 0; d < t->nd; d++) h = (h ^ (g[d] + 1)) * 1099511628211ULL;
    h = (h ^ (uint64_t)k) * 1099511628211ULL;
    return (unsigned char)(h >> 29);
}

static inline uint64_t lattice_sites(const lattice_t *t)
{
    uint64_t v = 1;
    for (int d = 0; d < t->nd; d++) v *= (uint64_t)t->L[d];
    return v;
}

/* Describe the lattice and this rank's box on the Cartesian communicator. */
static inline void lattice_init(lattice_t *t, MPI_Comm cart, int nd, const int *L, const int *map,
                                int site)
{
    int dims[8], per[8], coords[8];
    MPI_Cart_get(cart, nd, dims, per, coords);
    t->nd = nd;
    t->site = site;
    for (int d = 0; d < nd; d++) {
        t->L[d] = L[d];
        t->map[d] = map ? map[d] : d;
        t->n[d] = L[d] / dims[d];
        t->lo[d] = t->n[d] * coords[d];
    }
}

/* Global lattice coordinates of file rank r. */
static inline void file_rank_coords(const lattice_t *t, uint64_t r, uint64_t *g)
{
    for (int i = t->nd - 1; i >= 0; i--) {
        int d = t->map[i];
        g[d] = r % (uint64_t)t->L[d];
        r /= (uint64_t)t->L[d];
    }
}

/* The whole lattice as it must appear in the file. */
static inline unsigned char *lattice_expected(const lattice_t *t)
{
    uint64_t sites = lattice_sites(t);
    unsigned char *p = malloc((size_t)(sites * (uint64_t)t->site));
    for (uint64_t r = 0; r < sites; r++) {
        uint64_t g[8];
        file_rank_coords(t, r, g);
        for (int k = 0; k < t->site; k++) p[r * (uint64_t)t->site + (uint64_t)k] = site_byte(t, g, k);
    }
    return p;
}

static inline uint64_t lattice_local_sites(const lattice_t *t)
{
    uint64_t v = 1;
    for (int d = 0; d < t->nd; d++) v *= (uint64_t)t->n[d];
    return v;
}

/* This rank's buffer, sites in file order (Lemon's contract). */
static inline unsigned char *lattice_local(const lattice_t *t)
{
    uint64_t sites = lattice_local_sites(t);
    unsigned char *p = malloc((size_t)(sites * (uint64_t)t->site) + 1);
    for (uint64_t s = 0; s < sites; s++) {
        uint64_t g[8], r = s;
        for (int i = t->nd - 1; i >= 0; i--) {
            int d = t->map[i];
            g[d] = (uint64_t)t->lo[d] + r % (uint64_t)t->n[d];
            r /= (uint64_t)t->n[d];
        }
        for (int k = 0; k < t->site; k++) p[s * (uint64_t)t->site + (uint64_t)k] = site_byte(t, g, k);
    }
    return p;
}

/* A Cartesian communicator with the given process grid (NULL: MPI_Dims_create). */
static inline MPI_Comm make_cart(int nd, const int *grid)
{
    int dims[8] = {0}, per[8] = {0};
    if (grid)
        memcpy(dims, grid, sizeof(int) * (size_t)nd);
    else
        MPI_Dims_create(mpitest_size, nd, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, nd, dims, per, 0, &cart);
    return cart;
}

/* A failed MPI call of the test itself: a check failure with MPI's words. */
static inline void lt_mpi_ok(int rc, const char *what, const char *path)
{
    if (rc == MPI_SUCCESS) return;
    char msg[MPI_MAX_ERROR_STRING];
    int n = 0;
    MPI_Error_string(rc, msg, &n);
    fprintf(stderr, "%s of %s failed: %.*s\n", what, path, n, msg);
    CHECK(rc == MPI_SUCCESS);
}

/* Open a new file collectively (removing an old one first). */
static inline MPI_File open_new(MPI_Comm comm, const char *path)
{
    MPI_File fh;
    if (mpitest_rank == 0) remove(path);
    MPI_Barrier(comm);
    const int rc = MPI_File_open(comm, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    lt_mpi_ok(rc, "MPI_File_open (create)", path);
    return fh;
}

static inline MPI_File open_read(MPI_Comm comm, const char *path)
{
    MPI_File fh;
    const int rc = MPI_File_open(comm, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    lt_mpi_ok(rc, "MPI_File_open (read)", path);
    return fh;
}

/* Write one record through a Lemon writer (header, data, close). */
static inline void lemon_record(LemonWriter *w, const char *type, const void *data, MPI_Offset n,
                                int mb, int me)
{
    LemonRecordHeader *h = lemonCreateHeader(mb, me, type, n);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    MPI_Offset k = n;
    CHECK_INT(lemonWriteRecordData((void *)data, &k, w), LEMON_SUCCESS);
    CHECK_INT(k, n);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
}

/* Every rank got the same value. */
static inline int all_equal(long long v)
{
    long long lo = v, hi = v;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    return lo == hi;
}

#endif
