/* internal.h -- helpers shared by every layer of lattio (no MPI here). */
#ifndef LATTIO_INTERNAL_H
#define LATTIO_INTERNAL_H

#include "lattio.h"

#include <stddef.h>
#include <stdint.h>

/* Trace channel: off unless LATTIO_TRACE is set to a non-empty value other
 * than "0".  The library prints nothing else, ever. */
int lattio_trace_enabled(void);
void lattio_trace(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Rank prefix for trace lines; set by the MPI layer, -1 when unknown. */
void lattio_trace_set_rank(int rank);

#define LATTIO_TRACE(...)                                                                \
    do {                                                                                 \
        if (lattio_trace_enabled()) lattio_trace(__FILE__, __LINE__, __VA_ARGS__);       \
    } while (0)

/* Record an error in the trace and evaluate to it. */
int lattio_fail(const char *file, int line, const char *cond, int status);
#define LATTIO_FAIL(status, cond) lattio_fail(__FILE__, __LINE__, (cond), (status))

/* Return `status` from the current function when `cond` holds. */
#define RETURN_IF(cond, status)                                                          \
    do {                                                                                 \
        if (cond) return LATTIO_FAIL((status), #cond);                                   \
    } while (0)

/* Return the status of `expr` from the current function when it is an error. */
#define RETURN_IF_ERROR(expr)                                                            \
    do {                                                                                 \
        int lattio_rc_ = (expr);                                                         \
        if (lattio_rc_ < 0) return lattio_rc_;                                           \
    } while (0)

/* Allocation goes through one wrapper so tests can count it. */
void *lattio_malloc(size_t n);
void *lattio_calloc(size_t count, size_t size);
void *lattio_realloc(void *p, size_t n);
void lattio_free(void *p);
/* Outstanding allocations made through the wrapper (for leak tests). */
long lattio_alloc_outstanding(void);

/* Big-endian load/store. */
static inline uint64_t lattio_load_be64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | p[i];
    return v;
}
static inline uint32_t lattio_load_be32(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline uint16_t lattio_load_be16(const unsigned char *p)
{
    return (uint16_t)(((unsigned)p[0] << 8) | p[1]);
}
static inline void lattio_store_be64(unsigned char *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--) {
        p[i] = (unsigned char)(v & 0xff);
        v >>= 8;
    }
}
static inline void lattio_store_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

#endif
