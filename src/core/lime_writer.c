/* lime_writer.c -- the serial LIME writer.  A new file is written under a
 * temporary name in the same directory and renamed into place by a
 * successful close, so a failed or interrupted write never replaces the
 * previous file.  Appending checks that the file ends on a record boundary. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct lattio_lime_writer {
    int fd;
    int flags;
    char *path;     /* final name */
    char *tmp;      /* temporary name, NULL when writing in place */
    uint64_t off;   /* where the next header goes */
    int in_record;
    uint64_t rec_data; /* payload offset of the open record */
    uint64_t rec_len;
    uint64_t written;
    int failed; /* the first failed call's status (0: none): every later call is
                   ERR_STATE and close returns it without renaming */
};

int lattio_pwrite_all(int fd, uint64_t off, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    RETURN_IF(off > (uint64_t)INT64_MAX - n, LATTIO_ERR_OVERFLOW);
    while (n > 0) {
        ssize_t k = pwrite(fd, p, n, (off_t)off);
        if (k < 0 && errno == EINTR) continue;
        RETURN_IF_ERRNO(k < 0, LATTIO_ERR_WRITE);
        RETURN_IF(k == 0, LATTIO_ERR_WRITE);
        p += k;
        off += (uint64_t)k;
        n -= (size_t)k;
    }
    return LATTIO_OK;
}

/* Create a fresh temporary file next to `path`. */
static int open_temporary(lattio_lime_writer *w) { return lattio_temp_create(w->path, &w->fd, &w->tmp); }

/* Find where the records of an existing file end. */
static int find_append_offset(lattio_lime_writer *w)
{
    lattio_source src;
    RETURN_IF_ERROR(lattio_source_fd(w->fd, &src));
    uint64_t off = 0;
    for (;;) {
        lattio_record_info info;
        int rc = lattio_lime_header_at(&src, off, &info);
        if (rc == LATTIO_ERR_EOF) break;
        RETURN_IF_ERROR(rc);
        off = lattio_lime_next_offset(&info);
    }
    w->off = off;
    return LATTIO_OK;
}

