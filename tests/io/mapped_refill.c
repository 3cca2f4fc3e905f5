/* mapped_refill.c -- a file the page cache holds only in part is still read
 * through the mapping (src/strategy/mapped.c, resident): the few pages the
 * kernel evicted are read back in with pread first (a disk error there is
 * a status, not a signal), then every rank converts out of the file's
 * pages with no MPI-IO call, and the data are right.  A file mostly out of
 * the page cache is read with MPI-IO calls instead.
 *   - a 3-D lattice of 40-byte sites (1.3 MB, about 320 pages), split in x
 *     (the fastest dimension: runs of a few sites), written, fsynced;
 *   - 256 KiB in the middle dropped (posix_fadvise DONTNEED), checked
 *     with mincore to be gone: the mapped read makes no MPI-IO call, every
 *     byte is right, and the pages are in the page cache again;
 *   - the whole file dropped: the read makes MPI-IO calls, data right.
 * Skipped where pages cannot be dropped (tmpfs) or the kernel kept them. */
#define _GNU_SOURCE
#include "xsplit.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

int MPI_File_read_at(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Datatype t, MPI_Status *st)
{
    xs_io_calls += xs_counting;
    return PMPI_File_read_at(fh, off, b, n, t, st);
}
int MPI_File_read_at_all(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Datatype t, MPI_Status *st)
{
    xs_io_calls += xs_counting;
    return PMPI_File_read_at_all(fh, off, b, n, t, st);
}
int MPI_File_read_all(MPI_File fh, void *b, int n, MPI_Datatype t, MPI_Status *st)
{
    xs_io_calls += xs_counting;
    return PMPI_File_read_all(fh, b, n, t, st);
}

#define X 64u
#define Y 32u
#define Z 16u
#define SITE 40u
#define BYTES ((uint64_t)X * Y * Z * SITE)
#define HEADER 144u /* one LIME header before the payload */
#define PATH "refill.lime"

/* Rank 0: the pages of file bytes [off, off + len) (len 0: to the end)
 * the page cache holds, on every rank (-1: cannot tell). */
static long cached(uint64_t off, uint64_t len)
{
    long n = -1;
    if (mpitest_rank == 0) {
        const int fd = open(PATH, O_RDONLY);
        struct stat st;
        void *at = MAP_FAILED;
        if (fd >= 0 && fstat(fd, &st) == 0) at = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
        if (at != MAP_FAILED) {
            const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), end = len ? off + len : (uint64_t)st.st_size;
            const uint64_t p0 = off / page, p1 = (end + page - 1) / page;
            unsigned char *vec = malloc((size_t)(((uint64_t)st.st_size + page - 1) / page));
            if (vec && mincore(at, (size_t)st.st_size, vec) == 0) {
                n = 0;
                for (uint64_t p = p0; p < p1; p++) n += vec[p] & 1;
            }
            free(vec);
            munmap(at, (size_t)st.st_size);
        }
        if (fd >= 0) close(fd);
    }
    MPI_Bcast(&n, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    return n;
}

/* Rank 0 drops file bytes [off, off + len) (len 0: to the end) from the
 * page cache, written back first: 1 on every rank when none is left. */
static int drop(uint64_t off, uint64_t len)
{
    int ok = 1;
    if (mpitest_rank == 0) {
        const int fd = open(PATH, O_RDONLY);
        ok = fd >= 0 && fsync(fd) == 0 && posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_DONTNEED) == 0;
        if (fd >= 0) close(fd);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return ok && cached(off, len) == 0;
}

typedef struct drop_args {
    uint64_t off, len;
    int dropped;
} drop_args;

static void drop_cb(void *ctx)
{
    drop_args *d = ctx;
    d->dropped = drop(d->off, d->len);
}

/* The MPI-IO read calls of all ranks during a mapped lattice read of the
 * file, whose every byte is checked against `want`, with file bytes
 * [drop_off, drop_off + drop_len) dropped from the page cache after the
 * open (*dropped: they were). */
static long read_mapped(const lattio_layout *l, const unsigned char *want, uint64_t drop_off, uint64_t drop_len,
                        int *dropped)
{
    drop_args d = {drop_off, drop_len, 0};
    const long calls = xs_read_counted(PATH, LATTIO_STRATEGY_MAPPED, l, 0, want, drop_cb, &d);
    *dropped = d.dropped;
    return calls;
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    struct statfs sf;
    const int tmpfs = statfs(".", &sf) == 0 && sf.f_type == 0x01021994;
    lattio_layout l;
    xs_layout(&l, Z, Y, X, SITE);
    const size_t n = (size_t)lattio_layout_local_sites(&l) * SITE;
    unsigned char *buf = malloc(n ? n : 1);
    xs_fill(&l, buf);

    /* written as before the one-writer rule (each rank its own part, by the
     * measured rule's other branches): under Intel MPI one writer's single
     * call leaves page-cache folios larger than the 256 KiB dropped below */
    lattio_file *f = NULL;
    setenv("LATTIO_ONE_WRITER_BYTES", "0", 1);
    CHECK_OK(lattio_open(MPI_COMM_WORLD, PATH, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    unsetenv("LATTIO_ONE_WRITER_BYTES");
    CHECK_OK(lattio_record_begin(f, "lattio-test", BYTES, 1, 1));
    CHECK_OK(lattio_lattice_write(f, &l, 0, buf));
    CHECK_OK(lattio_record_end(f, 1));
    CHECK_OK(lattio_close(f));

    int dropped = 0;
    const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    /* 256 KiB (64 pages of 4 KiB, a fifth of the payload) in its middle,
     * aligned so that the page cache's large folios (a single writer's
     * write calls make them up to its 256 KiB pieces) drop whole: read
     * back in, then mapped */
    const uint64_t cut = (uint64_t)256 << 10, mid = (HEADER + BYTES / 2) / cut * cut;
    const long few = read_mapped(&l, buf, mid, cut, &dropped);
    if (!tmpfs && dropped) {
        CHECK_INT((int)few, 0);
        CHECK_INT((int)cached(mid, cut), (int)(cut / page)); /* read back in */
    } else if (mpitest_rank == 0) {
        printf("skipped: pages could not be dropped here\n");
    }
    /* the whole file: read with MPI-IO calls */
    const long many = read_mapped(&l, buf, 0, 0, &dropped);
    if (!tmpfs && dropped) CHECK(many > 0);

    MPI_Barrier(MPI_COMM_WORLD);
    if (mpitest_rank == 0) unlink(PATH);
    free(buf);
    return mpitest_finish();
}
