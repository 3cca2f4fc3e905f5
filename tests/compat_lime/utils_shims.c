/* utils_shims: every C-LIME header name compiles (each is a shim over
 * lime.h), the constants have C-LIME's values, and the lime_utils.h helpers
 * (padding, byte order) compute the right numbers. */
#include "lime_binary_header.h"
#include "lime_config.h"
#include "lime_defs.h"
#include "lime_fixed_types.h"
#include "lime_fseeko.h"
#include "lime_header.h"
#include "lime_reader.h"
#include "lime_utils.h"
#include "lime_writer.h"

#include "limecheck.h"

int main(void)
{
    CHECK_U64(LIME_MAGIC_NO, 0x456789ABu);
    CHECK_INT(LIME_VERSION, 1);
    CHECK_INT(MAX_LIME_HDR_REC_TYPE, 128);
    CHECK_INT(LIME_HDR_LENGTH, 144);
    CHECK_INT(MB_MASK, 0x80);
    CHECK_INT(ME_MASK, 0x40);
    static const int codes[] = {LIME_SUCCESS, LIME_ERR_LAST_NOT_WRITTEN, LIME_ERR_PARAM,
                                LIME_ERR_HEADER_NEXT, LIME_LAST_REC_WRITTEN, LIME_ERR_WRITE,
                                LIME_EOR, LIME_EOF, LIME_ERR_READ, LIME_ERR_SEEK,
                                LIME_ERR_MBME, LIME_ERR_CLOSE};
    for (int i = 0; i < 12; i++) CHECK_INT(codes[i], -i);
    CHECK_INT(sizeof(n_uint16_t), 2);
    CHECK_INT(sizeof(n_uint32_t), 4);
    CHECK_INT(sizeof(n_uint64_t), 8);

    static const int pads[9] = {0, 7, 6, 5, 4, 3, 2, 1, 0};
    for (int i = 0; i < 9; i++) CHECK_INT(lime_padding((size_t)i), pads[i]);
    CHECK_INT(lime_padding(1000001), 7);

    unsigned char b[8];
    n_uint64_t v64 = big_endian_long_long(0x0102030405060708ull);
    memcpy(b, &v64, 8);
    for (int i = 0; i < 8; i++) CHECK_INT(b[i], i + 1);
    n_uint32_t v32 = big_endian_long(0x0a0b0c0du);
    memcpy(b, &v32, 4);
    CHECK(b[0] == 0x0a && b[1] == 0x0b && b[2] == 0x0c && b[3] == 0x0d);
    n_uint16_t v16 = big_endian_short(0x1234);
    memcpy(b, &v16, 2);
    CHECK(b[0] == 0x12 && b[1] == 0x34);
    const uint16_t one = 1;
    memcpy(b, &one, 2);
    CHECK_INT(lime_big_endian(), b[1] == 1);

    unsigned char w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    lime_byte_swap(w, 4, 2);
    CHECK(w[0] == 4 && w[3] == 1 && w[4] == 8 && w[7] == 5);
    lime_byte_swap(w, 3, 2); /* unsupported size: untouched, no exit */
    CHECK(w[0] == 4 && w[1] == 3);
    return lc_finish();
}
