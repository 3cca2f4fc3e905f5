/* convert_kernels.c -- the conversion kernels against naive byte loops, for
 * lengths 0..67 (odd ones included), unaligned buffers and in place; NaN
 * (with payload), infinities, denormals and -0 pass bit-exactly through byte
 * swaps; precision changes equal C casts. */
#include "fieldtest.h"

#include <float.h>
#include <math.h>

#define N 67

static void naive_swap(unsigned char *d, const unsigned char *s, size_t n, size_t w)
{
    for (size_t i = 0; i < n; i++)
        for (size_t b = 0; b < w; b++) d[i * w + b] = s[i * w + w - 1 - b];
}

/* Big-endian bytes of v, built with shifts (independent of the host). */
static void be64(unsigned char *p, double x)
{
    uint64_t v;
    memcpy(&v, &x, 8);
    for (int b = 0; b < 8; b++) p[b] = (unsigned char)(v >> (56 - 8 * b));
}

static void be32(unsigned char *p, float x)
{
    uint32_t v;
    memcpy(&v, &x, 4);
    for (int b = 0; b < 4; b++) p[b] = (unsigned char)(v >> (24 - 8 * b));
}

static double specials[N];

static void fill_specials(void)
{
    uint64_t nan_payload = UINT64_C(0x7ff8000000012345);
    const double fixed[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, DBL_MIN / 4, -DBL_MIN / 3,
                            FLT_MIN / 8, 1e300, -1e-300, 1.0 / 3, 3.0e38, 4.0e38};
    for (int i = 0; i < N; i++) specials[i] = (i % 7 - 3) * 1.2345e-3 * (i + 1);
    memcpy(&specials[20], &nan_payload, 8);
    memcpy(specials, fixed, sizeof fixed);
}

static void byte_swaps(void)
{
    unsigned char src[8 * N + 1], a[8 * N + 1], b[8 * N + 1];
    for (size_t i = 0; i < sizeof src; i++) src[i] = (unsigned char)(i * 29 + 7);
    for (size_t n = 0; n <= N; n++) {
        naive_swap(a, src + 1, n, 4); /* +1: unaligned */
        lattio_bswap32(b + 1, src + 1, n);
        CHECK(memcmp(a, b + 1, 4 * n) == 0);
        naive_swap(a, src + 1, n, 8);
        lattio_bswap64(b + 1, src + 1, n);
        CHECK(memcmp(a, b + 1, 8 * n) == 0);
        memcpy(b, src, 8 * n); /* in place */
        lattio_bswap64(b, b, n);
        naive_swap(a, src, n, 8);
        CHECK(memcmp(a, b, 8 * n) == 0);
    }
}

static void be_to_native(void)
{
    unsigned char d64[8 * N], d32[4 * N];
    double out[N];
    float outf[N];
    for (int i = 0; i < N; i++) {
        be64(d64 + 8 * i, specials[i]);
        be32(d32 + 4 * i, (float)specials[i]);
    }
    for (size_t n = 0; n <= N; n += (n < 5 ? 1 : 7)) {
        CHECK_OK(lattio_convert_reals(out, LATTIO_REAL_F64_NATIVE, d64, LATTIO_REAL_F64_BE, n));
        CHECK(memcmp(out, specials, 8 * n) == 0); /* bit-exact, NaN payload too */
        CHECK_OK(lattio_convert_reals(outf, LATTIO_REAL_F32_NATIVE, d32, LATTIO_REAL_F32_BE, n));
        for (size_t i = 0; i < n; i++) {
            const float want = (float)specials[i];
            CHECK(memcmp(&outf[i], &want, 4) == 0);
        }
        CHECK_OK(lattio_convert_reals(out, LATTIO_REAL_F64_NATIVE, d32, LATTIO_REAL_F32_BE, n));
        for (size_t i = 0; i < n; i++) {
            const double want = (double)(float)specials[i];
            CHECK(isnan(want) ? isnan(out[i]) : memcmp(&out[i], &want, 8) == 0);
        }
    }
}

static void native_to_be(void)
{
    unsigned char got[8 * N], want[8 * N];
    for (int i = 0; i < N; i++) be32(want + 4 * i, (float)specials[i]);
    CHECK_OK(lattio_convert_reals(got, LATTIO_REAL_F32_BE, specials, LATTIO_REAL_F64_NATIVE, N));
    for (int i = 0; i < N; i++) {
        const float w = (float)specials[i];
        if (isnan(w)) CHECK((got[4 * i] & 0x7f) == 0x7f && (got[4 * i + 1] & 0x80));
        else CHECK(memcmp(got + 4 * i, want + 4 * i, 4) == 0);
    }
    CHECK(memcmp(got + 4 * 12, "\x7f\x80\x00\x00", 4) == 0); /* 4e38 overflows to +inf */
    for (int i = 0; i < N; i++) be64(want + 8 * i, specials[i]);
    CHECK_OK(lattio_convert_reals(got, LATTIO_REAL_F64_BE, specials, LATTIO_REAL_F64_NATIVE, N));
    CHECK(memcmp(got, want, 8 * N) == 0);
    CHECK_OK(lattio_convert_reals(got, LATTIO_REAL_F64_LE, specials, LATTIO_REAL_F64_NATIVE, 1));
    CHECK(got[7] == 0 && got[0] == 0); /* 0.0 */
}

static void in_place_widening(void)
{
    double buf[N];
    unsigned char *b = (unsigned char *)buf;
    for (int i = 0; i < N; i++) be32(b + 4 * i, (float)(i * 0.5 - 3));
    CHECK_OK(lattio_convert_reals(buf, LATTIO_REAL_F64_NATIVE, buf, LATTIO_REAL_F32_BE, N));
    for (int i = 0; i < N; i++) CHECK(buf[i] == i * 0.5 - 3);
    CHECK_OK(lattio_convert_reals(buf, LATTIO_REAL_F32_BE, buf, LATTIO_REAL_F64_NATIVE, N));
    unsigned char want[4];
    be32(want, 30.0f);
    CHECK(memcmp(b + 4 * 66, want, 4) == 0);
    CHECK_STATUS(lattio_convert_reals(buf, 99, buf, LATTIO_REAL_F32_BE, 1), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_convert_reals(NULL, LATTIO_REAL_F32_BE, buf, LATTIO_REAL_F32_BE, 1), LATTIO_ERR_ARG);
    CHECK_OK(lattio_convert_reals(NULL, LATTIO_REAL_F32_BE, NULL, LATTIO_REAL_F32_BE, 0));
}

int main(void)
{
    fill_specials();
    byte_swaps();
    be_to_native();
    native_to_be();
    in_place_widening();
    return test_finish();
}
