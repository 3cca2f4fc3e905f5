/* lattice_bench.c -- write and read a distributed lattice three ways, side by
 * side in one run, and compare:
 *   posix   rank 0 alone writes/reads the whole file with write()/read()
 *           (the ceiling: a plain sequential transfer of the same bytes);
 *   lattio  lattio_open + record_begin + lattio_lattice_write + record_end +
 *           close (rename included), plain and durable (fsync at close);
 *   lemon   Lemon's approach: rank 0 writes the 144-byte header, sync and
 *           barrier, a subarray file view at the payload, one
 *           MPI_File_write_at_all, sync and barrier, close.
 * Every write is verified after its timing (each rank re-reads its box with
 * pread and compares, rank 0 checks the header): a wrong file is reported
 * as CORRUPT, never as a speed.  Times are MPI_Wtime around the whole
 * operation (open to close), maximum over ranks.
 *
 * File order t z y x (slowest first, as ILDG); lattice dimensions are named
 * x=0 y=1 z=2 t=3.  Run with --help for the options. */
#define _XOPEN_SOURCE 700 /* sync() */
#include <lattio.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_REPS 64
#define CHUNK ((size_t)16 << 20)
#define REC_TYPE "ildg-binary-data"

/* *_DIRECT (with --profile, boxes contiguous in the file only): the box's
 * bytes in one lattio_record_write_at / _read_at call, no staging copy --
 * what lattio_lattice_write could do for a slab. */
enum { W_POSIX, W_POSIX_SYNC, W_LATTIO, W_LATTIO_DUR, W_LEMON, W_DIRECT,
       R_POSIX, R_LATTIO, R_LEMON, R_DIRECT, NCASES };
static const char *case_name[NCASES] = {
    "posix_write", "posix_write_fsync", "lattio_write", "lattio_write_durable", "lemon_write",
    "lattio_record_write_at", "posix_read", "lattio_read", "lemon_read", "lattio_record_read_at"};
/* The baseline each case is compared with, and whether it syncs. */
static const int case_base[NCASES] = {W_POSIX, W_POSIX_SYNC, W_POSIX, W_POSIX_SYNC, W_POSIX_SYNC,
                                      W_POSIX, R_POSIX, R_POSIX, R_POSIX, R_POSIX};
static const int case_syncs[NCASES] = {0, 1, 0, 1, 1, 0, 0, 0, 0, 0};

typedef struct config {
    uint64_t dims[4]; /* x y z t */
    size_t site;
    const char *decomp; /* tslab | 4d | xy */
    int reps, warmup, fsync, drop, profile, strategy;
    const char *json, *dir, *label;
} config;

typedef struct bench {
    config c;
    int rank, size;
    int grid[4]; /* ranks along x y z t */
    lattio_layout lay;
    uint64_t local_sites, local_bytes, global_bytes, file_bytes;
    unsigned char *src, *dst;   /* this rank's box, file order */
    unsigned char *gsrc, *gdst; /* rank 0: the whole lattice (aliases at 1 rank) */
    unsigned char header[LATTIO_LIME_HEADER_SIZE];
    MPI_Datatype etype, ftype;
    double t[NCASES][MAX_REPS];
    int ran[NCASES], bad[NCASES], err[NCASES];
    int dropped; /* drop_caches worked */
    double pack_s; uint64_t runs;
    double load[2]; /* 1-minute load average before and after (others' work distorts) */
} bench;

/* ---- options ------------------------------------------------------------ */

static void usage(void)
{
    puts("usage: lattice_bench [--dims X Y Z T] [--site-bytes N] [--decomp tslab|4d|xy]\n"
         "         [--reps N] [--warmup N] [--fsync] [--drop-caches] [--profile]\n"
         "         [--strategy N] [--json FILE] [--dir DIR] [--label TEXT] [--smoke]\n"
         "defaults: 32 32 32 64 (x y z t), 576 bytes, tslab, 5 reps, 1 warm-up, dir .\n"
         "--fsync adds posix_write_fsync and lattio_write_durable (lemon always syncs)\n"
         "--strategy: lattio_options.strategy by number or name: 0 auto, 1 independent,\n"
         "            2 collective, 3 aggregate, 4 serial");
}

