/* checksum.c -- CRC-32 (libdeflate's, or where the build found no libdeflate,
 * a table-driven one here) and the SciDAC site checksum.
 *
 * SciDAC: for every site r (global lexicographic rank, x fastest) with CRC c
 * of its bytes as stored (big-endian), suma ^= rotl32(c, r % 29) and
 * sumb ^= rotl32(c, r % 31).  XOR makes partial sums over any split of the
 * sites combine by XOR, in any order. */
#include "internal.h"

#ifdef LATTIO_HAVE_LIBDEFLATE
#include <libdeflate.h>

static inline uint32_t crc_of(uint32_t crc, const void *buf, size_t n)
{
    return libdeflate_crc32(crc, buf, n);
}
#else
#include <pthread.h>

/* CRC-32 (IEEE 802.3, reflected polynomial 0xedb88320, as zlib's crc32),
 * one table lookup per byte: the fallback of a build without libdeflate
 * (pip install on a machine with a compiler and Python alone). */
static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_table_fill(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
        crc_table[i] = c;
    }
}

static uint32_t crc_of(uint32_t crc, const void *buf, size_t n)
{
    pthread_once(&crc_once, crc_table_fill);
    const unsigned char *p = buf;
    crc = ~crc;
    for (size_t i = 0; i < n; i++) crc = crc_table[(crc ^ p[i]) & 0xffu] ^ (crc >> 8);
    return ~crc;
}
#endif

uint32_t lattio_crc32(uint32_t crc, const void *buf, size_t n)
{
    if (!buf || n == 0) return crc;
    return crc_of(crc, buf, n);
}

/* rotl32(c, 0) must be c: a shift by 32 is undefined. */
static inline uint32_t rotl32(uint32_t v, unsigned k)
{
    return k ? (v << k) | (v >> (32u - k)) : v;
}

void lattio_scidac_sum_add_site(lattio_scidac_sum *sum, uint32_t crc, uint64_t rank)
{
    sum->suma ^= rotl32(crc, (unsigned)(rank % 29));
    sum->sumb ^= rotl32(crc, (unsigned)(rank % 31));
}

int lattio_scidac_sum_sites(lattio_scidac_sum *sum, const void *sites, size_t site_bytes,
                            uint64_t nsites, uint64_t first_rank)
{
    RETURN_IF(!sum || site_bytes == 0 || (!sites && nsites), LATTIO_ERR_ARG);
    RETURN_IF(nsites > UINT64_MAX - first_rank, LATTIO_ERR_OVERFLOW);
    const unsigned char *p = sites;
    unsigned a = (unsigned)(first_rank % 29), b = (unsigned)(first_rank % 31);
    uint32_t suma = sum->suma, sumb = sum->sumb;
    for (uint64_t i = 0; i < nsites; i++, p += site_bytes) {
        const uint32_t c = crc_of(0, p, site_bytes);
        suma ^= rotl32(c, a);
        sumb ^= rotl32(c, b);
        if (++a == 29) a = 0;
        if (++b == 31) b = 0;
    }
    sum->suma = suma;
    sum->sumb = sumb;
    return LATTIO_OK;
}

int lattio_scidac_sum_ranked(lattio_scidac_sum *sum, const void *sites, size_t site_bytes,
                             size_t site_stride, uint64_t nsites, const uint64_t *ranks)
{
    RETURN_IF(!sum || site_bytes == 0 || site_stride < site_bytes, LATTIO_ERR_ARG);
    RETURN_IF(nsites && (!sites || !ranks), LATTIO_ERR_ARG);
    const unsigned char *p = sites;
    for (uint64_t i = 0; i < nsites; i++, p += site_stride)
        lattio_scidac_sum_add_site(sum, crc_of(0, p, site_bytes), ranks[i]);
    return LATTIO_OK;
}

int lattio_scidac_sum_global(lattio_scidac_sum *sum, const void *data, size_t n)
{
    RETURN_IF(!sum || (!data && n), LATTIO_ERR_ARG);
    lattio_scidac_sum_add_site(sum, lattio_crc32(0, data, n), 0);
    return LATTIO_OK;
}

void lattio_scidac_sum_combine(lattio_scidac_sum *into, const lattio_scidac_sum *part)
{
    if (!into || !part) return;
    into->suma ^= part->suma;
    into->sumb ^= part->sumb;
}
