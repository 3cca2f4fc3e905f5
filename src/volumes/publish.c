/* publish.c -- a QIO volume set published as one unit.  The new
 * volumes are complete under temporary names; a journal BASE.lattio-publish
 * lists every rename and removal the publication makes and is renamed into
 * place before the first of them; it is removed after the last.  A writer
 * killed before the journal leaves the previous set as it was (and its
 * temporaries, which `lattio clean` removes); one killed after it leaves the
 * journal, which lattio_volumes_recover carries out.  The journal's format
 * is in docs/format.md 5.5. */
#include "volumes_internal.h"
#include "testhooks.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define JOURNAL_HEAD "lattio-publish 1\n"
#define JOURNAL_MAX ((size_t)64 << 20) /* 65536 volumes of long names */

/* One step: 'R' rename a to b, 'U' unlink a, 'D' rmdir a (when empty). */
typedef struct step {
    char op;
    char *a, *b;
} step;

typedef struct plan {
    step *v;
    int n, cap;
} plan;

static void plan_free(plan *p)
{
    for (int i = 0; i < p->n; i++) {
        lattio_free(p->v[i].a);
        lattio_free(p->v[i].b);
    }
    lattio_free(p->v);
    memset(p, 0, sizeof *p);
}

static int add(plan *p, char op, const char *a, const char *b)
{
    if (p->n == p->cap) {
        const int cap = p->cap ? 2 * p->cap : 16;
        step *v = lattio_realloc(p->v, (size_t)cap * sizeof *v);
        RETURN_IF(!v, LATTIO_ERR_NOMEM);
        p->v = v, p->cap = cap;
    }
    step *s = &p->v[p->n];
    s->op = op;
    s->a = lattio_strdup(a);
    s->b = b ? lattio_strdup(b) : NULL;
    if (!s->a || (b && !s->b)) {
        lattio_free(s->a);
        lattio_free(s->b);
        return LATTIO_FAIL(LATTIO_ERR_NOMEM, "journal");
    }
    p->n++;
    return LATTIO_OK;
}

/* --- test hook: a kill before step k ----------------------------------------- */

#ifdef LATTIO_TEST_HOOKS
static int kill_at = -1, steps;
void lattio_volume_test_kill_at(int k)
{
    kill_at = k;
    steps = 0;
}
static void next_step(void)
{
    if (kill_at >= 0 && steps++ == kill_at) raise(SIGKILL);
}
#else
static void next_step(void) {}
#endif

/* --- names ------------------------------------------------------------------- */

int lattio_volumes_check_base(const char *base)
{
    RETURN_IF(!base, LATTIO_ERR_ARG);
    const char *slash = strrchr(base, '/');
    const char *name = slash ? slash + 1 : base;
    if (!*name || !strcmp(name, ".") || !strcmp(name, "..") || strpbrk(base, "\t\n")) {
        lattio_detail_set("'%s' does not name a file a volume set can be called by", base);
        return LATTIO_FAIL(LATTIO_ERR_ARG, "set name");
    }
    return LATTIO_OK;
}

static int digits(const char *s, size_t n)
{
    if (n < 4 || n > 9) return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return 0;
    return 1;
}

/* 1 when path is a volume of set base in either naming: BASE.volNNNN or
 * DIR/volNNNN/NAME; with `dir_only`, the directory DIR/volNNNN. */
static int is_volume_path(const char *base, const char *path, int dir_only)
{
    const size_t bl = strlen(base);
    if (!dir_only && !strncmp(path, base, bl) && !strncmp(path + bl, ".vol", 4))
        return digits(path + bl + 4, strlen(path + bl + 4));
    const char *slash = strrchr(base, '/');
    const size_t dl = slash ? (size_t)(slash - base) + 1 : 0;
    if (strncmp(path, base, dl) || strncmp(path + dl, "vol", 3)) return 0;
    const char *num = path + dl + 3, *end = strchr(num, '/');
    if (dir_only) return !end && digits(num, strlen(num));
    return end && digits(num, (size_t)(end - num)) && !strcmp(end + 1, base + dl);
}

/* 1 when tmp is a temporary name beside `final` (lattio_temp_name's). */
static int is_temp_of(const char *final, const char *tmp)
{
    const size_t n = strlen(final);
    return !strncmp(tmp, final, n) && !strncmp(tmp + n, ".lattio-tmp.", 12) && !strchr(tmp + n, '/');
}

