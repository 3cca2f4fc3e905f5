/* nbutil.h -- expected LIME images for the MPI-layer tests, built by hand
 * from the format description (magic, version, flags, length, type,
 * payload, zero padding), not with lattio's encoder. */
#ifndef LATTIO_TEST_NBUTIL_H
#define LATTIO_TEST_NBUTIL_H

#include "mpitest.h"

/* A growing byte image of a file. */
typedef struct image {
    unsigned char *b;
    size_t n;
} image;

static inline void image_put(image *im, const void *data, size_t n)
{
    im->b = realloc(im->b, im->n + n + 1);
    if (n) memcpy(im->b + im->n, data, n);
    im->n += n;
}

/* One record: 144-byte header, payload (NULL: zeros), zero padding to 8. */
static inline void image_record(image *im, const char *type, const void *data, uint64_t len,
                                int mb, int me)
{
    unsigned char h[144] = {0x45, 0x67, 0x89, 0xAB, 0, 1};
    h[6] = (unsigned char)((mb ? 0x80 : 0) | (me ? 0x40 : 0));
    for (int i = 0; i < 8; i++) h[8 + i] = (unsigned char)(len >> (56 - 8 * i));
    memcpy(h + 16, type, strlen(type));
    image_put(im, h, 144);
    unsigned char *zeros = calloc(len + 8, 1);
    image_put(im, data ? data : zeros, len);
    image_put(im, zeros, (8 - len % 8) % 8);
    free(zeros);
}

/* Rank 0: the file at `path` equals the image (sizes and bytes). */
static inline void check_file(const char *path, const image *im)
{
    if (mpitest_rank != 0) return;
    size_t n = 0;
    unsigned char *got = test_slurp(path, &n);
    CHECK_INT(n, im->n);
    int same = got && n == im->n && memcmp(got, im->b, n) == 0;
    CHECK(same);
    for (size_t i = 0; got && !same && i < n && i < im->n; i++)
        if (got[i] != im->b[i]) {
            fprintf(stderr, "%s: first difference at byte %zu: %02x != %02x\n", path, i, got[i],
                    im->b[i]);
            break;
        }
    free(got);
}

/* This rank's box of the lattice `global` block-split over a 4-D Cartesian
 * grid from MPI_Dims_create (identity orders, no ghosts yet). */
static inline void nb_cart_layout(const uint64_t *global, size_t site, lattio_layout *l)
{
    int dims[4] = {0}, periods[4] = {0};
    MPI_Comm cart;
    MPI_Dims_create(mpitest_size, 4, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 4, dims, periods, 0, &cart);
    CHECK_OK(lattio_layout_from_cart(cart, global, site, l));
    MPI_Comm_free(&cart);
}

#endif
