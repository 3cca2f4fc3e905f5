/* container_input.c -- what every container subcommand reads: an input
 * container opened (members, recovery, hints on failure), its tasks
 * walked, streams copied and checked, member and temporary names.
 * cmd_container.c and its subcommands build on it. */
#include "cmd_container.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Strict failures that a recovering open may get past. */
static int recoverable(int status)
{
    return status == LATTIO_ERR_CONTAINER_TRUNCATED || status == LATTIO_ERR_CONTAINER_CHUNK ||
           status == LATTIO_ERR_CONTAINER;
}

/* A hint after the library's message. */
static const char *open_hint(int status)
{
    switch (status) {
    case LATTIO_ERR_CONTAINER_TRUNCATED:
        return "; its complete chunks can be read with --recover or kept by `lattio container repair`";
    case LATTIO_ERR_CONTAINER_MAGIC: return "; the file does not start with LATTIOTC";
    case LATTIO_ERR_CONTAINER: return "; header or footer fields contradict each other or the file size";
    case LATTIO_ERR_CONTAINER_CHUNK: return "; a chunk trailer is missing or damaged (try --recover)";
    default: return "";
    }
}

/* Geometry of every physical file, and which of its tasks to list. */
static int load_files(ct_input *in)
{
    uint32_t n = in->info.nfiles ? in->info.nfiles : 1;
    in->files = calloc(n, sizeof *in->files);
    in->ranges = calloc(n, sizeof *in->ranges);
    if (!in->files || !in->ranges) return tool_error(in->cmd, NULL, "out of memory");
    for (uint32_t k = 0; k < n; k++) {
        lattio_container_file_info *f = &in->files[k];
        int rc = lattio_container_reader_file(in->r, k, f);
        if (rc < 0) return tool_status_error(in->cmd, in->path, rc, " (physical file %" PRIu32 ")", k);
        ct_range *g = &in->ranges[k];
        g->first = f->first_task;
        g->tasks = g->listed = f->tasks;
        if (in->recovered && f->stride) {
            uint64_t room = f->size > f->data_start ? f->size - f->data_start : 0;
            uint64_t fit = (room + f->stride - 1) / f->stride;
            if (fit < g->tasks) g->listed = (uint32_t)fit;
        }
        in->file_size += f->size;
    }
    return TOOL_OK;
}

int ct_open(ct_input *in, const char *cmd, const char *path, int flags)
{
    memset(in, 0, sizeof *in);
    in->cmd = cmd;
    in->path = path;
    struct stat st;
    if (stat(path, &st) != 0) return tool_error(cmd, path, "cannot open: %s", strerror(errno));
    if (!S_ISREG(st.st_mode)) return tool_error(cmd, path, "not a regular file");
    int lflags = flags & CT_NO_VERIFY ? LATTIO_CONTAINER_NO_VERIFY : 0;
    int rc = lattio_container_open_serial(path, lflags, &in->r);
    in->strict_status = rc;
    if (rc < 0 && (flags & CT_RECOVER) && recoverable(rc)) {
        int rc2 = lattio_container_open_serial(path, lflags | LATTIO_CONTAINER_RECOVER, &in->r);
        if (rc2 == LATTIO_OK) {
            in->recovered = 1;
            rc = LATTIO_OK;
        }
    }
    if (rc < 0) return tool_status_error(cmd, path, rc, "%s", open_hint(rc));
    rc = lattio_container_reader_info(in->r, &in->info);
    int ret = rc < 0 ? tool_status_error(cmd, path, rc, "%s", "") : load_files(in);
    if (ret != TOOL_OK) ct_close(in);
    return ret;
}

void ct_close(ct_input *in)
{
    lattio_container_reader_close(in->r);
    in->r = NULL;
    free(in->files);
    free(in->ranges);
    in->files = NULL;
    in->ranges = NULL;
}

uint32_t ct_next(const ct_input *in, uint32_t t)
{
    uint32_t n = in->info.nfiles ? in->info.nfiles : 1;
    for (uint32_t k = 0; in->ranges && k < n; k++) {
        const ct_range *g = &in->ranges[k];
        if (t < g->first) t = g->first;
        if (t - g->first < g->listed) return t;
    }
    return in->info.ntasks;
}

