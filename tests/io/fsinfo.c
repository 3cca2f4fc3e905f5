/* fsinfo.c -- file-system detection (src/core/fsinfo.c): the kind detected
 * for the test's working directory (and a file about to be created in it)
 * is what `stat -f -c %T .` names; /dev/shm is tmpfs when it exists; the
 * default alignments follow the rule (Lustre: the stripe size or 1 MiB,
 * GPFS: the block, others: the block rounded up to >= 1 MiB). */
#include "core/fsinfo.h"
#include "testutil.h"

#include <sys/stat.h>

/* The kind `stat -f -c %T` names (coreutils' file-system names). */
static int kind_of_name(const char *n)
{
    static const char *const local[] = {"ext2/ext3", "ext4", "xfs", "btrfs", "zfs", "f2fs", "overlayfs",
                                        "jfs", "reiserfs"};
    if (!strcmp(n, "tmpfs") || !strcmp(n, "ramfs")) return LATTIO_FS_TMPFS;
    if (!strcmp(n, "nfs")) return LATTIO_FS_NFS;
    if (!strcmp(n, "lustre")) return LATTIO_FS_LUSTRE;
    if (!strcmp(n, "gpfs")) return LATTIO_FS_GPFS;
    for (size_t i = 0; i < sizeof local / sizeof local[0]; i++)
        if (!strcmp(n, local[i])) return LATTIO_FS_LOCAL;
    return LATTIO_FS_UNKNOWN;
}

/* stat's name for the file system of `path`, "" when stat fails. */
static void stat_name(const char *path, char *out, size_t n)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "stat -f -c %%T '%s' 2>/dev/null", path);
    out[0] = '\0';
    FILE *p = popen(cmd, "r");
    if (!p) return;
    if (!fgets(out, (int)n, p)) out[0] = '\0';
    pclose(p);
    out[strcspn(out, "\r\n")] = '\0';
}

static void check_path(const char *path)
{
    char name[128];
    stat_name(path, name, sizeof name);
    CHECK(name[0] != '\0');
    lattio_fsinfo fs;
    CHECK_OK(lattio_fsinfo_path(path, &fs));
    CHECK_INT(fs.kind, kind_of_name(name));
    CHECK_INT(fs.kind, lattio_fs_kind_of_magic(fs.magic));
    struct stat st;
    if (stat(path, &st) == 0) CHECK_INT((long long)fs.block, (long long)st.st_blksize);
    printf("%s: stat says %s, detected %s (0x%llx), block %llu\n", path, name, lattio_fs_name(fs.kind),
           (unsigned long long)fs.magic, (unsigned long long)fs.block);
}

static void alignment_rule(void)
{
    const uint64_t mib = 1u << 20;
    lattio_fsinfo lustre = {.kind = LATTIO_FS_LUSTRE, .magic = 0x0BD00BD0u, .block = 4096};
    lattio_fsinfo gpfs = {.kind = LATTIO_FS_GPFS, .magic = 0x47504653u, .block = 8u << 20};
    lattio_fsinfo ext = {.kind = LATTIO_FS_LOCAL, .magic = 0xEF53u, .block = 4096};
    lattio_fsinfo big = {.kind = LATTIO_FS_TMPFS, .magic = 0x01021994u, .block = 3 * mib / 2};
    lattio_fsinfo none = {.kind = LATTIO_FS_UNKNOWN, .magic = 0, .block = 0};
    lattio_fsinfo odd = {.kind = LATTIO_FS_NFS, .magic = 0x6969u, .block = 3000};
    CHECK_INT(lattio_fs_alignment(&lustre, 0), mib);
    CHECK_INT(lattio_fs_alignment(&lustre, 4 * mib), 4 * mib);
    CHECK_INT(lattio_fs_alignment(&gpfs, 0), 8 * mib);
    CHECK_INT(lattio_fs_alignment(&ext, 0), mib);
    CHECK_INT(lattio_fs_alignment(&big, 0), 3 * mib / 2);
    CHECK_INT(lattio_fs_alignment(&none, 0), mib);
    CHECK_INT(lattio_fs_alignment(&odd, 0), 350 * 3000); /* a multiple of the block >= 1 MiB */
    CHECK_INT(lattio_fs_kind_of_magic(0x0BD00BD0u), LATTIO_FS_LUSTRE);
    CHECK_INT(lattio_fs_kind_of_magic(0x47504653u), LATTIO_FS_GPFS);
    CHECK_INT(lattio_fs_kind_of_magic(0x12345678u), LATTIO_FS_UNKNOWN);
    CHECK(!strcmp(lattio_fs_name(LATTIO_FS_LUSTRE), "lustre") && !strcmp(lattio_fs_name(99), "unknown"));
}

int main(void)
{
    check_path(".");
    lattio_fsinfo here, fresh;
    CHECK_OK(lattio_fsinfo_path(".", &here));
    /* a file about to be created: its directory's file system */
    CHECK_OK(lattio_fsinfo_path("./not-created-yet.lime", &fresh));
    CHECK_INT(fresh.kind, here.kind);
    CHECK_INT((long long)fresh.magic, (long long)here.magic);
    struct stat st;
    if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode)) {
        lattio_fsinfo shm;
        CHECK_OK(lattio_fsinfo_path("/dev/shm", &shm));
        CHECK_INT(shm.kind, LATTIO_FS_TMPFS);
        check_path("/dev/shm");
    }
    CHECK_STATUS(lattio_fsinfo_path("", &here), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_fsinfo_path("/nonexistent-dir-lattio/x/y", &here), LATTIO_ERR_STAT);
    CHECK_STATUS(lattio_fsinfo_fd(-1, &here), LATTIO_ERR_ARG);
    alignment_rule();
    return test_finish();
}
