/* cmd_info.c -- `lattio info`: list the records of a LIME file in the
 * format of C-LIME's lime_contents, or as JSON. */
#include "gauge_tool.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define INFO_TEXT_LIMIT 64000 /* lime_contents shows payloads shorter than this */

static const char info_help[] =
    "usage: lattio info [--json] [--fields] FILE\n"
    "       lattio info --fs [--json] PATH\n"
    "\n"
    "List the records of a LIME file.  The text output is the format of C-LIME's\n"
    "lime_contents: for each record a blank line pair, then Message:, Record:, Type:,\n"
    "Data Length:, Padding Length:, MB flag:, ME flag: and Data:.  Data shows the\n"
    "payload in quotes (up to its first NUL byte) when it is shorter than 64000\n"
    "bytes and has no byte >= 0x80, else [Binary data] or [Long record skipped].\n"
    "An HDF5 file lists its lattice fields instead: path, layout (qdp or qlua),\n"
    "dimensions, reals per site, precision, byte order and stored checksum.\n"
    "A message starts at a record with the MB flag set or at the first record.\n"
    "\n"
    "  --json   print one JSON document instead:\n"
    "           {\"file\": F, \"records\": [{\"message\", \"record\", \"offset\", \"type\",\n"
    "           \"length\", \"padding\", \"mb\", \"me\", \"data\"}, ...]}\n"
    "           data is the text the Data: line shows, or null; for a damaged file\n"
    "           an \"error\" object {status, message, record, offset} follows.\n"
    "  --fields list the lattice fields of a LIME file instead of its records:\n"
    "           for each (numbered from 0) its binary record (1-based number,\n"
    "           offset, bytes), its type (a name of the field-type table of\n"
    "           docs/format.md 5.4, \"gauge\" or \"untyped\"), datatype,\n"
    "           precision, colors, spins, typesize, datacount, the array shape a\n"
    "           reader gives it with its axis names (t z y x, then the site's:\n"
    "           \"spin color\" for a fermion) and its stored checksum; with\n"
    "           --json {\"file\", \"fields\": [{\"index\", \"record\", \"offset\",\n"
    "           \"length\", \"type\", \"datatype\", \"precision\", \"colors\",\n"
    "           \"spins\", \"typesize\", \"datacount\", \"complex\", \"shape\",\n"
    "           \"axes\", \"checksum\"}]}.  A field whose metadata and size\n"
    "           disagree is an error naming it (exit status 1).  An HDF5 file\n"
    "           lists its fields either way.\n"
    "  --fs     show the file system holding PATH (its directory when PATH does\n"
    "           not exist yet) as lattio's strategies and checks see it: kind\n"
    "           (local, tmpfs, nfs, lustre, gpfs, beegfs, cephfs, fuse, glusterfs,\n"
    "           moosefs or unknown; a FUSE mount without subtype is named by its\n"
    "           source, \"mfs#host:port\" as fuse.mfs), mount type, statfs f_type\n"
    "           and block size; with --json\n"
    "           {\"path\", \"fs_type\", \"fs_mount_type\", \"fs_magic\", \"block\"}.\n"
    "\n"
    "Exit status: 0 success, 1 unreadable or damaged file (the records before the\n"
    "damage are listed), 2 unusable arguments.\n";

/* The text lime_contents would show for the current record, or NULL when it
 * shows none.  *status receives a read error.  Caller frees. */
static char *record_text(tool_walk *w, int *status)
{
    *status = LATTIO_OK;
    uint64_t n = w->info.length;
    if (n >= INFO_TEXT_LIMIT) return NULL;
    char *buf = malloc((size_t)n + 1);
    if (!buf) {
        *status = LATTIO_ERR_NOMEM;
        return NULL;
    }
    size_t have = 0;
    while (have < n) {
        size_t got = 0;
        int rc = lattio_lime_reader_read(w->reader, buf + have, (size_t)n - have, &got);
        if (rc < 0 || got == 0) {
            *status = rc < 0 ? rc : LATTIO_ERR_TRUNCATED_PAYLOAD;
            free(buf);
            return NULL;
        }
        have += got;
    }
    buf[n] = '\0';
    for (size_t i = 0; i < n; i++) {
        if ((unsigned char)buf[i] & 0x80) {
            free(buf);
            return NULL;
        }
    }
    return buf;
}

static void print_text_record(const tool_walk *w, const char *text)
{
    const lattio_record_info *r = &w->info;
    printf("\n\n");
    printf("Message:        %d\n", w->message);
    printf("Record:         %d\n", w->record);
    fputs("Type:           ", stdout);
    tool_print_escaped(stdout, r->type);
    fputc('\n', stdout);
    printf("Data Length:    %" PRIu64 "\n", r->length);
    printf("Padding Length: %lu\n", (unsigned long)r->padding);
    printf("MB flag:        %d\n", r->mb);
    printf("ME flag:        %d\n", r->me);
    if (text)
    {
        fputs("Data:           \"", stdout);
        tool_print_text(stdout, text); /* control bytes escaped; newlines and tabs kept */
        fputs("\" \n", stdout);
    }
    else if (r->length < INFO_TEXT_LIMIT)
        printf("Data:           [Binary data]\n");
    else
        printf("Data:           [Long record skipped]\n");
}

