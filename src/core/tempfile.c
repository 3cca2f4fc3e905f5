/* tempfile.c -- the temporary files every lattio writer uses: a name beside
 * the final one that says who made it, exclusive creation, and the list of
 * temporaries left beside a path by writers that died (lattio clean).
 *
 * Name: PATH.lattio-tmp.HOST.PID.TIME.SALT[.MEMBER]
 *   HOST   the short host name (up to the first dot; bytes other than
 *          letters, digits, '-' and '_' become '_'; at most 63)
 *   PID    the writing process (decimal); TIME its clock at creation
 *          (seconds since 1970, decimal); SALT hex; MEMBER the 6-digit
 *          index of a multi-file container's member file. */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TEMP_TAG ".lattio-tmp."
#define LEGACY_TAG ".lattio-convert."

/* A byte a host part may hold as it is. */
static int host_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
}

void lattio_temp_host(char *out, size_t size)
{
    char h[256] = "";
    if (gethostname(h, sizeof h - 1) != 0 || !*h) strcpy(h, "unknown");
    size_t n = 0;
    for (const char *p = h; *p && *p != '.' && n + 1 < size && n < LATTIO_TEMP_HOST_MAX - 1; p++) {
        out[n++] = host_char(*p) ? *p : '_';
    }
    out[n] = '\0';
}

char *lattio_temp_name(const char *path)
{
    static unsigned counter;
    char host[LATTIO_TEMP_HOST_MAX];
    lattio_temp_host(host, sizeof host);
    size_t n = strlen(path) + strlen(host) + 96;
    char *s = lattio_malloc(n);
    if (!s) return NULL;
    struct timespec ts = {0, 0};
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned salt = (unsigned)(ts.tv_nsec ^ (long)(++counter * 2654435761u)) & 0xffffffu;
    snprintf(s, n, "%s" TEMP_TAG "%s.%ld.%lld.%x", path, host, (long)getpid(), (long long)ts.tv_sec, salt);
    return s;
}

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISLNK(m)  ? "a symbolic link"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

int lattio_output_check(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return LATTIO_OK; /* a new file (or one the rename will report) */
    if (S_ISREG(st.st_mode)) return LATTIO_OK;
    lattio_detail_set("%s is %s; lattio replaces regular files only", path, kind_of(st.st_mode));
    if (S_ISDIR(st.st_mode)) /* the system's reason where there is one (lattio_last_errno) */
        return lattio_fail_errno(__FILE__, __LINE__, "output is a directory", LATTIO_ERR_NOT_REGULAR, EISDIR);
    return LATTIO_FAIL(LATTIO_ERR_NOT_REGULAR, "output");
}

int lattio_output_allowed(const char *path, const char *const *inputs, int n)
{
    RETURN_IF(!path || (n > 0 && !inputs), LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lattio_output_check(path));
    struct stat so, si;
    if (stat(path, &so) != 0) return LATTIO_OK; /* a new file */
    for (int i = 0; i < n; i++)
        if (inputs[i] && stat(inputs[i], &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
            lattio_detail_set("%s is the same file as the input %s", path, inputs[i]);
            return LATTIO_FAIL(LATTIO_ERR_OUTPUT_IS_INPUT, "output is an input");
        }
    return LATTIO_OK;
}

int lattio_temp_publish(const char *tmp, const char *path)
{
    RETURN_IF_ERROR(lattio_output_check(path));
    RETURN_IF(rename(tmp, path) != 0, LATTIO_FAIL_ERRNO(LATTIO_ERR_RENAME, "rename"));
    return LATTIO_OK;
}

int lattio_temp_create(const char *path, int *fd, char **tmp)
{
    *fd = -1;
    *tmp = NULL;
    RETURN_IF_ERROR(lattio_output_check(path));
    for (int attempt = 0; attempt < 100; attempt++) {
        char *name = lattio_temp_name(path);
        RETURN_IF(!name, LATTIO_ERR_NOMEM);
        int d;
        do d = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        while (d < 0 && errno == EINTR);
        if (d >= 0) {
            *fd = d;
            *tmp = name;
            return LATTIO_OK;
        }
        int e = errno;
        lattio_free(name);
        if (e != EEXIST) return lattio_fail_errno(__FILE__, __LINE__, "create temporary file", LATTIO_ERR_OPEN, e);
    }
    return LATTIO_FAIL(LATTIO_ERR_OPEN, "no free temporary name");
}

int lattio_temp_open(const char *path, char *name, size_t size, int *fd)
{
    RETURN_IF(!path || !*path || !name || !fd, LATTIO_ERR_ARG);
    char *tmp = NULL;
    RETURN_IF_ERROR(lattio_temp_create(path, fd, &tmp));
    int rc = strlen(tmp) < size ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_OVERFLOW, "name buffer");
    if (rc == LATTIO_OK) memcpy(name, tmp, strlen(tmp) + 1);
    else {
        close(*fd);
        *fd = -1;
        unlink(tmp);
    }
    lattio_free(tmp);
    return rc;
}

