/* container_bench.c -- N task streams into one task-local container (issue
 * 6, lattio_container_*) against the baseline of N task-local files (one
 * POSIX file per rank in one directory), side by side in one run.
 *
 *   mpirun -np N container_bench --dir DIR [--bytes B[,B...]] [--mode M]
 *                                [--sync] [--cold] [--reps R] [--chunk C]
 *                                [--readnv]
 *
 * For each stream size B (bytes per task) and mode (container, files; or
 * "none": MPI start and end only, for strace baselines) each rank writes B
 * bytes in pieces of up to 4 MiB, then reads them back:
 *   create  the collective lattio_container_open(CREATE) / the rank's
 *           open(O_CREAT) of DIR/files/task.NNNNNN
 *   write   the writes and the close (container: final trailers, footer,
 *           rename; --sync: MPI_File_sync / fsync before it)
 *   read    open for reading (container: trailer scan), reads, close;
 *           --readnv: the container is read again with no_verify
 *           (readnv; from a cold cache again with --cold)
 * --chunk C: the container's chunk hint (default: the stream size, one
 * chunk per task; a smaller one splits each stream into chunks of C).
 * Phases reported as well: wclose (the write's close: container final
 * trailers, footer, sync, rename; files: fsync and close) and ropen (the
 * read's open: container header, footer and trailer scan; files: open).
 * Times are MPI_Wtime, maximum over ranks, best of R repetitions.  --cold
 * evicts the written files from the page cache (posix_fadvise DONTNEED,
 * after a sync, untimed) so reads come from the disk.  Every piece read is
 * checked (first and last bytes of each piece; a mismatch aborts with exit
 * status 1).  Rank 0 prints one line per case:
 *   RESULT mode=M n=N bytes=B files=F create=S write=S read=S wclose=S ropen=S
 *          readnv=S
 */
#define _XOPEN_SOURCE 700
#include <lattio.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PIECE ((size_t)4 << 20)
#define MAX_SIZES 8

typedef struct config {
    const char *dir, *mode;
    uint64_t bytes[MAX_SIZES];
    uint64_t chunk; /* container chunk hint; 0: the stream size */
    int nsizes, sync, cold, reps, readnv;
} config;

typedef struct timing {
    double create, write, read;
    double wclose, ropen; /* phases: the write's close, the read's open */
    double readnv;        /* container: the read again, without verification */
} timing;

static int rank, nranks;

