/* status.c -- the error table's messages and names, the trace channel and
 * the allocation wrapper. */
#include "config.h"
#include "internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *lattio_strerror(int status)
{
    switch (status) {
#define LATTIO_X_MSG(name, value, msg)                                                   \
    case (value): return (msg);
        LATTIO_STATUS_TABLE(LATTIO_X_MSG)
#undef LATTIO_X_MSG
    }
    return "unknown status";
}

const char *lattio_error_name(int status)
{
    switch (status) {
#define LATTIO_X_NAME(name, value, msg)                                                  \
    case (value): return #name;
        LATTIO_STATUS_TABLE(LATTIO_X_NAME)
#undef LATTIO_X_NAME
    }
    return "UNKNOWN";
}

#define LATTIO_STR2(x) #x
#define LATTIO_STR(x) LATTIO_STR2(x)
const char *lattio_version(void)
{
    return LATTIO_STR(LATTIO_VERSION_MAJOR) "." LATTIO_STR(LATTIO_VERSION_MINOR) "." LATTIO_STR(
        LATTIO_VERSION_PATCH);
}

/* --- trace -------------------------------------------------------------- */

static atomic_int trace_state = -1; /* -1 unknown, 0 off, 1 on */
static atomic_int trace_rank = -1;

int lattio_trace_enabled(void)
{
    int s = atomic_load(&trace_state);
    if (s < 0) {
        s = lattio_process_config_get()->trace;
        atomic_store(&trace_state, s);
    }
    return s;
}

void lattio_trace_set_rank(int rank) { atomic_store(&trace_rank, rank); }

void lattio_trace(const char *file, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    int rank = atomic_load(&trace_rank);
    if (rank >= 0)
        fprintf(stderr, "lattio[%d] %s:%d: %s\n", rank, base, line, msg);
    else
        fprintf(stderr, "lattio %s:%d: %s\n", base, line, msg);
}

int lattio_fail(const char *file, int line, const char *cond, int status)
{
    if (lattio_trace_enabled())
        lattio_trace(file, line, "%s -> %s", cond, lattio_error_name(status));
    return status;
}

/* The errno of this thread's latest failed system call reported as an error. */
static _Thread_local int last_errno;

int lattio_fail_errno(const char *file, int line, const char *cond, int status, int err)
{
    last_errno = err;
    if (lattio_trace_enabled())
        lattio_trace(file, line, "%s: %s -> %s", cond, strerror(err), lattio_error_name(status));
    return status;
}

int lattio_errno_peek(void) { return last_errno; }

void lattio_errno_set(int err) { last_errno = err; }

int lattio_last_errno(void)
{
    int e = last_errno;
    last_errno = 0;
    return e;
}

/* The detail of this thread's latest error that has one (lattio_detail_set). */
static _Thread_local char last_detail[LATTIO_DETAIL_MAX];

void lattio_detail_set(const char *fmt, ...)
{
    char msg[LATTIO_DETAIL_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    memcpy(last_detail, msg, sizeof msg);
    if (lattio_trace_enabled()) lattio_trace(__FILE__, __LINE__, "detail: %s", msg);
}

const char *lattio_detail_peek(void) { return last_detail; }

void lattio_detail_clear(void) { last_detail[0] = '\0'; }

int lattio_last_detail(char *out, size_t size)
{
    const int n = (int)strlen(last_detail);
    if (out && size) snprintf(out, size, "%s", last_detail);
    last_detail[0] = '\0';
    return n;
}

/* --- allocation --------------------------------------------------------- */

static atomic_long outstanding;

void *lattio_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p) atomic_fetch_add(&outstanding, 1);
    return p;
}

void *lattio_calloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (p) atomic_fetch_add(&outstanding, 1);
    return p;
}

void *lattio_realloc(void *p, size_t n)
{
    if (!p) return lattio_malloc(n);
    return realloc(p, n ? n : 1);
}

void lattio_free(void *p)
{
    if (!p) return;
    atomic_fetch_sub(&outstanding, 1);
    free(p);
}

char *lattio_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = lattio_malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

long lattio_alloc_outstanding(void) { return atomic_load(&outstanding); }
