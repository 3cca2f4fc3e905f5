/* header_codec.c -- encode/decode of the 144-byte header against bytes
 * written by other codes and against hand-computed bytes. */
#include "testutil.h"

static void decode_real_header(void)
{
    /* the first header of the C-LIME reference writer's own test file */
    size_t len = 0;
    unsigned char *f = test_slurp(test_data("lime_writer_test1.lime"), &len);
    CHECK(f && len == 888);
    if (!f) return;
    lattio_record_info info;
    CHECK_OK(lattio_lime_header_decode(f, &info));
    CHECK_STR(info.type, "lime-test-text1");
    CHECK_U64(info.length, 45);
    CHECK_INT(info.padding, 3);
    CHECK_INT(info.mb, 1);
    CHECK_INT(info.me, 0);
    CHECK_INT(info.version, 1);
    /* re-encoding gives the same 144 bytes */
    unsigned char h[144];
    CHECK_OK(lattio_lime_header_encode(h, "lime-test-text1", 45, 1, 0));
    CHECK(memcmp(h, f, 144) == 0);
    /* the last record (offset 720) has both flags */
    CHECK_OK(lattio_lime_header_decode(f + 720, &info));
    CHECK_STR(info.type, "lime-test-text3");
    CHECK_INT(info.mb && info.me, 1);
    free(f);
}

static void encode_by_hand(void)
{
    unsigned char h[144], want[144] = {0x45, 0x67, 0x89, 0xAB, 0, 1, 0x40, 0};
    /* length 0x0102030405060708 big-endian */
    for (int i = 0; i < 8; i++) want[8 + i] = (unsigned char)(i + 1);
    memcpy(want + 16, "x", 1);
    CHECK_OK(lattio_lime_header_encode(h, "x", UINT64_C(0x0102030405060708), 0, 1));
    CHECK(memcmp(h, want, 144) == 0);
}

static void padding(void)
{
    static const uint64_t len[] = {0, 1, 7, 8, 9, 15, 16, 147456, UINT64_C(4294967297)};
    static const unsigned pad[] = {0, 7, 1, 0, 7, 1, 0, 0, 7};
    for (size_t i = 0; i < sizeof len / sizeof len[0]; i++)
        CHECK_INT(lattio_lime_padding(len[i]), pad[i]);
}

static void bad_arguments(void)
{
    unsigned char h[144];
    char type[200];
    memset(type, 'a', sizeof type);
    type[129] = '\0'; /* 129 characters: one too many */
    CHECK_STATUS(lattio_lime_header_encode(h, type, 1, 1, 1), LATTIO_ERR_TYPE_TOO_LONG);
    type[128] = '\0'; /* 128 fill the field, with no NUL */
    CHECK_OK(lattio_lime_header_encode(h, type, 1, 1, 1));
    lattio_record_info info;
    CHECK_OK(lattio_lime_header_decode(h, &info));
    CHECK_INT(strlen(info.type), 128);
    CHECK_STATUS(lattio_lime_header_encode(NULL, "a", 1, 1, 1), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_lime_header_encode(h, NULL, 1, 1, 1), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_lime_header_encode(h, "a", UINT64_MAX, 1, 1), LATTIO_ERR_LENGTH_OVERFLOW);
    CHECK_STATUS(lattio_lime_header_decode(NULL, &info), LATTIO_ERR_ARG);
}

static void bad_headers(void)
{
    unsigned char h[144];
    lattio_record_info info;
    lattio_lime_header_encode(h, "t", 8, 1, 1);
    h[3] = 0xAC;
    CHECK_STATUS(lattio_lime_header_decode(h, &info), LATTIO_ERR_BAD_MAGIC);
    lattio_lime_header_encode(h, "t", 8, 1, 1);
    h[4] = 1; /* version 257 */
    CHECK_STATUS(lattio_lime_header_decode(h, &info), LATTIO_ERR_BAD_VERSION);
    CHECK_INT(info.version, 257);
    lattio_lime_header_encode(h, "t", 8, 1, 1);
    memset(h + 16, 'z', 128); /* a type filling the field: valid, as for C-LIME and Lemon */
    CHECK_OK(lattio_lime_header_decode(h, &info));
    CHECK_INT(strlen(info.type), 128);
    char t128[130];
    memset(t128, 'z', 128);
    t128[128] = '\0';
    unsigned char h2[LATTIO_LIME_HEADER_SIZE];
    CHECK_OK(lattio_lime_header_encode(h2, t128, 8, 1, 1)); /* written as read */
    CHECK(memcmp(h2, h, LATTIO_LIME_HEADER_SIZE) == 0);
    t128[128] = 'z';
    t128[129] = '\0';
    CHECK_STATUS(lattio_lime_header_encode(h2, t128, 8, 1, 1), LATTIO_ERR_TYPE_TOO_LONG);
    lattio_lime_header_encode(h, "t", 8, 1, 1);
    h[7] = 1;
    CHECK_STATUS(lattio_lime_header_decode(h, &info), LATTIO_ERR_BAD_FLAGS);
    CHECK_STR(info.type, "t");
}

int main(void)
{
    decode_real_header();
    encode_by_hand();
    padding();
    bad_arguments();
    bad_headers();
    return test_finish();
}