/* A strategy by number (0..4) or name; -1 when neither. */
static int parse_strategy(const char *s)
{
    static const char *const names[] = {"auto", "independent", "collective", "aggregate", "serial"};
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (!strcmp(s, names[i]) || (s[0] == '0' + i && s[1] == '\0')) return i;
    return -1;
}

static int parse(int argc, char **argv, config *c)
{
    *c = (config){{32, 32, 32, 64}, 576, "tslab", 5, 1, 0, 0, 0, 0, NULL, ".", ""};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = argc - i - 1;
        if (!strcmp(a, "--dims") && more >= 4) {
            for (int d = 0; d < 4; d++) c->dims[d] = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(a, "--site-bytes") && more) c->site = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(a, "--decomp") && more) c->decomp = argv[++i];
        else if (!strcmp(a, "--reps") && more) c->reps = atoi(argv[++i]);
        else if (!strcmp(a, "--warmup") && more) c->warmup = atoi(argv[++i]);
        else if (!strcmp(a, "--strategy") && more) c->strategy = parse_strategy(argv[++i]);
        else if (!strcmp(a, "--json") && more) c->json = argv[++i];
        else if (!strcmp(a, "--dir") && more) c->dir = argv[++i];
        else if (!strcmp(a, "--label") && more) c->label = argv[++i];
        else if (!strcmp(a, "--fsync")) c->fsync = 1;
        else if (!strcmp(a, "--drop-caches")) c->drop = 1;
        else if (!strcmp(a, "--profile")) c->profile = 1;
        else if (!strcmp(a, "--smoke")) {
            uint64_t s[4] = {4, 4, 4, 8};
            memcpy(c->dims, s, sizeof s);
            c->reps = 1;
            c->warmup = 0;
            c->fsync = 1;
        } else return -1;
    }
    for (int d = 0; d < 4; d++)
        if (c->dims[d] == 0 || c->dims[d] > 1u << 20) return -1;
    if (c->site == 0 || c->reps < 1 || c->reps > MAX_REPS || c->warmup < 0 || c->strategy < 0) return -1;
    if (strcmp(c->decomp, "tslab") && strcmp(c->decomp, "4d") && strcmp(c->decomp, "xy")) return -1;
    return 0;
}

/* ---- lattice set-up -------------------------------------------------------- */

/* Ranks per lattice dimension.  4d: MPI_Dims_create's factors go to t, z, y,
 * x (largest to the slowest file dimension, as Lemon/tmLQCD order their grid). */
static void make_grid(bench *b)
{
    for (int d = 0; d < 4; d++) b->grid[d] = 1;
    if (!strcmp(b->c.decomp, "tslab")) {
        b->grid[3] = b->size;
    } else if (!strcmp(b->c.decomp, "4d")) {
        int f[4] = {0, 0, 0, 0};
        MPI_Dims_create(b->size, 4, f);
        for (int d = 0; d < 4; d++) b->grid[3 - d] = f[d];
    } else {
        int f[2] = {0, 0};
        MPI_Dims_create(b->size, 2, f);
        b->grid[0] = f[0];
        b->grid[1] = f[1];
    }
}

static int make_layout(bench *b)
{
    uint64_t lo[4], count[4];
    int r = b->rank;
    for (int d = 0; d < 4; d++) { /* x fastest in the rank numbering, t slowest */
        int coord = r % b->grid[d];
        r /= b->grid[d];
        if (lattio_split(b->c.dims[d], (uint64_t)b->grid[d], (uint64_t)coord, &lo[d], &count[d]))
            return -1;
    }
    if (lattio_layout_init(&b->lay, 4, b->c.dims, lo, count, b->c.site)) return -1;
    for (int i = 0; i < 4; i++) b->lay.file_order[i] = b->lay.mem_order[i] = 3 - i;
    if (lattio_layout_check(&b->lay)) return -1;
    b->local_sites = lattio_layout_local_sites(&b->lay);
    b->local_bytes = b->local_sites * b->c.site;
    b->global_bytes = lattio_layout_global_sites(&b->lay) * b->c.site;
    b->file_bytes = LATTIO_LIME_HEADER_SIZE + b->global_bytes + lattio_lime_padding(b->global_bytes);
    return lattio_lime_header_encode(b->header, REC_TYPE, b->global_bytes, 1, 1);
}

