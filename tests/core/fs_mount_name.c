/* fs_mount_name.c -- the mount type lattio reads from a line of
 * /proc/self/mountinfo, and the kind a FUSE mount refines to: GlusterFS by
 * its subtype, MooseFS by mfsmount's source "mfs#HOST:PORT" (its mounts
 * have no subtype; the kernel writes the '#' as \043) or a subtype, other FUSE file systems named by their
 * source's "NAME#" when they have no subtype. */
#include "testutil.h"
#include "fsinfo.h"

static const char *name_of(const char *line)
{
    static char out[32];
    out[0] = '\0';
    return lattio_fs_mount_name(line, out, sizeof out) ? out : "(none)";
}

int main(void)
{
    CHECK_STR(name_of("36 25 0:32 / /mnt/mfs rw,relatime shared:15 - fuse mfs#mfsmaster:9421 rw,user_id=0"),
              "fuse.mfs");
    /* as the kernel writes it: '#' escaped (mfsmount 3.0.117 on Debian 12's kernel) */
    CHECK_STR(name_of("68 79 0:43 / /mnt/lattio-cluster/mfs rw,nosuid,nodev,relatime - fuse mfs\\04310.99.0.1:9421 "
                      "rw,user_id=0,group_id=0,allow_other"),
              "fuse.mfs");
    CHECK_STR(name_of("40 25 0:35 / /mnt/g rw,relatime - fuse.glusterfs node1:/vol rw,user_id=0"), "fuse.glusterfs");
    CHECK_STR(name_of("41 25 0:36 / /mnt/s rw - fuse sshfs#me@host:/data rw"), "fuse.sshfs");
    CHECK_STR(name_of("42 25 0:37 / /mnt/f rw - fuse /dev/fuse rw"), "fuse");
    CHECK_STR(name_of("43 25 0:38 / /mnt/h rw - fuse #odd rw"), "fuse");
    CHECK_STR(name_of("22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw"), "ext4");
    CHECK_STR(name_of("no separator here"), "(none)");
    CHECK_INT(lattio_fs_refine_kind(LATTIO_FS_FUSE, "fuse.mfs"), LATTIO_FS_MOOSEFS);
    CHECK_INT(lattio_fs_refine_kind(LATTIO_FS_FUSE, "fuse.moosefs"), LATTIO_FS_MOOSEFS);
    CHECK_INT(lattio_fs_refine_kind(LATTIO_FS_FUSE, "fuse.glusterfs"), LATTIO_FS_GLUSTER);
    CHECK_INT(lattio_fs_refine_kind(LATTIO_FS_FUSE, "fuse.sshfs"), LATTIO_FS_FUSE);
    CHECK_INT(lattio_fs_refine_kind(LATTIO_FS_LOCAL, "fuse.mfs"), LATTIO_FS_LOCAL);
    CHECK_STR(lattio_fs_name(LATTIO_FS_MOOSEFS), "moosefs");
    CHECK(lattio_fs_caches_metadata(LATTIO_FS_MOOSEFS) && lattio_fs_is_network(LATTIO_FS_MOOSEFS));
    return test_finish();
}
