/* nb_lattice_then_record.c -- Lemon defects 1 and 5: two non-blocking
 * lattice writes into one record at different payload offsets (uneven 4-D
 * decompositions from a Cartesian communicator and a t-split with halos),
 * then, before any wait, a blocking piece of the same record, the end of
 * the record, the next record's position and a whole further record; the
 * caller's buffers are poisoned right after the start.  The file equals an
 * image computed serially, headers, lattices and padding. */
#include "nbutil.h"
#include "../layout/sim.h"

static const uint64_t G[4] = {7, 3, 4, 5}; /* x y z t: 7 over 2 or 3, 5 over 3 or 4 */
#define SITE 3
#define HEAD 5 /* record bytes before the first lattice */

/* From a Cartesian communicator, file order t z y x, memory x slowest. */
static void cart_layout(lattio_layout *l)
{
    nb_cart_layout(G, SITE, l);
    static const int fo[4] = {3, 2, 1, 0}, mo[4] = {0, 3, 1, 2};
    memcpy(l->file_order, fo, sizeof fo);
    memcpy(l->mem_order, mo, sizeof mo);
    CHECK_OK(lattio_layout_check(l));
}

/* t split over all ranks, one ghost layer everywhere, memory = file order. */
static void tsplit_layout(lattio_layout *l)
{
    uint64_t lo[4] = {0}, cnt[4] = {7, 3, 4, 0};
    lattio_split(G[3], (uint64_t)mpitest_size, (uint64_t)mpitest_rank, &lo[3], &cnt[3]);
    CHECK_OK(lattio_layout_init(l, 4, G, lo, cnt, SITE));
    for (int d = 0; d < 4; d++) {
        l->file_order[d] = 3 - d;
        l->mem_order[d] = 3 - d;
        l->halo_lo[d] = l->halo_hi[d] = 1;
    }
    CHECK_OK(lattio_layout_check(l));
}

static void expected(image *im, const unsigned char *lat, uint64_t bytes)
{
    uint64_t len = HEAD + 2 * bytes;
    unsigned char *payload = malloc(len);
    memcpy(payload, "HEAD!", HEAD);
    memcpy(payload + HEAD, lat, bytes);
    memcpy(payload + HEAD + bytes, lat, bytes);
    image_record(im, "meta", "m", 1, 1, 0);
    image_record(im, "lattices", payload, len, 0, 0);
    image_record(im, "after", "record after the lattices", 25, 0, 1);
    free(payload);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    lattio_layout a, b;
    cart_layout(&a);
    tsplit_layout(&b);
    const uint64_t bytes = 7 * 3 * 4 * 5 * SITE, len = HEAD + 2 * bytes;
    unsigned char *lat = sim_expected_file(&a);
    unsigned char *bufa = sim_buffer(&a, POISON), *bufb = sim_buffer(&b, POISON);
    lattio_file *f = NULL;
    lattio_request *ra = NULL, *rb = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "nb.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_write(f, "meta", "m", 1, 1, 0));
    CHECK_OK(lattio_record_begin(f, "lattices", len, 0, 0));
    CHECK_OK(lattio_lattice_iwrite(f, &a, HEAD + bytes, bufa, &ra)); /* the second copy first */
    memset(bufa, POISON, lattio_layout_buffer_sites(&a) * SITE);
    CHECK_OK(lattio_lattice_iwrite(f, &b, HEAD, bufb, &rb));
    memset(bufb, POISON, lattio_layout_buffer_sites(&b) * SITE);
    CHECK(ra != NULL && rb != NULL);
    int r0 = mpitest_rank == 0;
    CHECK_OK(lattio_record_write_at(f, 0, r0 ? "HEAD!" : NULL, r0 ? HEAD : 0));
    CHECK_OK(lattio_record_end(f, 0)); /* all bytes counted though none may be on disk yet */
    CHECK_U64(lattio_file_position(f), 152 + 144 + len + (8 - len % 8) % 8);
    CHECK_OK(lattio_record_write(f, "after", "record after the lattices", 25, 0, 1));
    CHECK_OK(lattio_wait(&rb));
    CHECK(rb == NULL);
    CHECK_OK(lattio_wait(&ra));
    CHECK(ra == NULL);
    CHECK_OK(lattio_close(f));
    image im = {0};
    expected(&im, lat, bytes);
    check_file("nb.lime", &im);
    free(im.b);
    free(lat);
    free(bufa);
    free(bufb);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
