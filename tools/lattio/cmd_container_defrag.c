/* cmd_container_defrag.c -- `lattio container defrag`: rewrite a container
 * with contiguous streams (like siondefrag), written to a temporary file,
 * read back and compared stream by stream, then renamed. */
#include "cmd_container.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CMD "container defrag"
/* A recovered container may have tasks beyond the end of the file (empty);
 * up to this many tasks are accepted then. */
#define DEFRAG_MAX_EMPTY ((uint32_t)1 << 20)

typedef struct defrag_job {
    ct_input in;
    const char *out;  /* final name */
    char *tmp;        /* temporary name */
    uint64_t chunk;   /* data bytes per chunk asked for (0: largest stream) */
    char *buf, *buf2; /* TOOL_BLOCK_SIZE each */
} defrag_job;

static uint64_t largest_stream(const ct_input *in)
{
    uint64_t max = 0;
    for (uint32_t t = ct_next(in, 0); t < in->info.ntasks; t = ct_next(in, t + 1)) {
        uint64_t n = ct_stream_size(in, t, NULL);
        if (n > max) max = n;
    }
    return max;
}

/* Copy task t's stream into the new container. */
static int copy_stream(defrag_job *j, lattio_container_writer *w, uint32_t t)
{
    uint64_t size = ct_stream_size(&j->in, t, NULL);
    for (uint64_t off = 0; off < size;) {
        size_t k = size - off < TOOL_BLOCK_SIZE ? (size_t)(size - off) : TOOL_BLOCK_SIZE;
        int rc = lattio_container_reader_read(j->in.r, t, off, j->buf, k);
        if (rc < 0)
            return tool_status_error(CMD, j->in.path, rc, " reading task %" PRIu32
                                     " at stream byte %" PRIu64, t, off);
        rc = lattio_container_writer_write(w, t, j->buf, k);
        if (rc < 0) return tool_status_error(CMD, j->tmp, rc, " writing task %" PRIu32, t);
        off += k;
    }
    return TOOL_OK;
}

/* The new container: same tasks, physical files and task ranges and
 * alignment as the input; chunks of the size asked for. */
static int write_new(defrag_job *j)
{
    const uint32_t nfiles = j->in.info.nfiles ? j->in.info.nfiles : 1;
    uint32_t *first = malloc(nfiles * sizeof *first);
    if (!first) return tool_error(CMD, NULL, "out of memory");
    for (uint32_t k = 0; k < nfiles; k++) first[k] = j->in.files[k].first_task;
    lattio_container_serial_options opt;
    memset(&opt, 0, sizeof opt);
    opt.chunk_hint = j->chunk ? j->chunk : largest_stream(&j->in);
    opt.align = j->in.info.align;
    opt.nfiles = nfiles;
    opt.first_tasks = nfiles > 1 ? first : NULL;
    lattio_container_writer *w = NULL;
    int rc = lattio_container_create_serial_ex(j->tmp, j->in.info.ntasks, &opt, &w);
    free(first);
    if (rc < 0) return tool_status_error(CMD, j->tmp, rc, " creating the new container");
    int ret = TOOL_OK;
    for (uint32_t t = 0; t < j->in.info.ntasks && ret == TOOL_OK; t++) ret = copy_stream(j, w, t);
    rc = lattio_container_writer_close(w);
    if (ret == TOOL_OK && rc < 0) ret = tool_status_error(CMD, j->tmp, rc, " closing");
    return ret;
}

/* Task t of the new container holds exactly the old stream. */
static int verify_stream(defrag_job *j, lattio_container_reader *r, uint32_t t)
{
    uint64_t size = ct_stream_size(&j->in, t, NULL), got = 0;
    int rc = lattio_container_reader_size(r, t, &got, NULL);
    if (rc < 0) return tool_status_error(CMD, j->tmp, rc, " verifying task %" PRIu32, t);
    if (got != size)
        return tool_error(CMD, j->tmp, "verification failed: task %" PRIu32 " has %" PRIu64
                          " bytes, the input %" PRIu64, t, got, size);
    for (uint64_t off = 0; off < size;) {
        size_t k = size - off < TOOL_BLOCK_SIZE ? (size_t)(size - off) : TOOL_BLOCK_SIZE;
        rc = lattio_container_reader_read(j->in.r, t, off, j->buf, k);
        if (rc < 0) return tool_status_error(CMD, j->in.path, rc, " re-reading task %" PRIu32, t);
        rc = lattio_container_reader_read(r, t, off, j->buf2, k);
        if (rc < 0) return tool_status_error(CMD, j->tmp, rc, " verifying task %" PRIu32, t);
        if (memcmp(j->buf, j->buf2, k) != 0)
            return tool_error(CMD, j->tmp, "verification failed: task %" PRIu32
                              " differs near stream byte %" PRIu64, t, off);
        off += k;
    }
    return TOOL_OK;
}

