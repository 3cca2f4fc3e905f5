/* write_gauge.c -- a random 6x4x8x10 double gauge field written on 1-4 ranks
 * in five decompositions (and with halos and another memory order): the
 * files are byte-identical to the one rank 0 writes alone, the binary record
 * holds the big-endian image computed here, the scidac-checksum record holds
 * the sums of an independent serial computation, the record set is QIO's,
 * and the serial reader reads it back with its checksum verified. */
#include "fmtest.h"

#define VOL (6 * 4 * 8 * 10)

/* The binary payload, computed byte by byte. */
static unsigned char *expected_image(void)
{
    unsigned char *img = malloc((size_t)VOL * 576), *p = img;
    for (uint64_t r = 0; r < VOL; r++)
        for (uint64_t k = 0; k < 72; k++) {
            const double v = fm_value(r, k);
            uint64_t bits;
            memcpy(&bits, &v, 8);
            for (int i = 0; i < 8; i++) *p++ = (unsigned char)(bits >> (56 - 8 * i));
        }
    return img;
}

static const char *const set_types[8] = {
    "scidac-private-file-xml", "scidac-file-xml", "scidac-private-record-xml",
    "scidac-record-xml", "ildg-format", "ildg-data-lfn", "ildg-binary-data", "scidac-checksum"};
static const int set_mb[8] = {1, 0, 1, 0, 0, 0, 0, 0}, set_me[8] = {0, 1, 0, 0, 0, 0, 0, 1};

/* Rank 0: the record set, the payload and the checksum of the file. */
static void check_file(const char *path, const unsigned char *img, const lattio_scidac_sum *sum)
{
    lattio_lime_reader *r = NULL;
    lattio_record_info info;
    CHECK_OK(lattio_lime_reader_open(path, &r));
    for (int i = 0; i < 8; i++) {
        CHECK_OK(lattio_lime_reader_next(r, &info));
        CHECK_STR(info.type, set_types[i]);
        CHECK(info.mb == set_mb[i] && info.me == set_me[i]);
        if (i == 6) {
            unsigned char *got = malloc((size_t)VOL * 576);
            CHECK_U64(info.length, (uint64_t)VOL * 576);
            CHECK_OK(lattio_lime_reader_read_at(r, 0, got, (size_t)VOL * 576));
            CHECK(memcmp(got, img, (size_t)VOL * 576) == 0);
            free(got);
        }
    }
    CHECK_STATUS(lattio_lime_reader_next(r, &info), LATTIO_ERR_EOF);
    lattio_lime_reader_close(r);
    lattio_field_info fi;
    lattio_scidac_sum computed;
    CHECK_OK(lattio_field_verify(path, 0, &fi, &computed));
    CHECK(fi.stored.suma == sum->suma && fi.stored.sumb == sum->sumb);
    CHECK(fi.kind == LATTIO_FIELD_ILDG_GAUGE && fi.precision == 64);
    CHECK(fi.dims[0] == 6 && fi.dims[1] == 4 && fi.dims[2] == 8 && fi.dims[3] == 10);
    CHECK_STR(fi.lfn, "lfn://lattio/test");
    lattio_field_info_free(&fi);
    lattio_gauge_info gi;
    double *u = NULL;
    CHECK_OK(lattio_gauge_read(path, &gi, &u));
    int same = u != NULL;
    for (uint64_t i = 0; same && i < (uint64_t)VOL * 72; i++) same = u[i] == fm_value(i / 72, i % 72);
    CHECK(same);
    lattio_gauge_free(u);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    unsigned char *img = expected_image();
    lattio_scidac_sum sum = {0, 0};
    CHECK_OK(lattio_scidac_sum_sites(&sum, img, 576, VOL, 0));
    fm_write_reference("ref.lime", LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    if (mpitest_rank == 0) check_file("ref.lime", img, &sum);
    for (int v = 0; v < 6; v++) {
        int grid[4];
        fm_grid(v % 5, mpitest_size, grid);
        lattio_layout l;
        CHECK_OK(fm_layout(&l, fm_g, grid, mpitest_rank, 576, v == 5, v == 5 || v == 2));
        double *local = fm_fill(&l, 72);
        lattio_field_desc d;
        fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
        lattio_field_write_info wi;
        CHECK_OK(fm_write(MPI_COMM_WORLD, "g.lime", &d, &l, local, &wi));
        CHECK(wi.sum.suma == sum.suma && wi.sum.sumb == sum.sumb);
        CHECK_INT(wi.retries, 0);
        if (mpitest_rank == 0) CHECK(fm_same_file("g.lime", "ref.lime"));
        free(local);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(img);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
