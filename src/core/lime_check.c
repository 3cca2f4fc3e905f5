/* lime_check.c -- structural validation of a LIME file: every header, the
 * padding, the message flags and what follows the last record.  Reads only
 * headers and padding, so it runs in seconds on files of any size. */
#include "internal.h"
#include "fsinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct check_state {
    lattio_problem *problems;
    size_t max;
    size_t count;
    int first_status;
} check_state;

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static void report(check_state *st, int status, int record, uint64_t offset, const char *fmt, ...)
{
    if (st->count == 0) st->first_status = status;
    if (st->count < st->max) {
        lattio_problem *p = &st->problems[st->count];
        p->status = status;
        p->record = record;
        p->offset = offset;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->message, sizeof p->message, fmt, ap);
        va_end(ap);
    }
    st->count++;
}

/* Why the header at `off` could not be used, in words. */
static void report_header(check_state *st, const lattio_source *src, int rc, int rec,
                          const lattio_record_info *info)
{
    uint64_t off = info->offset;
    switch (rc) {
    case LATTIO_ERR_LENGTH_BEYOND_EOF:
    case LATTIO_ERR_TRUNCATED_PAYLOAD:
        report(st, rc, rec, off,
               "record '%s' declares %" PRIu64 " payload bytes but only %" PRIu64
               " remain in the file",
               info->type, info->length, src->size - off - LATTIO_LIME_HEADER_SIZE);
        break;
    case LATTIO_ERR_LENGTH_OVERFLOW:
        report(st, rc, rec, off, "record declares an impossible payload length %" PRIu64,
               info->length);
        break;
    case LATTIO_ERR_BAD_VERSION:
        report(st, rc, rec, off, "header version %d, only version 1 exists", info->version);
        break;
    case LATTIO_ERR_TRUNCATED_HEADER:
        report(st, rc, rec, off, "file ends %" PRIu64 " bytes into a 144-byte record header",
               src->size - off);
        break;
    case LATTIO_ERR_TRAILING_BYTES:
        report(st, rc, rec, off, "%" PRIu64 " bytes after the last record are not a LIME record",
               src->size - off);
        break;
    default:
        report(st, rc, rec, off, "%s", lattio_strerror(rc));
    }
}

/* Checks of one header that do not stop the scan. */
static int check_header_fields(check_state *st, const lattio_source *src, int rec,
                               const lattio_record_info *info)
{
    unsigned char h[LATTIO_LIME_HEADER_SIZE];
    lattio_record_info tmp;
    RETURN_IF_ERROR(lattio_source_read_exact(src, info->offset, h, sizeof h, LATTIO_ERR_READ));
    if (lattio_lime_header_decode(h, &tmp) == LATTIO_ERR_BAD_FLAGS)
        report(st, LATTIO_ERR_BAD_FLAGS, rec, info->offset,
               "reserved header bits set (flags byte 0x%02x, reserved byte 0x%02x)", h[6], h[7]);
    for (const char *c = info->type; *c; c++) {
        if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e) {
            report(st, LATTIO_ERR_BAD_TYPE, rec, info->offset,
                   "record type contains the non-printable byte 0x%02x at position %d",
                   (unsigned char)*c, (int)(c - info->type));
            break;
        }
    }
    return LATTIO_OK;
}

static int check_padding(check_state *st, const lattio_source *src, int rec,
                         const lattio_record_info *info)
{
    unsigned char pad[8];
    uint64_t at = info->data_offset + info->length;
    uint64_t avail = src->size - at;
    if (avail < info->padding) {
        report(st, LATTIO_ERR_TRUNCATED_PADDING, rec, at,
               "file ends inside the %u padding bytes of record '%s'", (unsigned)info->padding,
               info->type);
        return LATTIO_OK;
    }
    RETURN_IF_ERROR(lattio_source_read_exact(src, at, pad, info->padding, LATTIO_ERR_READ));
    for (uint32_t i = 0; i < info->padding; i++) {
        if (pad[i] != 0) {
            report(st, LATTIO_ERR_NONZERO_PADDING, rec, at + i,
                   "padding byte %u of record '%s' is 0x%02x, not zero", (unsigned)i,
                   info->type, pad[i]);
            break;
        }
    }
    return LATTIO_OK;
}

/* tmLQCD's layout (docs/format.md, "tmLQCD"), accepted as it writes it:
 * etmc-propagator-format closes a metadata message with MB clear even
 * where none is open (every component of a propagator file after the
 * first; Lemon lets it through). */
static int tmlqcd_layout(const lattio_record_info *info)
{
    return !info->mb && strcmp(info->type, "etmc-propagator-format") == 0;
}

static void check_flags(check_state *st, int rec, const lattio_record_info *info, int prev_me)
{
    if (tmlqcd_layout(info)) return;
    if (info->mb && !prev_me)
        report(st, LATTIO_ERR_MBME, rec, info->offset,
               "record '%s' begins a message (MB) but the previous message has not ended (no ME)",
               info->type);
    if (!info->mb && prev_me)
        report(st, LATTIO_ERR_MBME, rec, info->offset,
               "record '%s' lacks MB although the previous record ended a message", info->type);
}

int lattio_lime_check_source(const lattio_source *src, lattio_problem *problems, size_t max,
                             size_t *count, size_t *nrecords)
{
    RETURN_IF(!src || (!problems && max), LATTIO_ERR_ARG);
    check_state st = {problems, max, 0, LATTIO_OK};
    uint64_t off = 0;
    int rec = 0, prev_me = 1, broken = 0;
    for (;; rec++) {
        lattio_record_info info;
        int rc = lattio_lime_header_at(src, off, &info);
        if (rc == LATTIO_ERR_EOF) break;
        if (rc == LATTIO_ERR_READ) return rc;
        if (rc < 0) {
            report_header(&st, src, rc, rec, &info);
            broken = 1;
            break;
        }
        RETURN_IF_ERROR(check_header_fields(&st, src, rec, &info));
        RETURN_IF_ERROR(check_padding(&st, src, rec, &info));
        check_flags(&st, rec, &info, prev_me);
        prev_me = info.me;
        off = lattio_lime_next_offset(&info);
    }
    if (rec > 0 && !prev_me && !broken)
        report(&st, LATTIO_ERR_MBME, rec - 1, off, "the last record does not end its message (no ME)");
    if (count) *count = st.count;
    if (nrecords) *nrecords = (size_t)rec;
    return st.first_status;
}

int lattio_lime_check(const char *path, lattio_problem *problems, size_t max, size_t *count,
                      size_t *nrecords)
{
    RETURN_IF(!path, LATTIO_ERR_ARG);
    int fd;
    RETURN_IF_ERROR(lattio_open_regular(path, &fd));
    lattio_source src;
    int rc = lattio_source_fd(fd, &src);
    if (rc == LATTIO_OK) rc = lattio_lime_check_source(&src, problems, max, count, nrecords);
    close(fd);
    return rc;
}
