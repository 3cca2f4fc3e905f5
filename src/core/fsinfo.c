/* fsinfo.c -- file-system detection from statfs(2)'s f_type and the block
 * size from st_blksize.  MPI-free (see fsinfo.h). */
#define _GNU_SOURCE
#include "fsinfo.h"

#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#define ONE_MIB ((uint64_t)1 << 20)

/* statfs magic numbers (linux/magic.h and the file systems' own headers). */
static const struct {
    uint64_t magic;
    int kind;
} magics[] = {
    {0x0BD00BD0u, LATTIO_FS_LUSTRE}, {0x47504653u, LATTIO_FS_GPFS},
    {0x6969u, LATTIO_FS_NFS},        {0x01021994u, LATTIO_FS_TMPFS},
    {0x19830326u, LATTIO_FS_BEEGFS}, {0x00C36400u, LATTIO_FS_CEPHFS},
    {0x65735546u, LATTIO_FS_FUSE},
    {0x858458F6u, LATTIO_FS_TMPFS},  /* ramfs */
    {0xEF53u, LATTIO_FS_LOCAL},      /* ext2/3/4 */
    {0x58465342u, LATTIO_FS_LOCAL},  /* xfs */
    {0x9123683Eu, LATTIO_FS_LOCAL},  /* btrfs */
    {0x2FC12FC1u, LATTIO_FS_LOCAL},  /* zfs */
    {0xF2F52010u, LATTIO_FS_LOCAL},  /* f2fs */
    {0x794C7630u, LATTIO_FS_LOCAL},  /* overlayfs */
    {0x3153464Au, LATTIO_FS_LOCAL},  /* jfs */
    {0x52654973u, LATTIO_FS_LOCAL},  /* reiserfs */
};

int lattio_fs_kind_of_magic(uint64_t magic)
{
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
        if (magics[i].magic == (magic & 0xFFFFFFFFu)) return magics[i].kind;
    return LATTIO_FS_UNKNOWN;
}

const char *lattio_fs_name(int kind)
{
    static const char *const names[] = {"unknown", "local",  "tmpfs", "nfs",  "lustre",
                                        "gpfs",    "beegfs", "cephfs", "fuse", "glusterfs", "moosefs"};
    return kind >= 0 && kind < (int)(sizeof names / sizeof names[0]) ? names[kind] : "unknown";
}

int lattio_fs_caches_metadata(int kind)
{
    return kind == LATTIO_FS_NFS || kind == LATTIO_FS_FUSE || kind == LATTIO_FS_GLUSTER ||
           kind == LATTIO_FS_MOOSEFS || kind == LATTIO_FS_UNKNOWN;
}

int lattio_fs_is_network(int kind)
{
    return kind != LATTIO_FS_LOCAL && kind != LATTIO_FS_TMPFS;
}

/* One line of /proc/self/mountinfo: whether its mount point is a prefix of
 * `path` longer than *best; if so its type (the field after " - ") goes to
 * out.  Mount points escape blanks as \040: such mounts never match. */
int lattio_fs_mount_name(const char *line, char *out, size_t size)
{
    char type[32], source[256] = "";
    const char *sep = strstr(line, " - ");
    if (!sep || sscanf(sep + 3, "%31s %255s", type, source) < 1) return 0;
    /* the kernel escapes '#' in a mount source as \043 (MooseFS: mfs#HOST:PORT) */
    const char *hash = strchr(source, '#'), *esc = strstr(source, "\\043");
    if (!hash || (esc && esc < hash)) hash = esc;
    if (strcmp(type, "fuse") == 0 && hash && hash > source)
        snprintf(out, size, "fuse.%.*s", (int)(hash - source), source);
    else
        snprintf(out, size, "%s", type);
    return 1;
}

int lattio_fs_refine_kind(int kind, const char *t)
{
    if (kind != LATTIO_FS_FUSE) return kind;
    if (strcmp(t, "fuse.glusterfs") == 0) return LATTIO_FS_GLUSTER;
    if (strcmp(t, "fuse.mfs") == 0 || strcmp(t, "fuse.moosefs") == 0 || strcmp(t, "fuse.mfsmount") == 0)
        return LATTIO_FS_MOOSEFS;
    return kind;
}

