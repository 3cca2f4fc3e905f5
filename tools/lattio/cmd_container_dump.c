/* cmd_container_dump.c -- `lattio container dump`: the metadata of a
 * task-local container, as text or JSON (like SIONlib's siondump). */
#include "cmd_container.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define CMD "container dump"

typedef struct dump_opts {
    const char *file;
    int json, chunks, verify;
} dump_opts;

static uint64_t total_bytes(const ct_input *in)
{
    uint64_t sum = 0;
    for (uint32_t t = ct_next(in, 0); t < in->info.ntasks; t = ct_next(in, t + 1))
        sum += ct_task(in, t).bytes;
    return sum;
}

/* --chunks: one line (text) or object (JSON) per chunk of task t. */
static void print_chunks(const ct_input *in, uint32_t t, uint64_t blocks, int json)
{
    for (uint64_t b = 0; b < blocks; b++) {
        lattio_container_chunk_info c;
        int rc = lattio_container_reader_chunk(in->r, t, b, &c, NULL, 0);
        if (json && rc == LATTIO_OK)
            printf("%s{\"block\": %" PRIu64 ", \"file_offset\": %" PRIu64 ", \"used\": %" PRIu64
                   ", \"stream_offset\": %" PRIu64 ", \"crc\": \"%08" PRIx32 "\", \"final\": %s}",
                   b ? ", " : "", b, c.file_offset, c.used, c.stream_offset, c.data_crc,
                   c.final ? "true" : "false");
        else if (json)
            printf("%s{\"block\": %" PRIu64 ", \"error\": \"%s\"}", b ? ", " : "", b,
                   lattio_error_name(rc));
        else if (rc == LATTIO_OK)
            printf("         block %6" PRIu64 " at %14" PRIu64 ": %12" PRIu64 " bytes from stream "
                   "byte %" PRIu64 ", crc %08" PRIx32 "%s\n", b, c.file_offset, c.used,
                   c.stream_offset, c.data_crc, c.final ? ", FINAL" : "");
        else
            printf("         block %6" PRIu64 ": %s\n", b, lattio_error_name(rc));
    }
}

static void print_state_text(const ct_input *in)
{
    if (!in->recovered) {
        printf("state:        complete (footer present, every stream FINAL)\n");
        return;
    }
    printf("state:        INCOMPLETE: %s (%s); shown as recovery reads it\n",
           lattio_strerror(in->strict_status), lattio_error_name(in->strict_status));
}

static void dump_text_files(const ct_input *in)
{
    if (in->info.nfiles <= 1) return;
    printf("\n%6s %10s %8s %8s %16s %s\n", "file", "first", "tasks", "blocks", "bytes", "closed");
    for (uint32_t k = 0; k < in->info.nfiles; k++) {
        const lattio_container_file_info *f = &in->files[k];
        printf("%6" PRIu32 " %10" PRIu32 " %8" PRIu32 " %8" PRIu64 " %16" PRIu64 " %s\n", k,
               f->first_task, f->tasks, f->nblocks, f->size, f->closed ? "yes" : "no");
    }
}

static void dump_text(const ct_input *in, const dump_opts *o)
{
    const lattio_container_info *i = &in->info;
    printf("file:         %s\n", in->path);
    printf("format:       lattio task-local container, version %d, id %016" PRIx64 "\n",
           i->version, i->id);
    print_state_text(in);
    printf("file size:    %" PRIu64 "\n", in->file_size);
    printf("tasks:        %" PRIu32 "\n", i->ntasks);
    printf("files:        %" PRIu32 "\n", i->nfiles);
    printf("alignment:    %" PRIu64 "\n", i->align);
    printf("chunk:        %" PRIu64 " data bytes (stride %" PRIu64 ")\n", i->chunk, i->stride);
    printf("blocks:       %" PRIu64 "\n", i->nblocks);
    printf("stream bytes: %" PRIu64 "\n", total_bytes(in));
    printf("checksums:    chunk CRC-32 in every trailer%s\n",
           i->stream_crcs ? "; stream CRC-32 in final trailers" : "");
    dump_text_files(in);
    printf("\n%8s %16s %8s %5s %8s%s\n", "task", "bytes", "blocks", "final", "crc",
           i->nfiles > 1 ? "  file" : "");
    for (uint32_t t = ct_next(in, 0); t < i->ntasks; t = ct_next(in, t + 1)) {
        lattio_container_task_info ti = ct_task(in, t);
        char crc[16] = "-";
        if (ti.has_crc) snprintf(crc, sizeof crc, "%08" PRIx32, ti.crc);
        printf("%8" PRIu32 " %16" PRIu64 " %8" PRIu64 " %5s %8s", t, ti.bytes, ti.blocks,
               ti.complete ? "yes" : "no", crc);
        if (i->nfiles > 1) printf("  %" PRIu32, ti.file);
        putchar('\n');
        if (o->chunks) print_chunks(in, t, ti.blocks, 0);
    }
    uint32_t listed = ct_listed_count(in);
    if (listed < i->ntasks)
        printf("(%" PRIu32 " tasks begin beyond the end of their file: empty, not listed)\n",
               i->ntasks - listed);
}