/* The bytes of site `r` (file rank): 64-bit words that depend on r and the word. */
static void fill_site(unsigned char *p, uint64_t r, size_t site)
{
    for (size_t off = 0; off < site; off += 8) {
        uint64_t v = ((r << 12) ^ (off >> 3) ^ 0x5eedULL) * 0x9E3779B97F4A7C15ULL;
        size_t n = site - off < 8 ? site - off : 8;
        memcpy(p + off, &v, n);
    }
}

/* File rank of this rank's local site i (local sites in file order). */
static uint64_t file_rank_of(const bench *b, uint64_t i)
{
    uint64_t g[4];
    for (int d = 0; d < 4; d++) {
        g[d] = b->lay.lo[d] + i % b->lay.count[d];
        i /= b->lay.count[d];
    }
    return lattio_layout_file_rank(&b->lay, g);
}

static unsigned char *alloc_touched(uint64_t n)
{
    unsigned char *p = malloc(n ? (size_t)n : 1);
    if (p) memset(p, 0xA5, (size_t)n);
    return p;
}

static int make_buffers(bench *b)
{
    b->src = alloc_touched(b->local_bytes);
    b->dst = alloc_touched(b->local_bytes);
    if (!b->src || !b->dst) return -1;
    for (uint64_t i = 0; i < b->local_sites; i++)
        fill_site(b->src + i * b->c.site, file_rank_of(b, i), b->c.site);
    if (b->rank == 0 && b->size == 1) {
        b->gsrc = b->src;
        b->gdst = b->dst;
    } else if (b->rank == 0) {
        b->gsrc = alloc_touched(b->global_bytes);
        b->gdst = alloc_touched(b->global_bytes);
        if (!b->gsrc || !b->gdst) return -1;
        for (uint64_t r = 0; r < b->global_bytes / b->c.site; r++)
            fill_site(b->gsrc + r * b->c.site, r, b->c.site);
    }
    return 0;
}

static int make_types(bench *b)
{
    int sizes[4], sub[4], starts[4];
    for (int i = 0; i < 4; i++) { /* file order t z y x */
        sizes[i] = (int)b->c.dims[3 - i];
        sub[i] = (int)b->lay.count[3 - i];
        starts[i] = (int)b->lay.lo[3 - i];
    }
    if (MPI_Type_contiguous((int)b->c.site, MPI_BYTE, &b->etype) != MPI_SUCCESS) return -1;
    MPI_Type_commit(&b->etype);
    if (MPI_Type_create_subarray(4, sizes, sub, starts, MPI_ORDER_C, b->etype, &b->ftype))
        return -1;
    return MPI_Type_commit(&b->ftype) == MPI_SUCCESS ? 0 : -1;
}

/* ---- the POSIX baseline (rank 0 alone) ------------------------------------ */

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
        if (g <= 0) return -1;
        p += g;
        n -= (uint64_t)g;
    }
    return 0;
}

static int posix_write(bench *b, const char *path, int sync)
{
    if (b->rank != 0) return 0;
    static const unsigned char zeros[8];
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) return -1;
    int rc = write_all(fd, b->header, sizeof b->header);
    if (!rc) rc = write_all(fd, b->gsrc, b->global_bytes);
    if (!rc) rc = write_all(fd, zeros, lattio_lime_padding(b->global_bytes));
    if (!rc && sync) rc = fsync(fd);
    return close(fd) || rc ? -1 : 0;
}

static int posix_read(bench *b, const char *path)
{
    if (b->rank != 0) return 0;
    unsigned char h[LATTIO_LIME_HEADER_SIZE];
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    int rc = read_all(fd, h, sizeof h);
    if (!rc) rc = read_all(fd, b->gdst, b->global_bytes);
    close(fd);
    return rc;
}