static void match_mount(const char *line, const char *path, size_t *best, char *out, size_t n)
{
    char point[4096], type[32];
    if (sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1 || !lattio_fs_mount_name(line, type, sizeof type)) return;
    size_t len = strlen(point);
    int under = strncmp(path, point, len) == 0 && (path[len] == '/' || path[len] == '\0' || len == 1);
    if (!under || len < *best) return;
    *best = len;
    snprintf(out, n, "%s", type);
}

/* The type of the mount holding the absolute path `abs` ("" if unknown). */
static void mount_type(const char *abs, char *out, size_t n)
{
    char line[8192];
    size_t best = 0;
    out[0] = '\0';
    FILE *m = fopen("/proc/self/mountinfo", "re");
    if (!m) return;
    while (fgets(line, sizeof line, m)) match_mount(line, abs, &best, out, n);
    fclose(m);
}

/* FUSE: the subtype of the mount (GlusterFS's client mounts fuse.glusterfs,
 * MooseFS's mfsmount fuse with source mfs#HOST:PORT). */
static void refine_kind(const char *path, lattio_fsinfo *out)
{
    char *abs = realpath(path, NULL);
    if (!abs) return;
    mount_type(abs, out->type, sizeof out->type);
    free(abs);
    out->kind = lattio_fs_refine_kind(out->kind, out->type);
}

int lattio_fs_refresh_fd(int fd, uint64_t *size)
{
    RETURN_IF(fd < 0, LATTIO_ERR_ARG);
    struct statfs sf;
    struct stat st;
    if (fstatfs(fd, &sf) == 0 && !lattio_fs_caches_metadata(lattio_fs_kind_of_magic((uint64_t)sf.f_type))) {
        RETURN_IF_ERRNO(fstat(fd, &st) != 0, LATTIO_ERR_STAT); /* coherent: nothing to refresh */
        if (size) *size = (uint64_t)st.st_size;
        return LATTIO_OK;
    }
    (void)fsync(fd); /* EINVAL/EROFS where nothing can be synced: the statx below still refreshes */
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); /* pages cached here before others wrote */
    struct statx sx;
    RETURN_IF_ERRNO(statx(fd, "", AT_EMPTY_PATH | AT_STATX_FORCE_SYNC, STATX_SIZE, &sx) != 0, LATTIO_ERR_STAT);
    if (size) *size = (uint64_t)sx.stx_size;
    return LATTIO_OK;
}

/* The directory part of path ("." when it has none); NULL without memory. */
static char *directory_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return lattio_strdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *d = lattio_malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

/* Read the directory holding `path` to its end: a FUSE client answers with
 * READDIRPLUS, and the kernel replaces every cached entry that now names
 * another file (a name another node renamed a new file onto) or none. */
static void rescan_directory(const char *path)
{
    char *dir = directory_of(path);
    DIR *d = dir ? opendir(dir) : NULL;
    if (d) {
        while (readdir(d)) {
        }
        closedir(d);
    }
    lattio_free(dir);
}

/* A stale name: it led to a file another node removed or replaced. */
static int stale(int err) { return err == ENOENT || err == ESTALE; }

/* Local: fd is a file no name leads to any more (another node removed or
 * replaced it; this client's cached entry still led to it: MooseFS keeps
 * serving the old file, link count 0, for its entry cache's lifetime). */
static int unlinked(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && st.st_nlink == 0;
}

int lattio_fs_open(const char *path, int flags, unsigned mode)
{
    int fd = -1;
    for (int attempt = 0; attempt < 3; attempt++) {
        if (attempt) rescan_directory(path);
        do fd = open(path, flags, (mode_t)mode);
        while (fd < 0 && errno == EINTR);
        if (fd >= 0 && unlinked(fd) && attempt < 2) {
            close(fd);
            fd = -1;
            errno = ESTALE;
            continue;
        }
        if (fd >= 0 || !stale(errno)) break;
    }
    return fd;
}

