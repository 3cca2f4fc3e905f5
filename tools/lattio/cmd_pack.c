/* cmd_pack.c -- `lattio pack`: build a LIME file from payload files listed in
 * a lime_pack list file. */
#include "tool.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char pack_help[] =
    "usage: lattio pack LIST OUT\n"
    "\n"
    "Write the LIME file OUT with one record per line of LIST, like C-LIME's\n"
    "lime_pack.  Each line is 'PATH TYPE' (whitespace-separated; more fields are\n"
    "ignored); a blank line ends a message, so the first record after it gets the\n"
    "MB flag and the last record before it (or before the end of LIST) the ME flag.\n"
    "A relative PATH is taken relative to the directory holding LIST (the same as\n"
    "lime_pack when LIST is in the current directory).  In TYPE, \\xHH stands for\n"
    "the byte HH and a TYPE of exactly \"\" for the empty type; `lattio unpack`\n"
    "writes such escapes for types with blanks, backslashes, quotes or\n"
    "non-printable bytes.  Prints the lime_pack listing (msg rec bytes type).\n"
    "\n"
    "Exit status: 0 success, 1 failure, 2 unusable arguments.\n";

typedef struct pack_entry {
    char *path;
    char type[LATTIO_LIME_TYPE_MAX + 2];
    int mb, me;
} pack_entry;

typedef struct pack_list {
    pack_entry *e;
    size_t n, cap;
} pack_list;

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decode the TYPE field; returns 0, or -1 when it is too long or holds \x00. */
static int decode_type(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    if (strcmp(s, "\"\"") == 0) s = "";
    while (*s) {
        int c = (unsigned char)*s++;
        if (c == '\\' && s[0] == 'x' && hexval(s[1]) >= 0 && hexval(s[2]) >= 0) {
            c = hexval(s[1]) * 16 + hexval(s[2]);
            s += 3;
            if (c == 0) return -1;
        }
        if (n + 1 >= cap) return -1;
        out[n++] = (char)c;
    }
    out[n] = '\0';
    return 0;
}

/* PATH relative to the list's directory (`dir`, "" for the current one). */
static char *resolve(const char *dir, const char *path)
{
    size_t nd = path[0] == '/' ? 0 : strlen(dir), np = strlen(path);
    char *p = malloc(nd + np + 2);
    if (!p) return NULL;
    memcpy(p, dir, nd);
    if (nd && dir[nd - 1] != '/') p[nd++] = '/';
    memcpy(p + nd, path, np + 1);
    return p;
}

/* Parse one non-blank line into the list.  Returns TOOL_OK or TOOL_FAIL. */
static int add_line(pack_list *l, const char *list, long lineno, char *line, const char *dir,
                    int mb)
{
    const char *ws = " \t\r\n\v\f";
    char *save = NULL;
    char *path = strtok_r(line, ws, &save);
    char *type = strtok_r(NULL, ws, &save);
    if (!type) return tool_error("pack", list, "line %ld has only one entry", lineno);
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        pack_entry *e = realloc(l->e, cap * sizeof *e);
        if (!e) return tool_error("pack", NULL, "out of memory");
        l->e = e;
        l->cap = cap;
    }
    pack_entry *e = &l->e[l->n];
    if (decode_type(type, e->type, sizeof e->type) != 0)
        return tool_error("pack", list, "line %ld: record type '%s' is longer than %d bytes or "
                          "holds \\x00", lineno, type, LATTIO_LIME_TYPE_MAX);
    e->path = resolve(dir, path);
    if (!e->path) return tool_error("pack", NULL, "out of memory");
    e->mb = mb;
    e->me = 0;
    l->n++;
    return TOOL_OK;
}

static void free_list(pack_list *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->e[i].path);
    free(l->e);
}

