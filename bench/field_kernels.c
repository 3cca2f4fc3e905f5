/* field_kernels.c -- single-core throughput of the MPI-free field kernels:
 * SciDAC checksum (576-byte and 72-byte sites), byte swap of 8-byte
 * elements, big-endian float64 -> native float64 and float32 -> float64,
 * native float64 -> big-endian float32.  Prints MB/s of input per kernel.
 *   field_kernels [MiB]   buffer size (default 64) */
#include "lattio.h"
#include "support.h" /* internal: checksum and conversion kernels (lattio_internal) */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Best of three runs of `what` over `bytes` bytes of input, in MB/s. */
#define TIME(label, bytes, stmt)                                                        \
    do {                                                                                \
        double best = 1e30;                                                             \
        for (int rep = 0; rep < 3; rep++) {                                             \
            const double t0 = now();                                                    \
            stmt;                                                                       \
            const double t = now() - t0;                                                \
            if (t < best) best = t;                                                     \
        }                                                                               \
        printf("%-34s %9.0f MB/s\n", label, (double)(bytes) / best / 1e6);              \
    } while (0)

int main(int argc, char **argv)
{
    const size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 64;
    const size_t n = mib << 20;
    unsigned char *src = malloc(n), *dst = malloc(2 * n);
    if (!src || !dst) return 1;
    for (size_t i = 0; i < n; i++) src[i] = (unsigned char)(i * 2654435761u >> 13);
    lattio_scidac_sum s = {0, 0};
    TIME("scidac checksum, 576 B sites", n, lattio_scidac_sum_sites(&s, src, 576, n / 576, 0));
    TIME("scidac checksum, 72 B sites", n, lattio_scidac_sum_sites(&s, src, 72, n / 72, 0));
    TIME("crc32 alone (whole buffer)", n, s.suma ^= lattio_crc32(0, src, n));
    TIME("byte swap 8-byte elements", n, lattio_bswap64(dst, src, n / 8));
    TIME("f64 BE -> f64 native", n,
         lattio_convert_reals(dst, LATTIO_REAL_F64_NATIVE, src, LATTIO_REAL_F64_BE, n / 8));
    TIME("f32 BE -> f64 native", n,
         lattio_convert_reals(dst, LATTIO_REAL_F64_NATIVE, src, LATTIO_REAL_F32_BE, n / 4));
    TIME("f64 native -> f32 BE", n,
         lattio_convert_reals(dst, LATTIO_REAL_F32_BE, src, LATTIO_REAL_F64_NATIVE, n / 8));
    printf("(checksum %08x %08x)\n", (unsigned)s.suma, (unsigned)s.sumb);
    free(src);
    free(dst);
    return 0;
}