int lattio_fs_refresh(const char *path, uint64_t *size)
{
    RETURN_IF(!path || !*path, LATTIO_ERR_ARG);
    int rc = LATTIO_ERR_STAT;
    for (int attempt = 0; attempt < 3; attempt++) {
        if (attempt) rescan_directory(path);
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO never blocks */
        if (fd < 0 && stale(errno)) continue;
        RETURN_IF_ERRNO(fd < 0, LATTIO_ERR_STAT);
        rc = lattio_fs_refresh_fd(fd, size);
        const int err = lattio_errno_peek(), gone = rc == LATTIO_OK && unlinked(fd);
        close(fd);
        if (gone) continue; /* a replaced file, still named here: read the directory */
        if (rc == LATTIO_OK || !stale(err)) return rc;
    }
    return lattio_fail_errno(__FILE__, __LINE__, "no current file of this name", LATTIO_ERR_STAT, ENOENT);
}

static void describe(const struct statfs *sf, const struct stat *st, lattio_fsinfo *out)
{
    out->magic = (uint64_t)(unsigned long)sf->f_type & 0xFFFFFFFFu;
    out->kind = lattio_fs_kind_of_magic(out->magic);
    out->block = st && st->st_blksize > 0 ? (uint64_t)st->st_blksize
                 : sf->f_bsize > 0        ? (uint64_t)sf->f_bsize
                                          : 0;
    out->unit = sf->f_bsize > 0 ? (uint64_t)sf->f_bsize : 0;
    out->avail = (uint64_t)sf->f_bavail * out->unit;
    out->type[0] = '\0';
}

int lattio_fsinfo_fd(int fd, lattio_fsinfo *out)
{
    RETURN_IF(!out || fd < 0, LATTIO_ERR_ARG);
    struct statfs sf;
    struct stat st;
    RETURN_IF_ERRNO(fstatfs(fd, &sf) != 0, LATTIO_ERR_STAT);
    describe(&sf, fstat(fd, &st) == 0 ? &st : NULL, out);
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    refine_kind(link, out);
    return LATTIO_OK;
}

int lattio_fsinfo_path(const char *path, lattio_fsinfo *out)
{
    RETURN_IF(!path || !*path || !out, LATTIO_ERR_ARG);
    struct statfs sf;
    struct stat st;
    if (statfs(path, &sf) == 0) {
        describe(&sf, stat(path, &st) == 0 ? &st : NULL, out);
        refine_kind(path, out);
        return LATTIO_OK;
    }
    char *dir = directory_of(path);
    RETURN_IF(!dir, LATTIO_ERR_NOMEM);
    int ok = statfs(dir, &sf) == 0, err = ok ? 0 : errno;
    if (ok) {
        describe(&sf, stat(dir, &st) == 0 ? &st : NULL, out);
        refine_kind(dir, out);
    }
    lattio_free(dir);
    if (!ok) return lattio_fail_errno(__FILE__, __LINE__, "statfs(directory)", LATTIO_ERR_STAT, err);
    return LATTIO_OK;
}

uint64_t lattio_fs_alignment(const lattio_fsinfo *fs, uint64_t stripe_size)
{
    uint64_t b = fs ? fs->block : 0;
    if (fs && fs->kind == LATTIO_FS_LUSTRE) return stripe_size ? stripe_size : ONE_MIB;
    if (fs && fs->kind == LATTIO_FS_GPFS && b) return b;
    if (!b) return ONE_MIB;
    return b >= ONE_MIB ? b : (ONE_MIB + b - 1) / b * b;
}

/* Copy src into out[0 .. n) when out is given. */
static void copy_name(char *out, size_t n, const char *src)
{
    if (out && n) snprintf(out, n, "%s", src);
}

int lattio_fs_describe(const char *path, char *kind, size_t nkind, char *type, size_t ntype,
                       uint64_t *magic, uint64_t *block)
{
    lattio_fsinfo fs;
    RETURN_IF_ERROR(lattio_fsinfo_path(path, &fs));
    copy_name(kind, nkind, lattio_fs_name(fs.kind));
    copy_name(type, ntype, fs.type);
    if (magic) *magic = fs.magic;
    if (block) *block = fs.block;
    return LATTIO_OK;
}
