/* cmd_info.c -- `lattio info`: the records of a LIME file in the format
 * of C-LIME's lime_contents, its fields, a QIO volume set, an HDF5 file's
 * fields, or a file system; the listing is the library's
 * (lattio_info_file), printed by info_print.c. */
#include "gauge_tool.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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
    "           \"spin color\" for a fermion), the tmLQCD format record that\n"
    "           described it (a propagator's etmc-propagator-format) and its\n"
    "           stored checksum; with\n"
    "           --json {\"file\", \"fields\": [{\"index\", \"record\", \"offset\",\n"
    "           \"length\", \"type\", \"datatype\", \"precision\", \"colors\",\n"
    "           \"spins\", \"typesize\", \"datacount\", \"complex\", \"shape\",\n"
    "           \"axes\", [\"etmc\": {\"record\", \"flavours\", \"lz_written\"},]\n"
    "           \"checksum\"}]}.  A field whose metadata and size\n"
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
    return info_print(file, fields, json);
}

const tool_command tool_cmd_info = {"info", "list a file's records or fields, or show a file system",
                                    info_help, run_info, 0};
