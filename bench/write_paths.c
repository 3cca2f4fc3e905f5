/* write_paths.c -- the same 1.2 GB (a 32^3x64 double gauge field's file
 * bytes) written three ways by one process, each after the same unlink,
 * sync, a pause and a touch-and-free of as much memory, so that the page
 * cache's history is the same for all three (on a VM it sets a write's
 * speed 2.5-6x: bench/page_reuse.c):
 *   posix    write(2), 64 MiB at a time, from offset 0;
 *   mpi      MPI_File_write_at, 512 MiB at a time, from offset 144;
 *   lattio   lattio_open + record_begin + lattio_lattice_write + close
 *            (temporary name and rename; the header at 0, the data at 144).
 *   mpirun -np 1 write_paths [REPS] [PAUSE_S]   (default 4 2; files in the
 *   current directory, removed) */
#define _DEFAULT_SOURCE 1
#include "lattio.h"

#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t bytes;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void condition(const char *path, unsigned pause)
{
    unlink(path);
    sync();
    sleep(pause);
    const size_t n = (size_t)bytes + ((size_t)32 << 20);
    unsigned char *p = malloc(n);
    if (p) memset(p, 1, n);
    free(p);
}

static double posix_write(const unsigned char *buf)
{
    const double t0 = now();
    const int fd = open("wp.posix", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    for (uint64_t off = 0; fd >= 0 && off < bytes;) {
        const size_t k = bytes - off < ((uint64_t)64 << 20) ? (size_t)(bytes - off) : ((size_t)64 << 20);
        const ssize_t w = write(fd, buf + off, k);
        if (w <= 0) break;
        off += (uint64_t)w;
    }
    if (fd < 0 || close(fd) != 0) return -1;
    return now() - t0;
}

static double mpi_write(const unsigned char *buf)
{
    const double t0 = now();
    MPI_File fh;
    if (MPI_File_open(MPI_COMM_SELF, "wp.mpi", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh) != MPI_SUCCESS)
        return -1;
    int rc = MPI_SUCCESS;
    for (uint64_t off = 0; off < bytes && rc == MPI_SUCCESS; off += (uint64_t)512 << 20) {
        const uint64_t k = bytes - off < ((uint64_t)512 << 20) ? bytes - off : ((uint64_t)512 << 20);
        rc = MPI_File_write_at(fh, (MPI_Offset)(144 + off), buf + off, (int)k, MPI_BYTE, MPI_STATUS_IGNORE);
    }
    if (MPI_File_close(&fh) != MPI_SUCCESS || rc != MPI_SUCCESS) return -1;
    return now() - t0;
}

static double lattio_write(const unsigned char *buf, const lattio_layout *l)
{
    const double t0 = now();
    lattio_file *f = NULL;
    int rc = lattio_open(MPI_COMM_WORLD, "wp.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f);
    if (rc == LATTIO_OK) rc = lattio_record_begin(f, "ildg-binary-data", bytes, 1, 1);
    if (rc == LATTIO_OK) rc = lattio_lattice_write(f, l, 0, buf);
    if (rc == LATTIO_OK) rc = lattio_record_end(f, 0);
    const int rc2 = f ? lattio_close(f) : rc;
    return rc == LATTIO_OK && rc2 == LATTIO_OK ? now() - t0 : -1;
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    const int reps = argc > 1 ? atoi(argv[1]) : 4;
    const unsigned pause = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 2;
    static const uint64_t g[4] = {32, 32, 32, 64}, lo[4] = {0, 0, 0, 0};
    lattio_layout l;
    bytes = g[0] * g[1] * g[2] * g[3] * 576;
    unsigned char *buf = malloc((size_t)bytes);
    if (!buf || reps < 1 || lattio_layout_init(&l, 4, g, lo, g, 576) != LATTIO_OK) {
        fprintf(stderr, "write_paths: set-up failed\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(buf, 7, (size_t)bytes);
    printf("# write_paths: %.2f GB, pause %u s; seconds\n", (double)bytes / 1e9, pause);
    for (int r = 0; r < reps; r++) {
        condition("wp.posix", pause);
        const double p = posix_write(buf);
        condition("wp.mpi", pause);
        const double m = mpi_write(buf);
        condition("wp.lime", pause);
        const double x = lattio_write(buf, &l);
        printf("posix %.3f  mpi %.3f  lattio %.3f  lattio/posix %.2f\n", p, m, x, x / p);
    }
    unlink("wp.posix");
    unlink("wp.mpi");
    unlink("wp.lime");
    free(buf);
    MPI_Finalize();
    return 0;
}
