/* convert.c -- conversion kernels between the on-disk representation of
 * real numbers (IEEE-754, big-endian in ILDG/SciDAC files) and memory
 * (native byte order), element-wise so any chunk of a buffer converts
 * independently of the others.  NaN, infinities and denormals pass through a
 * byte swap bit for bit; precision changes are C casts (float64 -> float32
 * rounds to nearest, overflows to infinity, keeps NaN a NaN). */
#include "internal.h"

#include <string.h>

/* x86-64 with GCC or Clang: the byte swaps use AVX2's byte shuffle when the
 * CPU has it (checked at run time), 32 bytes per instruction; elsewhere the
 * portable loops below, which compilers vectorise as far as the baseline
 * instruction set allows. */
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>

/* Bytes of [0, nbytes) swapped in `width`-byte elements (4 or 8): returns
 * how many were done (a multiple of 32; the caller finishes the tail). */
__attribute__((target("avx2"))) static size_t bswap_avx2(unsigned char *d, const unsigned char *s,
                                                         size_t nbytes, int width)
{
    const __m256i m8 = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
                                        5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
    const __m256i m4 = _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2,
                                        1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
    const __m256i m = width == 8 ? m8 : m4;
    size_t i = 0;
    for (; i + 64 <= nbytes; i += 64) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(s + i + 32));
        _mm256_storeu_si256((__m256i *)(void *)(d + i), _mm256_shuffle_epi8(a, m));
        _mm256_storeu_si256((__m256i *)(void *)(d + i + 32), _mm256_shuffle_epi8(b, m));
    }
    for (; i + 32 <= nbytes; i += 32) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
        _mm256_storeu_si256((__m256i *)(void *)(d + i), _mm256_shuffle_epi8(a, m));
    }
    return i;
}

/* Elements of n (of `width` bytes) already swapped by the AVX2 path. */
static size_t bswap_fast(void *dst, const void *src, size_t n, int width)
{
    if (n < 8 || !__builtin_cpu_supports("avx2")) return 0;
    return bswap_avx2(dst, src, n * (size_t)width, width) / (size_t)width;
}
#else
static size_t bswap_fast(void *dst, const void *src, size_t n, int width)
{
    (void)dst, (void)src, (void)n, (void)width;
    return 0;
}
#endif

static int host_is_big_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 0;
}

static inline uint32_t bswap32(uint32_t v)
{
    return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static inline uint64_t bswap64(uint64_t v)
{
    return ((uint64_t)bswap32((uint32_t)v) << 32) | bswap32((uint32_t)(v >> 32));
}

void lattio_bswap32(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = bswap_fast(dst, src, n, 4); i < n; i++) {
        uint32_t v;
        memcpy(&v, s + 4 * i, 4);
        v = bswap32(v);
        memcpy(d + 4 * i, &v, 4);
    }
}

void lattio_bswap64(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = bswap_fast(dst, src, n, 8); i < n; i++) {
        uint64_t v;
        memcpy(&v, s + 8 * i, 8);
        v = bswap64(v);
        memcpy(d + 8 * i, &v, 8);
    }
}

size_t lattio_real_size(int fmt)
{
    switch (fmt) {
    case LATTIO_REAL_F32_NATIVE:
    case LATTIO_REAL_F32_BE:
    case LATTIO_REAL_F32_LE: return 4;
    case LATTIO_REAL_F64_NATIVE:
    case LATTIO_REAL_F64_BE:
    case LATTIO_REAL_F64_LE: return 8;
    default: return 0;
    }
}

/* Does format `fmt` store bytes in the opposite order from the host? */
static int swapped(int fmt)
{
    const int be = host_is_big_endian();
    switch (fmt) {
    case LATTIO_REAL_F32_BE:
    case LATTIO_REAL_F64_BE: return !be;
    case LATTIO_REAL_F32_LE:
    case LATTIO_REAL_F64_LE: return be;
    default: return 0;
    }
}

/* Element i of src as a double. */
static inline double load_real(const unsigned char *s, size_t i, size_t size, int swap)
{
    if (size == 4) {
        uint32_t v;
        float f;
        memcpy(&v, s + 4 * i, 4);
        if (swap) v = bswap32(v);
        memcpy(&f, &v, 4);
        return (double)f;
    }
    uint64_t v;
    double x;
    memcpy(&v, s + 8 * i, 8);
    if (swap) v = bswap64(v);
    memcpy(&x, &v, 8);
    return x;
}

static inline void store_real(unsigned char *d, size_t i, size_t size, int swap, double x)
{
    if (size == 4) {
        const float f = (float)x;
        uint32_t v;
        memcpy(&v, &f, 4);
        if (swap) v = bswap32(v);
        memcpy(d + 4 * i, &v, 4);
        return;
    }
    uint64_t v;
    memcpy(&v, &x, 8);
    if (swap) v = bswap64(v);
    memcpy(d + 8 * i, &v, 8);
}

/* Same precision: a copy or a byte swap (bit exact, in place allowed). */
static void convert_same_size(void *dst, const void *src, size_t n, size_t size, int swap)
{
    if (!swap) {
        if (dst != src) memmove(dst, src, n * size);
    } else if (size == 4) {
        lattio_bswap32(dst, src, n);
    } else {
        lattio_bswap64(dst, src, n);
    }
}

int lattio_convert_reals(void *dst, int dst_fmt, const void *src, int src_fmt, size_t n)
{
    const size_t ds = lattio_real_size(dst_fmt), ss = lattio_real_size(src_fmt);
    RETURN_IF(ds == 0 || ss == 0, LATTIO_ERR_ARG);
    RETURN_IF(n && (!dst || !src), LATTIO_ERR_ARG);
    RETURN_IF(n > SIZE_MAX / 8, LATTIO_ERR_OVERFLOW);
    const int sw_d = swapped(dst_fmt), sw_s = swapped(src_fmt);
    if (ds == ss) {
        convert_same_size(dst, src, n, ds, sw_d != sw_s);
        return LATTIO_OK;
    }
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (ds < ss) { /* narrowing: forward is safe in place */
        for (size_t i = 0; i < n; i++) store_real(d, i, ds, sw_d, load_real(s, i, ss, sw_s));
    } else { /* widening: backward is safe in place */
        for (size_t i = n; i-- > 0;) store_real(d, i, ds, sw_d, load_real(s, i, ss, sw_s));
    }
    return LATTIO_OK;
}
