/* precision.c -- conversion on the fly: doubles written as 32-bit reals are
 * the nearest floats (each reals checked against a cast done here), a 32-bit
 * file read into doubles gives exactly the floats widened, into floats the
 * floats themselves; floats written as 64-bit reals widen exactly. */
#include "fmtest.h"

#define VOL (6 * 4 * 8 * 10)

static uint32_t be32(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* Rank 0: the 32-bit payload holds (float) of every double. */
static void check_f32_payload(const char *path)
{
    lattio_lime_reader *r = NULL;
    lattio_record_info info;
    CHECK_OK(lattio_lime_reader_open(path, &r));
    CHECK_OK(lattio_lime_reader_find(r, "ildg-binary-data", 0, &info));
    CHECK_U64(info.length, (uint64_t)VOL * 288);
    unsigned char *p = malloc((size_t)VOL * 288);
    CHECK_OK(lattio_lime_reader_read_at(r, 0, p, (size_t)VOL * 288));
    uint64_t bad = 0;
    for (uint64_t i = 0; i < (uint64_t)VOL * 72; i++) {
        const float want = (float)fm_value(i / 72, i % 72);
        uint32_t bits;
        memcpy(&bits, &want, 4);
        bad += be32(p + 4 * i) != bits;
    }
    CHECK_U64(bad, 0);
    free(p);
    lattio_lime_reader_close(r);
    CHECK_OK(lattio_field_verify(path, 0, NULL, NULL));
}

/* Read the 32-bit file into memory format mem with decomposition v. */
static void read_back(int v, int mem)
{
    int grid[4];
    fm_grid(v, mpitest_size, grid);
    lattio_layout l;
    const size_t sz = mem == LATTIO_REAL_F32_NATIVE ? 4 : 8;
    CHECK_OK(fm_layout(&l, fm_g, grid, mpitest_rank, 72 * sz, 0, 0));
    unsigned char *local = fm_buffer(&l);
    lattio_field_desc d;
    fm_gauge_desc(&d, mem, 0);
    lattio_file *f = NULL;
    lattio_field_read_info info;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "f32.lime", LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_field_read(f, 0, &d, &l, local, &info));
    CHECK_INT(info.checksum, LATTIO_CHECKSUM_VERIFIED);
    CHECK_INT(info.field.precision, 32);
    lattio_field_info_free(&info.field);
    CHECK_OK(lattio_close(f));
    uint64_t *pos, *gr, bad = 0;
    const uint64_t n = fm_sites(&l, &pos, &gr);
    for (uint64_t s = 0; s < n; s++)
        for (uint64_t k = 0; k < 72; k++) {
            const float want = (float)fm_value(gr[s], k);
            if (mem == LATTIO_REAL_F32_NATIVE) {
                float got;
                memcpy(&got, local + (pos[s] * 72 + k) * 4, 4);
                bad += got != want;
            } else {
                double got;
                memcpy(&got, local + (pos[s] * 72 + k) * 8, 8);
                bad += got != (double)want;
            }
        }
    CHECK_U64(bad, 0);
    free(pos);
    free(gr);
    free(local);
}

/* Floats in memory written as doubles: the file equals the one written
 * from the widened doubles. */
static void f32_to_f64(void)
{
    int grid[4];
    fm_grid(3, mpitest_size, grid);
    lattio_layout l;
    CHECK_OK(fm_layout(&l, fm_g, grid, mpitest_rank, 288, 0, 0));
    double *dbl = fm_fill(&l, 72);
    const uint64_t n = lattio_layout_local_sites(&l) * 72;
    float *flt = malloc((n ? n : 1) * sizeof *flt);
    for (uint64_t i = 0; i < n; i++) flt[i] = (float)dbl[i];
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F32_NATIVE, LATTIO_REAL_F64_BE);
    CHECK_OK(fm_write(MPI_COMM_WORLD, "wide.lime", &d, &l, flt, NULL));
    fm_write_reference("wide_ref.lime", LATTIO_REAL_F32_NATIVE, LATTIO_REAL_F64_BE);
    if (mpitest_rank == 0) {
        lattio_gauge_info gi;
        double *u = NULL;
        CHECK_OK(lattio_gauge_read("wide.lime", &gi, &u));
        uint64_t bad = 0;
        for (uint64_t i = 0; u && i < (uint64_t)VOL * 72; i++)
            bad += u[i] != (double)(float)fm_value(i / 72, i % 72);
        CHECK(u && bad == 0 && gi.precision == 64);
        lattio_gauge_free(u);
        CHECK(fm_same_file("wide.lime", "wide_ref.lime"));
    }
    free(flt);
    free(dbl);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    int grid[4];
    fm_grid(0, mpitest_size, grid);
    lattio_layout l;
    CHECK_OK(fm_layout(&l, fm_g, grid, mpitest_rank, 576, 1, 1));
    double *local = fm_fill(&l, 72);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F32_BE);
    CHECK_OK(fm_write(MPI_COMM_WORLD, "f32.lime", &d, &l, local, NULL));
    free(local);
    if (mpitest_rank == 0) check_f32_payload("f32.lime");
    MPI_Barrier(MPI_COMM_WORLD);
    for (int v = 0; v < 5; v++) read_back(v, v % 2 ? LATTIO_REAL_F32_NATIVE : LATTIO_REAL_F64_NATIVE);
    f32_to_f64();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
