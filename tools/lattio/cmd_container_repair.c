/* cmd_container_repair.c -- `lattio container repair`: make a container
 * whose writer was killed whole again with lattio_container_repair (each
 * task keeps its complete chunks; written to a temporary, verified, then
 * renamed) and report the bytes kept per task. */
#include "cmd_container.h"

#include <inttypes.h>
#include <string.h>

#define CMD "container repair"

static void print_report(const char *file, const char *out,
                         const lattio_container_repair_report *rep)
{
    uint64_t total = 0;
    uint32_t cut = 0;
    printf("%8s %16s %s\n", "task", "bytes", "final");
    for (uint32_t t = 0; t < rep->ntasks; t++) {
        printf("%8" PRIu32 " %16" PRIu64 " %s\n", t, rep->sizes[t],
               rep->complete[t] ? "yes" : "no (cut at its last complete chunk)");
        total += rep->sizes[t];
        cut += !rep->complete[t];
    }
    if (rep->was_complete && !out)
        printf("%s: complete already; nothing to repair\n", file);
    else
        printf("%s: %s %" PRIu32 " tasks, %" PRIu64 " stream bytes kept; %" PRIu32
               " stream(s) had not ended\n", out ? out : file,
               rep->was_complete ? "copied" : "repaired", rep->ntasks, total, cut);
}

static const char *repair_hint(int status)
{
    switch (status) {
    case LATTIO_ERR_CONTAINER_MAGIC: return "; the file does not start with LATTIOTC";
    case LATTIO_ERR_CONTAINER_TRUNCATED: return "; not even a whole header";
    case LATTIO_ERR_CONTAINER: return "; the header fields are unusable";
    default: return "; the input is unchanged";
    }
}

int ct_repair(int argc, char **argv)
{
    const char *file = NULL, *out = NULL;
    int flags = 0;
    for (int i = 1; i < argc; i++) {
        int k = tool_option(argc, argv, &i, "-o", &out);
        if (k < 0) return tool_usage(CMD, "option '-o' needs a value");
        if (k > 0) continue;
        if (strcmp(argv[i], "--no-verify") == 0)
            flags |= LATTIO_CONTAINER_NO_VERIFY;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return tool_usage(CMD, "unknown option '%s'", argv[i]);
        else if (file)
            return tool_usage(CMD, "too many arguments");
        else
            file = argv[i];
    }
    if (!file) return tool_usage(CMD, "missing FILE");
    lattio_container_repair_report rep;
    memset(&rep, 0, sizeof rep);
    int rc = lattio_container_repair(file, out, flags, &rep);
    if (rc < 0) {
        lattio_container_repair_report_free(&rep);
        return tool_status_error(CMD, file, rc, "%s", repair_hint(rc));
    }
    print_report(file, out, &rep);
    lattio_container_repair_report_free(&rep);
    return TOOL_OK;
}
