/* lime_codec.c -- LIME record headers: encode, decode, padding. */
#include "internal.h"

#include <string.h>

uint32_t lattio_lime_padding(uint64_t length) { return (uint32_t)((8 - length % 8) % 8); }

int lattio_lime_header_encode(unsigned char out[LATTIO_LIME_HEADER_SIZE], const char *type,
                              uint64_t length, int mb, int me)
{
    RETURN_IF(!out || !type, LATTIO_ERR_ARG);
    size_t tlen = strlen(type);
    RETURN_IF(tlen > LATTIO_LIME_TYPE_MAX, LATTIO_ERR_TYPE_TOO_LONG);
    RETURN_IF(length > LATTIO_LIME_MAX_LENGTH, LATTIO_ERR_LENGTH_OVERFLOW);
    memset(out, 0, LATTIO_LIME_HEADER_SIZE);
    lattio_store_be32(out, LATTIO_LIME_MAGIC);
    out[4] = 0;
    out[5] = LATTIO_LIME_VERSION;
    out[6] = (unsigned char)((mb ? LATTIO_LIME_FLAG_MB : 0) | (me ? LATTIO_LIME_FLAG_ME : 0));
    out[7] = 0;
    lattio_store_be64(out + 8, length);
    memcpy(out + 16, type, tlen);
    return LATTIO_OK;
}

int lattio_lime_header_decode(const unsigned char in[LATTIO_LIME_HEADER_SIZE],
                              lattio_record_info *info)
{
    RETURN_IF(!in || !info, LATTIO_ERR_ARG);
    memset(info, 0, sizeof *info);
    uint32_t magic = lattio_load_be32(in);
    info->version = lattio_load_be16(in + 4);
    info->mb = (in[6] & LATTIO_LIME_FLAG_MB) != 0;
    info->me = (in[6] & LATTIO_LIME_FLAG_ME) != 0;
    info->length = lattio_load_be64(in + 8);
    info->padding = lattio_lime_padding(info->length);
    const unsigned char *t = in + 16;
    const unsigned char *nul = memchr(t, 0, LATTIO_LIME_TYPE_MAX); /* none: all 128 bytes */
    size_t tlen = nul ? (size_t)(nul - t) : LATTIO_LIME_TYPE_MAX;
    memcpy(info->type, t, tlen);
    info->type[tlen] = '\0';
    RETURN_IF(magic != LATTIO_LIME_MAGIC, LATTIO_ERR_BAD_MAGIC);
    RETURN_IF(info->version != LATTIO_LIME_VERSION, LATTIO_ERR_BAD_VERSION);
    RETURN_IF(info->length > LATTIO_LIME_MAX_LENGTH, LATTIO_ERR_LENGTH_OVERFLOW);
    RETURN_IF((in[6] & 0x3f) != 0 || in[7] != 0, LATTIO_ERR_BAD_FLAGS);
    return LATTIO_OK;
}
