/* pipeline_bytes.c -- the field pipeline writes the same bytes whatever
 * runs it: for five decompositions (t, z, x, y splits and 4-D), with and
 * without halos and another memory order, under every strategy (the
 * default, independent, collective, aggregate, serial), with and without
 * the helper thread, in both disk precisions, and with the aggregate
 * windows cut small and unaligned to sites (LATTIO_CB_BUFFER_SIZE /
 * LATTIO_STRIPING_UNIT): the binary record equals an image this test makes
 * itself (big-endian bytes of the values by global site rank, byte-swapped
 * here, not by the library), and the whole file equals the one rank 0
 * writes alone.  Each file is also read back in another decomposition. */
#include "fmtest.h"

#include <stdlib.h>

/* The expected binary payload: site r's 72 values as big-endian doubles
 * (or floats), swapped by hand. */
static unsigned char *image(int f32, size_t *len)
{
    const uint64_t vol = fm_g[0] * fm_g[1] * fm_g[2] * fm_g[3];
    const size_t real = f32 ? 4 : 8;
    *len = (size_t)(vol * 72 * real);
    unsigned char *img = malloc(*len);
    for (uint64_t r = 0; r < vol; r++)
        for (uint64_t k = 0; k < 72; k++) {
            unsigned char *p = img + (r * 72 + k) * real;
            const double v = fm_value(r, k);
            uint64_t bits = 0;
            if (f32) {
                const float x = (float)v;
                uint32_t b32;
                memcpy(&b32, &x, 4);
                bits = b32;
            } else {
                memcpy(&bits, &v, 8);
            }
            for (size_t i = 0; i < real; i++) p[i] = (unsigned char)(bits >> (8 * (real - 1 - i)));
        }
    return img;
}

/* Rank 0: the payload of path's binary record equals img. */
static int payload_is(const char *path, const unsigned char *img, size_t len)
{
    lattio_lime_reader *r = NULL;
    lattio_record_info info;
    int ok = lattio_lime_reader_open(path, &r) == LATTIO_OK &&
             lattio_lime_reader_find(r, "ildg-binary-data", 0, &info) == LATTIO_OK &&
             info.length == len;
    unsigned char *got = ok ? malloc(len) : NULL;
    ok = ok && lattio_lime_reader_read_at(r, 0, got, len) == LATTIO_OK &&
         memcmp(got, img, len) == 0;
    free(got);
    lattio_lime_reader_close(r);
    return ok;
}

static const char *const strategies[] = {NULL, "independent", "collective", "aggregate", "serial", "mapped"};

static void set_env(const char *name, const char *value)
{
    if (value) setenv(name, value, 1);
    else unsetenv(name);
}

/* One write in decomposition v (odd: halos and x slowest in memory). */
static void one(int v, int odd, int f32, const unsigned char *img, size_t len, const char *label)
{
    lattio_layout l;
    CHECK_OK(fm_decomposed(&l, v, odd));
    double *local = fm_fill(&l, 72);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, f32 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE);
    const int rc = fm_write(MPI_COMM_WORLD, "p.lime", &d, &l, local, NULL);
    CHECK(fm_same_everywhere(rc));
    CHECK_OK(rc);
    if (mpitest_rank == 0) {
        const int same = fm_same_file("p.lime", f32 ? "ref32.lime" : "ref64.lime");
        const int bytes = payload_is("p.lime", img, len);
        if (!same || !bytes)
            fprintf(stderr, "%s: decomposition %d odd %d f32 %d: file %s, payload %s\n", label, v, odd,
                    f32, same ? "same" : "DIFFERS", bytes ? "same" : "DIFFERS");
        CHECK(same);
        CHECK(bytes);
    }
    free(local);
    /* read back in the next decomposition */
    CHECK_OK(fm_decomposed(&l, (v + 2) % 5, !odd));
    double *back = fm_buffer(&l);
    lattio_field_read_info info;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, 0);
    CHECK_OK(fm_read(MPI_COMM_WORLD, "p.lime", &d, &l, back, &info));
    CHECK_INT(info.checksum, LATTIO_CHECKSUM_VERIFIED);
    double *all = fm_whole();
    const uint64_t vol = fm_g[0] * fm_g[1] * fm_g[2] * fm_g[3];
    if (f32)
        for (uint64_t i = 0; i < vol * 72; i++) all[i] = (double)(float)all[i];
    CHECK_U64(fm_mismatches(&l, back, all, 72), 0);
    free(all);
    free(back);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    fm_write_reference("ref64.lime", LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    fm_write_reference("ref32.lime", LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F32_BE);
    size_t len64 = 0, len32 = 0;
    unsigned char *img64 = image(0, &len64), *img32 = image(1, &len32);
    for (int small = 0; small < 2; small++) { /* aggregate windows: default, tiny */
        set_env("LATTIO_CB_BUFFER_SIZE", small ? "1000" : NULL);
        set_env("LATTIO_STRIPING_UNIT", small ? "700" : NULL);
        for (int s = 0; s < 6; s++)
            for (int threads = 0; threads < 2; threads++) {
                if (small && s != 3 && s != 4) continue; /* only lattio's two-phase strategies change */
                set_env("LATTIO_STRATEGY", strategies[s]);
                set_env("LATTIO_FIELD_THREADS", threads ? "1" : "0");
                char label[96];
                snprintf(label, sizeof label, "%s%s%s", strategies[s] ? strategies[s] : "default",
                         threads ? " +helper" : "", small ? " small windows" : "");
                for (int v = 0; v < 5; v++)
                    for (int odd = 0; odd < 2; odd++)
                        for (int f32 = 0; f32 < 2; f32++)
                            one(v, odd, f32, f32 ? img32 : img64, f32 ? len32 : len64, label);
            }
    }
    free(img64);
    free(img32);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
