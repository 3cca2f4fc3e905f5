/* floor_bench.c -- the field pipeline against its physical floor (issue
 * 13), every figure a ratio to baselines measured in the same run:
 *   posix    rank 0 alone writes / reads the field's file bytes
 *            contiguously with write() / read() (+ fsync when durable),
 *            writes in calls of FLOOR_CALL bytes (default 256 KiB: the
 *            fastest call size on the development VM, where calls of
 *            512 KiB and more, or 1 MiB aligned, copied into the page cache
 *            2-4x more slowly: bench/write_calls.c), reads 64 MiB;
 *   mpi      the same with MPI_File_write_at / read_at, the same calls;
 *   kernel   each rank converts its sites to big-endian and checksums them
 *            (SciDAC, global ranks) in memory, no I/O (reads: checksum and
 *            convert back): the compute part of the floor;
 *   plain    lattio_lattice_write / _read of the same file bytes (already
 *            big-endian: no conversion, no checksum), same decomposition;
 *   field    lattio_field_write (conversion + checksum + the ILDG record
 *            set) / lattio_field_read with checksum verification;
 *   lemon    Lemon's approach on bytes already converted: a subarray file
 *            view and one MPI_File_write_at_all / read_at_all (+
 *            MPI_File_sync); no conversion, no checksum;
 *   lemon+conv  the same work as a field call, as a Lemon code does it
 *            (tmLQCD's gauge I/O): writing, the rank's sites converted to
 *            big-endian and checksummed into a buffer of the local volume,
 *            then Lemon's collective write; reading, Lemon's collective
 *            read, then the checksum and the conversion into the array.
 * The floor of a field write is max(plain, kernel) with a free core per rank
 * (a helper thread overlaps them) and plain + kernel on one core per rank.
 * Cases alternate within each repetition so machine noise hits all (the
 * writes, then the reads, in an order that rotates with the repetition),
 * and every write case first removes its own previous file (fresh); the
 * medians, and the medians of each repetition's own ratios, are compared.
 * Also printed: the field calls' phase profile
 * (last repetition, mean over ranks) and the peak extra memory of a field
 * write on any rank (VmHWM after the call minus VmRSS before, the peak
 * reset through /proc/self/clear_refs; the largest over the calls, which is
 * the first one's: later calls reuse pages malloc kept resident).
 *   mpirun -np N floor_bench L T DECOMP REPS DURABLE
 *   DECOMP: tslab (t split), x (x split), 4d (MPI_Dims_create over x,y,z,t,
 *   x first: at 2 ranks x, at 4 ranks x,y) */
#define _DEFAULT_SOURCE 1
#include "lattio.h"
#include "support.h" /* internal: checksum and conversion kernels (lattio_internal) */

#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { POSIX_W, PLAIN_W, FIELD_W, LEMON_W, POSIX_R, PLAIN_R, FIELD_R, LEMON_R, MPI_W, MPI_R, LEMONC_W,
       LEMONC_R, NC };
static const char *names[NC] = {"posix write", "plain write", "field write", "lemon write",
                                "posix read", "plain read", "field read", "lemon read",
                                "mpi write",  "mpi read", "lemon+conv write", "lemon+conv read"};
static int rank_, size_;
static uint64_t c_bytes; /* the file's bytes, for fresh() */
static const char *const files[] = {"posix.bin", "mpi.bin", "plain.lime", "field.lime", "lemon.bin"};