static void die(const char *what, int status)
{
    fprintf(stderr, "container_bench rank %d: %s: %s\n", rank, what,
            status ? lattio_strerror(status) : strerror(errno));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static unsigned char piece_byte(uint64_t piece) { return (unsigned char)(rank * 31 + piece * 7 + 1); }

static void check_piece(const unsigned char *buf, size_t n, uint64_t piece)
{
    unsigned char want = piece_byte(piece);
    if (n && (buf[0] != want || buf[n - 1] != want)) die("read back wrong bytes", 0);
}

static double max_over_ranks(double t)
{
    double m = 0;
    MPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

/* --- the container ------------------------------------------------------- */

static void container_write(const config *c, const char *path, uint64_t bytes, unsigned char *buf,
                            timing *t)
{
    lattio_container_options opt;
    lattio_container_options_default(&opt);
    opt.durable = c->sync;
    lattio_container *h = NULL;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    uint64_t chunk = c->chunk && c->chunk < bytes ? c->chunk : bytes;
    int rc = lattio_container_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, chunk, MPI_INFO_NULL,
                                   &opt, &h);
    if (rc < 0) die("container open", rc);
    double t1 = MPI_Wtime();
    for (uint64_t done = 0, p = 0; done < bytes; p++) {
        size_t k = bytes - done < PIECE ? (size_t)(bytes - done) : PIECE;
        memset(buf, piece_byte(p), k);
        if ((rc = lattio_container_write(h, buf, k)) < 0) die("container write", rc);
        done += k;
    }
    double tc = MPI_Wtime();
    if ((rc = lattio_container_close(h)) < 0) die("container close", rc);
    double t2 = MPI_Wtime();
    t->create = max_over_ranks(t1 - t0);
    t->write = max_over_ranks(t2 - t1);
    t->wclose = max_over_ranks(t2 - tc);
}

static void container_read(const char *path, uint64_t bytes, unsigned char *buf, int verify,
                           timing *t)
{
    lattio_container *h = NULL;
    lattio_container_options opt;
    lattio_container_options_default(&opt);
    opt.no_verify = !verify;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    int rc = lattio_container_open(MPI_COMM_WORLD, path, LATTIO_MODE_READ, 0, MPI_INFO_NULL, &opt, &h);
    if (rc < 0) die("container open for reading", rc);
    double to = max_over_ranks(MPI_Wtime() - t0);
    if (verify) t->ropen = to;
    for (uint64_t done = 0, p = 0; done < bytes; p++) {
        size_t k = bytes - done < PIECE ? (size_t)(bytes - done) : PIECE;
        uint64_t got = 0;
        if ((rc = lattio_container_read(h, buf, k, &got)) < 0 || got != k) die("container read", rc);
        check_piece(buf, k, p);
        done += k;
    }
    if ((rc = lattio_container_close(h)) < 0) die("container close after reading", rc);
    double tr = max_over_ranks(MPI_Wtime() - t0);
    if (verify) t->read = tr;
    else t->readnv = tr;
}

/* --- task-local files ---------------------------------------------------- */

static void write_all(int fd, const unsigned char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) die("write", 0);
        p += k;
        n -= (size_t)k;
    }
}

static void files_write(const config *c, const char *path, uint64_t bytes, unsigned char *buf,
                        timing *t)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) die(path, 0);
    double t1 = MPI_Wtime();
    for (uint64_t done = 0, p = 0; done < bytes; p++) {
        size_t k = bytes - done < PIECE ? (size_t)(bytes - done) : PIECE;
        memset(buf, piece_byte(p), k);
        write_all(fd, buf, k);
        done += k;
    }
    double tc = MPI_Wtime();
    if (c->sync && fsync(fd) != 0) die("fsync", 0);
    if (close(fd) != 0) die("close", 0);
    double t2 = MPI_Wtime();
    t->create = max_over_ranks(t1 - t0);
    t->write = max_over_ranks(t2 - t1);
    t->wclose = max_over_ranks(t2 - tc);
}

static void files_read(const char *path, uint64_t bytes, unsigned char *buf, timing *t)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    int fd = open(path, O_RDONLY);
    if (fd < 0) die(path, 0);
    t->ropen = max_over_ranks(MPI_Wtime() - t0);
    for (uint64_t done = 0, p = 0; done < bytes; p++) {
        size_t k = bytes - done < PIECE ? (size_t)(bytes - done) : PIECE;
        for (size_t have = 0; have < k;) {
            ssize_t r = read(fd, buf + have, k - have);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) die("read", 0);
            have += (size_t)r;
        }
        check_piece(buf, k, p);
        done += k;
    }
    close(fd);
    t->read = max_over_ranks(MPI_Wtime() - t0);
}

/* --- driver -------------------------------------------------------------- */

