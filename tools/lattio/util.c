/* util.c -- messages, argument scanning, record walking and payload copying
 * shared by the subcommands of the `lattio` tool. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* copy_file_range */
#endif
#include "tool.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --- messages ------------------------------------------------------------ */

/* One line of a message on stderr: bytes a terminal would act on (control
 * bytes, bytes >= 0x7f: text quoted from a file) as \xNN. */
static void emit(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p >= 0x7f) fprintf(stderr, "\\x%02x", *p);
        else fputc(*p, stderr);
    }
}

static void emit_v(const char *fmt, va_list ap)
{
    char line[4096];
    vsnprintf(line, sizeof line, fmt, ap);
    emit(line);
}

int tool_status_error(const char *cmd, const char *file, int status, const char *suffix_fmt, ...)
{
    if (tool_rank() != 0) return TOOL_FAIL;
    fprintf(stderr, "lattio %s: ", cmd);
    emit(file);
    fprintf(stderr, ": %s (%s)", lattio_strerror(status), lattio_error_name(status));
    if (tool_is_io_status(status))
        emit(tool_errno_suffix()); /* the system's reason */
    va_list ap;
    va_start(ap, suffix_fmt);
    emit_v(suffix_fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return TOOL_FAIL;
}

int tool_error(const char *cmd, const char *file, const char *fmt, ...)
{
    if (tool_rank() != 0) return TOOL_FAIL;
    fprintf(stderr, "lattio %s: ", cmd);
    if (file) {
        emit(file);
        fputs(": ", stderr);
    }
    va_list ap;
    va_start(ap, fmt);
    emit_v(fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return TOOL_FAIL;
}

int tool_usage(const char *cmd, const char *fmt, ...)
{
    if (tool_rank() != 0) return TOOL_USAGE;
    fprintf(stderr, "lattio %s: ", cmd);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (try 'lattio %s --help')\n", cmd);
    return TOOL_USAGE;
}

const char *tool_errno_suffix(void)
{
    static char buf[160];
    int e = lattio_last_errno();
    if (!e) return "";
    snprintf(buf, sizeof buf, ": %s", strerror(e));
    return buf;
}

const char *tool_detail(void)
{
    static _Thread_local char buf[600];
    char d[256];
    if (lattio_last_detail(d, sizeof d) <= 0 || !d[0]) return "";
    buf[0] = ':';
    buf[1] = ' ';
    tool_escape(buf + 2, sizeof buf - 2, d);
    return buf;
}

/* --- outputs ------------------------------------------------------------- */

int tool_output_allowed(const char *cmd, const char *out, const char *const *inputs, int n)
{
    const int rc = lattio_output_allowed(out, inputs, n); /* the library's rule */
    return rc == LATTIO_OK ? TOOL_OK : tool_status_error(cmd, out, rc, "%s", tool_detail());
}

int tool_output_open(tool_output *o, const char *cmd, const char *path)
{
    o->cmd = cmd;
    o->path = path;
    o->fd = -1;
    o->tmp[0] = '\0';
    int rc = lattio_temp_open(path, o->tmp, sizeof o->tmp, &o->fd);
    if (rc != LATTIO_OK)
        return tool_error(cmd, path, "cannot create a temporary file beside it: %s (%s)%s",
                          lattio_strerror(rc), lattio_error_name(rc), tool_errno_suffix());
    return TOOL_OK;
}

int tool_output_finish(tool_output *o, int ret)
{
    if (o->fd >= 0 && close(o->fd) != 0 && ret == TOOL_OK)
        ret = tool_error(o->cmd, o->path, "close failed: %s", strerror(errno));
    o->fd = -1;
    const int rc = ret == TOOL_OK ? lattio_temp_publish(o->tmp, o->path) : LATTIO_OK;
    if (rc != LATTIO_OK) ret = tool_status_error(o->cmd, o->path, rc, "%s", tool_detail());
    if (ret != TOOL_OK && o->tmp[0]) unlink(o->tmp);
    o->tmp[0] = '\0';
    return ret;
}

/* --- arguments ----------------------------------------------------------- */

int tool_option(int argc, char **argv, int *i, const char *name, const char **value)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return 0;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return 1;
    }
    if (arg[n] != '\0') return 0;
    if (*i + 1 >= argc) return -1;
    *value = argv[++*i];
    return 1;
}

int tool_parse_u64(const char *s, uint64_t min, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9') return -1;
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end != '\0' || v < min) return -1;
    *out = (uint64_t)v;
    return 0;
}

/* --- walking records ----------------------------------------------------- */

int tool_walk_open(tool_walk *w, const char *path)
{
    memset(w, 0, sizeof *w);
    return lattio_lime_reader_open(path, &w->reader);
}

int tool_walk_next(tool_walk *w)
{
    int rc = lattio_lime_reader_next(w->reader, &w->info);
    if (rc != LATTIO_OK) return rc;
    w->index++;
    if (w->info.mb || w->index == 1) {
        w->message++;
        w->record = 0;
    }
    w->record++;
    w->next_offset = w->info.data_offset + w->info.length + w->info.padding;
    return LATTIO_OK;
}

