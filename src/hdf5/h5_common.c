/* h5_common.c -- the HDF5 calls that need no HDF5 library: options and
 * the file signature (built with and without HDF5). */
#include "field/field_mpi.h"
#include "fsinfo.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

void lattio_h5_options_default(lattio_h5_options *o)
{
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->layout = LATTIO_H5_QDP;
}

/* HDF5's superblock starts at 0, 512, 1024, 2048, ... (a user block
 * before it). */
int lattio_h5_is_hdf5(const char *path)
{
    static const unsigned char sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    if (path) (void)lattio_fs_refresh(path, NULL); /* for this sniff (HDF5 opens through lattio_h5_fopen) */
    int fd = path ? open(path, O_RDONLY) : -1;
    if (fd < 0) return 0;
    int found = 0;
    for (off_t at = 0; at <= (off_t)1 << 30 && !found; at = at ? 2 * at : 512) {
        unsigned char b[8];
        if (pread(fd, b, 8, at) != 8) break;
        found = memcmp(b, sig, 8) == 0;
    }
    close(fd);
    return found;
}