/* Untimed: push the file to disk and drop it from the page cache. */
static void evict(const char *path, int mine)
{
    if (mine) {
        int fd = open(path, O_RDONLY);
        if (fd >= 0) {
            fdatasync(fd);
            posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
            close(fd);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void run_case(const config *c, int container, uint64_t bytes, unsigned char *buf, timing *best)
{
    char path[4096];
    if (container)
        snprintf(path, sizeof path, "%s/bench.ltc", c->dir);
    else
        snprintf(path, sizeof path, "%s/files/task.%06d", c->dir, rank);
    for (int r = 0; r < c->reps; r++) {
        timing t;
        if (container) container_write(c, path, bytes, buf, &t);
        else files_write(c, path, bytes, buf, &t);
        if (c->cold) evict(path, container ? rank == 0 : 1);
        if (container) container_read(path, bytes, buf, 1, &t);
        else files_read(path, bytes, buf, &t);
        if (container && c->readnv) {
            if (c->cold) evict(path, rank == 0);
            container_read(path, bytes, buf, 0, &t);
        } else {
            t.readnv = t.read;
        }
        if (container ? rank == 0 : 1) unlink(path);
        MPI_Barrier(MPI_COMM_WORLD);
        if (r == 0 || t.create < best->create) best->create = t.create;
        if (r == 0 || t.write < best->write) best->write = t.write;
        if (r == 0 || t.read < best->read) best->read = t.read;
        if (r == 0 || t.wclose < best->wclose) best->wclose = t.wclose;
        if (r == 0 || t.ropen < best->ropen) best->ropen = t.ropen;
        if (r == 0 || t.readnv < best->readnv) best->readnv = t.readnv;
    }
}

static void run_mode(const config *c, const char *mode, unsigned char *buf)
{
    int container = strcmp(mode, "container") == 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/files", c->dir);
    if (!container && rank == 0 && mkdir(dir, 0777) != 0 && errno != EEXIST) die(dir, 0);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int s = 0; s < c->nsizes; s++) {
        timing t = {0, 0, 0, 0, 0, 0};
        run_case(c, container, c->bytes[s], buf, &t);
        if (rank == 0)
            printf("RESULT mode=%s n=%d bytes=%llu files=%d create=%.6f write=%.6f read=%.6f "
                   "wclose=%.6f ropen=%.6f readnv=%.6f\n",
                   mode, nranks, (unsigned long long)c->bytes[s], container ? 1 : nranks, t.create,
                   t.write, t.read, t.wclose, t.ropen, t.readnv);
    }
    if (!container && rank == 0) rmdir(dir);
}

static int parse(int argc, char **argv, config *c)
{
    memset(c, 0, sizeof *c);
    c->mode = "both";
    c->reps = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--sync") == 0) c->sync = 1;
        else if (strcmp(a, "--readnv") == 0) c->readnv = 1;
        else if (strcmp(a, "--cold") == 0) c->cold = 1;
        else if (strcmp(a, "--dir") == 0 && v) c->dir = argv[++i];
        else if (strcmp(a, "--mode") == 0 && v) c->mode = argv[++i];
        else if (strcmp(a, "--reps") == 0 && v) c->reps = atoi(argv[++i]);
        else if (strcmp(a, "--chunk") == 0 && v) c->chunk = strtoull(argv[++i], NULL, 10);
        else if (strcmp(a, "--bytes") == 0 && v) {
            char *s = argv[++i];
            while (*s && c->nsizes < MAX_SIZES) {
                c->bytes[c->nsizes++] = strtoull(s, &s, 10);
                if (*s == ',') s++;
            }
        } else return -1;
    }
    if (!c->dir || c->reps < 1) return -1;
    if (c->nsizes == 0) c->bytes[c->nsizes++] = 65536;
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    config c;
    if (parse(argc, argv, &c) != 0) {
        if (rank == 0)
            fprintf(stderr, "usage: container_bench --dir DIR [--bytes B[,B...]] "
                    "[--mode both|container|files|none] [--sync] [--cold] [--reps R] [--chunk C] "
                    "[--readnv]\n");
        MPI_Finalize();
        return 2;
    }
    unsigned char *buf = malloc(PIECE);
    if (!buf) die("out of memory", 0);
    if (strcmp(c.mode, "container") == 0 || strcmp(c.mode, "both") == 0) run_mode(&c, "container", buf);
    if (strcmp(c.mode, "files") == 0 || strcmp(c.mode, "both") == 0) run_mode(&c, "files", buf);
    free(buf);
    MPI_Finalize();
    return 0;
}
