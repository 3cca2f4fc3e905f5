/* lime_utils.h -- compatibility shim: the C-LIME header of this name.  Byte-order and padding
 * helpers. */
#ifndef LATTIO_LIME_UTILS_H
#define LATTIO_LIME_UTILS_H
#include "lime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden visibility: what this header declares is
 * its exported API. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif
/* Padding bytes after a payload of nbytes: (8 - nbytes % 8) % 8. */
int lime_padding(size_t nbytes);
/* 1 on a big-endian host, 0 otherwise. */
int lime_big_endian(void);
/* Reverse the bytes of nmemb items of size 1, 2, 4 or 8 in place; other
 * sizes are left untouched. */
void lime_byte_swap(void *ptr, size_t size, size_t nmemb);
/* Convert between host order and big endian (the same operation both ways). */
n_uint64_t big_endian_long_long(n_uint64_t ull);
n_uint32_t big_endian_long(n_uint32_t ul);
n_uint16_t big_endian_short(n_uint16_t us);
#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