static void print_json_record(const tool_walk *w, const char *text)
{
    const lattio_record_info *r = &w->info;
    printf("%s\n  {\"message\": %d, \"record\": %d, \"offset\": %" PRIu64 ", \"type\": ",
           w->index > 1 ? "," : "", w->message, w->record, r->offset);
    tool_json_string(stdout, r->type);
    printf(", \"length\": %" PRIu64 ", \"padding\": %lu, \"mb\": %s, \"me\": %s, \"data\": ",
           r->length, (unsigned long)r->padding, r->mb ? "true" : "false",
           r->me ? "true" : "false");
    if (text)
        tool_json_string(stdout, text);
    else
        fputs("null", stdout);
    fputc('}', stdout);
}

static void print_json_error(const tool_walk *w, int status)
{
    printf("],\n \"error\": {\"status\": \"%s\", \"message\": ", lattio_error_name(status));
    tool_json_string(stdout, lattio_strerror(status));
    printf(", \"record\": %" PRIu64 ", \"offset\": %" PRIu64 "}}\n", w->index + 1,
           w->next_offset);
}

static int list_records(const char *path, int json)
{
    tool_walk w;
    int rc = tool_walk_open(&w, path);
    if (rc < 0) return tool_status_error("info", path, rc, "%s", "");
    tool_note_temporaries("info", path);
    if (json) {
        fputs("{\"file\": ", stdout);
        tool_json_string(stdout, path);
        fputs(", \"records\": [", stdout);
    }
    int read_rc = LATTIO_OK;
    while ((rc = tool_walk_next(&w)) == LATTIO_OK) {
        char *text = record_text(&w, &read_rc);
        if (read_rc < 0) break;
        if (json)
            print_json_record(&w, text);
        else
            print_text_record(&w, text);
        free(text);
    }
    int ret = TOOL_OK;
    if (read_rc < 0) {
        if (json) fputs("\n]}\n", stdout);
        fflush(stdout);
        ret = tool_status_error("info", path, read_rc, " reading the payload of record %" PRIu64,
                                w.index);
    } else if (rc != LATTIO_ERR_EOF) {
        if (json) print_json_error(&w, rc);
        fflush(stdout);
        ret = tool_walk_error("info", path, &w, rc);
    } else if (json) {
        fputs("\n]}\n", stdout);
    }
    tool_walk_close(&w);
    return ret;
}

/* `lattio info --fs PATH`: the one detection (src/core/fsinfo.c) the
 * trace, the strategy choice and `lattio bench --json` use. */
static int show_fs(const char *path, int json)
{
    char kind[16] = "", type[64] = "";
    uint64_t magic = 0, block = 0;
    int rc = lattio_fs_describe(path, kind, sizeof kind, type, sizeof type, &magic, &block);
    if (rc < 0) return tool_status_error("info", path, rc, "%s", "");
    if (json) {
        fputs("{\"path\": ", stdout);
        tool_json_string(stdout, path);
        printf(", \"fs_type\": \"%s\", \"fs_mount_type\": ", kind);
        tool_json_string(stdout, type);
        printf(", \"fs_magic\": \"0x%" PRIx64 "\", \"block\": %" PRIu64 "}\n", magic, block);
        return TOOL_OK;
    }
    fputs("path:        ", stdout);
    tool_print_escaped(stdout, path);
    printf("\nfile system: %s\nmount type:  ", kind);
    tool_print_escaped(stdout, type[0] ? type : "(not in /proc/self/mountinfo)");
    printf("\nf_type:      0x%" PRIx64 "\nblock size:  %" PRIu64 "\n", magic, block);
    return TOOL_OK;
}

static int run_info(int argc, char **argv)
{
    const char *file = NULL;
    int json = 0, fs = 0, fields = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (strcmp(argv[i], "--fs") == 0)
            fs = 1;
        else if (strcmp(argv[i], "--fields") == 0)
            fields = 1;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return tool_usage("info", "unknown option '%s'", argv[i]);
        else if (file)
            return tool_usage("info", "only one FILE allowed");
        else
            file = argv[i];
    }
    if (!file) return tool_usage("info", fs ? "missing PATH" : "missing FILE");
    if (fs) return show_fs(file, json);
    if (h5_tool_target(file)) return h5_info(file, json);
    if (lattio_volumes_probe(file)) return info_volumes(file, json);
    return fields ? info_fields(file, json) : list_records(file, json);
}

const tool_command tool_cmd_info = {"info", "list a file's records or fields, or show a file system",
                                    info_help, run_info, 0};
