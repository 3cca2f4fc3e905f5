/* cmd_clean.c -- `lattio clean`: list and remove the temporary files that
 * killed writers left beside a path, and the note `check` and `info` print
 * about them. */
#include "tool.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

static const char clean_help[] =
    "usage: lattio clean [--dry-run] PATH...\n"
    "\n"
    "Every lattio writer writes PATH under a temporary name beside it,\n"
    "PATH.lattio-tmp.HOST.PID.TIME.SALT, and renames it to PATH at the end; a\n"
    "writer killed before that leaves the temporary behind.  For each PATH, list\n"
    "those temporaries, one line each:\n"
    "  NAME: BYTES bytes, written by pid PID on HOST at TIME: STATE\n"
    "and remove the ones whose writer is provably gone: made on this host by a\n"
    "process that no longer exists.  A temporary of another host (on a shared\n"
    "file system), or whose process still runs, or named by an older lattio, is\n"
    "listed and kept: check on that host, or remove it by hand once you know its\n"
    "writer is dead.\n"
    "When PATH names a QIO volume set, the temporaries beside its volumes are\n"
    "listed too, and a publication of a new set that a killed writer left\n"
    "(its journal PATH.lattio-publish) is completed first: PATH then holds the\n"
    "new set.\n"
    "  --dry-run   list only, remove nothing\n"
    "\n"
    "Exit status: 0 success (including nothing to clean), 1 a removal or the\n"
    "listing failed, 2 unusable arguments.\n";

static const char *state_name(int state)
{
    return state == LATTIO_TEMP_GONE ? "writer gone" : state == LATTIO_TEMP_RUNNING ? "writer still running"
                                                                                     : "writer unknown";
}

/* One line describing t (its name escaped: it comes from the directory). */
static void describe(FILE *f, const lattio_temp_info *t)
{
    tool_print_escaped(f, t->name);
    fprintf(f, ": %" PRIu64 " bytes", t->size);
    if (t->pid > 0) {
        char when[32] = "?";
        time_t tt = (time_t)t->time;
        struct tm tm;
        if (gmtime_r(&tt, &tm)) strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        fprintf(f, ", written by pid %ld on %s at %s", t->pid, t->host, when);
    }
    fprintf(f, ": %s", state_name(t->state));
}

void tool_note_temporaries(const char *cmd, const char *path)
{
    lattio_temp_info *list = NULL;
    size_t n = 0;
    if (tool_rank() != 0 || lattio_temp_list(path, &list, &n) != LATTIO_OK) return;
    for (size_t i = 0; i < n; i++) {
        fprintf(stderr, "lattio %s: note: stale temporary ", cmd);
        describe(stderr, &list[i]);
        fputs(" ('lattio clean' removes those whose writer is gone)\n", stderr);
    }
    lattio_temp_list_free(list, n);
}

/* A volume set's publication a killed writer left: carried out. */
static int finish_publication(const char *path, int dry)
{
    if (!lattio_volumes_interrupted(path)) return TOOL_OK;
    tool_print_escaped(stdout, path);
    if (dry) {
        fputs(": QIO volume set: interrupted publication (its journal is there): would be completed\n", stdout);
        return TOOL_OK;
    }
    int done = 0;
    const int rc = lattio_volumes_recover(path, &done);
    if (rc != LATTIO_OK) {
        fputs(": QIO volume set: interrupted publication not completed\n", stdout);
        return tool_status_error("clean", path, rc, "%s", tool_detail());
    }
    fputs(done ? ": QIO volume set: interrupted publication completed, the new set is in place\n" : "", stdout);
    return TOOL_OK;
}

/* Each temporary of the list described, and removed when its writer is gone. */
static int clean_list(lattio_temp_info *list, size_t n, int dry)
{
    int ret = TOOL_OK;
    for (size_t i = 0; i < n; i++) {
        describe(stdout, &list[i]);
        int r = !dry && list[i].state == LATTIO_TEMP_GONE ? lattio_temp_remove(&list[i]) : 1;
        if (r == LATTIO_OK) fputs(": removed", stdout);
        else if (r < 0) {
            fputs(": not removed\n", stdout);
            ret = tool_status_error("clean", list[i].name, r, "%s", " (removing)");
            continue;
        } else
            fputs(": kept", stdout);
        fputc('\n', stdout);
    }
    lattio_temp_list_free(list, n);
    return ret;
}

/* PATH's temporaries; when PATH names a QIO volume set, also its
 * interrupted publication (completed) and its volumes' temporaries. */
static int clean_path(const char *path, int dry)
{
    if (finish_publication(path, dry) != TOOL_OK) return TOOL_FAIL;
    lattio_temp_info *list = NULL;
    size_t n = 0;
    int rc = lattio_temp_list(path, &list, &n);
    if (rc != LATTIO_OK) return tool_status_error("clean", path, rc, "%s", " (listing its directory)");
    int ret = clean_list(list, n, dry);
    if (lattio_volumes_temp_list(path, &list, &n) == LATTIO_OK && clean_list(list, n, dry) != TOOL_OK) ret = TOOL_FAIL;
    return ret;
}

static int run_clean(int argc, char **argv)
{
    int dry = 0, npaths = 0, ret = TOOL_OK;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dry-run") == 0) dry = 1;
        else if (argv[i][0] == '-' && argv[i][1] != '\0') return tool_usage("clean", "unknown option '%s'", argv[i]);
        else npaths++;
    }
    if (npaths == 0) return tool_usage("clean", "missing PATH");
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--dry-run") != 0 && clean_path(argv[i], dry) != TOOL_OK) ret = TOOL_FAIL;
    return ret;
}

const tool_command tool_cmd_clean = {"clean", "list and remove temporaries left beside PATH by killed writers",
                                     clean_help, run_clean, 0};