static int open_file(lattio_lime_writer *w, int mode)
{
    if (mode == LATTIO_LIME_APPEND) {
        w->fd = open(w->path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        RETURN_IF_ERRNO(w->fd < 0, LATTIO_ERR_OPEN);
        return find_append_offset(w);
    }
    if (w->flags & LATTIO_LIME_IN_PLACE) {
        w->fd = open(w->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        RETURN_IF_ERRNO(w->fd < 0, LATTIO_ERR_OPEN);
        return LATTIO_OK;
    }
    return open_temporary(w);
}

int lattio_lime_writer_open(const char *path, int mode, lattio_lime_writer **out)
{
    RETURN_IF(!path || !out || !*path, LATTIO_ERR_ARG);
    *out = NULL;
    int base = mode & 0x0f;
    RETURN_IF(base != LATTIO_LIME_CREATE && base != LATTIO_LIME_APPEND, LATTIO_ERR_ARG);
    RETURN_IF(mode & ~(0x0f | LATTIO_LIME_IN_PLACE | LATTIO_LIME_DURABLE), LATTIO_ERR_ARG);
    lattio_lime_writer *w = lattio_calloc(1, sizeof *w);
    RETURN_IF(!w, LATTIO_ERR_NOMEM);
    w->fd = -1;
    w->flags = mode;
    w->path = lattio_strdup(path);
    int rc = w->path ? open_file(w, base) : LATTIO_FAIL(LATTIO_ERR_NOMEM, "path");
    if (rc < 0) {
        w->failed = rc;
        lattio_lime_writer_close(w);
        return rc;
    }
    *out = w;
    return LATTIO_OK;
}

/* A failed call poisons the writer: the file it meant to write is not the
 * file on disk, so close must not publish it (the first error wins). */
static int poison(lattio_lime_writer *w, int rc)
{
    if (rc < 0 && !w->failed) w->failed = rc;
    return rc;
}

static int writer_begin(lattio_lime_writer *w, const char *type, uint64_t length, int mb, int me)
{
    unsigned char h[LATTIO_LIME_HEADER_SIZE];
    RETURN_IF(!type, LATTIO_ERR_ARG);
    RETURN_IF(w->in_record, LATTIO_ERR_STATE);
    RETURN_IF_ERROR(lattio_lime_header_encode(h, type, length, mb, me));
    RETURN_IF(length > LATTIO_LIME_MAX_LENGTH - w->off, LATTIO_ERR_OVERFLOW);
    RETURN_IF_ERROR(lattio_pwrite_all(w->fd, w->off, h, sizeof h));
    w->in_record = 1;
    w->rec_data = w->off + LATTIO_LIME_HEADER_SIZE;
    w->rec_len = length;
    w->written = 0;
    return LATTIO_OK;
}

int lattio_lime_writer_begin(lattio_lime_writer *w, const char *type, uint64_t length, int mb,
                             int me)
{
    RETURN_IF(!w, LATTIO_ERR_ARG);
    RETURN_IF(w->failed, LATTIO_ERR_STATE);
    return poison(w, writer_begin(w, type, length, mb, me));
}

/* n payload bytes at `offset` of the open record; an append is the piece
 * at w->written. */
static int writer_write_at(lattio_lime_writer *w, uint64_t offset, const void *buf, size_t n)
{
    RETURN_IF(!buf && n, LATTIO_ERR_ARG);
    RETURN_IF(!w->in_record, LATTIO_ERR_STATE);
    RETURN_IF(offset > w->rec_len || (uint64_t)n > w->rec_len - offset || (uint64_t)n > w->rec_len - w->written,
              LATTIO_ERR_RECORD_OVERRUN);
    RETURN_IF_ERROR(lattio_pwrite_all(w->fd, w->rec_data + offset, buf, n));
    w->written += n;
    return LATTIO_OK;
}

int lattio_lime_writer_write_at(lattio_lime_writer *w, uint64_t offset, const void *buf, size_t n)
{
    RETURN_IF(!w, LATTIO_ERR_ARG);
    RETURN_IF(w->failed, LATTIO_ERR_STATE);
    return poison(w, writer_write_at(w, offset, buf, n));
}

int lattio_lime_writer_write(lattio_lime_writer *w, const void *buf, size_t n)
{
    RETURN_IF(!w, LATTIO_ERR_ARG);
    RETURN_IF(w->failed, LATTIO_ERR_STATE);
    return poison(w, writer_write_at(w, w->written, buf, n));
}

static int writer_end(lattio_lime_writer *w)
{
    static const unsigned char zeros[8];
    RETURN_IF(!w->in_record, LATTIO_ERR_STATE);
    RETURN_IF(w->written != w->rec_len, LATTIO_ERR_RECORD_SHORT);
    uint32_t pad = lattio_lime_padding(w->rec_len);
    RETURN_IF_ERROR(lattio_pwrite_all(w->fd, w->rec_data + w->rec_len, zeros, pad));
    w->in_record = 0;
    w->off = w->rec_data + w->rec_len + pad;
    return LATTIO_OK;
}

int lattio_lime_writer_end(lattio_lime_writer *w)
{
    RETURN_IF(!w, LATTIO_ERR_ARG);
    RETURN_IF(w->failed, LATTIO_ERR_STATE);
    return poison(w, writer_end(w));
}

int lattio_lime_writer_record(lattio_lime_writer *w, const char *type, const void *data,
                              uint64_t length, int mb, int me)
{
    RETURN_IF(!w, LATTIO_ERR_ARG);
    RETURN_IF(w->failed, LATTIO_ERR_STATE);
    RETURN_IF(!data && length, poison(w, LATTIO_ERR_ARG));
    RETURN_IF(length > SIZE_MAX, poison(w, LATTIO_ERR_OVERFLOW));
    RETURN_IF_ERROR(lattio_lime_writer_begin(w, type, length, mb, me));
    RETURN_IF_ERROR(lattio_lime_writer_write(w, data, (size_t)length));
    return lattio_lime_writer_end(w);
}

uint64_t lattio_lime_writer_offset(const lattio_lime_writer *w) { return w ? w->off : 0; }

/* Flush to stable storage (file, then directory for a rename). */
static int sync_file(const lattio_lime_writer *w)
{
    RETURN_IF_ERRNO(fsync(w->fd) != 0, LATTIO_ERR_SYNC);
    return LATTIO_OK;
}

int lattio_sync_directory(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    RETURN_IF(n >= sizeof dir, LATTIO_ERR_ARG);
    if (slash == path) n = 1;
    memcpy(dir, slash ? path : ".", slash ? n : 1);
    dir[slash ? n : 1] = '\0';
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    RETURN_IF_ERRNO(fd < 0, LATTIO_ERR_SYNC_DIR);
    int rc = fsync(fd);
    close(fd);
    RETURN_IF_ERRNO(rc != 0, LATTIO_ERR_SYNC_DIR);
    return LATTIO_OK;
}

/* The outcome of the written file, its descriptor closed: the first error
 * wins, then an open record, a durable sync, the close itself. */
static int settle_file(lattio_lime_writer *w)
{
    int rc = LATTIO_OK;
    if (w->failed) rc = w->failed; /* the first error */
    else if (w->in_record) rc = LATTIO_FAIL(LATTIO_ERR_RECORD_SHORT, "record open at close");
    if (rc == LATTIO_OK && (w->flags & LATTIO_LIME_DURABLE)) rc = sync_file(w);
    if (w->fd >= 0 && close(w->fd) != 0 && rc == LATTIO_OK)
        rc = LATTIO_FAIL_ERRNO(LATTIO_ERR_CLOSE, "close");
    w->fd = -1;
    return rc;
}

/* Decide the outcome of a close and publish a complete temporary file. */
static int finish_file(lattio_lime_writer *w)
{
    int rc = settle_file(w);
    if (!w->tmp) return rc;
    if (rc == LATTIO_OK) rc = lattio_temp_publish(w->tmp, w->path);
    if (rc != LATTIO_OK) {
        unlink(w->tmp);
        return rc;
    }
    if (w->flags & LATTIO_LIME_DURABLE) rc = lattio_sync_directory(w->path);
    return rc;
}

int lattio_lime_writer_reread(lattio_lime_writer *w, uint64_t offset, void *buf, size_t n)
{
    RETURN_IF(!w || (!buf && n), LATTIO_ERR_ARG);
    RETURN_IF(w->in_record || w->failed || offset > w->off || n > w->off - offset, LATTIO_ERR_STATE);
    lattio_source src;
    RETURN_IF_ERROR(lattio_source_fd(w->fd, &src));
    return lattio_source_read_exact(&src, offset, buf, n, LATTIO_ERR_READ); /* shorter than written */
}

int lattio_lime_writer_keep(lattio_lime_writer *w, int ok, char **tmp)
{
    *tmp = NULL;
    RETURN_IF(!w, LATTIO_ERR_ARG);
    int rc = settle_file(w);
    if (rc == LATTIO_OK && !w->tmp) rc = LATTIO_FAIL(LATTIO_ERR_STATE, "not a temporary file");
    if (ok && rc == LATTIO_OK) *tmp = w->tmp, w->tmp = NULL;
    else if (w->tmp) unlink(w->tmp);
    lattio_free(w->tmp);
    lattio_free(w->path);
    lattio_free(w);
    return rc;
}

int lattio_lime_writer_close(lattio_lime_writer *w)
{
    if (!w) return LATTIO_OK;
    int rc = w->path ? finish_file(w) : LATTIO_OK;
    if (w->fd >= 0) close(w->fd);
    lattio_free(w->tmp);
    lattio_free(w->path);
    lattio_free(w);
    return rc;
}
