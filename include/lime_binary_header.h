/* lime_binary_header.h -- compatibility shim: the C-LIME header of this name.  Layout
 * constants of the 144-byte record header, and the per-file header buffer
 * and field pointers C-LIME declares here (static: each file that includes
 * this header gets its own, as with C-LIME; lattio's code does not use them). */
#ifndef LATTIO_LIME_BINARY_HEADER_H
#define LATTIO_LIME_BINARY_HEADER_H
#include "lime.h"

#define MAX_HDR64 18                 /* header length in 64-bit words */
#define MAX_HDR64_PAD (MAX_HDR64 + 1)
#define LIME_HDR_LENGTH (8 * MAX_HDR64) /* 144 bytes */
#define MB_MASK ((unsigned char)0x80)   /* message-begin bit of byte 6 */
#define ME_MASK ((unsigned char)0x40)   /* message-end bit of byte 6 */

#if defined(__GNUC__)
#define LATTIO_LIME_MAYBE_UNUSED __attribute__((unused))
#else
#define LATTIO_LIME_MAYBE_UNUSED
#endif
/* One header as 64-, 32-, 16-bit words and bytes, and where its fields are. */
static union {
    n_uint64_t int64[MAX_HDR64_PAD];
    n_uint32_t int32[2 * MAX_HDR64_PAD];
    n_uint16_t int16[4 * MAX_HDR64_PAD];
    unsigned char uchr[8 * MAX_HDR64_PAD];
} lime_header LATTIO_LIME_MAYBE_UNUSED;
static n_uint32_t *lime_hdr_magic_no LATTIO_LIME_MAYBE_UNUSED = &lime_header.int32[0];
static n_uint16_t *lime_hdr_version LATTIO_LIME_MAYBE_UNUSED = &lime_header.int16[2];
static unsigned char *lime_hdr_mbme LATTIO_LIME_MAYBE_UNUSED = &lime_header.uchr[6];
static n_uint64_t *lime_hdr_data_len LATTIO_LIME_MAYBE_UNUSED = &lime_header.int64[1];
static unsigned char *lime_hdr_rec_type LATTIO_LIME_MAYBE_UNUSED = &lime_header.uchr[16];
#endif
