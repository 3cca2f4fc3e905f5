/* fsinfo.c -- file-system detection from statfs(2)'s f_type and the block
 * size from st_blksize.  MPI-free (see fsinfo.h). */
#define _GNU_SOURCE
#include "fsinfo.h"

#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#define ONE_MIB ((uint64_t)1 << 20)

/* statfs magic numbers (linux/magic.h and the file systems' own headers). */
static const struct {
    uint64_t magic;
    int kind;
} magics[] = {
    {0x0BD00BD0u, LATTIO_FS_LUSTRE}, {0x47504653u, LATTIO_FS_GPFS},
    {0x6969u, LATTIO_FS_NFS},        {0x01021994u, LATTIO_FS_TMPFS},
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
    static const char *const names[] = {"unknown", "local", "tmpfs", "nfs", "lustre", "gpfs"};
    return kind >= 0 && kind < (int)(sizeof names / sizeof names[0]) ? names[kind] : "unknown";
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
}

int lattio_fsinfo_fd(int fd, lattio_fsinfo *out)
{
    RETURN_IF(!out || fd < 0, LATTIO_ERR_ARG);
    struct statfs sf;
    struct stat st;
    RETURN_IF(fstatfs(fd, &sf) != 0, LATTIO_ERR_STAT);
    describe(&sf, fstat(fd, &st) == 0 ? &st : NULL, out);
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

int lattio_fsinfo_path(const char *path, lattio_fsinfo *out)
{
    RETURN_IF(!path || !*path || !out, LATTIO_ERR_ARG);
    struct statfs sf;
    struct stat st;
    if (statfs(path, &sf) == 0) {
        describe(&sf, stat(path, &st) == 0 ? &st : NULL, out);
        return LATTIO_OK;
    }
    char *dir = directory_of(path);
    RETURN_IF(!dir, LATTIO_ERR_NOMEM);
    int ok = statfs(dir, &sf) == 0;
    if (ok) describe(&sf, stat(dir, &st) == 0 ? &st : NULL, out);
    lattio_free(dir);
    RETURN_IF(!ok, LATTIO_ERR_STAT);
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
