/* cmd_check.c -- `lattio check`: structural check of LIME files. */
#include "gauge_tool.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#define CHECK_MAX_PROBLEMS 100

static const char check_help[] =
    "usage: lattio check FILE...\n"
    "\n"
    "Check the structure of LIME files: magic number, version, record lengths\n"
    "within the file, zero padding, NUL-terminated printable types, reserved\n"
    "flag bits, MB/ME message flags and bytes after the last record.  An HDF5\n"
    "file is opened and its lattice fields listed (FILE: ok, HDF5, N lattice\n"
    "fields); 'lattio verify' reads their data.\n"
    "Prints on standard output, per file, either\n"
    "  FILE: ok, N records\n"
    "or one line per problem (records numbered from 1)\n"
    "  FILE: record R at offset O: message (ERR_NAME)\n"
    "MB/ME inconsistencies are printed as 'FILE: warning: record R ...' and still\n"
    "count as problems.  A file that cannot be opened or read is reported on\n"
    "standard error.\n"
    "\n"
    "Exit status: 0 all files clean, 1 problems found (or a file unreadable),\n"
    "2 unusable arguments.\n";

static void print_problem(const char *path, const lattio_problem *p)
{
    printf("%s: %s", path, p->status == LATTIO_ERR_MBME ? "warning: " : "");
    if (p->record >= 0)
        printf("record %d at offset %" PRIu64 ": ", p->record + 1, p->offset);
    else
        printf("offset %" PRIu64 ": ", p->offset);
    tool_print_escaped(stdout, p->message);
    printf(" (%s)\n", lattio_error_name(p->status));
}

/* Check one file; returns TOOL_OK when clean. */
static int check_file(const char *path)
{
    if (h5_tool_target(path)) return h5_check(path);
    int fd = open(path, O_RDONLY);
    if (fd < 0) return tool_error("check", path, "cannot open file: %s (ERR_OPEN)", strerror(errno));
    close(fd);
    tool_note_temporaries("check", path);
    lattio_problem problems[CHECK_MAX_PROBLEMS];
    size_t count = 0, nrecords = 0;
    int rc = lattio_lime_check(path, problems, CHECK_MAX_PROBLEMS, &count, &nrecords);
    if (rc < 0 && count == 0) return tool_status_error("check", path, rc, "%s", "");
    if (rc == LATTIO_OK && count == 0) {
        printf("%s: ok, %zu records\n", path, nrecords);
        return TOOL_OK;
    }
    size_t shown = count < CHECK_MAX_PROBLEMS ? count : CHECK_MAX_PROBLEMS;
    for (size_t i = 0; i < shown; i++) print_problem(path, &problems[i]);
    if (count > shown) printf("%s: %zu more problems not shown\n", path, count - shown);
    return TOOL_FAIL;
}

static int run_check(int argc, char **argv)
{
    int nfiles = 0, only_files = 0;
    for (int i = 1; i < argc; i++) {
        if (!only_files && strcmp(argv[i], "--") == 0)
            only_files = 1;
        else if (!only_files && argv[i][0] == '-' && argv[i][1] != '\0')
            return tool_usage("check", "unknown option '%s'", argv[i]);
        else
            nfiles++;
    }
    if (nfiles == 0) return tool_usage("check", "missing FILE");
    int ret = TOOL_OK;
    only_files = 0;
    for (int i = 1; i < argc; i++) {
        if (!only_files && strcmp(argv[i], "--") == 0) {
            only_files = 1;
            continue;
        }
        if (check_file(argv[i]) != TOOL_OK) ret = TOOL_FAIL;
        fflush(stdout);
    }
    return ret;
}

const tool_command tool_cmd_check = {"check", "check the structure of LIME files", check_help,
                                     run_check, 0};
