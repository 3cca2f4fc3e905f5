/* cmd_bench_cases.c -- `lattio bench`: the timed cases.  A case is a write
 * (open to close) then a read of the same bytes; every file is checked on
 * disk after the write and every read buffer against the pattern, untimed.
 * Times are the slowest rank's. */
#define _XOPEN_SOURCE 700 /* sync */
#include "cmd_bench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void case_path(const bench *b, int c, char *out, size_t n)
{
    if (c == BC_POSIX_ALL)
        snprintf(out, n, "%s.posix.%d", b->prefix, b->rank);
    else
        snprintf(out, n, "%s.%s.lime", b->prefix, bench_case_name(c));
}

/* ---- POSIX baselines ------------------------------------------------------ */

static int write_all(int fd, const unsigned char *p, uint64_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n > (1u << 30) ? (1u << 30) : (size_t)n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (uint64_t)w;
    }
    return 0;
}

static int read_all(int fd, unsigned char *p, uint64_t n)
{
    while (n > 0) {
        ssize_t g = read(fd, p, n > (1u << 30) ? (1u << 30) : (size_t)n);
        if (g < 0 && errno == EINTR) continue;
        if (g == 0) errno = EIO; /* the file is shorter than written */
        if (g <= 0) return -1;
        p += g;
        n -= (uint64_t)g;
    }
    return 0;
}

/* Write or read `total` bytes sequentially from/into buf (of `chunk` bytes,
 * reused); the file is created (never truncated). */
static int posix_transfer(const char *path, int writing, int sync, unsigned char *buf,
                          uint64_t chunk, uint64_t total)
{
    int fd = writing ? open(path, O_WRONLY | O_CREAT | O_EXCL, 0644) : open(path, O_RDONLY);
    if (fd < 0) return bench_errno_status(errno);
    int rc = 0;
    for (uint64_t done = 0; rc == 0 && done < total; done += chunk) {
        uint64_t n = total - done < chunk ? total - done : chunk;
        rc = writing ? write_all(fd, buf, n) : read_all(fd, buf, n);
    }
    if (rc == 0 && writing && sync) rc = fsync(fd);
    int e = errno;
    if (close(fd) != 0 && rc == 0) return bench_errno_status(errno);
    return rc == 0 ? LATTIO_OK : bench_errno_status(e);
}

static int posix_case(bench *b, int c, int op, double *t)
{
    char path[sizeof b->prefix + 64];
    case_path(b, c, path, sizeof path);
    int w = op == BENCH_WRITE, rc = LATTIO_OK;
    double t0 = MPI_Wtime();
    if (c == BC_POSIX_ALL) {
        rc = posix_transfer(path, w, b->o.fsync, w ? b->src : b->dst, b->local_bytes ? b->local_bytes : 1,
                            b->local_bytes);
    } else if (b->rank == 0) {
        unsigned char *buf = b->scratch ? b->scratch : w ? b->src : b->dst;
        uint64_t chunk = b->scratch ? TOOL_BLOCK_SIZE : b->local_bytes;
        rc = posix_transfer(path, w, b->o.fsync, buf, chunk, b->global_bytes);
    }
    *t = MPI_Wtime() - t0;
    return rc;
}

/* Rank 0's whole-volume read: the file is its buffer repeated, so what stays
 * in the buffer is the end of the last (partial) repetition. */
static int verify_posix_one(const bench *b)
{
    int bad = 0, any = 0;
    if (b->rank == 0 && !b->scratch) {
        uint64_t last = b->global_bytes % b->local_bytes;
        if (last == 0) last = b->local_bytes;
        bad = memcmp(b->dst, b->src, (size_t)last) != 0;
    }
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any;
}

/* ---- lattio strategies ---------------------------------------------------- */

/* The profile of this operation, in the slot of the repetition being
 * timed (do_op counts it only for a recorded repetition). */
static void keep_profile(bench *b, int c, int op, lattio_file *f)
{
    bench_result *r = &b->r[c];
    lattio_profile p;
    memset(&p, 0, sizeof p);
    r->prof_ok[op] = lattio_profile_get(f, &p) == LATTIO_OK && r->nrep[op] < BENCH_MAX_REPS;
    if (r->prof_ok[op]) r->prof[op][r->nrep[op]] = p;
}