uint32_t ct_listed_count(const ct_input *in)
{
    uint32_t n = in->info.nfiles ? in->info.nfiles : 1, sum = 0;
    for (uint32_t k = 0; in->ranges && k < n; k++) sum += in->ranges[k].listed;
    return sum;
}

uint64_t ct_stream_size(const ct_input *in, uint32_t task, int *complete)
{
    uint64_t size = 0;
    int c = 0;
    if (lattio_container_reader_size(in->r, task, &size, &c) < 0) size = 0;
    if (complete) *complete = c;
    return size;
}

lattio_container_task_info ct_task(const ct_input *in, uint32_t task)
{
    lattio_container_task_info t;
    if (lattio_container_reader_task(in->r, task, &t) < 0) memset(&t, 0, sizeof t);
    return t;
}

char *ct_member_name(const char *path, uint32_t k)
{
    size_t n = strlen(path) + 16;
    char *s = malloc(n);
    if (s && k == 0) snprintf(s, n, "%s", path);
    if (s && k > 0) snprintf(s, n, "%s.%06" PRIu32, path, k);
    return s;
}

/* --- copying ------------------------------------------------------------- */

int ct_copy(const ct_input *in, uint32_t task, uint64_t offset, uint64_t n, int fd,
            const char *out_name)
{
    size_t cap = n < TOOL_BLOCK_SIZE ? (size_t)n : TOOL_BLOCK_SIZE;
    char *buf = malloc(cap ? cap : 1);
    if (!buf) return tool_error(in->cmd, NULL, "out of memory");
    int ret = TOOL_OK;
    while (n > 0 && ret == TOOL_OK) {
        size_t k = n < cap ? (size_t)n : cap;
        int rc = lattio_container_reader_read(in->r, task, offset, buf, k);
        if (rc < 0)
            ret = tool_status_error(in->cmd, in->path, rc,
                                    " reading task %" PRIu32 " at stream byte %" PRIu64, task,
                                    offset);
        else if (tool_write_all(fd, buf, k) != 0)
            ret = tool_error(in->cmd, out_name, "write failed: %s", strerror(errno));
        offset += k;
        n -= k;
    }
    free(buf);
    return ret;
}

int ct_copy_check(const ct_input *in, uint32_t task, uint64_t offset, uint64_t n)
{
    size_t cap = n < TOOL_BLOCK_SIZE ? (size_t)n : TOOL_BLOCK_SIZE;
    char *buf = malloc(cap ? cap : 1);
    int rc = buf ? LATTIO_OK : LATTIO_ERR_NOMEM;
    while (n > 0 && rc == LATTIO_OK) {
        size_t k = n < cap ? (size_t)n : cap;
        rc = lattio_container_reader_read(in->r, task, offset, buf, k);
        offset += k;
        n -= k;
    }
    free(buf);
    return rc;
}

char *ct_temp_name(const char *final)
{
    /* the library's temporary name (HOST.PID.TIME.SALT, created exclusively),
     * so `lattio clean` can tell when its writer is gone */
    const size_t n = strlen(final) + 256;
    char *s = malloc(n);
    int fd = -1;
    if (s && lattio_temp_open(final, s, n, &fd) != LATTIO_OK) {
        free(s);
        return NULL;
    }
    if (fd >= 0) close(fd);
    return s;
}

int ct_parse_task(const ct_input *in, const char *s, uint32_t *task)
{
    uint64_t v = 0;
    if (tool_parse_u64(s, 0, &v) != 0) return tool_usage(in->cmd, "bad task number '%s'", s);
    if (v >= in->info.ntasks)
        return tool_error(in->cmd, in->path, "no task %" PRIu64 ": the container has %" PRIu32
                          " tasks (0 .. %" PRIu32 ")", v, in->info.ntasks, in->info.ntasks - 1);
    *task = (uint32_t)v;
    return TOOL_OK;
}

/* --- dispatch ------------------------------------------------------------ */