/* ---- lattio ------------------------------------------------------------------ */

static int lattio_write_case(bench *b, const char *path, int durable)
{
    lattio_options opt;
    lattio_options_default(&opt);
    opt.durable = durable;
    opt.strategy = b->c.strategy;
    lattio_file *f = NULL;
    int rc = lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, &opt, &f);
    if (rc) return rc;
    rc = lattio_record_begin(f, REC_TYPE, b->global_bytes, 1, 1);
    if (!rc) rc = lattio_lattice_write(f, &b->lay, 0, b->src);
    if (!rc) rc = lattio_record_end(f, 0);
    int crc = lattio_close(f);
    return rc ? rc : crc;
}

static int lattio_read_case(bench *b, const char *path)
{
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = b->c.strategy;
    lattio_file *f = NULL;
    lattio_record_info info;
    int rc = lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_READ, MPI_INFO_NULL, &opt, &f);
    if (rc) return rc;
    rc = lattio_record_find(f, REC_TYPE, 0, &info);
    if (!rc) rc = lattio_lattice_read(f, &b->lay, 0, b->dst);
    int crc = lattio_close(f);
    return rc ? rc : crc;
}

/* The slab shortcut: this rank's box is one piece of the file. */
static int direct_case(bench *b, const char *path, int writing)
{
    lattio_options opt;
    lattio_options_default(&opt);
    lattio_file *f = NULL;
    lattio_record_info info;
    uint64_t at = file_rank_of(b, 0) * b->c.site;
    int rc = lattio_open(MPI_COMM_WORLD, path, writing ? LATTIO_MODE_CREATE : LATTIO_MODE_READ,
                         MPI_INFO_NULL, &opt, &f);
    if (rc) return rc;
    if (writing) {
        rc = lattio_record_begin(f, REC_TYPE, b->global_bytes, 1, 1);
        if (!rc) rc = lattio_record_write_at(f, at, b->src, b->local_bytes);
        if (!rc) rc = lattio_record_end(f, 0);
    } else {
        rc = lattio_record_find(f, REC_TYPE, 0, &info);
        if (!rc) rc = lattio_record_read_at(f, at, b->dst, b->local_bytes);
    }
    int crc = lattio_close(f);
    return rc ? rc : crc;
}

/* ---- Lemon's approach (seed 000; lemonWriteLatticeParallelMapped) ----------- */

static int lemon_write(bench *b, const char *path)
{
    MPI_File fh;
    MPI_Status st;
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    if (rc) return rc;
    if (b->rank == 0) rc |= MPI_File_write_at(fh, 0, b->header, (int)sizeof b->header, MPI_BYTE, &st);
    rc |= MPI_File_sync(fh); /* Lemon: sync + barrier after the header */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    rc |= MPI_File_set_view(fh, LATTIO_LIME_HEADER_SIZE, b->etype, b->ftype, "native", MPI_INFO_NULL);
    rc |= MPI_File_write_at_all(fh, 0, b->src, (int)b->local_sites, b->etype, &st);
    rc |= MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    rc |= MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    uint32_t pad = lattio_lime_padding(b->global_bytes);
    static const unsigned char zeros[8];
    if (b->rank == 0 && pad)
        rc |= MPI_File_write_at(fh, (MPI_Offset)(b->file_bytes - pad), zeros, (int)pad, MPI_BYTE, &st);
    rc |= MPI_File_close(&fh);
    return rc;
}

static int lemon_read(bench *b, const char *path)
{
    MPI_File fh;
    MPI_Status st;
    unsigned char h[LATTIO_LIME_HEADER_SIZE];
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    if (rc) return rc;
    rc |= MPI_File_read_at_all(fh, 0, h, (int)sizeof h, MPI_BYTE, &st);
    rc |= MPI_File_set_view(fh, LATTIO_LIME_HEADER_SIZE, b->etype, b->ftype, "native", MPI_INFO_NULL);
    rc |= MPI_File_read_at_all(fh, 0, b->dst, (int)b->local_sites, b->etype, &st);
    MPI_Barrier(MPI_COMM_WORLD);
    rc |= MPI_File_close(&fh);
    return rc;
}