/* open .. close; the profile query (collective) is not timed. */
static int lattio_case(bench *b, int c, int op, double *t)
{
    char path[sizeof b->prefix + 64];
    case_path(b, c, path, sizeof path);
    lattio_options opt;
    lattio_options_default(&opt);
    opt.durable = b->o.fsync;
    opt.strategy = bench_strategy_of(c);
    lattio_file *f = NULL;
    lattio_record_info info;
    double t0 = MPI_Wtime();
    int rc = lattio_open(b->comm, path, op == BENCH_WRITE ? LATTIO_MODE_CREATE : LATTIO_MODE_READ,
                         MPI_INFO_NULL, &opt, &f);
    if (rc == LATTIO_OK && op == BENCH_WRITE) {
        rc = lattio_record_begin(f, BENCH_RECORD_TYPE, b->global_bytes, 1, 1);
        if (rc == LATTIO_OK) rc = lattio_lattice_write(f, &b->lay, 0, b->src);
        if (rc == LATTIO_OK) rc = lattio_record_end(f, 0);
    } else if (rc == LATTIO_OK) {
        rc = lattio_record_find(f, BENCH_RECORD_TYPE, 0, &info);
        if (rc == LATTIO_OK && info.length != b->global_bytes) rc = LATTIO_ERR_VERIFY;
        if (rc == LATTIO_OK) rc = lattio_lattice_read(f, &b->lay, 0, b->dst);
    }
    double t1 = MPI_Wtime();
    if (f) keep_profile(b, c, op, f);
    double t2 = MPI_Wtime();
    int crc = lattio_close(f);
    *t = (t1 - t0) + (MPI_Wtime() - t2);
    return rc != LATTIO_OK ? rc : crc;
}

/* ---- running ------------------------------------------------------------- */

