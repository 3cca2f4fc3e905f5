/* writeback.c -- early writeback for durable writes: after each piece of
 * an independent write, ask the kernel to start writing those pages to
 * storage (Linux sync_file_range, SYNC_FILE_RANGE_WRITE, which does not
 * wait), so the device works while the ranks copy or convert the next
 * piece and the fsync at close waits only for the tail.  A private
 * read-only descriptor on the same file carries the requests.  Purely a
 * speed measure: where it is unavailable nothing changes, and the fsync
 * at close still decides durability.  LATTIO_WRITEBACK=0 turns it off. */
#define _GNU_SOURCE /* sync_file_range */
#include "io_internal.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void lattio_writeback_open(lattio_file *f)
{
    f->out.wb_fd = -1;
#if defined(__linux__) && defined(SYNC_FILE_RANGE_WRITE)
    if (!f->opt.durable || f->mode == LATTIO_MODE_READ || !f->cfg.writeback) return;
    const char *name = f->place.tmp ? f->place.tmp : f->place.path;
    if (name && *name) f->out.wb_fd = open(name, O_RDONLY | O_CLOEXEC);
#endif
}

void lattio_writeback_start(lattio_file *f, uint64_t off, uint64_t len)
{
#if defined(__linux__) && defined(SYNC_FILE_RANGE_WRITE)
    if (f->out.wb_fd < 0 || len < LATTIO_WB_MIN) return;
    if (off > (uint64_t)INT64_MAX || len > (uint64_t)INT64_MAX - off) return;
    if (sync_file_range(f->out.wb_fd, (off_t)off, (off_t)len, SYNC_FILE_RANGE_WRITE) != 0)
        LATTIO_TRACE("sync_file_range failed; early writeback off");
    else return;
    close(f->out.wb_fd);
    f->out.wb_fd = -1;
#else
    (void)f, (void)off, (void)len;
#endif
}

void lattio_writeback_close(lattio_file *f)
{
    if (f->out.wb_fd >= 0) close(f->out.wb_fd);
    f->out.wb_fd = -1;
}
