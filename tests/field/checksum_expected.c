/* checksum_expected.c -- the SciDAC checksum of every binary record of the
 * real files equals the suma/sumb EXPECTED.md lists (typed in here), both
 * from the raw binary bytes through lattio_scidac_sum_sites and through
 * lattio_field_verify; CRC-32's check value. */
#include "fieldtest.h"

static const struct {
    const char *file;
    int field;
    size_t site_bytes;
    uint32_t suma, sumb;
} expected[] = {
    {"unity.lime", 0, 576, 0x35b49a1bu, 0xb49a1b35u},
    {"t_dprec_ildg.lime", 0, 576, 0xe6ca40a6u, 0x59cdeef1u},
    {"lat.sample.l4444.ildg", 0, 288, 0x37affb9cu, 0x2fc07bbfu},
    {"t_qio.intel-scalar.lime", 0, 8, 0xdb7837afu, 0x633915aau},
    {"t_qio.intel-scalar.lime", 1, 72, 0x8bf04559u, 0x8ee2aee7u},
    {"t_qio.intel-scalar.lime", 2, 288, 0xd716ee56u, 0x7d701386u},
};

static void check_raw(int k)
{
    size_t len = 0;
    unsigned char *bin = ft_binary(expected[k].file, expected[k].field, &len);
    CHECK(bin != NULL);
    if (!bin) return;
    CHECK_U64(len % expected[k].site_bytes, 0);
    lattio_scidac_sum s = {0, 0};
    CHECK_OK(lattio_scidac_sum_sites(&s, bin, expected[k].site_bytes, len / expected[k].site_bytes, 0));
    CHECK_U64(s.suma, expected[k].suma);
    CHECK_U64(s.sumb, expected[k].sumb);
    free(bin);
}

static void check_verify(int k)
{
    lattio_field_info fi;
    lattio_scidac_sum s = {0, 0};
    CHECK_OK(lattio_field_verify(test_data(expected[k].file), expected[k].field, &fi, &s));
    CHECK_U64(s.suma, expected[k].suma);
    CHECK_U64(s.sumb, expected[k].sumb);
    CHECK_U64(fi.stored.suma, expected[k].suma);
    CHECK_U64(fi.stored.sumb, expected[k].sumb);
    CHECK_U64(fi.typesize * fi.datacount, expected[k].site_bytes);
    lattio_field_info_free(&fi);
}

int main(void)
{
    CHECK_U64(lattio_crc32(0, "123456789", 9), 0xcbf43926u);
    CHECK_U64(lattio_crc32(lattio_crc32(0, "1234", 4), "56789", 5), 0xcbf43926u);
    for (size_t k = 0; k < sizeof expected / sizeof expected[0]; k++) {
        check_raw((int)k);
        check_verify((int)k);
    }
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
