/* cmd_container_copy.c -- `lattio container split` (one file per task, like
 * sionsplit) and `lattio container cat` (streams to standard output or a
 * file, like sioncat). */
#include "cmd_container.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif

/* --- split --------------------------------------------------------------- */

static int digits(uint32_t v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

static int split_task(const ct_input *in, const char *prefix, int width, uint32_t t)
{
    size_t n = strlen(prefix) + 16;
    char *name = malloc(n);
    if (!name) return tool_error(in->cmd, NULL, "out of memory");
    snprintf(name, n, "%s.%0*" PRIu32, prefix, width & 15, t); /* width <= 10 digits */
    uint64_t size = ct_stream_size(in, t, NULL);
    const char *inputs[1] = {in->path};
    tool_output o;
    int ret = tool_output_allowed(in->cmd, name, inputs, 1);
    if (ret == TOOL_OK) ret = tool_output_open(&o, in->cmd, name);
    if (ret == TOOL_OK) ret = tool_output_finish(&o, ct_copy(in, t, 0, size, o.fd, name));
    if (ret == TOOL_OK) printf("%16" PRIu64 " %s\n", size, name);
    free(name);
    return ret;
}

int ct_split(int argc, char **argv)
{
    static const char *const cmd = "container split";
    const char *pos[2] = {NULL, NULL};
    int npos = 0, flags = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--recover") == 0)
            flags |= CT_RECOVER;
        else if (strcmp(argv[i], "--no-verify") == 0)
            flags |= CT_NO_VERIFY;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return tool_usage(cmd, "unknown option '%s'", argv[i]);
        else if (npos == 2)
            return tool_usage(cmd, "too many arguments");
        else
            pos[npos++] = argv[i];
    }
    if (npos < 2) return tool_usage(cmd, npos ? "missing PREFIX" : "missing FILE and PREFIX");
    ct_input in;
    if (ct_open(&in, cmd, pos[0], flags) != TOOL_OK) return TOOL_FAIL;
    int width = digits(in.info.ntasks - 1);
    const uint32_t n = in.info.ntasks;
    int ret = TOOL_OK;
    for (uint32_t t = ct_next(&in, 0); t < n && ret == TOOL_OK; t = ct_next(&in, t + 1))
        ret = split_task(&in, pos[1], width, t);
    uint32_t listed = ct_listed_count(&in);
    if (ret == TOOL_OK && listed < n)
        fprintf(stderr, "lattio %s: %s: %" PRIu32 " tasks begin beyond the end of their file; "
                "no files written for them\n", cmd, pos[0], n - listed);
    ct_close(&in);
    return ret;
}

/* --- cat ----------------------------------------------------------------- */

typedef struct cat_args {
    const char *file, *out, *task, *block;
    int flags; /* CT_RECOVER, CT_NO_VERIFY */
} cat_args;

/* Bytes of task t to write: the whole stream, or chunk `block` of it. */
static int cat_task(const ct_input *in, uint32_t t, int whole, uint64_t block, int fd,
                    const char *out_name)
{
    lattio_container_task_info ti = ct_task(in, t);
    if (whole) return ct_copy(in, t, 0, ti.bytes, fd, out_name);
    if (block >= ti.blocks) return TOOL_OK;
    lattio_container_chunk_info c;
    int rc = lattio_container_reader_chunk(in->r, t, block, &c, NULL, 0);
    if (rc < 0)
        return tool_status_error(in->cmd, in->path, rc, " at task %" PRIu32 ", block %" PRIu64, t,
                                 block);
    /* A FINAL chunk beyond what recovery kept is not part of the stream. */
    uint64_t n = c.stream_offset < ti.bytes ? ti.bytes - c.stream_offset : 0;
    return ct_copy(in, t, c.stream_offset, c.used < n ? c.used : n, fd, out_name);
}