static int verify_new(defrag_job *j)
{
    lattio_container_reader *r = NULL;
    int rc = lattio_container_open_serial(j->tmp, 0, &r);
    if (rc < 0) return tool_status_error(CMD, j->tmp, rc, " reading the new container back");
    lattio_container_info info;
    int ret = TOOL_OK;
    rc = lattio_container_reader_info(r, &info);
    if (rc < 0 || info.ntasks != j->in.info.ntasks || !info.complete)
        ret = tool_error(CMD, j->tmp, "verification failed: wrong task count or incomplete");
    for (uint32_t t = 0; t < j->in.info.ntasks && ret == TOOL_OK; t++)
        ret = verify_stream(j, r, t);
    lattio_container_reader_close(r);
    return ret;
}

static void report(const defrag_job *j)
{
    struct stat a, b;
    if (stat(j->in.path, &a) != 0 || stat(j->out, &b) != 0) return;
    lattio_container_reader *r = NULL;
    lattio_container_info info = {0};
    if (lattio_container_open_serial(j->out, 0, &r) == LATTIO_OK) lattio_container_reader_info(r, &info);
    lattio_container_reader_close(r);
    printf("%s: %" PRIu32 " tasks, %" PRIu64 " blocks of %" PRIu64 "-byte chunks, %lld bytes\n",
           j->in.path, j->in.info.ntasks, j->in.info.nblocks, j->in.info.chunk, (long long)a.st_size);
    printf("%s: %" PRIu32 " tasks, %" PRIu64 " blocks of %" PRIu64 "-byte chunks, %lld bytes "
           "(verified)\n", j->out, info.ntasks, info.nblocks, info.chunk, (long long)b.st_size);
}

/* Members 1 .. n-1 first, file 0 (the container's name) last. */
static int rename_members(const defrag_job *j)
{
    const uint32_t n = j->in.info.nfiles ? j->in.info.nfiles : 1;
    int ret = TOOL_OK;
    for (uint32_t k = n; k-- > 0 && ret == TOOL_OK;) {
        char *from = ct_member_name(j->tmp, k), *to = ct_member_name(j->out, k);
        if (!from || !to)
            ret = tool_error(CMD, NULL, "out of memory");
        else if (lattio_temp_publish(from, to) != LATTIO_OK)
            ret = tool_error(CMD, to, "cannot rename %s to it%s%s", from, tool_detail(), tool_errno_suffix());
        free(from);
        free(to);
    }
    return ret;
}

static void remove_members(const defrag_job *j)
{
    const uint32_t n = j->in.info.nfiles ? j->in.info.nfiles : 1;
    for (uint32_t k = 0; k < n; k++) {
        char *name = ct_member_name(j->tmp, k);
        if (name) unlink(name);
        free(name);
    }
}

static int run_job(defrag_job *j)
{
    j->tmp = ct_temp_name(j->out);
    if (!j->tmp) return tool_error(CMD, j->out, "cannot create a temporary file beside it%s",
                                   tool_errno_suffix());
    j->buf = malloc(TOOL_BLOCK_SIZE);
    j->buf2 = malloc(TOOL_BLOCK_SIZE);
    if (!j->buf || !j->buf2) return tool_error(CMD, NULL, "out of memory");
    int ret = write_new(j);
    if (ret == TOOL_OK) ret = verify_new(j);
    if (ret == TOOL_OK) ret = rename_members(j);
    if (ret != TOOL_OK) remove_members(j);
    if (ret == TOOL_OK) report(j);
    return ret;
}

int ct_defrag(int argc, char **argv)
{
    const char *pos[2] = {NULL, NULL}, *chunk = NULL;
    int npos = 0, flags = 0;
    for (int i = 1; i < argc; i++) {
        int k = tool_option(argc, argv, &i, "--chunk", &chunk);
        if (k < 0) return tool_usage(CMD, "option '--chunk' needs a value");
        if (k > 0) continue;
        if (strcmp(argv[i], "--recover") == 0)
            flags |= CT_RECOVER;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return tool_usage(CMD, "unknown option '%s'", argv[i]);
        else if (npos == 2)
            return tool_usage(CMD, "too many arguments");
        else
            pos[npos++] = argv[i];
    }
    if (npos < 2) return tool_usage(CMD, npos ? "missing OUT" : "missing IN and OUT");
    defrag_job j;
    memset(&j, 0, sizeof j);
    j.out = pos[1];
    if (chunk && tool_parse_u64(chunk, 1, &j.chunk) != 0)
        return tool_usage(CMD, "bad chunk size '%s' (bytes, at least 1)", chunk);
    if (ct_open(&j.in, CMD, pos[0], flags) != TOOL_OK) return TOOL_FAIL;
    int ret = TOOL_OK;
    const uint32_t listed = ct_listed_count(&j.in);
    if (j.in.info.ntasks > listed && j.in.info.ntasks > DEFRAG_MAX_EMPTY)
        ret = tool_error(CMD, pos[0], "the header claims %" PRIu32 " tasks but only %" PRIu32
                         " begin within the file; refusing to write the rest empty",
                         j.in.info.ntasks, listed);
    if (ret == TOOL_OK) ret = run_job(&j);
    ct_close(&j.in);
    free(j.tmp);
    free(j.buf);
    free(j.buf2);
    return ret;
}
