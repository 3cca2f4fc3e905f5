/* nb_read_then_next.c -- Lemon defect 2: after a non-blocking lattice read
 * (and a non-blocking piece read) every following record is still found by
 * lattio_record_next / _find, a blocking read works while they are pending,
 * and at the waits the values equal a serial computation (ghosts untouched).
 * A request left pending is completed by lattio_close.  The file is written
 * by rank 0 with stdio from a hand-built image. */
#include "nbutil.h"
#include "../layout/sim.h"

static const uint64_t G[4] = {5, 3, 4, 7};
#define SITE 8
#define CLEN 1001

static unsigned char c_byte(uint64_t i) { return (unsigned char)(i * 29 + 11); }

static void write_file(const lattio_layout *l, image *im)
{
    unsigned char *lat = sim_expected_file(l), c[CLEN];
    for (int i = 0; i < CLEN; i++) c[i] = c_byte((uint64_t)i);
    image_record(im, "a", "first record", 12, 1, 0);
    image_record(im, "lattice", lat, lattio_layout_global_sites(l) * SITE, 0, 0);
    image_record(im, "b", "bee", 3, 0, 0);
    image_record(im, "c", c, CLEN, 0, 1);
    free(lat);
    if (mpitest_rank == 0) {
        FILE *fp = fopen("in.lime", "wb");
        CHECK(fp && fwrite(im->b, 1, im->n, fp) == im->n);
        if (fp) fclose(fp);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void layout_of(lattio_layout *l)
{
    nb_cart_layout(G, SITE, l);
    for (int d = 0; d < 4; d++) {
        l->file_order[d] = 3 - d;
        l->halo_lo[d] = d % 2;
        l->halo_hi[d] = 1;
    }
    CHECK_OK(lattio_layout_check(l));
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    lattio_layout l;
    layout_of(&l);
    image im = {0};
    write_file(&l, &im);
    uint64_t nbuf = lattio_layout_buffer_sites(&l) * SITE;
    unsigned char *want = sim_buffer(&l, POISON), *got = malloc(nbuf + 1);
    memset(got, POISON, nbuf + 1);
    /* rank r reads c[r*100 .. r*100+250) */
    unsigned char piece[250], b[3] = {0};
    lattio_file *f = NULL;
    lattio_request *rl = NULL, *rc = NULL, *ra = NULL;
    lattio_record_info info;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "in.lime", LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_next(f, &info));
    CHECK_OK(lattio_record_iread_at(f, 0, piece, 12, &ra)); /* never waited: close completes it */
    CHECK_OK(lattio_record_next(f, &info));
    CHECK_STR(info.type, "lattice");
    CHECK_OK(lattio_lattice_iread(f, &l, 0, got, &rl));
    CHECK_OK(lattio_record_next(f, &info));
    CHECK_STR(info.type, "b");
    CHECK_OK(lattio_record_read_at(f, 0, b, 3)); /* blocking, requests pending */
    CHECK(memcmp(b, "bee", 3) == 0);
    CHECK_OK(lattio_record_next(f, &info));
    CHECK_STR(info.type, "c");
    CHECK_U64(info.length, CLEN);
    CHECK_INT(info.me, 1);
    CHECK_U64(lattio_file_position(f), im.n);
    CHECK_OK(lattio_record_iread_at(f, (uint64_t)mpitest_rank * 100, piece, 250, &rc));
    CHECK_STATUS(lattio_record_next(f, &info), LATTIO_ERR_EOF);
    CHECK_INT(lattio_record_count(f), 4);
    CHECK_OK(lattio_record_find(f, "b", 0, &info));
    CHECK_OK(lattio_wait(&rl));
    CHECK(memcmp(got, want, nbuf) == 0); /* interior values, ghosts still poison */
    CHECK_INT(got[nbuf], POISON);       /* nothing beyond the buffer */
    CHECK_OK(lattio_wait(&rc));
    int bad = 0;
    for (int i = 0; i < 250; i++) bad += piece[i] != c_byte((uint64_t)(mpitest_rank * 100 + i));
    CHECK_INT(bad, 0);
    CHECK(ra != NULL);
    CHECK_OK(lattio_close(f));
    free(im.b);
    free(want);
    free(got);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
