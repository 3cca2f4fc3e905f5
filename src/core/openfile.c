/* openfile.c -- the one way the serial readers open a file: never blocks
 * (a FIFO or a device named as a file would wait for a writer) and takes
 * regular files only. */
#include "internal.h"
#include "fsinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket"
                                      : S_ISCHR(m) || S_ISBLK(m) ? "a device" : "not a regular file";
}

int lattio_open_regular(const char *path, int *fd)
{
    *fd = -1;
    RETURN_IF(!path, LATTIO_ERR_ARG);
    (void)lattio_fs_refresh(path, NULL); /* another node may have just written it */
    int f;
    do f = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    while (f < 0 && errno == EINTR);
    RETURN_IF_ERRNO(f < 0, LATTIO_ERR_OPEN);
    struct stat st;
    if (fstat(f, &st) != 0) {
        const int e = errno;
        close(f);
        errno = e;
        return LATTIO_FAIL_ERRNO(LATTIO_ERR_STAT, "fstat");
    }
    if (!S_ISREG(st.st_mode)) {
        close(f);
        lattio_detail_set("%s: %s, not a regular file", path, kind(st.st_mode));
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return LATTIO_FAIL_ERRNO(LATTIO_ERR_OPEN, "not a regular file");
    }
    const int flags = fcntl(f, F_GETFL);
    if (flags < 0 || fcntl(f, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        const int e = errno;
        close(f);
        errno = e;
        return LATTIO_FAIL_ERRNO(LATTIO_ERR_OPEN, "fcntl");
    }
    *fd = f;
    return LATTIO_OK;
}
