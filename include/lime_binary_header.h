/* lime_binary_header.h -- compatibility shim: the C-LIME header of this name.  Layout
 * constants of the 144-byte record header (no static buffers). */
#ifndef LATTIO_LIME_BINARY_HEADER_H
#define LATTIO_LIME_BINARY_HEADER_H
#include "lime.h"

#define MAX_HDR64 18                 /* header length in 64-bit words */
#define MAX_HDR64_PAD (MAX_HDR64 + 1)
#define LIME_HDR_LENGTH (8 * MAX_HDR64) /* 144 bytes */
#define MB_MASK ((unsigned char)0x80)   /* message-begin bit of byte 6 */
#define ME_MASK ((unsigned char)0x40)   /* message-end bit of byte 6 */
#endif