/* --- the plan ---------------------------------------------------------------- */

/* The parent directory of a nested volume's path. */
static void parent_of(const char *path, char *dir, size_t size)
{
    const char *slash = strrchr(path, '/');
    const size_t n = slash ? (size_t)(slash - path) : 0;
    snprintf(dir, size, "%.*s", (int)(n < size ? n : size - 1), path);
}

/* Volumes of `base` in one naming that the new set (numbers[], in that
 * naming when `same`) does not keep. */
static int plan_old(plan *p, const char *base, int in_dirs, int same, int n, const int *numbers)
{
    int *old = NULL, count = 0;
    int rc = lattio_volumes_list_as(base, in_dirs, &old, &count);
    if (rc == LATTIO_ERR_OPEN) return LATTIO_OK; /* no directory yet: nothing old */
    for (int i = 0; rc == LATTIO_OK && i < count; i++) {
        int kept = 0;
        for (int k = 0; same && k < n && !kept; k++) kept = numbers[k] == old[i];
        char path[4096], dir[4096];
        if (kept) continue;
        rc = lattio_volumes_name(base, in_dirs ? LATTIO_VOLFMT_PART_DIR : LATTIO_VOLFMT_PART, old[i], path, sizeof path);
        if (rc == LATTIO_OK) rc = add(p, 'U', path, NULL);
        parent_of(path, dir, sizeof dir);
        if (rc == LATTIO_OK && in_dirs) rc = add(p, 'D', dir, NULL);
    }
    lattio_free(old);
    return rc;
}

static int make_plan(plan *p, const char *base, int volfmt, int n, const int *numbers, char *const *tmps)
{
    char path[4096];
    for (int i = 0; i < n; i++) {
        RETURN_IF_ERROR(lattio_volumes_name(base, volfmt, numbers[i], path, sizeof path));
        RETURN_IF(!is_temp_of(path, tmps[i]), LATTIO_ERR_ARG);
        RETURN_IF_ERROR(add(p, 'R', tmps[i], path));
    }
    const int in_dirs = volfmt == LATTIO_VOLFMT_PART_DIR;
    RETURN_IF_ERROR(plan_old(p, base, in_dirs, 1, n, numbers));
    RETURN_IF_ERROR(plan_old(p, base, !in_dirs, 0, n, numbers));
    struct stat st;
    if (lstat(base, &st) == 0 && S_ISREG(st.st_mode)) /* a single file would shadow the set */
        RETURN_IF_ERROR(add(p, 'U', base, NULL));
    return LATTIO_OK;
}

/* --- the journal ------------------------------------------------------------- */

/* The journal's text: its head, a line per step, "end". */
static int journal_text(const plan *p, char **text, size_t *len)
{
    FILE *f = open_memstream(text, len);
    RETURN_IF(!f, LATTIO_ERR_NOMEM);
    fputs(JOURNAL_HEAD, f);
    for (int i = 0; i < p->n; i++)
        fprintf(f, "%c\t%s%s%s\n", p->v[i].op, p->v[i].a, p->v[i].b ? "\t" : "", p->v[i].b ? p->v[i].b : "");
    fputs("end\n", f);
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        free(*text);
        *text = NULL;
        return LATTIO_FAIL(LATTIO_ERR_NOMEM, "journal");
    }
    return LATTIO_OK;
}

static int write_steps(int fd, const plan *p)
{
    char *text;
    size_t len;
    RETURN_IF_ERROR(journal_text(p, &text, &len));
    int rc = lattio_pwrite_all(fd, 0, text, len);
    free(text);
    if (rc == LATTIO_OK && fsync(fd) != 0) rc = LATTIO_FAIL_ERRNO(LATTIO_ERR_SYNC, "journal");
    return rc;
}

