/* write_calls.c -- how the size and alignment of write(2) calls set the
 * speed of a page-cache write: one process writes the same 1.2 GB (a
 * 32^3x64 double gauge field's bytes, memory touched beforehand) to a new
 * file with pwrite calls of each size given, from file offset BASE, each
 * case after the same unlink, sync, 1 s pause and touch-and-free of as much
 * memory (bench/write_paths.c), the order of the cases turned every
 * repetition.  On Linux >= 6.x a buffered write allocates page-cache folios
 * whose order follows the call's length and the file offset's alignment;
 * on a VM that hands freed memory back to its host, large folios come
 * from memory that must be faulted back in.  Prints one line per case and
 * repetition, then the median of each case.
 *   write_calls BASE KIB [KIB ...]   (files in the current directory, removed)
 *   e.g. write_calls 0 128 256 512 1024 65536 */
#define _DEFAULT_SOURCE 1

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BYTES ((size_t)1207959552) /* 32^3 x 64 sites x 4 links x 18 doubles */
#define REPS 3
#define MAXC 16

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void condition(const char *path)
{
    unlink(path);
    sync();
    sleep(1);
    const size_t n = BYTES + ((size_t)32 << 20);
    unsigned char *p = malloc(n);
    if (p) memset(p, 1, n);
    free(p);
}

/* Seconds to write BYTES from buf in calls of `chunk` from `base`; < 0 on error. */
static double write_case(const unsigned char *buf, size_t base, size_t chunk)
{
    const double t0 = now();
    const int fd = open("write_calls.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return -1;
    for (size_t off = 0; off < BYTES;) {
        const size_t k = BYTES - off < chunk ? BYTES - off : chunk;
        const ssize_t w = pwrite(fd, buf + off, k, (off_t)(base + off));
        if (w <= 0) {
            close(fd);
            return -1;
        }
        off += (size_t)w;
    }
    return close(fd) == 0 ? now() - t0 : -1;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc - 2 > MAXC) {
        fprintf(stderr, "usage: write_calls BASE KIB [KIB ...] (at most %d sizes)\n", MAXC);
        return 2;
    }
    const size_t base = strtoull(argv[1], NULL, 10);
    const int nc = argc - 2;
    size_t chunk[MAXC];
    for (int c = 0; c < nc; c++) {
        chunk[c] = (size_t)strtoull(argv[2 + c], NULL, 10) << 10;
        if (chunk[c] == 0) {
            fprintf(stderr, "write_calls: size %s is not a number of KiB\n", argv[2 + c]);
            return 2;
        }
    }
    unsigned char *buf = malloc(BYTES);
    if (!buf) return 1;
    memset(buf, 3, BYTES);
    double t[MAXC][REPS];
    for (int r = 0; r < REPS; r++)
        for (int i = 0; i < nc; i++) {
            const int c = (i + r) % nc;
            condition("write_calls.bin");
            t[c][r] = write_case(buf, base, chunk[c]);
            if (t[c][r] < 0) {
                perror("write_calls");
                unlink("write_calls.bin");
                return 1;
            }
            printf("base %zu, calls of %zu KiB: %.3f s\n", base, chunk[c] >> 10, t[c][r]);
            fflush(stdout);
        }
    unlink("write_calls.bin");
    for (int c = 0; c < nc; c++) {
        qsort(t[c], REPS, sizeof t[c][0], cmp);
        printf("MEDIAN base %zu, calls of %8zu KiB: %.3f s (%.2f GB/s), range %.3f-%.3f\n", base,
               chunk[c] >> 10, t[c][REPS / 2], (double)BYTES / t[c][REPS / 2] / 1e9, t[c][0], t[c][REPS - 1]);
    }
    free(buf);
    return 0;
}
