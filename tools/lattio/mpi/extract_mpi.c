/* extract_mpi.c -- `lattio extract -o OUT` under an MPI launcher.
 *
 * Rank 0 finds the record (reading headers only) and creates a temporary
 * file "OUT.lattio-tmp.*" of the payload's size; each rank then copies one
 * contiguous slice of the payload with pread/pwrite at 64-bit offsets
 * (all-zero blocks are skipped, so holes stay holes); the ranks agree on the
 * outcome and rank 0 renames the temporary file to OUT only if every rank
 * succeeded, else removes it.  Only rank 0 prints: the message of the
 * lowest failing rank, worded as the serial command words it.  Output to
 * standard output, or to an OUT that exists and is not a regular file, is
 * written by rank 0 alone. */
#include "extract.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SLICE_UNIT ((uint64_t)1 << 20) /* slices start at multiples of 1 MiB */
#define TMP_NAME_MAX 4096

typedef struct extract_plan {
    int32_t status; /* final status when split == 0 */
    int32_t split;  /* 1: every rank copies a slice into tmp */
    uint64_t index, data_offset, length;
    char tmp[TMP_NAME_MAX];
} extract_plan;

/* What went wrong on one rank, sent to rank 0 to print. */
enum { SLICE_OK, SLICE_OPEN_IN, SLICE_OPEN_OUT, SLICE_READ, SLICE_SHORT, SLICE_WRITE, SLICE_NOMEM };
typedef struct slice_result {
    int32_t kind, err;
    uint64_t at; /* payload byte where it happened */
} slice_result;

/* Can the ranks write OUT through a temporary name and a rename? */
static int splittable(const extract_args *a)
{
    if (!a->out || strcmp(a->out, "-") == 0 || strlen(a->out) + 64 > TMP_NAME_MAX) return 0;
    struct stat st;
    if (lstat(a->out, &st) != 0) return errno == ENOENT;
    return S_ISREG(st.st_mode);
}

/* Rank 0: create the temporary file of `length` bytes; returns its fd or -1
 * (message printed). */
static int create_temporary(const extract_args *a, extract_plan *p)
{
    int fd = -1;
    int rc = lattio_temp_open(a->out, p->tmp, sizeof p->tmp, &fd);
    if (rc != LATTIO_OK) {
        tool_error("extract", a->out, "cannot create a temporary file beside it: %s (%s)%s",
                   lattio_strerror(rc), lattio_error_name(rc), tool_errno_suffix());
        return -1;
    }
    if (ftruncate(fd, (off_t)p->length) != 0) {
        tool_error("extract", a->out, "write failed: %s", strerror(errno));
        close(fd);
        unlink(p->tmp);
        return -1;
    }
    return fd;
}

/* Rank 0: find the record and prepare the copy, or do all the work itself. */
static void plan_on_root(const extract_args *a, extract_plan *p, int *out_fd)
{
    tool_walk w;
    p->status = TOOL_FAIL;
    if (extract_find(a, &w) != TOOL_OK) return; /* message printed, walk closed */
    if (!splittable(a)) {
        p->status = extract_write_payload(a, &w);
    } else {
        p->index = w.index;
        p->data_offset = w.info.data_offset;
        p->length = w.info.length;
        *out_fd = create_temporary(a, p);
        p->split = *out_fd >= 0;
    }
    tool_walk_close(&w);
}

static int all_zero(const unsigned char *b, size_t n)
{
    return n == 0 || (b[0] == 0 && memcmp(b, b + 1, n - 1) == 0);
}

/* Read exactly n bytes at off; returns 0, or sets *r. */
static int read_block(int fd, uint64_t off, unsigned char *buf, size_t n, uint64_t at,
                      slice_result *r)
{
    size_t have = 0;
    while (have < n) {
        ssize_t k = pread(fd, buf + have, n - have, (off_t)(off + have));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            *r = (slice_result){k < 0 ? SLICE_READ : SLICE_SHORT, k < 0 ? errno : 0, at + have};
            return -1;
        }
        have += (size_t)k;
    }
    return 0;
}

static int write_block(int fd, uint64_t off, const unsigned char *buf, size_t n, slice_result *r)
{
    size_t done = 0;
    while (done < n) {
        ssize_t k = pwrite(fd, buf + done, n - done, (off_t)(off + done));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            *r = (slice_result){SLICE_WRITE, k < 0 ? errno : ENOSPC, off + done};
            return -1;
        }
        done += (size_t)k;
    }
    return 0;
}