/* The journal, complete and durable, renamed into place. */
static int write_journal(const char *journal, const plan *p)
{
    int fd;
    char *tmp;
    RETURN_IF_ERROR(lattio_temp_create(journal, &fd, &tmp));
    int rc = write_steps(fd, p);
    if (close(fd) != 0 && rc == LATTIO_OK) rc = LATTIO_FAIL_ERRNO(LATTIO_ERR_CLOSE, "journal");
    next_step();
    if (rc == LATTIO_OK && rename(tmp, journal) != 0) rc = LATTIO_FAIL_ERRNO(LATTIO_ERR_RENAME, "journal");
    if (rc == LATTIO_OK) rc = lattio_sync_directory(journal);
    if (rc != LATTIO_OK) unlink(tmp);
    lattio_free(tmp);
    return rc;
}

static int same_dir(const char *a, const char *b)
{
    const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
    const size_t na = sa ? (size_t)(sa - a) : 0, nb = sb ? (size_t)(sb - b) : 0;
    return na == nb && !strncmp(a, b, na);
}

/* Every step of the plan (each one done again is harmless), then the
 * journal removed. */
static int carry_out(const char *journal, const plan *p)
{
    for (int i = 0; i < p->n; i++) {
        const step *s = &p->v[i];
        struct stat st;
        next_step();
        if (s->op == 'R' && lstat(s->a, &st) == 0 && rename(s->a, s->b) != 0) {
            lattio_detail_set("%s -> %s", s->a, s->b);
            return LATTIO_FAIL_ERRNO(LATTIO_ERR_RENAME, "publish");
        }
        if (s->op == 'R' && lstat(s->b, &st) != 0) {
            lattio_detail_set("%s: neither it nor its temporary %s is there", s->b, s->a);
            return LATTIO_FAIL(LATTIO_ERR_VOLUME_MISSING, "publish");
        }
        if (s->op == 'U' && unlink(s->a) != 0 && errno != ENOENT) {
            lattio_detail_set("%s", s->a);
            return LATTIO_FAIL_ERRNO(LATTIO_ERR_WRITE, "unlink");
        }
        if (s->op == 'D') (void)rmdir(s->a); /* kept when something else is in it */
    }
    for (int i = 0; i < p->n; i++) /* the renames durable before the journal goes */
        if (p->v[i].op == 'R' && (i == 0 || !same_dir(p->v[i].b, p->v[i - 1].b)))
            RETURN_IF_ERROR(lattio_sync_directory(p->v[i].b));
    next_step();
    RETURN_IF(unlink(journal) != 0 && errno != ENOENT, LATTIO_FAIL_ERRNO(LATTIO_ERR_WRITE, "journal"));
    return lattio_sync_directory(journal);
}

int lattio_volumes_publish(const char *base, int volfmt, int n, const int *numbers, char *const *tmps)
{
    char journal[4096];
    plan p = {0};
    int rc = lattio_volumes_check_base(base);
    if (rc == LATTIO_OK) rc = lattio_volumes_journal_name(base, journal, sizeof journal);
    if (rc == LATTIO_OK && lattio_volumes_interrupted(base)) { /* an older publication first */
        lattio_detail_set("%s: an earlier publication was interrupted: 'lattio clean %s' completes it", base, base);
        rc = LATTIO_FAIL(LATTIO_ERR_INTERRUPTED, "journal");
    }
    if (rc == LATTIO_OK) rc = make_plan(&p, base, volfmt, n, numbers, tmps);
    if (rc == LATTIO_OK) rc = write_journal(journal, &p);
    if (rc != LATTIO_OK)
        for (int i = 0; i < n; i++) unlink(tmps[i]); /* the previous set stays as it was */
    if (rc == LATTIO_OK) rc = carry_out(journal, &p);
    plan_free(&p);
    return rc;
}

/* --- recovery ---------------------------------------------------------------- */

/* One journal line into p, checked against the set's names. */
static int parse_line(plan *p, const char *base, char *line)
{
    char *a = strchr(line, '\t');
    RETURN_IF(!a || a != line + 1, LATTIO_ERR_BAD_METADATA);
    *a++ = '\0';
    char *b = strchr(a, '\t');
    if (b) *b++ = '\0';
    const char op = line[0];
    int ok = 0;
    if (op == 'R') ok = b && is_volume_path(base, b, 0) && is_temp_of(b, a);
    if (op == 'U') ok = !b && (is_volume_path(base, a, 0) || !strcmp(a, base));
    if (op == 'D') ok = !b && is_volume_path(base, a, 1);
    if (!ok) {
        lattio_detail_set("journal of %s: step '%c %s' is not one of this set's", base, op, a);
        return LATTIO_FAIL(LATTIO_ERR_BAD_METADATA, "journal step");
    }
    return add(p, op, a, b);
}

