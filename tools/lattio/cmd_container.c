/* cmd_container.c -- `lattio container`: inspect and convert task-local
 * containers (docs/format.md section 8), like SIONlib's siondump, sionsplit,
 * sioncat and siondefrag.  This file holds the dispatch and the parts the
 * subcommands share; the subcommands are in cmd_container_*.c. */
#include "cmd_container.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char container_help[] =
    "usage: lattio container dump FILE [--json] [--chunks] [--verify]\n"
    "       lattio container split FILE PREFIX [--recover] [--no-verify]\n"
    "       lattio container cat FILE [--task N] [--block B] [-o OUT] [--recover] [--no-verify]\n"
    "       lattio container defrag IN OUT [--chunk BYTES] [--recover]\n"
    "       lattio container repair FILE [-o OUT] [--no-verify]\n"
    "\n"
    "Task-local containers (one byte stream per MPI task in one file or a few,\n"
    "FILE, FILE.000001, ...; written by lattio_container_open/write/close;\n"
    "docs/format.md section 8).  FILE is always the container's name.\n"
    "\n"
    "  dump    id, tasks, physical files, chunk capacity, stride and alignment,\n"
    "          blocks, the state (complete, or INCOMPLETE with the reason), the\n"
    "          checksums recorded, and for each task its bytes, blocks, whether\n"
    "          its stream ended with a FINAL chunk and its stream CRC-32 (when\n"
    "          recorded).  An incomplete container is shown as recovery reads it\n"
    "          and the exit status is 1.  --json: one JSON document instead;\n"
    "          --chunks: every chunk's offset, bytes and CRC-32; --verify: read\n"
    "          every chunk and check its CRC-32 (exit status 1 if one fails).\n"
    "  split   write task T's stream to PREFIX.T (T zero-padded to the width of\n"
    "          the largest task number), one file per task.\n"
    "  cat     write streams to standard output (or OUT): every task's in task\n"
    "          order, or only task N's; --block B only the bytes of chunk B (of\n"
    "          task N, or of every task in order).\n"
    "  defrag  write a new container OUT holding the same streams contiguously:\n"
    "          one chunk per task large enough for the largest stream, or chunks\n"
    "          of BYTES data bytes; same tasks, files and alignment.  OUT appears\n"
    "          only after every stream was read back and compared (written as\n"
    "          OUT.lattio-tmp.* before).\n"
    "  repair  make a container whose writer was killed whole again (in place,\n"
    "          or as OUT): every task keeps the bytes of its complete chunks;\n"
    "          prints them per task.  The input is replaced only by a verified\n"
    "          copy; a complete container is left alone.\n"
    "\n"
    "Reading checks each chunk's CRC-32 (and the stream's, when recorded);\n"
    "--no-verify skips that.  split, cat and defrag need a complete container\n"
    "unless --recover is given; then an unfinished or damaged one is read as\n"
    "recovery does (each stream up to its last complete chunk).\n"
    "\n"
    "Exit status: 0 success, 1 unreadable, damaged or incomplete container or\n"
    "failed output, 2 unusable arguments.\n";

/* --- opening ------------------------------------------------------------- */

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

static int run_container(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } subs[] = {{"dump", ct_dump}, {"split", ct_split}, {"cat", ct_cat},
                {"defrag", ct_defrag}, {"repair", ct_repair}};
    if (argc < 2) return tool_usage("container", "missing subcommand (dump, split, cat, defrag, repair)");
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (strcmp(argv[1], subs[i].name) == 0) return subs[i].run(argc - 1, argv + 1);
    return tool_usage("container", "unknown subcommand '%s'", argv[1]);
}

const tool_command tool_cmd_container = {
    "container", "dump, split, cat, defrag or repair a task-local container", container_help,
    run_container, 0};