/* Copy payload bytes [lo, hi) from in_fd to the same offsets of out_fd. */
static void copy_range(const extract_plan *p, int in_fd, int out_fd, uint64_t lo, uint64_t hi,
                       slice_result *r)
{
    size_t cap = hi - lo < TOOL_BLOCK_SIZE ? (size_t)(hi - lo) : TOOL_BLOCK_SIZE;
    unsigned char *buf = malloc(cap ? cap : 1);
    if (!buf) {
        *r = (slice_result){SLICE_NOMEM, 0, lo};
        return;
    }
    for (uint64_t off = lo; off < hi; off += cap) {
        size_t n = hi - off < cap ? (size_t)(hi - off) : cap;
        if (read_block(in_fd, p->data_offset + off, buf, n, off, r) != 0) break;
        /* the temporary file was sized with ftruncate: zeros are there already */
        if (!all_zero(buf, n) && write_block(out_fd, off, buf, n, r) != 0) break;
    }
    free(buf);
}

/* This rank's slice of the payload, in whole SLICE_UNITs. */
static void my_slice(uint64_t length, uint64_t *lo, uint64_t *hi)
{
    uint64_t units = length / SLICE_UNIT + (length % SLICE_UNIT != 0), first = 0, count = 0;
    lattio_split(units, (uint64_t)tool_nranks(), (uint64_t)tool_rank(), &first, &count);
    *lo = first * SLICE_UNIT < length ? first * SLICE_UNIT : length;
    *hi = (first + count) * SLICE_UNIT < length ? (first + count) * SLICE_UNIT : length;
}

static void copy_slice(const extract_args *a, const extract_plan *p, int out_fd, slice_result *r)
{
    uint64_t lo = 0, hi = 0;
    my_slice(p->length, &lo, &hi);
    *r = (slice_result){SLICE_OK, 0, lo};
    int in_fd = open(a->file, O_RDONLY);
    if (in_fd < 0) *r = (slice_result){SLICE_OPEN_IN, errno, lo};
    if (out_fd < 0 && r->kind == SLICE_OK) {
        out_fd = open(p->tmp, O_WRONLY);
        if (out_fd < 0) *r = (slice_result){SLICE_OPEN_OUT, errno, lo};
    }
    if (r->kind == SLICE_OK && lo < hi) copy_range(p, in_fd, out_fd, lo, hi, r);
    if (in_fd >= 0) close(in_fd);
    if (out_fd >= 0 && close(out_fd) != 0 && r->kind == SLICE_OK)
        *r = (slice_result){SLICE_WRITE, errno, hi};
}

/* Rank 0: the one message for a failed slice. */
static int report(const extract_args *a, const extract_plan *p, const slice_result *r)
{
    const char *f = a->file, *o = a->out;
    switch (r->kind) {
    case SLICE_OPEN_IN:
        return tool_error("extract", f, "cannot open file: %s (ERR_OPEN)", strerror(r->err));
    case SLICE_OPEN_OUT:
        return tool_error("extract", o, "cannot open for writing: %s", strerror(r->err));
    case SLICE_READ:
        return tool_status_error("extract", f, LATTIO_ERR_READ,
                                 " reading record %" PRIu64 " at payload byte %" PRIu64 ": %s",
                                 p->index, r->at, strerror(r->err));
    case SLICE_SHORT:
        return tool_status_error("extract", f, LATTIO_ERR_TRUNCATED_PAYLOAD,
                                 " at record %" PRIu64 ", payload byte %" PRIu64, p->index, r->at);
    case SLICE_WRITE: return tool_error("extract", o, "write failed: %s", strerror(r->err));
    default: return tool_error("extract", NULL, "out of memory");
    }
}

/* Agree on the slices' outcome; rank 0 reports or renames.  Returns the
 * status every rank exits with. */
static int finish(const extract_args *a, const extract_plan *p, slice_result *r)
{
    int first = tool_mpi_first_failure(r->kind != SLICE_OK);
    int rc = TOOL_OK;
    if (first >= 0) {
        tool_mpi_bcast(r, sizeof *r, first);
        rc = report(a, p, r);
    }
    if (tool_rank() == 0 && rc == TOOL_OK && rename(p->tmp, a->out) != 0)
        rc = tool_error("extract", a->out, "cannot rename %s into place: %s", p->tmp,
                        strerror(errno));
    if (tool_rank() == 0 && rc != TOOL_OK) unlink(p->tmp);
    return tool_mpi_share_status(rc);
}

int extract_parallel(const extract_args *a)
{
    extract_plan p;
    memset(&p, 0, sizeof p);
    int out_fd = -1;
    if (tool_rank() == 0) plan_on_root(a, &p, &out_fd);
    fflush(stdout);
    tool_mpi_bcast(&p, sizeof p, 0);
    if (!p.split) return p.status;
    slice_result r;
    copy_slice(a, &p, out_fd, &r);
    return finish(a, &p, &r);
}