static void drop_caches(bench *b)
{
    if (!b->o.drop) return;
    if (b->rank == 0 && b->dropped >= 0) {
        sync();
        FILE *fp = geteuid() == 0 ? fopen("/proc/sys/vm/drop_caches", "w") : NULL;
        int ok = fp && fputs("3\n", fp) >= 0;
        if (fp && fclose(fp) != 0) ok = 0;
        if (!ok)
            snprintf(b->drop_msg, sizeof b->drop_msg, "could not drop the page cache (%s): reads are hot",
                     geteuid() != 0 ? "not root" : strerror(errno));
        b->dropped = ok ? 1 : -1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void remove_files(const bench *b, int c)
{
    char path[sizeof b->prefix + 64];
    case_path(b, c, path, sizeof path);
    if (c == BC_POSIX_ALL || b->rank == 0) unlink(path);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* One timed operation; the agreed status. */
static int timed(bench *b, int c, int op, double *tmax)
{
    double t = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    int rc = c <= BC_POSIX_ONE ? posix_case(b, c, op, &t) : lattio_case(b, c, op, &t);
    MPI_Allreduce(&t, tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return bench_agree(b, rc);
}

static void progress(const bench *b, int c, int op, int rep, double t)
{
    if (b->rank != 0) return;
    char what[32];
    if (rep < 0)
        snprintf(what, sizeof what, "warm-up");
    else
        snprintf(what, sizeof what, "rep %d/%d", rep + 1, b->o.reps);
    fprintf(stderr, "lattio bench: %-9s %-14s %-5s %10.1f MiB/s (%.4f s)\n", what, bench_case_name(c),
            op == BENCH_WRITE ? "write" : "read", t > 0 ? (double)b->global_bytes / 1048576.0 / t : 0.0,
            t);
}

/* Record a failure: unsupported (a strategy the library rejects), error or
 * corrupt; rank 0 says so. */
static int failed(bench *b, int c, int op, int state, int status)
{
    bench_result *r = &b->r[c];
    r->state[op] = state;
    r->status[op] = status;
    if (op == BENCH_WRITE) r->state[BENCH_READ] = state == BS_UNSUPPORTED ? state : BS_SKIPPED;
    const char *what = op == BENCH_WRITE ? "write" : "read";
    if (state == BS_UNSUPPORTED && b->rank == 0)
        fprintf(stderr, "lattio bench: %s: strategy not supported by this lattio (%s)\n",
                bench_case_name(c), lattio_error_name(status));
    else if (state == BS_CORRUPT)
        tool_error("bench", NULL, "%s %s: verification FAILED: the %s differ from the pattern",
                   bench_case_name(c), what, op == BENCH_WRITE ? "file's bytes" : "sites read");
    else
        tool_error("bench", NULL, "%s %s: %s", bench_case_name(c), what, bench_status_text(status));
    return -1;
}

/* Test hook: LATTIO_BENCH_FAULT=write (or read) swaps the first two sites
 * of the file (of the last rank's read buffer) after the timed operation of
 * the first strategy case, as a misplacing strategy would. */
static void inject_fault(const bench *b, int c, int op, const char *path)
{
    const char *f = getenv("LATTIO_BENCH_FAULT");
    unsigned char *tmp = NULL;
    if (!f || c != BC_INDEPENDENT || strcmp(f, op == BENCH_WRITE ? "write" : "read") != 0) return;
    if (b->o.site > 65536 || !(tmp = malloc(2 * b->o.site))) return;
    if (op == BENCH_READ && b->rank == b->size - 1 && b->local_sites >= 2) {
        memcpy(tmp, b->dst, b->o.site);
        memmove(b->dst, b->dst + b->o.site, b->o.site);
        memcpy(b->dst + b->o.site, tmp, b->o.site);
    } else if (op == BENCH_WRITE && b->rank == 0) {
        int fd = open(path, O_RDWR);
        off_t at = LATTIO_LIME_HEADER_SIZE;
        if (fd >= 0 && pread(fd, tmp, 2 * b->o.site, at) == (ssize_t)(2 * b->o.site)) {
            pwrite(fd, tmp + b->o.site, b->o.site, at);
            pwrite(fd, tmp, b->o.site, at + (off_t)b->o.site);
        }
        if (fd >= 0) close(fd);
    }
    free(tmp);
}

/* Untimed: the file on disk after a lattio write (a POSIX baseline's file
 * is checked by its read), the buffer after any read.  Collective. */
static int verify_op(const bench *b, int c, int op)
{
    char path[sizeof b->prefix + 64];
    case_path(b, c, path, sizeof path);
    inject_fault(b, c, op, path);
    if (op == BENCH_READ) return c == BC_POSIX_ONE ? verify_posix_one(b) : bench_verify_read(b, c);
    return c <= BC_POSIX_ONE ? 0 : bench_verify_file(b, path);
}

static int do_op(bench *b, int c, int op, int rep)
{
    double t = 0;
    b->r[c].prof_ok[op] = 0;
    if (op == BENCH_READ) {
        memset(b->dst, 0xA5, b->local_bytes ? (size_t)b->local_bytes : 1);
        drop_caches(b);
    }
    int rc = timed(b, c, op, &t);
    if (rc == LATTIO_ERR_ARG && c > BC_POSIX_ONE && op == BENCH_WRITE && b->r[c].nrep[op] == 0)
        return failed(b, c, op, BS_UNSUPPORTED, rc);
    if (rc != LATTIO_OK) return failed(b, c, op, BS_ERROR, rc);
    if (verify_op(b, c, op) != 0) return failed(b, c, op, BS_CORRUPT, 0);
    progress(b, c, op, rep, t);
    bench_result *r = &b->r[c];
    if (rep < 0) return 0; /* warm-ups are not recorded */
    if (r->prof_ok[op] && r->nprof[op] == r->nrep[op]) r->nprof[op]++;
    r->t[op][r->nrep[op]++] = t;
    return 0;
}

static void run_case(bench *b, int c, int rep)
{
    if (do_op(b, c, BENCH_WRITE, rep) == 0) do_op(b, c, BENCH_READ, rep);
    remove_files(b, c);
}

int bench_run_all(bench *b)
{
    int list[BC_NCASES], n = 0;
    for (int c = 0; c < BC_NCASES; c++)
        if (c <= BC_POSIX_ONE || b->o.want[c]) list[n++] = c;
    for (int rep = -b->o.warmup; rep < b->o.reps; rep++) /* rep < 0: warm-up, not recorded */
        for (int k = 0; k < n; k++) { /* rotated: no case always goes first */
            int c = list[(k + rep + b->o.warmup) % n];
            if (b->r[c].state[0] == BS_OK && b->r[c].state[1] == BS_OK) run_case(b, c, rep);
        }
    int fail = 0;
    for (int k = 0; k < n; k++)
        for (int op = 0; op < 2; op++) fail |= b->r[list[k]].state[op] >= BS_CORRUPT;
    return fail ? TOOL_FAIL : TOOL_OK;
}
