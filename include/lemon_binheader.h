/* lemon_binheader.h -- compatibility shim: the Lemon header of this name.
 * The header size, and the per-file header buffer and field pointers Lemon
 * declares here (static: each file that includes this header gets its own,
 * as with Lemon; lattio's code does not use them). */
#ifndef LATTIO_LEMON_BINHEADER_H
#define LATTIO_LEMON_BINHEADER_H
#include "lemon.h"

#if defined(__GNUC__)
#define LATTIO_LEMON_MAYBE_UNUSED __attribute__((unused))
#else
#define LATTIO_LEMON_MAYBE_UNUSED
#endif
/* One header as 64-, 32-, 16-bit words and bytes, and where its fields are. */
static union {
    uint64_t int64[HDR_SIZE_BYTES / 8];
    uint32_t int32[HDR_SIZE_BYTES / 4];
    uint16_t int16[HDR_SIZE_BYTES / 2];
    unsigned char uchr[HDR_SIZE_BYTES];
} lemon_header LATTIO_LEMON_MAYBE_UNUSED;
static uint32_t *lemon_hdr_magic_no LATTIO_LEMON_MAYBE_UNUSED = &lemon_header.int32[0];
static uint16_t *lemon_hdr_version LATTIO_LEMON_MAYBE_UNUSED = &lemon_header.int16[2];
static uint64_t *lemon_hdr_data_len LATTIO_LEMON_MAYBE_UNUSED = &lemon_header.int64[1];
static unsigned char *lemon_hdr_mbme LATTIO_LEMON_MAYBE_UNUSED = &lemon_header.uchr[6];
static unsigned char *lemon_hdr_rec_type LATTIO_LEMON_MAYBE_UNUSED = &lemon_header.uchr[16];
#endif
