/* cmd_unpack.c -- `lattio unpack`: one file per record payload, plus a list
 * file that `lattio pack` turns back into the same LIME file. */
#include "tool.h"

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

#define UNPACK_LIST_NAME "pack.list"

static const char unpack_help[] =
    "usage: lattio unpack FILE [DIR]\n"
    "\n"
    "Write each record's payload to its own file, like C-LIME's lime_unpack:\n"
    "DIR/msgNN.recNN.TYPE, with DIR defaulting to FILE.contents (created with\n"
    "its parents if needed).  Messages and records are numbered as `lattio info`\n"
    "shows them.  In the file name, characters of TYPE other than letters,\n"
    "digits and . _ + - are replaced by '_', so no type can leave DIR.\n"
    "\n"
    "Also writes DIR/" UNPACK_LIST_NAME ", a lime_pack list (file name, real type, a\n"
    "blank line between messages) so that\n"
    "  lattio unpack F D && lattio pack D/" UNPACK_LIST_NAME " G\n"
    "rebuilds F byte for byte when its MB/ME flags are consistent and its padding\n"
    "is zero (a warning says when they are not).  Types holding blanks, '\\', '\"'\n"
    "or non-printable bytes are written with \\xHH escapes that `lattio pack`\n"
    "decodes; the empty type is written as \"\".\n"
    "Prints the lime_unpack listing (bytes and file name per record).\n"
    "\n"
    "Exit status: 0 success, 1 failure, 2 unusable arguments.\n";

/* mkdir -p. Returns 0 or -1 (errno set). */
static int make_dirs(const char *dir)
{
    char *p = strdup(dir);
    if (!p) return -1;
    int rc = 0;
    for (char *s = p + 1; rc == 0; s++) {
        int end = *s == '\0';
        if (*s != '/' && !end) continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) rc = -1;
        struct stat st;
        if (rc == 0 && stat(p, &st) != 0) rc = -1;
        if (rc == 0 && !S_ISDIR(st.st_mode)) {
            errno = ENOTDIR;
            rc = -1;
        }
        if (end) break;
        *s = '/';
    }
    free(p);
    return rc;
}

/* File-name form of a type: only [A-Za-z0-9._+-]. */
static void sanitize(const char *type, char *out)
{
    for (; *type; type++) {
        unsigned char c = (unsigned char)*type;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '.' || c == '_' || c == '+' || c == '-';
        *out++ = ok ? (char)c : '_';
    }
    *out = '\0';
}

/* The type as a list-file field (see pack's help). */
static void write_list_type(FILE *f, const char *type)
{
    if (!*type) {
        fputs("\"\"", f);
        return;
    }
    for (const unsigned char *p = (const unsigned char *)type; *p; p++) {
        if (*p <= 0x20 || *p >= 0x7f || *p == '\\' || *p == '"')
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
    }
}

static int unpack_record(tool_walk *w, const char *file, const char *dir, FILE *list)
{
    char name[64 + 2 * LATTIO_LIME_TYPE_MAX];
    char clean[LATTIO_LIME_TYPE_MAX + 1];
    sanitize(w->info.type, clean);
    snprintf(name, sizeof name, "msg%02d.rec%02d.%s", w->message, w->record, clean);
    size_t plen = strlen(dir) + strlen(name) + 2;
    char *path = malloc(plen);
    if (!path) return tool_error("unpack", NULL, "out of memory");
    snprintf(path, plen, "%s/%s", dir, name);
    if (w->info.mb && w->index > 1) {
        printf("\n");
        fputc('\n', list);
    }
    printf("%8" PRIu64 " %s\n", w->info.length, path);
    fprintf(list, "%s ", name);
    write_list_type(list, w->info.type);
    fputc('\n', list);
    const char *inputs[1] = {file};
    tool_output o;
    int ret = tool_output_allowed("unpack", path, inputs, 1);
    if (ret == TOOL_OK) ret = tool_output_open(&o, "unpack", path);
    if (ret == TOOL_OK) ret = tool_output_finish(&o, tool_copy_payload("unpack", w, file, o.fd, path));
    free(path);
    return ret;
}

/* Warn when pack's blank-line convention cannot reproduce the flags. */
static void check_flags(const char *file, const tool_walk *w, int prev_me, int *warned)
{
    int want_mb = w->index == 1 || prev_me;
    if (*warned || w->info.mb == want_mb) return;
    fprintf(stderr, "lattio unpack: %s: warning: MB/ME flags inconsistent at record %" PRIu64
            "; pack will not reproduce them\n", file, w->index);
    *warned = 1;
}

static int unpack(const char *file, const char *dir)
{
    tool_walk w;
    int rc = tool_walk_open(&w, file);
    if (rc < 0) return tool_status_error("unpack", file, rc, "%s", "");
    int ret = TOOL_OK;
    FILE *list = NULL;
    char *lpath = malloc(strlen(dir) + sizeof UNPACK_LIST_NAME + 1);
    if (!lpath) ret = tool_error("unpack", NULL, "out of memory");
    if (ret == TOOL_OK && make_dirs(dir) != 0)
        ret = tool_error("unpack", dir, "cannot create directory: %s", strerror(errno));
    if (ret == TOOL_OK) {
        sprintf(lpath, "%s/%s", dir, UNPACK_LIST_NAME);
        list = fopen(lpath, "w");
        if (!list) ret = tool_error("unpack", lpath, "cannot open for writing: %s", strerror(errno));
    }
    int prev_me = 1, warned = 0;
    if (ret == TOOL_OK) printf("   bytes file\n");
    while (ret == TOOL_OK && (rc = tool_walk_next(&w)) == LATTIO_OK) {
        check_flags(file, &w, prev_me, &warned);
        prev_me = w.info.me;
        ret = unpack_record(&w, file, dir, list);
    }
    if (ret == TOOL_OK && rc != LATTIO_ERR_EOF) ret = tool_walk_error("unpack", file, &w, rc);
    if (ret == TOOL_OK && w.index > 0 && !prev_me && !warned)
        fprintf(stderr, "lattio unpack: %s: warning: the last record has no ME flag; pack will "
                "not reproduce it\n", file);
    if (list && fclose(list) != 0 && ret == TOOL_OK)
        ret = tool_error("unpack", lpath, "write failed: %s", strerror(errno));
    free(lpath);
    tool_walk_close(&w);
    return ret;
}

static int run_unpack(int argc, char **argv)
{
    const char *pos[2] = {NULL, NULL};
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return tool_usage("unpack", "unknown option '%s'", argv[i]);
        if (npos == 2) return tool_usage("unpack", "too many arguments");
        pos[npos++] = argv[i];
    }
    if (npos < 1) return tool_usage("unpack", "missing FILE");
    if (pos[1]) return unpack(pos[0], pos[1]);
    size_t n = strlen(pos[0]) + sizeof ".contents";
    char *dir = malloc(n);
    if (!dir) return tool_error("unpack", NULL, "out of memory");
    snprintf(dir, n, "%s.contents", pos[0]);
    int ret = unpack(pos[0], dir);
    free(dir);
    return ret;
}

const tool_command tool_cmd_unpack = {"unpack", "write each record's payload to its own file",
                                      unpack_help, run_unpack, 0};