/* ---- verification (untimed) ---------------------------------------------- */

/* Sites per piece of this rank's box that is contiguous in the file. */
static uint64_t run_sites(const bench *b)
{
    uint64_t run = 1;
    for (int d = 0; d < 4; d++) {
        run *= b->lay.count[d];
        if (b->lay.count[d] != b->c.dims[d]) break;
    }
    return run;
}

/* Compare the file's bytes of local sites [i, i+n) with src. */
static int check_piece(const bench *b, int fd, uint64_t i, uint64_t n, unsigned char *tmp)
{
    uint64_t off = LATTIO_LIME_HEADER_SIZE + file_rank_of(b, i) * b->c.site;
    uint64_t bytes = n * b->c.site, done = 0;
    while (done < bytes) {
        size_t k = bytes - done > CHUNK ? CHUNK : (size_t)(bytes - done);
        if (pread(fd, tmp, k, (off_t)(off + done)) != (ssize_t)k) return 1;
        if (memcmp(tmp, b->src + i * b->c.site + done, k)) return 1;
        done += k;
    }
    return 0;
}

static int check_header(const bench *b, int fd)
{
    unsigned char h[LATTIO_LIME_HEADER_SIZE];
    if (pread(fd, h, sizeof h, 0) != (ssize_t)sizeof h) return 1;
    if (memcmp(h, b->header, sizeof h)) return 1;
    return lseek(fd, 0, SEEK_END) != (off_t)b->file_bytes;
}

/* Collective: 0 when every rank's box and the header are right on disk. */
static int verify_file(const bench *b, const char *path)
{
    int bad = 0, any = 0;
    int fd = open(path, O_RDONLY);
    unsigned char *tmp = malloc(CHUNK);
    if (fd < 0 || !tmp) bad = 1;
    if (!bad && b->rank == 0) bad = check_header(b, fd);
    uint64_t run = run_sites(b);
    for (uint64_t i = 0; !bad && i < b->local_sites; i += run) bad = check_piece(b, fd, i, run, tmp);
    if (fd >= 0) close(fd);
    free(tmp);
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any;
}

/* Collective: 0 when what the read case delivered equals the source. */
static int verify_read(const bench *b, int which)
{
    int bad = 0, any = 0;
    if (which == R_POSIX) bad = b->rank == 0 && memcmp(b->gdst, b->gsrc, b->global_bytes);
    else bad = memcmp(b->dst, b->src, b->local_bytes) != 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any;
}

/* ---- running the cases ------------------------------------------------------ */

static void path_of(const bench *b, int which, char *out, size_t n)
{
    snprintf(out, n, "%s/lattice_bench.%s.lime", b->c.dir, which >= R_POSIX ? "read" : case_name[which]);
}

