/* lime_source.c -- byte sources (memory, file descriptor) and the one place
 * that reads and validates a LIME record header at an offset. */
#include "internal.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --- memory ------------------------------------------------------------- */

static int memory_read_at(const lattio_source *src, uint64_t off, void *buf, size_t n,
                          size_t *got)
{
    const unsigned char *data = src->mem;
    *got = 0;
    if (off >= src->size) return LATTIO_OK;
    uint64_t avail = src->size - off;
    size_t k = (uint64_t)n < avail ? n : (size_t)avail;
    memcpy(buf, data + off, k);
    *got = k;
    return LATTIO_OK;
}

lattio_source lattio_source_memory(const void *buf, size_t size)
{
    lattio_source s = {memory_read_at, NULL, buf, -1, size};
    return s;
}

/* --- file descriptor ---------------------------------------------------- */

static int fd_read_at(const lattio_source *src, uint64_t off, void *buf, size_t n, size_t *got)
{
    unsigned char *p = buf;
    size_t done = 0;
    RETURN_IF(off > (uint64_t)INT64_MAX, LATTIO_ERR_OVERFLOW);
    while (done < n) {
        ssize_t k = pread(src->fd, p + done, n - done, (off_t)(off + done));
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            *got = done;
            return LATTIO_FAIL_ERRNO(LATTIO_ERR_READ, "pread");
        }
        if (k == 0) break;
        done += (size_t)k;
    }
    *got = done;
    return LATTIO_OK;
}

int lattio_source_fd(int fd, lattio_source *src)
{
    struct stat st;
    RETURN_IF_ERRNO(fstat(fd, &st) != 0, LATTIO_ERR_STAT);
    RETURN_IF_ERRNO(st.st_size < 0, LATTIO_ERR_STAT);
    lattio_source s = {fd_read_at, NULL, NULL, fd, (uint64_t)st.st_size};
    *src = s;
    return LATTIO_OK;
}

/* --- reading ------------------------------------------------------------ */

int lattio_source_read_at(const lattio_source *src, uint64_t off, void *buf, size_t n,
                          size_t *got)
{
    return src->read_at(src, off, buf, n, got);
}

int lattio_source_read_exact(const lattio_source *src, uint64_t off, void *buf, size_t n,
                             int short_status)
{
    size_t got = 0;
    RETURN_IF_ERROR(lattio_source_read_at(src, off, buf, n, &got));
    RETURN_IF(got < n, short_status);
    return LATTIO_OK;
}

/* --- headers ------------------------------------------------------------ */

static const unsigned char lime_magic[4] = {0x45, 0x67, 0x89, 0xAB};

/* Classify fewer than 144 bytes at the end of the source. */
static int classify_short_tail(const unsigned char *h, size_t got, uint64_t off)
{
    size_t m = got < 4 ? got : 4;
    if (memcmp(h, lime_magic, m) == 0) return LATTIO_FAIL(LATTIO_ERR_TRUNCATED_HEADER, "short header");
    if (off == 0) return LATTIO_FAIL(LATTIO_ERR_BAD_MAGIC, "magic");
    return LATTIO_FAIL(LATTIO_ERR_TRAILING_BYTES, "short non-LIME tail");
}

int lattio_lime_header_at(const lattio_source *src, uint64_t off, lattio_record_info *info)
{
    unsigned char h[LATTIO_LIME_HEADER_SIZE];
    size_t got = 0;
    RETURN_IF(!src || !info, LATTIO_ERR_ARG);
    memset(info, 0, sizeof *info);
    info->offset = off;
    if (off >= src->size) return LATTIO_ERR_EOF;
    RETURN_IF_ERROR(lattio_source_read_at(src, off, h, sizeof h, &got));
    if (got < sizeof h) return classify_short_tail(h, got, off);
    if (memcmp(h, lime_magic, 4) != 0)
        return off == 0 ? LATTIO_FAIL(LATTIO_ERR_BAD_MAGIC, "magic")
                        : LATTIO_FAIL(LATTIO_ERR_TRAILING_BYTES, "no magic after last record");
    int rc = lattio_lime_header_decode(h, info);
    info->offset = off;
    info->data_offset = off + LATTIO_LIME_HEADER_SIZE;
    if (rc < 0 && rc != LATTIO_ERR_BAD_FLAGS) return rc;
    RETURN_IF(info->length > src->size, LATTIO_ERR_LENGTH_BEYOND_EOF);
    RETURN_IF(info->length > src->size - info->data_offset, LATTIO_ERR_TRUNCATED_PAYLOAD);
    return LATTIO_OK;
}
