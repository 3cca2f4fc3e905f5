/* fsinfo.h -- which file system holds a path, and its block size.  MPI-free
 * (no mpi.h): usable by the container code and by MPI-free tests.  The MPI
 * layer detects on rank 0 at open and broadcasts (src/io/file.c). */
#ifndef LATTIO_FSINFO_H
#define LATTIO_FSINFO_H

#include <stddef.h>
#include <stdint.h>

enum lattio_fs_kind {
    LATTIO_FS_UNKNOWN = 0,
    LATTIO_FS_LOCAL = 1,  /* ext2/3/4, xfs, btrfs, zfs, f2fs, overlay, ... */
    LATTIO_FS_TMPFS = 2,  /* tmpfs, ramfs */
    LATTIO_FS_NFS = 3,
    LATTIO_FS_LUSTRE = 4, /* f_type 0x0BD00BD0 */
    LATTIO_FS_GPFS = 5,   /* f_type 0x47504653 */
    LATTIO_FS_BEEGFS = 6, /* f_type 0x19830326 */
    LATTIO_FS_CEPHFS = 7, /* f_type 0x00C36400 */
    LATTIO_FS_FUSE = 8,   /* f_type 0x65735546, a FUSE file system other than the next */
    LATTIO_FS_GLUSTER = 9, /* FUSE whose mount type is fuse.glusterfs */
    LATTIO_FS_MOOSEFS = 10 /* FUSE mounted by mfsmount (source mfs#HOST:PORT, or type fuse.mfs) */
};

typedef struct lattio_fsinfo {
    int kind;       /* enum lattio_fs_kind */
    uint64_t magic; /* statfs f_type */
    uint64_t block; /* st_blksize of the path (f_bsize when it cannot be stat'ed), 0: unknown */
    uint64_t unit;  /* statfs f_bsize: the unit of the counts below */
    uint64_t avail; /* bytes free for unprivileged writers (f_bavail * f_bsize) */
    char type[32];  /* the mount's type in /proc/self/mountinfo ("ext4", "fuse.glusterfs"; a FUSE
                       mount without subtype named by its source's "NAME#": "fuse.mfs"), "" */
} lattio_fsinfo;

/* Local.  The kind of the file system with statfs magic `magic`. */
int lattio_fs_kind_of_magic(uint64_t magic);

/* Local.  "local", "tmpfs", "nfs", "lustre", "gpfs", "beegfs", "cephfs",
 * "fuse", "glusterfs", "moosefs" or "unknown". */
const char *lattio_fs_name(int kind);

/* Local.  Whether the clients of file systems of this kind cache sizes and
 * attributes without coherence between nodes (NFS, FUSE and GlusterFS
 * behind it; unknown kinds are taken to): what one node wrote may look
 * shorter or older on another until lattio_fs_refresh. */
int lattio_fs_caches_metadata(int kind);

/* Local.  Whether the kind is shared between nodes over a network (NFS,
 * Lustre, GPFS, BeeGFS, CephFS, FUSE, GlusterFS, unknown): writes go in
 * pieces of its unit, never through a shared mapping. */
int lattio_fs_is_network(int kind);

/* Local.  The mount type one line of /proc/self/mountinfo gives: its type
 * field, or for a FUSE mount without subtype whose source is "NAME#..."
 * (mfsmount's "mfs#host:9421", old sshfs's "sshfs#...") "fuse.NAME"; into
 * out (size bytes).  0 when the line cannot be read. */
int lattio_fs_mount_name(const char *line, char *out, size_t size);
/* Local.  The kind a FUSE mount's type refines to (GlusterFS, MooseFS), or
 * `kind` as it is. */
int lattio_fs_refine_kind(int kind, const char *mount_type);

/* Local.  Make this client's view of `path` current on a file system that
 * caches metadata (elsewhere only its size is taken): an fsync through a new descriptor (GlusterFS's client
 * takes the server's attributes from the reply; NFS commits), this node's
 * cached pages of the file dropped, then statx(AT_STATX_FORCE_SYNC) (the
 * kernel's attribute cache, so reads are not cut at a stale size); a name
 * that led to a file another node removed or replaced (ENOENT, ESTALE, or
 * a link count of 0: MooseFS's client serves the replaced file) is looked
 * up again after the directory is read (FUSE's READDIRPLUS refreshes its
 * entries).  *size (may be NULL) gets the size.  Errors:
 * ERR_ARG, ERR_STAT (with errno). */
int lattio_fs_refresh(const char *path, uint64_t *size);
/* Local.  The same through an open descriptor. */
int lattio_fs_refresh_fd(int fd, uint64_t *size);
/* Local.  open(2) of a file another node may have just created or
 * replaced: on ENOENT or ESTALE the directory is read (FUSE's READDIRPLUS
 * replaces a cached negative or stale entry: MooseFS's mfsnegentrycacheto,
 * an NFS client's lookupcache) and the open tried again, twice at most;
 * so is an open that found a file no name leads to any more (link count
 * 0: the entry still led to a file another node replaced).
 * The descriptor, or -1 with errno set; EINTR retried. */
int lattio_fs_open(const char *path, int flags, unsigned mode);

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