void tool_walk_close(tool_walk *w)
{
    lattio_lime_reader_close(w->reader);
    w->reader = NULL;
}

int tool_walk_error(const char *cmd, const char *file, const tool_walk *w, int status)
{
    if (status == LATTIO_ERR_TRAILING_BYTES)
        return tool_status_error(cmd, file, status, " at offset %" PRIu64 ", after record %" PRIu64,
                                 w->next_offset, w->index);
    return tool_status_error(cmd, file, status, " at record %" PRIu64 ", offset %" PRIu64,
                             w->index + 1, w->next_offset);
}

/* --- copying payloads ---------------------------------------------------- */

int tool_write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Copy through the library reader in TOOL_BLOCK_SIZE blocks. */
static int copy_with_reader(const char *cmd, tool_walk *w, const char *path, int out_fd,
                            const char *out_name, uint64_t done)
{
    int rc = lattio_lime_reader_seek(w->reader, done);
    if (rc < 0) return tool_status_error(cmd, path, rc, " seeking in record %" PRIu64, w->index);
    size_t cap = w->info.length - done < TOOL_BLOCK_SIZE ? (size_t)(w->info.length - done)
                                                         : TOOL_BLOCK_SIZE;
    char *buf = malloc(cap ? cap : 1);
    if (!buf) return tool_error(cmd, NULL, "out of memory");
    int ret = TOOL_OK;
    while (done < w->info.length) {
        size_t got = 0;
        rc = lattio_lime_reader_read(w->reader, buf, cap, &got);
        if (rc < 0 || got == 0) {
            ret = tool_status_error(cmd, path, rc < 0 ? rc : LATTIO_ERR_TRUNCATED_PAYLOAD,
                                    " reading record %" PRIu64 " at payload byte %" PRIu64,
                                    w->index, done);
            break;
        }
        if (tool_write_all(out_fd, buf, got) != 0) {
            ret = tool_error(cmd, out_name, "write failed: %s", strerror(errno));
            break;
        }
        done += got;
    }
    free(buf);
    return ret;
}

#ifdef __linux__
/* Try the in-kernel copy.  Returns TOOL_OK / TOOL_FAIL when finished, or -1
 * to fall back to the reader after *done bytes. */
static int copy_in_kernel(const char *cmd, tool_walk *w, const char *path, int out_fd,
                          const char *out_name, uint64_t *done)
{
    const char *env = getenv("LATTIO_NO_COPY_RANGE");
    if (env && *env && strcmp(env, "0") != 0) return -1;
    int in_fd = open(path, O_RDONLY);
    if (in_fd < 0) return -1;
    loff_t off = (loff_t)w->info.data_offset;
    int ret = TOOL_OK;
    while (*done < w->info.length) {
        uint64_t left = w->info.length - *done;
        size_t n = left < ((uint64_t)1 << 30) ? (size_t)left : (size_t)1 << 30;
        ssize_t k = copy_file_range(in_fd, &off, out_fd, NULL, n, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0 && *done == 0 &&
            (errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP ||
             errno == EBADF || errno == ETXTBSY || errno == EPERM)) {
            ret = -1;
            break;
        }
        if (k < 0) {
            ret = tool_error(cmd, out_name, "write failed: %s", strerror(errno));
            break;
        }
        if (k == 0) {
            ret = tool_status_error(cmd, path, LATTIO_ERR_TRUNCATED_PAYLOAD,
                                    " at record %" PRIu64 ", payload byte %" PRIu64, w->index,
                                    *done);
            break;
        }
        *done += (uint64_t)k;
    }
    close(in_fd);
    return ret;
}
#endif

int tool_copy_payload(const char *cmd, tool_walk *w, const char *path, int out_fd,
                      const char *out_name)
{
    uint64_t done = 0;
#ifdef __linux__
    int rc = copy_in_kernel(cmd, w, path, out_fd, out_name, &done);
    if (rc >= 0) return rc;
#endif
    return copy_with_reader(cmd, w, path, out_fd, out_name, done);
}

/* --- text ---------------------------------------------------------------- */

static int printable(unsigned char c) { return c >= 0x20 && c < 0x7f && c != '\\'; }

void tool_escape(char *dst, size_t size, const char *src) { lattio_text_escape(dst, size, src); }

/* s with every byte outside printable ASCII escaped as \xNN; newlines and
 * tabs kept when `lines`. */
static void print_safe(FILE *f, const char *s, int lines)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (printable(*p) || (lines && (*p == '\n' || *p == '\t'))) fputc(*p, f);
        else fprintf(f, "\\x%02x", *p);
    }
}

void tool_print_escaped(FILE *f, const char *s) { print_safe(f, s, 0); }

void tool_print_text(FILE *f, const char *s) { print_safe(f, s, 1); }

void tool_json_number(FILE *out, double v)
{
    if (isfinite(v)) fprintf(out, "%.9g", v);
    else fputs("null", out);
}

void tool_json_string(FILE *f, const char *s) { lattio_json_string(f, s); }
