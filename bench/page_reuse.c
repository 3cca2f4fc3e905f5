/* page_reuse.c -- how fast a new file's pages enter the page cache,
 * depending on where the memory comes from: this measures the machine, not
 * lattio, and explains a gap every write benchmark on a VM meets.
 *
 * Three writes of the same SIZE bytes with write(2), 64 MiB at a time:
 *   reuse    right after unlinking a file of the same size: the kernel
 *            hands back the pages it just freed;
 *   rested   after unlinking and waiting REST seconds;
 *   beside   while a file of the same size stays in the page cache (what
 *            a crash-safe writer does: temporary name, then rename over
 *            the previous file, both in memory at once).
 * On a VM whose balloon device has free page reporting (virtio-balloon
 * feature bit 5, /sys/bus/virtio/devices/ * /features), freed guest memory
 * is returned to the host after a short delay and every page touched again
 * costs a fault in the host, so "rested" and "beside" are several times
 * slower than "reuse"; on bare metal the three are close.
 *   page_reuse [SIZE_MIB] [REST_S] [REPS]   (default 1152 6 3), in the
 *   current directory (files page_reuse.*, removed). */
#define _DEFAULT_SOURCE 1
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Seconds to write `bytes` of buf into a new file `path`; < 0 on failure. */
static double write_file(const char *path, const unsigned char *buf, size_t bytes)
{
    const double t0 = now();
    const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return -1;
    for (size_t off = 0; off < bytes;) {
        const size_t n = bytes - off < ((size_t)64 << 20) ? bytes - off : ((size_t)64 << 20);
        const ssize_t k = write(fd, buf + off, n);
        if (k <= 0) {
            close(fd);
            return -1;
        }
        off += (size_t)k;
    }
    return close(fd) == 0 ? now() - t0 : -1;
}

int main(int argc, char **argv)
{
    const size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 1152;
    const unsigned rest = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 6;
    const int reps = argc > 3 ? atoi(argv[3]) : 3;
    const size_t bytes = mib << 20;
    unsigned char *buf = malloc(bytes ? bytes : 1);
    if (!buf || mib == 0 || reps < 1) {
        fprintf(stderr, "usage: page_reuse [SIZE_MIB > 0] [REST_S] [REPS > 0]\n");
        return 2;
    }
    memset(buf, 0x5a, bytes);
    printf("# page_reuse: %zu MiB per write, rest %u s; seconds (MB/s)\n", mib, rest);
    for (int r = 0; r < reps; r++) {
        double t[3];
        write_file("page_reuse.a", buf, bytes);
        sync();
        unlink("page_reuse.a");
        t[0] = write_file("page_reuse.b", buf, bytes); /* reuse */
        sync();
        unlink("page_reuse.b");
        sleep(rest);
        t[1] = write_file("page_reuse.c", buf, bytes); /* rested */
        sync();
        t[2] = write_file("page_reuse.d", buf, bytes); /* beside page_reuse.c */
        sync();
        unlink("page_reuse.c");
        unlink("page_reuse.d");
        if (t[0] < 0 || t[1] < 0 || t[2] < 0) {
            perror("page_reuse: write");
            free(buf);
            return 1;
        }
        printf("reuse %.3f (%.0f)  rested %.3f (%.0f)  beside %.3f (%.0f)  ratio rested/reuse %.2f\n", t[0],
               (double)bytes / t[0] / 1e6, t[1], (double)bytes / t[1] / 1e6, t[2], (double)bytes / t[2] / 1e6,
               t[1] / t[0]);
        sleep(rest);
    }
    free(buf);
    return 0;
}