static void die(int rc, const char *what)
{
    if (rc == LATTIO_OK) return;
    fprintf(stderr, "floor_bench: %s: %s\n", what, lattio_strerror(rc));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static double value(uint64_t r, uint64_t k) { return (double)((r * 72 + k) % 1009) * 0.001 - 0.5; }

static long status_kib(const char *key)
{
    FILE *fp = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    while (fp && fgets(line, sizeof line, fp))
        if (strncmp(line, key, strlen(key)) == 0) v = atol(line + strlen(key));
    if (fp) fclose(fp);
    return v;
}

static void reset_peak(void)
{
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    if (fd >= 0) {
        if (write(fd, "5", 1) != 1) { /* older kernels: the peak is not reset */
        }
        close(fd);
    }
}

typedef struct ctx {
    lattio_layout l, bl;   /* the caller's layout (native doubles), the file bytes' layout */
    double *local;         /* native doubles of this rank's box */
    unsigned char *be;     /* the same sites as file bytes (big-endian) */
    unsigned char *image;  /* rank 0: the whole file's binary payload */
    uint64_t gbytes, lbytes;
    int durable;
    double profile[2][LATTIO_NPHASES];
    long extra_kib;
} ctx;

static void layout(ctx *c, uint64_t L, uint64_t T, const char *decomp)
{
    const uint64_t g[4] = {L, L, L, T};
    int grid[4] = {1, 1, 1, 1}; /* x y z t */
    if (strcmp(decomp, "tslab") == 0) grid[3] = size_;
    else if (strcmp(decomp, "x") == 0) grid[0] = size_;
    else {
        int dims[4] = {0, 0, 0, 0};
        MPI_Dims_create(size_, 4, dims);
        memcpy(grid, dims, sizeof grid);
    }
    uint64_t lo[4], count[4];
    int r = rank_;
    for (int d = 0; d < 4; d++) {
        die(lattio_split(g[d], (uint64_t)grid[d], (uint64_t)(r % grid[d]), &lo[d], &count[d]), "split");
        r /= grid[d];
    }
    die(lattio_layout_init(&c->l, 4, g, lo, count, 576), "layout");
    static const int order[4] = {3, 2, 1, 0};
    for (int d = 0; d < 4; d++) c->l.file_order[d] = c->l.mem_order[d] = order[d];
    die(lattio_layout_check(&c->l), "layout");
    c->bl = c->l;
}

/* Fill local (native) and be (file bytes) by global site rank. */
static void fill(ctx *c)
{
    const uint64_t n = lattio_layout_local_sites(&c->l);
    c->lbytes = n * 576;
    c->gbytes = lattio_layout_global_sites(&c->l) * 576;
    c->local = malloc(c->lbytes ? c->lbytes : 1);
    c->be = malloc(c->lbytes ? c->lbytes : 1);
    if (!c->local || !c->be) die(LATTIO_ERR_NOMEM, "buffers");
    uint64_t cnt[4], lo[4];
    for (int d = 0; d < 4; d++) cnt[d] = c->l.count[d], lo[d] = c->l.lo[d];
    uint64_t s = 0;
    for (uint64_t t = 0; t < cnt[3]; t++)
        for (uint64_t z = 0; z < cnt[2]; z++)
            for (uint64_t y = 0; y < cnt[1]; y++)
                for (uint64_t x = 0; x < cnt[0]; x++, s++) {
                    const uint64_t co[4] = {lo[0] + x, lo[1] + y, lo[2] + z, lo[3] + t};
                    const uint64_t r = lattio_layout_file_rank(&c->l, co);
                    for (uint64_t k = 0; k < 72; k++) c->local[s * 72 + k] = value(r, k);
                }
    die(lattio_convert_reals(c->be, LATTIO_REAL_F64_BE, c->local, LATTIO_REAL_F64_NATIVE, (size_t)(n * 72)),
        "convert");
    if (rank_ == 0) {
        c->image = malloc(c->gbytes);
        if (!c->image) die(LATTIO_ERR_NOMEM, "image");
        const uint64_t vol = c->gbytes / 576;
        double *row = malloc(72 * 1024 * sizeof *row);
        for (uint64_t r0 = 0; r0 < vol; r0 += 1024) {
            const uint64_t k = vol - r0 < 1024 ? vol - r0 : 1024;
            for (uint64_t i = 0; i < k * 72; i++) row[i] = value(r0 + i / 72, i % 72);
            lattio_convert_reals(c->image + r0 * 576, LATTIO_REAL_F64_BE, row, LATTIO_REAL_F64_NATIVE,
                                 (size_t)(k * 72));
        }
        free(row);
    }
}

static double tmax(double t)
{
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return t;
}

/* Before every write: the case's previous file removed and everything
 * synced, so each write case reuses the pages its own previous file just
 * freed (the steady state of a code rewriting a checkpoint of one size),
 * with no other case's dirty pages to write back.  On this VM the page
 * cache's history sets a write's speed 2.5-6x (bench/page_reuse.c,
 * bench/write_paths.c): memory the guest frees goes back to the host
 * about 2 s later and costs a host fault per page when touched again.
 * FLOOR_PAUSE=N (seconds) adds a pause and a touch-and-free of as much
 * memory as this rank's share of the file before each write, as up to
 * stop 22; it made every case but one per repetition 2-8x slower in
 * stop 23 (1 rank: `write()` of 1.2 GB 2.3-3.2 s against 0.32 s without). */
static void fresh(const char *path)
{
    const char *e = getenv("FLOOR_PAUSE");
    const unsigned pause = e ? (unsigned)strtoul(e, NULL, 10) : 0;
    if (rank_ == 0) {
        unlink(path);
        sync();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (pause) {
        sleep(pause);
        const size_t n = (size_t)(c_bytes / (uint64_t)size_) + ((size_t)32 << 20);
        unsigned char *p = malloc(n);
        if (p) memset(p, 1, n);
        free(p);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Bytes per baseline write call (FLOOR_CALL, default 256 KiB). */
static size_t call_bytes(void)
{
    const char *e = getenv("FLOOR_CALL");
    const unsigned long long v = e && *e ? strtoull(e, NULL, 10) : 0;
    return v >= 4096 && v <= (1ull << 30) ? (size_t)v : ((size_t)256 << 10);
}

static double posix_io(ctx *c, int writing)
{
    if (writing) fresh("posix.bin");
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    if (rank_ == 0) {
        int fd = writing ? open("posix.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644) : open("posix.bin", O_RDONLY);
        for (uint64_t off = 0; fd >= 0 && off < c->gbytes;) {
            const size_t call = writing ? call_bytes() : ((size_t)64 << 20);
            const size_t n = c->gbytes - off < call ? (size_t)(c->gbytes - off) : call;
            const ssize_t k = writing ? write(fd, c->image + off, n) : read(fd, c->image + off, n);
            if (k <= 0) die(LATTIO_ERR_WRITE, "posix");
            off += (uint64_t)k;
        }
        if (fd < 0 || (writing && c->durable && fsync(fd) != 0)) die(LATTIO_ERR_WRITE, "posix");
        close(fd);
    }
    return tmax(MPI_Wtime() - t0);
}

/* Rank 0 alone moves the file bytes contiguously with MPI_File_write_at /
 * read_at on MPI_COMM_SELF, in the posix case's calls (+ MPI_File_sync when
 * durable): one process's contiguous I/O through the same MPI-IO library
 * as lattio's own writes. */
static double mpi_io(ctx *c, int writing)
{
    if (writing) fresh("mpi.bin");
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    if (rank_ == 0) {
        MPI_File fh;
        int rc = MPI_File_open(MPI_COMM_SELF, "mpi.bin", writing ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY,
                               MPI_INFO_NULL, &fh);
        const uint64_t chunk = writing ? (uint64_t)call_bytes() : ((uint64_t)64 << 20);
        for (uint64_t off = 0; rc == MPI_SUCCESS && off < c->gbytes; off += chunk) {
            const int k = (int)(c->gbytes - off < chunk ? c->gbytes - off : chunk);
            rc = writing ? MPI_File_write_at(fh, (MPI_Offset)off, c->image + off, k, MPI_BYTE, MPI_STATUS_IGNORE)
                         : MPI_File_read_at(fh, (MPI_Offset)off, c->image + off, k, MPI_BYTE, MPI_STATUS_IGNORE);
        }
        if (rc == MPI_SUCCESS && writing && c->durable) rc = MPI_File_sync(fh);
        if (rc != MPI_SUCCESS || MPI_File_close(&fh) != MPI_SUCCESS) die(LATTIO_ERR_WRITE, "mpi");
    }
    return tmax(MPI_Wtime() - t0);
}

/* Conversion + checksum of this rank's sites (write direction: native ->
 * BE + sum; read: sum + BE -> native), in 64 KiB blocks as the pipeline.
 * Writing, the converted block stays in the cache (the pipeline's staging
 * is reused too); reading, it goes where a field read must put it, the
 * rank's whole array (c->local: a memory write of the local volume, which
 * a read into a 64 KiB scratch block would leave out of the floor). */
static double kernel(ctx *c, int writing)
{
    unsigned char *tmp = malloc(64 << 10);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    lattio_scidac_sum sum = {0, 0};
    const uint64_t n = lattio_layout_local_sites(&c->l), per = (64 << 10) / 576;
    for (uint64_t s = 0; s < n; s += per) {
        const uint64_t k = n - s < per ? n - s : per;
        if (writing) {
            lattio_convert_reals(tmp, LATTIO_REAL_F64_BE, c->local + s * 72, LATTIO_REAL_F64_NATIVE, (size_t)(k * 72));
            lattio_scidac_sum_sites(&sum, tmp, 576, k, s);
        } else {
            lattio_scidac_sum_sites(&sum, c->be + s * 576, 576, k, s);
            lattio_convert_reals(c->local + s * 72, LATTIO_REAL_F64_NATIVE, c->be + s * 576, LATTIO_REAL_F64_BE,
                                 (size_t)(k * 72));
        }
    }
    const double t = MPI_Wtime() - t0;
    free(tmp);
    if (sum.suma == 42 && sum.sumb == 42) printf("!");
    return tmax(t);
}

/* Lemon's side of a field call: all of this rank's sites converted and
 * checksummed between the native array and the big-endian buffer in one
 * pass (writing: native -> BE + sum; reading: sum + BE -> native). */
static void convert_all(ctx *c, int writing)
{
    lattio_scidac_sum sum = {0, 0};
    const uint64_t n = lattio_layout_local_sites(&c->l), per = (64 << 10) / 576;
    for (uint64_t s = 0; s < n; s += per) {
        const uint64_t k = n - s < per ? n - s : per;
        if (writing) {
            lattio_convert_reals(c->be + s * 576, LATTIO_REAL_F64_BE, c->local + s * 72, LATTIO_REAL_F64_NATIVE,
                                 (size_t)(k * 72));
            lattio_scidac_sum_sites(&sum, c->be + s * 576, 576, k, s);
        } else {
            lattio_scidac_sum_sites(&sum, c->be + s * 576, 576, k, s);
            lattio_convert_reals(c->local + s * 72, LATTIO_REAL_F64_NATIVE, c->be + s * 576, LATTIO_REAL_F64_BE,
                                 (size_t)(k * 72));
        }
    }
    uint32_t in[2] = {sum.suma, sum.sumb}, out[2];
    MPI_Allreduce(in, out, 2, MPI_UINT32_T, MPI_BXOR, MPI_COMM_WORLD);
    if (out[0] == 42 && out[1] == 42) printf("!");
}

static void keep_profile(ctx *c, lattio_file *f, int which)
{
    lattio_profile p;
    die(lattio_profile_get(f, &p), "profile");
    for (int k = 0; k < LATTIO_NPHASES; k++) c->profile[which][k] = p.phase[k][1];
}

static double lattio_io(ctx *c, int field, int writing)
{
    const char *path = field ? "field.lime" : "plain.lime";
    if (writing) fresh(path);
    lattio_options opt;
    lattio_options_default(&opt);
    opt.durable = c->durable;
    MPI_Barrier(MPI_COMM_WORLD);
    const long rss0 = status_kib("VmRSS:");
    if (field && writing) reset_peak();
    const double t0 = MPI_Wtime();
    lattio_file *f = NULL;
    die(lattio_open(MPI_COMM_WORLD, path, writing ? LATTIO_MODE_CREATE : LATTIO_MODE_READ, MPI_INFO_NULL,
                    writing ? &opt : NULL, &f), "open");
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_ILDG_GAUGE, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, 72);
    d.date = "Mon Jan  1 00:00:00 2024";
    if (field && writing) die(lattio_field_write(f, &d, &c->l, c->local, NULL), "field write");
    if (field && !writing) {
        lattio_field_read_info info;
        die(lattio_field_read(f, 0, &d, &c->l, c->local, &info), "field read");
        if (info.checksum != LATTIO_CHECKSUM_VERIFIED) die(LATTIO_ERR_CHECKSUM, "not verified");
        lattio_field_info_free(&info.field);
    }
    if (!field && writing) {
        die(lattio_record_begin(f, "ildg-binary-data", c->gbytes, 1, 1), "begin");
        die(lattio_lattice_write(f, &c->bl, 0, c->be), "lattice write");
        die(lattio_record_end(f, 0), "end");
    }
    if (!field && !writing) {
        lattio_record_info ri;
        die(lattio_record_find(f, "ildg-binary-data", 0, &ri), "find");
        die(lattio_lattice_read(f, &c->bl, 0, c->be), "lattice read");
    }
    if (field) keep_profile(c, f, writing ? 0 : 1);
    die(lattio_close(f), "close");
    const double t = MPI_Wtime() - t0;
    if (field && writing) {
        long extra = status_kib("VmHWM:") - rss0;
        MPI_Allreduce(MPI_IN_PLACE, &extra, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
        if (extra > c->extra_kib) c->extra_kib = extra; /* the first call's: later ones reuse freed pages */
    }
    return tmax(t);
}

/* Lemon's approach on the file bytes: subarray view, one collective call;
 * with `conv` the conversion and checksum a field needs, timed with it. */
static double lemon_io(ctx *c, int writing, int conv)
{
    if (writing) fresh("lemon.bin");
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    if (conv && writing) convert_all(c, 1);
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, "lemon.bin", writing ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY,
                  MPI_INFO_NULL, &fh);
    MPI_Datatype site, ft;
    MPI_Type_contiguous(576, MPI_BYTE, &site);
    MPI_Type_commit(&site);
    int gs[4], ls[4], st[4];
    for (int i = 0; i < 4; i++) { /* file order t z y x */
        const int d = 3 - i;
        gs[i] = (int)c->l.global[d];
        ls[i] = (int)c->l.count[d];
        st[i] = (int)c->l.lo[d];
    }
    MPI_Type_create_subarray(4, gs, ls, st, MPI_ORDER_C, site, &ft);
    MPI_Type_commit(&ft);
    MPI_File_set_view(fh, 0, site, ft, "native", MPI_INFO_NULL);
    const int n = (int)lattio_layout_local_sites(&c->l);
    int rc = writing ? MPI_File_write_at_all(fh, 0, c->be, n, site, MPI_STATUS_IGNORE)
                     : MPI_File_read_at_all(fh, 0, c->be, n, site, MPI_STATUS_IGNORE);
    if (writing && c->durable) MPI_File_sync(fh);
    MPI_File_close(&fh);
    MPI_Type_free(&ft);
    MPI_Type_free(&site);
    if (rc != MPI_SUCCESS) die(LATTIO_ERR_MPI, "lemon");
    if (conv && !writing) convert_all(c, 0);
    return tmax(MPI_Wtime() - t0);
}

/* The kinds of case, each written and read. */
enum { K_POSIX, K_FIELD, K_PLAIN, K_LEMON, K_LEMONC, K_MPI, NKINDS };
static const struct {
    int w, r;
} kinds[NKINDS] = {{POSIX_W, POSIX_R}, {FIELD_W, FIELD_R}, {PLAIN_W, PLAIN_R},
                   {LEMON_W, LEMON_R}, {LEMONC_W, LEMONC_R}, {MPI_W, MPI_R}};

static double run_case(ctx *c, int kind, int writing)
{
    switch (kind) {
    case K_POSIX: return posix_io(c, writing);
    case K_FIELD: return lattio_io(c, 1, writing);
    case K_PLAIN: return lattio_io(c, 0, writing);
    case K_LEMON: return lemon_io(c, writing, 0);
    case K_LEMONC: return lemon_io(c, writing, 1);
    default: return mpi_io(c, writing);
    }
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double med(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

/* Ratios within each repetition, then their median: the cases of one
 * repetition ran within a minute of each other, so a slow spell of the
 * machine moves numerator and denominator together.  `floor`: the
 * denominator is max(b, k) (1), b + k (2) or b alone (0); `speed`: b / a
 * instead of a / b. */
static double paired(const double *a, const double *b, const double *k, int n, int floor, int speed)
{
    double r[50];
    for (int i = 0; i < n; i++) {
        double d = b[i];
        if (floor == 1 && k[i] > d) d = k[i];
        if (floor == 2) d += k[i];
        r[i] = speed ? d / a[i] : a[i] / d;
    }
    return med(r, n);
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    const uint64_t L = argc > 1 ? strtoull(argv[1], NULL, 10) : 8;
    const uint64_t T = argc > 2 ? strtoull(argv[2], NULL, 10) : 16;
    const char *decomp = argc > 3 ? argv[3] : "tslab";
    int reps = argc > 4 ? atoi(argv[4]) : 3;
    ctx c;
    memset(&c, 0, sizeof c);
    c.durable = argc > 5 ? atoi(argv[5]) : 0;
    if (reps < 1 || reps > 50) reps = 3;
    layout(&c, L, T, decomp);
    fill(&c);
    c_bytes = c.gbytes;
    double t[NC][50], kw[50], kr[50];
    for (int r = -1; r < reps; r++) { /* r = -1: warm-up */
        double v[NC];
        /* the writes, then the reads, each in an order that rotates with
         * the repetition: on this VM a case's place in the sequence can set
         * its speed (the page cache's history), so none always follows
         * another */
        for (int w = 1; w >= 0; w--)
            for (int k = 0; k < NKINDS; k++) {
                const int kind = (k + r + 1) % NKINDS;
                v[w ? kinds[kind].w : kinds[kind].r] = run_case(&c, kind, w);
            }
        const double a = kernel(&c, 1), b = kernel(&c, 0);
        if (r < 0) continue;
        for (int k = 0; k < NC; k++) t[k][r] = v[k];
        kw[r] = a;
        kr[r] = b;
    }
    if (rank_ == 0) {
        /* before med() sorts the columns */
        const double pair[16] = {
            paired(t[FIELD_W], t[PLAIN_W], kw, reps, 1, 0), paired(t[FIELD_W], t[PLAIN_W], kw, reps, 2, 0),
            paired(t[FIELD_R], t[PLAIN_R], kr, reps, 1, 0), paired(t[FIELD_R], t[PLAIN_R], kr, reps, 2, 0),
            paired(t[FIELD_W], t[POSIX_W], kw, reps, 0, 1), paired(t[FIELD_W], t[MPI_W], kw, reps, 0, 1),
            paired(t[FIELD_W], t[LEMON_W], kw, reps, 0, 1), paired(t[FIELD_W], t[LEMONC_W], kw, reps, 0, 1),
            paired(t[FIELD_R], t[POSIX_R], kr, reps, 0, 1), paired(t[FIELD_R], t[MPI_R], kr, reps, 0, 1),
            paired(t[FIELD_R], t[LEMON_R], kr, reps, 0, 1), paired(t[FIELD_R], t[LEMONC_R], kr, reps, 0, 1),
            paired(t[PLAIN_W], t[POSIX_W], kw, reps, 0, 1), paired(t[PLAIN_W], t[MPI_W], kw, reps, 0, 1),
            paired(t[PLAIN_R], t[POSIX_R], kr, reps, 0, 1), paired(t[PLAIN_R], t[MPI_R], kr, reps, 0, 1)};
        double m[NC];
        for (int k = 0; k < NC; k++) m[k] = med(t[k], reps);
        const double mkw = med(kw, reps), mkr = med(kr, reps);
        const double pw = m[PLAIN_W], pr = m[PLAIN_R];
        printf("np %d %s %llux%llux%llux%llu (%.2f GB)%s, %d reps, medians (s):", size_, decomp,
               (unsigned long long)L, (unsigned long long)L, (unsigned long long)L, (unsigned long long)T,
               (double)c.gbytes / 1e9, c.durable ? " durable" : " page cache", reps);
        for (int k = 0; k < NC; k++) printf(" %s %.3f,", names[k], m[k]);
        printf(" kernel write %.3f, kernel read %.3f\n", mkw, mkr);
        printf("  RATIO field write / max(plain, kernel) %.2f ; / (plain + kernel) %.2f\n",
               m[FIELD_W] / (pw > mkw ? pw : mkw), m[FIELD_W] / (pw + mkw));
        printf("  RATIO field read / max(plain, kernel) %.2f ; / (plain + kernel) %.2f\n",
               m[FIELD_R] / (pr > mkr ? pr : mkr), m[FIELD_R] / (pr + mkr));
        printf("  SPEED posix/field write %.2f, posix/plain write %.2f, posix/field read %.2f, "
               "posix/plain read %.2f\n",
               m[POSIX_W] / m[FIELD_W], m[POSIX_W] / m[PLAIN_W], m[POSIX_R] / m[FIELD_R], m[POSIX_R] / m[PLAIN_R]);
        printf("  SPEED mpi/field write %.2f, mpi/plain write %.2f, mpi/field read %.2f, mpi/plain read %.2f\n",
               m[MPI_W] / m[FIELD_W], m[MPI_W] / m[PLAIN_W], m[MPI_R] / m[FIELD_R], m[MPI_R] / m[PLAIN_R]);
        printf("  SPEED lemon/field write %.2f, lemon/plain write %.2f, lemon/field read %.2f, "
               "lemon/plain read %.2f\n",
               m[LEMON_W] / m[FIELD_W], m[LEMON_W] / m[PLAIN_W], m[LEMON_R] / m[FIELD_R], m[LEMON_R] / m[PLAIN_R]);
        printf("  SPEED lemon+conv/field write %.2f, lemon+conv/field read %.2f\n", m[LEMONC_W] / m[FIELD_W],
               m[LEMONC_R] / m[FIELD_R]);
        printf("  PAIRED (median over repetitions of each one's ratio): field write / max(plain, kernel) "
               "%.2f, / (plain + kernel) %.2f; field read / max %.2f, / sum %.2f\n",
               pair[0], pair[1], pair[2], pair[3]);
        printf("  PAIRED speed vs field: write posix %.2f, mpi %.2f, lemon %.2f, lemon+conv %.2f; "
               "read posix %.2f, mpi %.2f, lemon %.2f, lemon+conv %.2f\n",
               pair[4], pair[5], pair[6], pair[7], pair[8], pair[9], pair[10], pair[11]);
        printf("  PAIRED speed vs plain (the same bytes, no conversion): write posix %.2f, mpi %.2f; "
               "read posix %.2f, mpi %.2f\n",
               pair[12], pair[13], pair[14], pair[15]);
        for (int w = 0; w < 2; w++) {
            printf("  field %s phases (mean over ranks, s):", w ? "read" : "write");
            for (int k = 0; k < LATTIO_NPHASES; k++)
                if (c.profile[w][k] >= 0.0005) printf(" %s %.3f", lattio_phase_name(k), c.profile[w][k]);
            printf("\n");
        }
        printf("  field write peak extra memory (max over ranks): %.1f MiB (local field %.1f MiB)\n",
               (double)c.extra_kib / 1024, (double)c.lbytes / 1048576);
    }
    free(c.local);
    free(c.be);
    free(c.image);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank_ == 0) /* nothing left behind: five files of the field's size */
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) unlink(files[i]);
    MPI_Finalize();
    return 0;
}