/* Digits only (base 10 or 16), at least one, value into *v. */
static int number(const char *s, size_t n, int base, unsigned long long *v)
{
    if (n == 0 || n > 20) return 0;
    char buf[24];
    memcpy(buf, s, n);
    buf[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (!(base == 16 ? (buf[i] >= '0' && buf[i] <= '9') || (buf[i] >= 'a' && buf[i] <= 'f')
                         : buf[i] >= '0' && buf[i] <= '9'))
            return 0;
    *v = strtoull(buf, NULL, base);
    return 1;
}

/* Fill the owner fields of t from the part after the tag; 0 when it is not
 * of the current form. */
static int parse_owner(const char *rest, lattio_temp_info *t)
{
    const char *f[6];
    size_t len[6];
    int k = 0;
    for (const char *p = rest; k < 6;) {
        const char *dot = strchr(p, '.');
        f[k] = p;
        len[k++] = dot ? (size_t)(dot - p) : strlen(p);
        if (!dot) break;
        p = dot + 1;
    }
    unsigned long long pid = 0, tm = 0, salt = 0, member = 0;
    if (k < 4 || k > 5 || len[0] == 0 || len[0] >= LATTIO_TEMP_HOST_MAX) return 0;
    for (size_t i = 0; i < len[0]; i++)
        if (!host_char(f[0][i]) && f[0][i] != '_') return 0;
    if (!number(f[1], len[1], 10, &pid) || !number(f[2], len[2], 10, &tm) || !number(f[3], len[3], 16, &salt))
        return 0;
    if (k == 5 && (len[4] != 6 || !number(f[4], len[4], 10, &member))) return 0;
    if (pid == 0 || pid > 0x7fffffffULL) return 0;
    memcpy(t->host, f[0], len[0]);
    t->host[len[0]] = '\0';
    t->pid = (long)pid;
    t->time = (int64_t)tm;
    return 1;
}

/* GONE only when provably so: our host, and no process with that pid. */
static int owner_state(const lattio_temp_info *t)
{
    char host[LATTIO_TEMP_HOST_MAX];
    if (t->pid <= 0) return LATTIO_TEMP_UNKNOWN;
    lattio_temp_host(host, sizeof host);
    if (strcmp(host, t->host) != 0) return LATTIO_TEMP_UNKNOWN;
    if (kill((pid_t)t->pid, 0) == 0 || errno == EPERM) return LATTIO_TEMP_RUNNING;
    return errno == ESRCH ? LATTIO_TEMP_GONE : LATTIO_TEMP_UNKNOWN;
}

/* Directory and base name of path (dir "." when none). */
static int split_path(const char *path, char **dir, const char **base)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 1;
    if (slash == path) n = 1;
    *dir = lattio_malloc(n + 1);
    RETURN_IF(!*dir, LATTIO_ERR_NOMEM);
    memcpy(*dir, slash ? path : ".", n);
    (*dir)[n] = '\0';
    *base = slash ? slash + 1 : path;
    return LATTIO_OK;
}

/* Entry `e` of the directory is a temporary of `base`: fill *t. */
static int match_entry(const char *dir, const char *base, const char *e, lattio_temp_info *t)
{
    size_t b = strlen(base);
    if (strncmp(e, base, b) != 0) return 0;
    const char *rest = e + b;
    memset(t, 0, sizeof *t);
    if (strncmp(rest, TEMP_TAG, strlen(TEMP_TAG)) == 0) {
        if (!parse_owner(rest + strlen(TEMP_TAG), t)) t->pid = -1; /* an older name */
    } else if (strncmp(rest, LEGACY_TAG, strlen(LEGACY_TAG)) == 0) {
        t->pid = -1;
    } else {
        return 0;
    }
    size_t n = strlen(dir) + strlen(e) + 2;
    t->name = lattio_malloc(n);
    if (!t->name) return -1;
    snprintf(t->name, n, "%s/%s", dir, e);
    struct stat st;
    if (lstat(t->name, &st) != 0 || !S_ISREG(st.st_mode)) {
        lattio_free(t->name);
        t->name = NULL;
        return 0;
    }
    t->size = (uint64_t)st.st_size;
    t->state = owner_state(t);
    return 1;
}

static int grow(lattio_temp_info **list, size_t *cap, size_t n)
{
    if (n < *cap) return LATTIO_OK;
    size_t c = *cap ? 2 * *cap : 8;
    lattio_temp_info *p = lattio_realloc(*list, c * sizeof *p);
    RETURN_IF(!p, LATTIO_ERR_NOMEM);
    *list = p;
    *cap = c;
    return LATTIO_OK;
}

int lattio_temp_list(const char *path, lattio_temp_info **list, size_t *count)
{
    RETURN_IF(!path || !*path || !list || !count, LATTIO_ERR_ARG);
    *list = NULL;
    *count = 0;
    char *dir = NULL;
    const char *base = NULL;
    RETURN_IF_ERROR(split_path(path, &dir, &base));
    DIR *d = opendir(dir);
    int rc = d ? LATTIO_OK : lattio_fail_errno(__FILE__, __LINE__, "opendir", LATTIO_ERR_OPEN, errno);
    size_t cap = 0;
    for (struct dirent *e; rc == LATTIO_OK && *base && (e = readdir(d));) {
        lattio_temp_info t;
        int m = match_entry(dir, base, e->d_name, &t);
        if (m < 0) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "name");
        if (m > 0 && (rc = grow(list, &cap, *count)) == LATTIO_OK) (*list)[(*count)++] = t;
        else if (m > 0) lattio_free(t.name);
    }
    if (d) closedir(d);
    lattio_free(dir);
    if (rc < 0) {
        lattio_temp_list_free(*list, *count);
        *list = NULL;
        *count = 0;
    }
    return rc;
}

void lattio_temp_list_free(lattio_temp_info *list, size_t count)
{
    for (size_t i = 0; list && i < count; i++) lattio_free(list[i].name);
    lattio_free(list);
}

int lattio_temp_remove(const lattio_temp_info *t)
{
    RETURN_IF(!t || !t->name, LATTIO_ERR_ARG);
    RETURN_IF(owner_state(t) != LATTIO_TEMP_GONE, LATTIO_ERR_STATE); /* checked again now */
    if (unlink(t->name) != 0 && errno != ENOENT)
        return lattio_fail_errno(__FILE__, __LINE__, "unlink", LATTIO_ERR_WRITE, errno);
    return LATTIO_OK;
}