static int read_text(const char *path, char **text)
{
    *text = NULL;
    int fd;
    RETURN_IF_ERROR(lattio_open_regular(path, &fd));
    lattio_source src;
    int rc = lattio_source_fd(fd, &src); /* the core's reads: the size from fstat, pread in full */
    if (rc == LATTIO_OK && src.size > JOURNAL_MAX) rc = LATTIO_FAIL(LATTIO_ERR_BAD_METADATA, "journal size");
    char *t = rc == LATTIO_OK ? lattio_malloc((size_t)src.size + 1) : NULL;
    if (rc == LATTIO_OK && !t) rc = LATTIO_ERR_NOMEM;
    if (rc == LATTIO_OK) rc = lattio_source_read_exact(&src, 0, t, (size_t)src.size, LATTIO_ERR_READ);
    close(fd);
    if (rc != LATTIO_OK) {
        lattio_free(t);
        return rc;
    }
    t[src.size] = '\0';
    *text = t;
    return LATTIO_OK;
}

static int read_journal(const char *journal, const char *base, plan *p)
{
    char *text;
    RETURN_IF_ERROR(read_text(journal, &text));
    int rc = strncmp(text, JOURNAL_HEAD, strlen(JOURNAL_HEAD)) ? LATTIO_ERR_BAD_METADATA : LATTIO_OK;
    char *line = text + strlen(JOURNAL_HEAD), *end = NULL;
    for (; rc == LATTIO_OK && (end = strchr(line, '\n')); line = end + 1) {
        *end = '\0';
        if (!strcmp(line, "end")) break;
        rc = parse_line(p, base, line);
    }
    if (rc == LATTIO_OK && (!end || strcmp(line, "end") || end[1])) {
        lattio_detail_set("journal %s is not complete", journal);
        rc = LATTIO_FAIL(LATTIO_ERR_BAD_METADATA, "journal end");
    }
    lattio_free(text);
    return rc;
}

int lattio_volumes_recover(const char *base, int *done)
{
    if (done) *done = 0;
    RETURN_IF_ERROR(lattio_volumes_check_base(base));
    lattio_detail_clear();
    char journal[4096];
    RETURN_IF_ERROR(lattio_volumes_journal_name(base, journal, sizeof journal));
    if (!lattio_volumes_interrupted(base)) return LATTIO_OK;
    plan p = {0};
    int rc = read_journal(journal, base, &p);
    if (rc == LATTIO_OK) rc = carry_out(journal, &p);
    plan_free(&p);
    if (rc == LATTIO_OK && done) *done = 1;
    return rc;
}

/* --- what a new set may replace ---------------------------------------------- */

/* None of the volumes of base in one naming is an input. */
static int volumes_not_inputs(const char *base, int in_dirs, const char *const *inputs, int n)
{
    int *old = NULL, count = 0;
    int rc = lattio_volumes_list_as(base, in_dirs, &old, &count);
    if (rc == LATTIO_ERR_OPEN) return LATTIO_OK; /* no directory yet */
    for (int i = 0; rc == LATTIO_OK && i < count; i++) {
        char path[4096];
        rc = lattio_volumes_name(base, in_dirs ? LATTIO_VOLFMT_PART_DIR : LATTIO_VOLFMT_PART, old[i], path, sizeof path);
        if (rc == LATTIO_OK) rc = lattio_output_allowed(path, inputs, n);
    }
    lattio_free(old);
    return rc;
}

int lattio_volumes_output_allowed(const char *base, const char *const *inputs, int n)
{
    RETURN_IF_ERROR(lattio_volumes_check_base(base));
    if (lattio_volumes_interrupted(base)) {
        lattio_detail_set("%s: an earlier publication was interrupted: 'lattio clean %s' completes it", base, base);
        return LATTIO_FAIL(LATTIO_ERR_INTERRUPTED, "journal");
    }
    RETURN_IF_ERROR(lattio_output_allowed(base, inputs, n)); /* a single file there is replaced */
    RETURN_IF_ERROR(volumes_not_inputs(base, 0, inputs, n));
    return volumes_not_inputs(base, 1, inputs, n);
}