static void dump_json_head(const ct_input *in)
{
    const lattio_container_info *i = &in->info;
    printf("{\"file\": ");
    tool_json_string(stdout, in->path);
    printf(", \"version\": %d, \"id\": \"%016" PRIx64 "\", \"complete\": %s, \"state\": \"%s\"",
           i->version, i->id, in->recovered ? "false" : "true",
           in->recovered ? "incomplete" : "complete");
    if (in->recovered) {
        printf(", \"error\": {\"status\": %d, \"name\": \"%s\", \"message\": ", in->strict_status,
               lattio_error_name(in->strict_status));
        tool_json_string(stdout, lattio_strerror(in->strict_status));
        printf("}");
    }
    printf(",\n \"file_size\": %" PRIu64 ", \"tasks\": %" PRIu32 ", \"files\": %" PRIu32
           ", \"align\": %" PRIu64 ", \"chunk\": %" PRIu64 ", \"stride\": %" PRIu64
           ", \"blocks\": %" PRIu64 ", \"stream_bytes\": %" PRIu64 ", \"stream_crcs\": %s,\n",
           in->file_size, i->ntasks, i->nfiles, i->align, i->chunk, i->stride, i->nblocks,
           total_bytes(in), i->stream_crcs ? "true" : "false");
    printf(" \"physical_files\": [");
    for (uint32_t k = 0; k < i->nfiles; k++) {
        const lattio_container_file_info *f = &in->files[k];
        printf("%s\n  {\"index\": %" PRIu32 ", \"first_task\": %" PRIu32 ", \"tasks\": %" PRIu32
               ", \"blocks\": %" PRIu64 ", \"size\": %" PRIu64 ", \"stride\": %" PRIu64
               ", \"closed\": %s}", k ? "," : "", k, f->first_task, f->tasks, f->nblocks,
               f->size, f->stride, f->closed ? "true" : "false");
    }
    printf("],\n");
}

static void dump_json(const ct_input *in, const dump_opts *o)
{
    dump_json_head(in);
    printf(" \"streams\": [");
    int first = 1;
    for (uint32_t t = ct_next(in, 0); t < in->info.ntasks; t = ct_next(in, t + 1)) {
        lattio_container_task_info ti = ct_task(in, t);
        printf("%s\n  {\"task\": %" PRIu32 ", \"bytes\": %" PRIu64 ", \"blocks\": %" PRIu64
               ", \"final\": %s, \"file\": %" PRIu32 ", \"crc\": ", first ? "" : ",", t, ti.bytes,
               ti.blocks, ti.complete ? "true" : "false", ti.file);
        if (ti.has_crc) printf("\"%08" PRIx32 "\"", ti.crc);
        else printf("null");
        if (o->chunks) {
            printf(", \"chunks\": [");
            print_chunks(in, t, ti.blocks, 1);
            printf("]");
        }
        printf("}");
        first = 0;
    }
    printf("],\n \"listed_tasks\": %" PRIu32 "}\n", ct_listed_count(in));
}

/* --verify: read every chunk of every listed task, checking its CRC-32.
 * Returns the number of bad chunks (each reported on stderr). */
static uint64_t verify_all(const ct_input *in)
{
    uint64_t bad = 0;
    for (uint32_t t = ct_next(in, 0); t < in->info.ntasks; t = ct_next(in, t + 1)) {
        lattio_container_task_info ti = ct_task(in, t);
        for (uint64_t b = 0; b < ti.blocks; b++) {
            lattio_container_chunk_info c;
            int rc = lattio_container_reader_chunk(in->r, t, b, &c, NULL, 0);
            if (rc == LATTIO_OK) rc = ct_copy_check(in, t, c.stream_offset, c.used);
            if (rc == LATTIO_OK) continue;
            bad++;
            tool_status_error(CMD, in->path, rc, " in task %" PRIu32 ", block %" PRIu64, t, b);
        }
    }
    return bad;
}

static int parse(int argc, char **argv, dump_opts *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            o->json = 1;
        else if (strcmp(argv[i], "--chunks") == 0)
            o->chunks = 1;
        else if (strcmp(argv[i], "--verify") == 0)
            o->verify = 1;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return tool_usage(CMD, "unknown option '%s'", argv[i]);
        else if (o->file)
            return tool_usage(CMD, "too many arguments");
        else
            o->file = argv[i];
    }
    if (!o->file) return tool_usage(CMD, "missing FILE");
    return TOOL_OK;
}

int ct_dump(int argc, char **argv)
{
    dump_opts o;
    int ret = parse(argc, argv, &o);
    if (ret != TOOL_OK) return ret;
    ct_input in;
    if (ct_open(&in, CMD, o.file, CT_RECOVER) != TOOL_OK) return TOOL_FAIL;
    if (o.json)
        dump_json(&in, &o);
    else
        dump_text(&in, &o);
    fflush(stdout);
    if (in.recovered)
        ret = tool_status_error(CMD, o.file, in.strict_status, "; shown as recovery reads it");
    if (o.verify && verify_all(&in) > 0) ret = TOOL_FAIL;
    if (o.verify && ret == TOOL_OK && !o.json) printf("verified: every chunk matches its CRC-32\n");
    ct_close(&in);
    return ret;
}
