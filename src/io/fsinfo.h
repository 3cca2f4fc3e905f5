/* fsinfo.h -- which file system holds a path, and its block size.  MPI-free
 * (no mpi.h): usable by the container code and by MPI-free tests.  The MPI
 * layer detects on rank 0 at open and broadcasts (src/io/file.c). */
#ifndef LATTIO_FSINFO_H
#define LATTIO_FSINFO_H

#include <stdint.h>

enum lattio_fs_kind {
    LATTIO_FS_UNKNOWN = 0,
    LATTIO_FS_LOCAL = 1,  /* ext2/3/4, xfs, btrfs, zfs, f2fs, overlay, ... */
    LATTIO_FS_TMPFS = 2,  /* tmpfs, ramfs */
    LATTIO_FS_NFS = 3,
    LATTIO_FS_LUSTRE = 4, /* f_type 0x0BD00BD0 */
    LATTIO_FS_GPFS = 5    /* f_type 0x47504653 */
};

typedef struct lattio_fsinfo {
    int kind;       /* enum lattio_fs_kind */
    uint64_t magic; /* statfs f_type */
    uint64_t block; /* st_blksize of the path (f_bsize when it cannot be stat'ed), 0: unknown */
    uint64_t unit;  /* statfs f_bsize: the unit of the counts below */
    uint64_t avail; /* bytes free for unprivileged writers (f_bavail * f_bsize) */
} lattio_fsinfo;

/* Local.  The kind of the file system with statfs magic `magic`. */
int lattio_fs_kind_of_magic(uint64_t magic);

/* Local.  "lustre", "gpfs", "nfs", "tmpfs", "local" or "unknown". */
const char *lattio_fs_name(int kind);

/* Local.  Describe the file system holding `path`; when `path` does not
 * exist, the one holding its directory (a file about to be created).
 * Errors: ERR_ARG, ERR_STAT (neither can be queried). */
int lattio_fsinfo_path(const char *path, lattio_fsinfo *out);

/* Local.  The same for an open file descriptor.  Errors: ERR_ARG, ERR_STAT. */
int lattio_fsinfo_fd(int fd, lattio_fsinfo *out);

/* Local.  Default file-domain alignment in bytes for two-phase I/O:
 * Lustre: `stripe_size` when non-zero, else 1 MiB; GPFS: its block size;
 * anything else: the block size rounded up to a multiple of at least 1 MiB
 * (1 MiB when the block size is unknown). */
uint64_t lattio_fs_alignment(const lattio_fsinfo *fs, uint64_t stripe_size);

#endif