static int read_list(const char *list, pack_list *l)
{
    FILE *f = fopen(list, "r");
    if (!f) return tool_error("pack", list, "cannot open: %s", strerror(errno));
    char dir[4096] = "";
    const char *slash = strrchr(list, '/');
    if (slash && (size_t)(slash - list) + 2 < sizeof dir) {
        size_t n = slash == list ? 1 : (size_t)(slash - list);
        memcpy(dir, list, n);
        dir[n] = '\0';
    }
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int mb = 1, ret = TOOL_OK;
    while (ret == TOOL_OK && getline(&line, &cap, f) >= 0) {
        lineno++;
        if (line[strspn(line, " \t\r\n\v\f")] == '\0') {
            mb = 1;
            continue;
        }
        ret = add_line(l, list, lineno, line, dir, mb);
        mb = 0;
    }
    if (ret == TOOL_OK && ferror(f)) ret = tool_error("pack", list, "read failed");
    free(line);
    fclose(f);
    for (size_t i = 0; i < l->n; i++) l->e[i].me = i + 1 == l->n || l->e[i + 1].mb;
    return ret;
}

/* Stream one payload file into the writer. */
static int pack_one(lattio_lime_writer *w, const char *out, const pack_entry *e, char *buf,
                    int msg, int rec)
{
    int fd = open(e->path, O_RDONLY);
    if (fd < 0) return tool_error("pack", e->path, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return tool_error("pack", e->path, "not a regular file");
    }
    uint64_t size = (uint64_t)st.st_size, done = 0;
    printf("%2d %3d %8" PRIu64 " %s\n\t\t%s\n", msg, rec, size, e->type, e->path);
    int rc = lattio_lime_writer_begin(w, e->type, size, e->mb, e->me);
    while (rc == LATTIO_OK && done < size) {
        uint64_t left = size - done;
        ssize_t k = read(fd, buf, left < TOOL_BLOCK_SIZE ? (size_t)left : TOOL_BLOCK_SIZE);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            close(fd);
            return tool_error("pack", e->path, "read failed or file shrank: %s",
                              k < 0 ? strerror(errno) : "unexpected end of file");
        }
        rc = lattio_lime_writer_write(w, buf, (size_t)k);
        done += (uint64_t)k;
    }
    close(fd);
    if (rc == LATTIO_OK) rc = lattio_lime_writer_end(w);
    if (rc < 0) return tool_status_error("pack", out, rc, " writing record from %s", e->path);
    return TOOL_OK;
}

static int write_lime(const char *out, const pack_list *l)
{
    lattio_lime_writer *w = NULL;
    const char **inputs = malloc((l->n + 1) * sizeof *inputs);
    if (!inputs) return tool_error("pack", NULL, "out of memory");
    for (size_t i = 0; i < l->n; i++) inputs[i] = l->e[i].path;
    int allowed = tool_output_allowed("pack", out, inputs, (int)l->n);
    free(inputs);
    if (allowed != TOOL_OK) return TOOL_FAIL;
    int rc = lattio_lime_writer_open(out, LATTIO_LIME_CREATE, &w);
    if (rc < 0) return tool_status_error("pack", out, rc, "%s", "");
    char *buf = malloc(TOOL_BLOCK_SIZE);
    int ret = buf ? TOOL_OK : tool_error("pack", NULL, "out of memory");
    int msg = 0, rec = 0;
    printf("msg rec   bytes type\n");
    for (size_t i = 0; ret == TOOL_OK && i < l->n; i++) {
        if (l->e[i].mb) {
            msg++;
            rec = 0;
        }
        ret = pack_one(w, out, &l->e[i], buf, msg, ++rec);
    }
    free(buf);
    rc = lattio_lime_writer_close(w);
    if (ret == TOOL_OK && rc < 0) ret = tool_status_error("pack", out, rc, " closing");
    return ret;
}

static int run_pack(int argc, char **argv)
{
    const char *pos[2] = {NULL, NULL};
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return tool_usage("pack", "unknown option '%s'", argv[i]);
        if (npos == 2) return tool_usage("pack", "too many arguments");
        pos[npos++] = argv[i];
    }
    if (npos < 2) return tool_usage("pack", "need LIST and OUT");
    pack_list l = {0};
    int ret = read_list(pos[0], &l);
    if (ret == TOOL_OK) ret = write_lime(pos[1], &l);
    free_list(&l);
    return ret;
}

const tool_command tool_cmd_pack = {"pack", "build a LIME file from a lime_pack list of payload files",
                                    pack_help, run_pack, 0};