/* --- temporaries a killed writer of the set left ------------------------------ */

/* Add the temporaries beside `final` to *list. */
static int add_temps(const char *final, lattio_temp_info **list, size_t *count, size_t *cap)
{
    lattio_temp_info *more = NULL;
    size_t n = 0;
    const int rc = lattio_temp_list(final, &more, &n);
    if (rc == LATTIO_ERR_OPEN) return LATTIO_OK; /* no such directory: nothing there */
    RETURN_IF_ERROR(rc);
    if (*count + n > *cap) {
        const size_t c = (*count + n) * 2;
        lattio_temp_info *p = lattio_realloc(*list, c * sizeof *p);
        if (!p) {
            lattio_temp_list_free(more, n);
            return LATTIO_FAIL(LATTIO_ERR_NOMEM, "temporaries");
        }
        *list = p, *cap = c;
    }
    if (n) memcpy(*list + *count, more, n * sizeof *more);
    *count += n;
    lattio_free(more); /* the names moved to *list */
    return LATTIO_OK;
}

static int cmp_int(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The number of a directory entry of set `name` in one naming
 * (NAME.volNNNN[...] beside it, or a directory volNNNN), -1 if none. */
static int entry_number(const char *entry, const char *name, int in_dirs)
{
    const size_t nl = strlen(name);
    const char *num = NULL;
    if (!in_dirs && !strncmp(entry, name, nl) && !strncmp(entry + nl, ".vol", 4)) num = entry + nl + 4;
    if (in_dirs && !strncmp(entry, "vol", 3)) num = entry + 3;
    const size_t dn = num ? strspn(num, "0123456789") : 0;
    if (!num || !digits(num, dn) || (in_dirs && num[dn])) return -1;
    return (int)strtol(num, NULL, 10);
}

/* The volume numbers of base that have a temporary beside them (or exist)
 * in one naming, sorted, up to LATTIO_VOLUMES_MAX. */
static int temp_numbers(const char *base, int in_dirs, int **numbers, int *count)
{
    const char *slash = strrchr(base, '/');
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - base) : 1, slash ? base : ".");
    if (slash == base) snprintf(dir, sizeof dir, "/");
    *numbers = NULL, *count = 0;
    DIR *d = opendir(dir);
    if (!d) return LATTIO_OK;
    int rc = LATTIO_OK;
    for (struct dirent *e; rc == LATTIO_OK && (e = readdir(d));) {
        const int k = entry_number(e->d_name, slash ? slash + 1 : base, in_dirs);
        if (k < 0 || *count >= LATTIO_VOLUMES_MAX) continue;
        int *p = lattio_realloc(*numbers, (size_t)(*count + 1) * sizeof *p);
        if (!p) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "volumes");
        else (*numbers = p)[(*count)++] = k;
    }
    closedir(d);
    if (rc == LATTIO_OK && *count) qsort(*numbers, (size_t)*count, sizeof **numbers, cmp_int);
    return rc;
}

int lattio_volumes_temp_list(const char *base, lattio_temp_info **list, size_t *count)
{
    RETURN_IF(!list || !count, LATTIO_ERR_ARG);
    *list = NULL, *count = 0;
    RETURN_IF_ERROR(lattio_volumes_check_base(base));
    size_t cap = 0;
    char path[4096];
    int rc = lattio_volumes_journal_name(base, path, sizeof path);
    if (rc == LATTIO_OK) rc = add_temps(path, list, count, &cap);
    for (int in_dirs = 0; rc == LATTIO_OK && in_dirs < 2; in_dirs++) {
        int *numbers = NULL, n = 0;
        rc = temp_numbers(base, in_dirs, &numbers, &n);
        for (int i = 0; rc == LATTIO_OK && i < n; i++) {
            const int prev = i > 0 && numbers[i - 1] == numbers[i];
            rc = lattio_volumes_name(base, in_dirs ? LATTIO_VOLFMT_PART_DIR : LATTIO_VOLFMT_PART, numbers[i], path,
                                     sizeof path);
            if (rc == LATTIO_OK && !prev) rc = add_temps(path, list, count, &cap);
        }
        lattio_free(numbers);
    }
    if (rc != LATTIO_OK) {
        lattio_temp_list_free(*list, *count);
        *list = NULL, *count = 0;
    }
    return rc;
}