static void remove_file(const char *path, int rank)
{
    if (rank == 0) {
        unlink(path);
        sync();
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static int run_op(bench *b, int which, const char *path)
{
    switch (which) {
    case W_POSIX: return posix_write(b, path, 0);
    case W_POSIX_SYNC: return posix_write(b, path, 1);
    case W_LATTIO: return lattio_write_case(b, path, 0);
    case W_LATTIO_DUR: return lattio_write_case(b, path, 1);
    case W_LEMON: return lemon_write(b, path);
    case W_DIRECT: return direct_case(b, path, 1);
    case R_DIRECT: return direct_case(b, path, 0);
    case R_POSIX: return posix_read(b, path);
    case R_LATTIO: return lattio_read_case(b, path);
    default: return lemon_read(b, path);
    }
}

/* Collective: time one case (max over ranks); its error status via *err. */
static double timed(bench *b, int which, const char *path, int *err)
{
    double t0, t, tmax;
    int e, emax;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    MPI_Pcontrol(1, case_name[which]); /* a phase for a count tool (bench/iocount.c) */
    e = run_op(b, which, path) != 0;
    MPI_Pcontrol(0);
    t = MPI_Wtime() - t0;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&e, &emax, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    *err = emax;
    return tmax;
}

static void drop_caches(bench *b)
{
    if (!b->c.drop) return;
    if (b->rank == 0) {
        sync();
        FILE *fp = fopen("/proc/sys/vm/drop_caches", "w");
        b->dropped = fp && fputs("3\n", fp) >= 0;
        if (fp && fclose(fp)) b->dropped = 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static uint64_t run_sites(const bench *b);

static int wanted(const bench *b, int which)
{
    if (which == W_DIRECT || which == R_DIRECT)
        return b->c.profile && run_sites(b) == b->local_sites;
    return b->c.fsync || (which != W_POSIX_SYNC && which != W_LATTIO_DUR);
}

static void one_write(bench *b, int which, int slot)
{
    char path[4096];
    int err;
    path_of(b, which, path, sizeof path);
    remove_file(path, b->rank);
    double t = timed(b, which, path, &err);
    int bad = err ? 0 : verify_file(b, path);
    remove_file(path, b->rank);
    if (slot < 0) return;
    b->t[which][slot] = t;
    b->ran[which]++;
    b->err[which] |= err;
    b->bad[which] |= bad;
}

static void one_read(bench *b, int which, int slot)
{
    char path[4096];
    int err;
    path_of(b, which, path, sizeof path);
    memset(b->dst, 0xA5, (size_t)b->local_bytes);
    if (b->rank == 0 && b->gdst != b->dst) memset(b->gdst, 0xA5, (size_t)b->global_bytes);
    drop_caches(b);
    double t = timed(b, which, path, &err);
    int bad = err ? 0 : verify_read(b, which);
    if (slot < 0) return;
    b->t[which][slot] = t;
    b->ran[which]++;
    b->err[which] |= err;
    b->bad[which] |= bad;
}

/* One repetition: every write case, then every read case, the order
 * rotated per repetition so no case always goes first. */
static void repetition(bench *b, int rep, int slot)
{
    const int nw = R_POSIX, nr = NCASES - R_POSIX;
    for (int k = 0; k < nw; k++) {
        int which = (k + rep) % nw;
        if (wanted(b, which)) one_write(b, which, slot);
    }
    for (int k = 0; k < nr; k++) {
        int which = R_POSIX + (k + rep) % nr;
        if (wanted(b, which)) one_read(b, which, slot);
    }
}

/* The file the read cases read: written by lattio, verified. */
static int prepare_read_file(bench *b)
{
    char path[4096];
    path_of(b, R_POSIX, path, sizeof path);
    remove_file(path, b->rank);
    int rc = lattio_write_case(b, path, 0);
    int bad = rc ? 1 : verify_file(b, path);
    if (b->rank == 0 && rc) fprintf(stderr, "lattice_bench: lattio write: %s\n", lattio_strerror(rc));
    return bad;
}

/* Cost of lattio's packing stage alone: lattio_layout_pack through a 16 MiB
 * staging buffer, as src/strategy/lattice.c does, and the file runs it writes. */
static void profile_pack(bench *b)
{
    uint64_t chunk = CHUNK / b->c.site ? CHUNK / b->c.site : 1;
    unsigned char *staging = malloc((size_t)(chunk * b->c.site));
    lattio_run one;
    size_t nruns = 0;
    if (!staging) return;
    memset(staging, 0, (size_t)(chunk * b->c.site));
    lattio_layout_runs(&b->lay, 0, b->local_sites, &one, 1, &nruns);
    double t0 = MPI_Wtime(), t;
    for (uint64_t first = 0; first < b->local_sites; first += chunk) {
        uint64_t n = b->local_sites - first < chunk ? b->local_sites - first : chunk;
        lattio_layout_pack(&b->lay, b->src, first, n, staging);
    }
    t = MPI_Wtime() - t0;
    MPI_Allreduce(&t, &b->pack_s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    uint64_t r = nruns;
    MPI_Allreduce(&r, &b->runs, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    free(staging);
}

/* ---- report ------------------------------------------------------------------ */

static double loadavg(void)
{
    double l = -1;
    FILE *fp = fopen("/proc/loadavg", "r");
    if (fp && fscanf(fp, "%lf", &l) != 1) l = -1;
    if (fp) fclose(fp);
    return l;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct stats { double med, min, max; } stats;

static stats stats_of(const bench *b, int which)
{
    double s[MAX_REPS];
    int n = b->ran[which];
    stats r = {0, 0, 0};
    if (n == 0) return r;
    memcpy(s, b->t[which], (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    r.med = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    r.min = s[0];
    r.max = s[n - 1];
    return r;
}

static const char *status_of(const bench *b, int which)
{
    return b->err[which] ? "ERROR" : b->bad[which] ? "CORRUPT" : "ok";
}

/* Lemon's counterpart of a case, -1 if none. */
static int lemon_of(int which)
{
    if (which == W_LATTIO || which == W_LATTIO_DUR || which == W_DIRECT) return W_LEMON;
    return which == R_LATTIO || which == R_DIRECT ? R_LEMON : -1;
}

static double ratio(const bench *b, int num, int den)
{
    if (num < 0 || !b->ran[num] || !b->ran[den]) return 0;
    if (strcmp(status_of(b, num), "ok") || strcmp(status_of(b, den), "ok")) return 0;
    double d = stats_of(b, den).med;
    return d > 0 ? stats_of(b, num).med / d : 0;
}

static const char *io_component(void)
{
    const char *s = getenv("OMPI_MCA_io");
    return s && *s ? s : "default";
}

static void print_text(const bench *b)
{
    printf("# lattice_bench %s: %llux%llux%llux%llu (x y z t), %zu B/site, %.3f GB, np %d, %s grid "
           "x%d y%d z%d t%d, io %s, %d reps (+%d warm-up)%s%s\n",
           b->c.label, (unsigned long long)b->c.dims[0], (unsigned long long)b->c.dims[1],
           (unsigned long long)b->c.dims[2], (unsigned long long)b->c.dims[3], b->c.site,
           b->global_bytes / 1e9, b->size, b->c.decomp, b->grid[0], b->grid[1], b->grid[2],
           b->grid[3], io_component(), b->c.reps, b->c.warmup, b->c.drop ? ", caches dropped before reads" : "",
           b->c.drop && !b->dropped ? " (drop_caches NOT writable: reads are hot)" : "");
    printf("%-22s %9s %9s %9s %7s %8s %8s %s\n", "case", "median_s", "min_s", "max_s", "GB/s",
           "vs_base", "vs_lemon", "status");
    for (int w = 0; w < NCASES; w++) {
        if (!b->ran[w]) continue;
        stats s = stats_of(b, w);
        int ok = !strcmp(status_of(b, w), "ok");
        char vb[16] = "-", vl[16] = "-";
        if (ratio(b, case_base[w], w) > 0) snprintf(vb, sizeof vb, "%.3f", ratio(b, case_base[w], w));
        if (ratio(b, lemon_of(w), w) > 0) snprintf(vl, sizeof vl, "%.3f", ratio(b, lemon_of(w), w));
        printf("%-22s %9.4f %9.4f %9.4f %7.3f %8s %8s %s\n", case_name[w], s.med, s.min, s.max,
               ok && s.med > 0 ? b->global_bytes / s.med / 1e9 : 0, vb, vl, status_of(b, w));
    }
    printf("# load average (1 min) before %.2f, after %.2f on %ld cores\n", b->load[0], b->load[1],
           sysconf(_SC_NPROCESSORS_ONLN));
    if (b->c.profile)
        printf("# profile: lattio_layout_pack of the local box through 16 MiB staging: %.4f s "
               "(max over ranks); file runs per rank (= write calls): %llu\n",
               b->pack_s, (unsigned long long)b->runs);
}

static void json_case(FILE *fp, const bench *b, int w, int first)
{
    stats s = stats_of(b, w);
    int ok = !strcmp(status_of(b, w), "ok");
    fprintf(fp, "%s\n  {\"name\": \"%s\", \"op\": \"%s\", \"fsync\": %d, \"status\": \"%s\", \"times\": [",
            first ? "" : ",", case_name[w], w >= R_POSIX ? "read" : "write", case_syncs[w], status_of(b, w));
    for (int i = 0; i < b->ran[w]; i++) fprintf(fp, "%s%.6f", i ? ", " : "", b->t[w][i]);
    fprintf(fp, "], \"median\": %.6f, \"min\": %.6f, \"max\": %.6f, \"gbps\": %.4f, "
                "\"baseline\": \"%s\", \"vs_baseline\": %.4f, \"vs_lemon\": %.4f}",
            s.med, s.min, s.max, ok && s.med > 0 ? b->global_bytes / s.med / 1e9 : 0,
            case_name[case_base[w]], ratio(b, case_base[w], w), ratio(b, lemon_of(w), w));
}

static void print_json(const bench *b)
{
    FILE *fp = fopen(b->c.json, "w");
    if (!fp) {
        fprintf(stderr, "lattice_bench: cannot write %s\n", b->c.json);
        return;
    }
    fprintf(fp, "{\"label\": \"%s\", \"dims_xyzt\": [%llu, %llu, %llu, %llu], \"site_bytes\": %zu, "
                "\"bytes\": %llu, \"np\": %d, \"decomp\": \"%s\", \"grid_xyzt\": [%d, %d, %d, %d], "
                "\"io\": \"%s\", \"reps\": %d, \"warmup\": %d, \"drop_caches\": %d, "
                "\"loadavg\": [%.2f, %.2f], ",
            b->c.label, (unsigned long long)b->c.dims[0], (unsigned long long)b->c.dims[1],
            (unsigned long long)b->c.dims[2], (unsigned long long)b->c.dims[3], b->c.site,
            (unsigned long long)b->global_bytes, b->size, b->c.decomp, b->grid[0], b->grid[1],
            b->grid[2], b->grid[3], io_component(), b->c.reps, b->c.warmup, b->c.drop && b->dropped,
            b->load[0], b->load[1]);
    if (b->c.profile)
        fprintf(fp, "\"pack_s\": %.6f, \"runs_per_rank\": %llu, ", b->pack_s, (unsigned long long)b->runs);
    fprintf(fp, "\"cases\": [");
    int first = 1;
    for (int w = 0; w < NCASES; w++)
        if (b->ran[w]) {
            json_case(fp, b, w, first);
            first = 0;
        }
    fprintf(fp, "\n]}\n");
    fclose(fp);
}

static int setup(bench *b)
{
    int bad = 0, any = 0;
    make_grid(b);
    bad = make_layout(b) != 0;
    if (!bad) bad = make_buffers(b) != 0;
    if (!bad) bad = make_types(b) != 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any;
}

int main(int argc, char **argv)
{
    static bench b; /* large: keep off the stack */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &b.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &b.size);
    if (parse(argc, argv, &b.c)) {
        if (b.rank == 0) usage();
        MPI_Finalize();
        return 2;
    }
    if (setup(&b)) {
        if (b.rank == 0) fprintf(stderr, "lattice_bench: set-up failed (layout or memory)\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (prepare_read_file(&b)) {
        if (b.rank == 0) fprintf(stderr, "lattice_bench: could not prepare a correct file to read\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    b.load[0] = loadavg();
    if (b.c.profile) profile_pack(&b);
    for (int w = 0; w < b.c.warmup; w++) repetition(&b, w, -1);
    for (int r = 0; r < b.c.reps; r++) repetition(&b, r, r);
    b.load[1] = loadavg();
    char path[4096];
    path_of(&b, R_POSIX, path, sizeof path);
    remove_file(path, b.rank);
    int fail = 0;
    for (int w = 0; w < NCASES; w++) fail |= b.ran[w] && strcmp(status_of(&b, w), "ok");
    if (b.rank == 0) {
        print_text(&b);
        if (b.c.json) print_json(&b);
    }
    MPI_Finalize();
    return fail ? 1 : 0;
}