static int cat_parse(int argc, char **argv, cat_args *a)
{
    static const char *const cmd = "container cat";
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        int k = 0;
        if ((k = tool_option(argc, argv, &i, "--task", &a->task)) != 0 ||
            (k = tool_option(argc, argv, &i, "--block", &a->block)) != 0 ||
            (k = tool_option(argc, argv, &i, "-o", &a->out)) != 0) {
            if (k < 0) return tool_usage(cmd, "option '%s' needs a value", argv[i]);
        } else if (strcmp(argv[i], "--recover") == 0) {
            a->flags |= CT_RECOVER;
        } else if (strcmp(argv[i], "--no-verify") == 0) {
            a->flags |= CT_NO_VERIFY;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return tool_usage(cmd, "unknown option '%s'", argv[i]);
        } else if (a->file) {
            return tool_usage(cmd, "too many arguments");
        } else {
            a->file = argv[i];
        }
    }
    if (!a->file) return tool_usage(cmd, "missing FILE");
    return TOOL_OK;
}

/* Check --task and --block against the container before any output. */
static int cat_check(const ct_input *in, const cat_args *a, uint32_t *task, uint64_t *block)
{
    int rc = a->task ? ct_parse_task(in, a->task, task) : TOOL_OK;
    if (rc != TOOL_OK) return rc;
    if (a->block && tool_parse_u64(a->block, 0, block) != 0)
        return tool_usage(in->cmd, "bad block number '%s'", a->block);
    if (!a->block) return TOOL_OK;
    uint64_t have = a->task ? ct_task(in, *task).blocks : in->info.nblocks;
    if (*block < have) return TOOL_OK;
    char who[48] = "the container";
    if (a->task) snprintf(who, sizeof who, "task %" PRIu32, *task);
    if (have == 0) return tool_error(in->cmd, in->path, "%s has no complete block", who);
    return tool_error(in->cmd, in->path, "%s has %" PRIu64 " block(s) (0 .. %" PRIu64
                      "); no block %" PRIu64, who, have, have - 1, *block);
}

static int cat_body(const ct_input *in, const cat_args *a, uint32_t task, uint64_t block, int fd,
                    const char *out_name)
{
    if (a->task) return cat_task(in, task, !a->block, block, fd, out_name);
    int ret = TOOL_OK;
    const uint32_t n = in->info.ntasks;
    for (uint32_t t = ct_next(in, 0); t < n && ret == TOOL_OK; t = ct_next(in, t + 1))
        ret = cat_task(in, t, !a->block, block, fd, out_name);
    return ret;
}

int ct_cat(int argc, char **argv)
{
    cat_args a;
    int ret = cat_parse(argc, argv, &a);
    if (ret != TOOL_OK) return ret;
    ct_input in;
    const char *inputs[1] = {a.file};
    if (a.out && tool_output_allowed("container cat", a.out, inputs, 1) != TOOL_OK) return TOOL_FAIL;
    if (ct_open(&in, "container cat", a.file, a.flags) != TOOL_OK) return TOOL_FAIL;
    tool_output o = {.fd = STDOUT_FILENO};
    const char *out_name = a.out ? a.out : "standard output";
    uint32_t task = 0;
    uint64_t block = 0;
    ret = cat_check(&in, &a, &task, &block);
    if (ret == TOOL_OK && a.out) ret = tool_output_open(&o, in.cmd, a.out);
    if (ret == TOOL_OK) ret = cat_body(&in, &a, task, block, o.fd, out_name);
    if (a.out && ret == TOOL_OK) ret = tool_output_finish(&o, ret);
    else if (a.out && o.fd != STDOUT_FILENO) tool_output_finish(&o, ret);
    if (ret == TOOL_OK && in.recovered)
        fprintf(stderr, "lattio container cat: %s: warning: incomplete container (%s); wrote "
                "what recovery reads\n", a.file, lattio_error_name(in.strict_status));
    ct_close(&in);
    return ret;
}
