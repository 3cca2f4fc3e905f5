/* checksum_partial.c -- partial SciDAC sums over split site ranges, XORed,
 * equal the whole; the arbitrary-rank variant over a permutation of the
 * sites (and with a memory stride) equals the consecutive one; rank offsets
 * beyond 2^32 agree with a naive per-site formula; the rotation by 0 and
 * ranks that are multiples of 29 and 31. */
#include "fieldtest.h"

static uint32_t rotl(uint32_t v, unsigned k) { return k ? (v << k) | (v >> (32 - k)) : v; }

/* Naive reference for one site. */
static void naive(lattio_scidac_sum *s, const unsigned char *site, size_t n, uint64_t rank)
{
    const uint32_t c = lattio_crc32(0, site, n);
    s->suma ^= rotl(c, (unsigned)(rank % 29));
    s->sumb ^= rotl(c, (unsigned)(rank % 31));
}

static void split_ranges(const unsigned char *bin, size_t site, uint64_t nsites)
{
    lattio_scidac_sum whole = {0, 0};
    CHECK_OK(lattio_scidac_sum_sites(&whole, bin, site, nsites, 0));
    const uint64_t cuts[][3] = {{1, 2, 3}, {7, 100, 333}, {29, 31, 899}, {0, 0, 512}};
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
        lattio_scidac_sum total = {0, 0};
        uint64_t lo = 0;
        for (int p = 0; p <= 3; p++) { /* four parts, the last to the end, any order */
            const uint64_t hi = p < 3 ? (cuts[c][p] < nsites ? cuts[c][p] : nsites) : nsites;
            lattio_scidac_sum part = {0, 0};
            CHECK_OK(lattio_scidac_sum_sites(&part, bin + lo * site, site, hi - lo, lo));
            lattio_scidac_sum_combine(&total, &part);
            lo = hi;
        }
        CHECK_U64(total.suma, whole.suma);
        CHECK_U64(total.sumb, whole.sumb);
    }
    CHECK_U64(whole.suma, 0xd716ee56u); /* EXPECTED.md, third t_qio record */
}

static void ranked(const unsigned char *bin, size_t site, uint64_t nsites)
{
    lattio_scidac_sum whole = {0, 0}, perm = {0, 0}, strided = {0, 0};
    CHECK_OK(lattio_scidac_sum_sites(&whole, bin, site, nsites, 0));
    uint64_t *ranks = malloc(nsites * sizeof *ranks);
    unsigned char *shuffled = malloc(nsites * site);
    for (uint64_t i = 0; i < nsites; i++) { /* a permutation: i -> (i * 37) mod nsites */
        ranks[i] = (i * 37) % nsites;
        memcpy(shuffled + i * site, bin + ranks[i] * site, site);
    }
    CHECK_OK(lattio_scidac_sum_ranked(&perm, shuffled, site, site, nsites, ranks));
    CHECK_U64(perm.suma, whole.suma);
    CHECK_U64(perm.sumb, whole.sumb);
    /* every other site, with a stride of two sites, plus the odd ones consecutively */
    uint64_t *even = malloc(nsites * sizeof *even);
    for (uint64_t i = 0; i < nsites / 2; i++) even[i] = 2 * i;
    CHECK_OK(lattio_scidac_sum_ranked(&strided, bin, site, 2 * site, nsites / 2, even));
    for (uint64_t i = 1; i < nsites; i += 2) CHECK_OK(lattio_scidac_sum_sites(&strided, bin + i * site, site, 1, i));
    CHECK_U64(strided.suma, whole.suma);
    CHECK_U64(strided.sumb, whole.sumb);
    free(ranks);
    free(shuffled);
    free(even);
}

static void large_ranks(const unsigned char *bin, size_t site)
{
    const uint64_t first = (UINT64_C(1) << 40) + 12345;
    lattio_scidac_sum a = {0, 0}, b = {0, 0};
    CHECK_OK(lattio_scidac_sum_sites(&a, bin, site, 100, first));
    for (uint64_t i = 0; i < 100; i++) naive(&b, bin + i * site, site, first + i);
    CHECK_U64(a.suma, b.suma);
    CHECK_U64(a.sumb, b.sumb);
    CHECK_STATUS(lattio_scidac_sum_sites(&a, bin, site, 2, UINT64_MAX), LATTIO_ERR_OVERFLOW);
    /* rank 29*31: both rotations are 0, the sums are the CRC itself */
    lattio_scidac_sum z = {0, 0};
    CHECK_OK(lattio_scidac_sum_sites(&z, bin, site, 1, 29 * 31));
    CHECK_U64(z.suma, lattio_crc32(0, bin, site));
    CHECK_U64(z.sumb, lattio_crc32(0, bin, site));
}

int main(void)
{
    size_t len = 0;
    unsigned char *bin = ft_binary("t_qio.intel-scalar.lime", 2, &len);
    CHECK(bin != NULL && len == 147456);
    if (bin) {
        split_ranges(bin, 288, len / 288);
        ranked(bin, 288, len / 288);
        large_ranks(bin, 288);
    }
    free(bin);
    return test_finish();
}
