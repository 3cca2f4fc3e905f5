/* h5_bench.c -- issue 14's figures: a double SU(3) gauge field written and
 * read as HDF5 through lattio against the same field as ILDG through
 * lattio and against plain parallel HDF5, every figure a ratio within one
 * run (cases alternate in each repetition; medians compared):
 *   posix    rank 0 alone writes / reads the same number of bytes with
 *            write() / read() (+ fsync when durable): the baseline;
 *   lime     lattio_field_write / _read, ILDG record set with checksums;
 *   h5       lattio_h5_write / _read, QDP++ layout with suma/sumb;
 *   plain    what QDP++ does: H5Fcreate with the MPI-IO driver, a dataset
 *            [Lt][Lz][Ly][Lx][4] of 3x3 r,i compounds, each rank's box one
 *            hyperslab, collective H5Dwrite / H5Dread of native doubles
 *            (+ H5Fflush when durable); no checksum;
 *   plain+sum  the same with the work lattio's HDF5 call adds: the SciDAC
 *            checksum of the rank's sites (big-endian bytes, as lattio
 *            stores suma/sumb) computed before the write / verified after
 *            the read, what a QDP++ code would add for a checksummed file
 *            (the checksum's cost model: site ranks taken as local
 *            indices, the same work per site).
 *   mpirun -np N h5_bench L T DECOMP REPS DURABLE
 *   DECOMP: tslab (t split) or xy (x, then y at 4 ranks: short runs) */
#define _DEFAULT_SOURCE 1
#include "lattio.h"
#include "support.h" /* internal: checksum and conversion kernels (lattio_internal) */

#include <fcntl.h>
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { POSIX_W, LIME_W, H5_W, PLAIN_W, PSUM_W, POSIX_R, LIME_R, H5_R, PLAIN_R, PSUM_R, NC };
enum { NK = NC / 2 }; /* kinds of case, each written then read */
static const char *names[NC] = {"posix write", "lime write", "h5 write", "plain write", "plain+sum write",
                                "posix read",  "lime read",  "h5 read",  "plain read",  "plain+sum read"};
static int rank_, size_, durable;
static lattio_layout L_;
static double *local, *back;
static unsigned char *image;
static uint64_t gbytes;

static void die(int rc, const char *what)
{
    if (rc >= 0) return;
    fprintf(stderr, "h5_bench: %s: %s (%d)\n", what, lattio_strerror(rc), rc);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static double tmax(double t)
{
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return t;
}

/* The case running: a phase for a count tool (MPI_Pcontrol; bench/iocount.c). */
static const char *case_;

static double begin(void)
{
    const double t0 = MPI_Wtime();
    MPI_Pcontrol(1, case_);
    return t0;
}

static double end(double t0)
{
    MPI_Pcontrol(0);
    return tmax(MPI_Wtime() - t0);
}

static void setup(uint64_t L, uint64_t T, const char *decomp)
{
    const uint64_t g[4] = {L, L, L, T};
    int grid[4] = {1, 1, 1, 1};
    if (strcmp(decomp, "tslab") == 0) grid[3] = size_;
    else {
        grid[0] = size_ > 2 ? 2 : size_;
        grid[1] = size_ / grid[0];
    }
    uint64_t lo[4], cnt[4];
    for (int d = 0, r = rank_; d < 4; d++) {
        die(lattio_split(g[d], (uint64_t)grid[d], (uint64_t)(r % grid[d]), &lo[d], &cnt[d]), "split");
        r /= grid[d];
    }
    die(lattio_layout_init(&L_, 4, g, lo, cnt, 576), "layout");
    for (int d = 0; d < 4; d++) L_.file_order[d] = L_.mem_order[d] = 3 - d;
    const uint64_t n = lattio_layout_local_sites(&L_);
    local = malloc(n ? n * 576 : 1);
    back = malloc(n ? n * 576 : 1);
    for (uint64_t i = 0; i < n * 72; i++) local[i] = (double)((i * 7919 + (uint64_t)rank_) % 1009) * 0.001 - 0.5;
    gbytes = lattio_layout_global_sites(&L_) * 576;
    if (rank_ == 0 && !(image = malloc(gbytes))) die(LATTIO_ERR_NOMEM, "image");
    if (rank_ == 0) memset(image, 1, gbytes);
}

/* Every case starts from a clean page cache: its old file removed and
 * every dirty page written back (untimed), so no case pays for another's
 * writeback. */
static void fresh(const char *path)
{
    if (rank_ == 0) {
        unlink(path);
        sync();
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static double posix_io(int writing)
{
    if (writing) fresh("posix.bin");
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = begin();
    if (rank_ == 0) {
        int fd = writing ? open("posix.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644) : open("posix.bin", O_RDONLY);
        for (uint64_t off = 0; fd >= 0 && off < gbytes;) {
            const size_t n = gbytes - off < (64u << 20) ? (size_t)(gbytes - off) : (64u << 20);
            const ssize_t k = writing ? write(fd, image + off, n) : read(fd, image + off, n);
            if (k <= 0) die(LATTIO_ERR_WRITE, "posix");
            off += (uint64_t)k;
        }
        if (fd < 0 || (writing && durable && fsync(fd) != 0)) die(LATTIO_ERR_WRITE, "posix");
        close(fd);
    }
    return end(t0);
}

static void desc(lattio_field_desc *d)
{
    lattio_field_desc_default(d, LATTIO_FIELD_ILDG_GAUGE, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, 72);
}

static double lime_io(int writing)
{
    lattio_options o;
    lattio_options_default(&o);
    o.durable = durable;
    lattio_field_desc d;
    desc(&d);
    if (writing) fresh("f.lime");
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = begin();
    lattio_file *f;
    die(lattio_open(MPI_COMM_WORLD, "f.lime", writing ? LATTIO_MODE_CREATE : LATTIO_MODE_READ, MPI_INFO_NULL, &o, &f),
        "open");
    if (writing) die(lattio_field_write(f, &d, &L_, local, NULL), "lime write");
    else {
        lattio_field_read_info info;
        die(lattio_field_read(f, 0, &d, &L_, back, &info), "lime read");
        lattio_field_info_free(&info.field);
    }
    die(lattio_close(f), "close");
    return end(t0);
}

static double h5_io(int writing)
{
    lattio_options fo;
    lattio_options_default(&fo);
    fo.durable = durable;
    lattio_h5_options o;
    lattio_h5_options_default(&o);
    o.file = &fo;
    lattio_field_desc d;
    desc(&d);
    if (writing) fresh("f.h5");
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = begin();
    if (writing) die(lattio_h5_write(MPI_COMM_WORLD, "f.h5:/cfg/U", &d, &L_, local, &o, NULL, NULL), "h5 write");
    else {
        lattio_field_read_info info;
        o.layout = LATTIO_H5_AUTO;
        die(lattio_h5_read(MPI_COMM_WORLD, "f.h5:/cfg/U", &d, &L_, back, &o, &info, NULL), "h5 read");
        if (info.checksum != LATTIO_CHECKSUM_VERIFIED) die(LATTIO_ERR_CHECKSUM, "h5 read not verified");
        lattio_field_info_free(&info.field);
    }
    return end(t0);
}

/* The SciDAC checksum of the rank's sites of `a` (native doubles),
 * reduced over the ranks. */
static void scidac_sum(const double *a)
{
    static unsigned char be[64 << 10];
    const uint64_t n = lattio_layout_local_sites(&L_), per = sizeof be / 576;
    lattio_scidac_sum sum = {0, 0};
    for (uint64_t s = 0; s < n; s += per) {
        const uint64_t k = n - s < per ? n - s : per;
        lattio_convert_reals(be, LATTIO_REAL_F64_BE, a + s * 72, LATTIO_REAL_F64_NATIVE, (size_t)(k * 72));
        lattio_scidac_sum_sites(&sum, be, 576, k, s);
    }
    uint32_t in[2] = {sum.suma, sum.sumb}, out[2];
    MPI_Allreduce(in, out, 2, MPI_UINT32_T, MPI_BXOR, MPI_COMM_WORLD);
    if (out[0] == 42 && out[1] == 42) printf("!");
}

/* QDP++'s way, with HDF5 alone; `sum`: with the checksum lattio adds. */
static double plain_io_sum(int writing, int sum)
{
    if (writing) fresh("p.h5");
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = begin();
    if (sum && writing) scidac_sum(local);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    hid_t f = writing ? H5Fcreate("p.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl) : H5Fopen("p.h5", H5F_ACC_RDONLY, fapl);
    hid_t c = H5Tcreate(H5T_COMPOUND, 16);
    H5Tinsert(c, "r", 0, H5T_NATIVE_DOUBLE);
    H5Tinsert(c, "i", 8, H5T_NATIVE_DOUBLE);
    const hsize_t a[2] = {3, 3};
    hid_t cm = H5Tarray_create2(c, 2, a);
    hsize_t gdims[5], start[5], count[5];
    for (int i = 0; i < 4; i++) {
        gdims[i] = L_.global[3 - i];
        start[i] = L_.lo[3 - i];
        count[i] = L_.count[3 - i];
    }
    gdims[4] = count[4] = 4;
    start[4] = 0;
    hid_t fs = H5Screate_simple(5, gdims, NULL);
    hid_t ds = writing ? H5Dcreate2(f, "U", cm, fs, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : H5Dopen2(f, "U", H5P_DEFAULT);
    hid_t ms = H5Screate_simple(5, count, NULL);
    const int empty = lattio_layout_local_sites(&L_) == 0;
    if (empty) {
        H5Sselect_none(fs);
        H5Sselect_none(ms);
    } else {
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
    }
    hid_t x = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_dxpl_mpio(x, H5FD_MPIO_COLLECTIVE);
    herr_t e = writing ? H5Dwrite(ds, cm, ms, fs, x, local) : H5Dread(ds, cm, ms, fs, x, back);
    if (e < 0) die(LATTIO_ERR_HDF5, writing ? "H5Dwrite" : "H5Dread");
    if (writing && durable) H5Fflush(f, H5F_SCOPE_GLOBAL);
    H5Pclose(x);
    H5Sclose(ms);
    H5Dclose(ds);
    H5Sclose(fs);
    H5Tclose(cm);
    H5Tclose(c);
    if (H5Fclose(f) < 0) die(LATTIO_ERR_HDF5, "H5Fclose");
    H5Pclose(fapl);
    if (sum && !writing) scidac_sum(back);
    return end(t0);
}

static double plain_io(int writing) { return plain_io_sum(writing, 0); }
static double psum_io(int writing) { return plain_io_sum(writing, 1); }

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    if (argc != 6) {
        if (rank_ == 0) fputs("usage: h5_bench L T tslab|xy REPS DURABLE\n", stderr);
        MPI_Finalize();
        return 2;
    }
    const uint64_t L = strtoull(argv[1], NULL, 10), T = strtoull(argv[2], NULL, 10);
    const int reps = atoi(argv[4]);
    durable = atoi(argv[5]);
    setup(L, T, argv[3]);
    double t[NC][64];
    for (int r = 0; r < reps + 1 && r < 64; r++) { /* the first is a warm-up */
        double *row[NC];
        for (int c = 0; c < NC; c++) row[c] = &t[c][r > 0 ? r - 1 : 0];
        /* the order rotates with the repetition: none always follows another */
        double (*const io[NK])(int) = {posix_io, lime_io, h5_io, plain_io, psum_io};
        for (int w = 0; w < 2; w++)
            for (int k = 0; k < NK; k++) {
                const int c = (k + r) % NK;
                case_ = names[c + (w ? NK : 0)];
                *row[c + (w ? NK : 0)] = io[c](!w);
            }
    }
    if (rank_ == 0) { /* ratios within each repetition, their median (before the sort) */
        double pw[64], pr[64], sw[64], sr[64];
        for (int r = 0; r < reps; r++) {
            pw[r] = t[PLAIN_W][r] / t[H5_W][r];
            pr[r] = t[PLAIN_R][r] / t[H5_R][r];
            sw[r] = t[PSUM_W][r] / t[H5_W][r];
            sr[r] = t[PSUM_R][r] / t[H5_R][r];
        }
        qsort(pw, (size_t)reps, sizeof *pw, cmp);
        qsort(pr, (size_t)reps, sizeof *pr, cmp);
        qsort(sw, (size_t)reps, sizeof *sw, cmp);
        qsort(sr, (size_t)reps, sizeof *sr, cmp);
        printf("np %d: PAIRED (median of each repetition's ratio): plain/h5 write %.2f read %.2f; "
               "plain+sum/h5 write %.2f read %.2f\n",
               size_, pw[reps / 2], pr[reps / 2], sw[reps / 2], sr[reps / 2]);
    }
    if (rank_ == 0) {
        double med[NC];
        for (int c = 0; c < NC; c++) {
            qsort(t[c], (size_t)reps, sizeof t[c][0], cmp);
            med[c] = t[c][reps / 2];
        }
        printf("np %d %s %llu^3x%llu %.2f GB durable %d, median of %d (s; GB/s):\n", size_, argv[3],
               (unsigned long long)L, (unsigned long long)T, gbytes / 1e9, durable, reps);
        for (int c = 0; c < NC; c++) printf("  %-16s %7.3f s %6.2f GB/s\n", names[c], med[c], gbytes / 1e9 / med[c]);
        printf("  ratios: h5/lime write %.2f read %.2f (target <= 1.1); plain/h5 write %.2f read %.2f "
               "(speedup over plain HDF5, target >= 1.5 on fine splits); h5/posix write %.2f read %.2f\n",
               med[H5_W] / med[LIME_W], med[H5_R] / med[LIME_R], med[PLAIN_W] / med[H5_W], med[PLAIN_R] / med[H5_R],
               med[H5_W] / med[POSIX_W], med[H5_R] / med[POSIX_R]);
        printf("  ratios: plain+sum/h5 write %.2f read %.2f (the same work: plain HDF5 with the checksum)\n",
               med[PSUM_W] / med[H5_W], med[PSUM_R] / med[H5_R]);
    }
    free(local);
    free(back);
    free(image);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank_ == 0) { /* nothing left behind: four files of the field's size */
        static const char *const files[] = {"posix.bin", "f.lime", "f.h5", "p.h5"};
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) unlink(files[i]);
    }
    MPI_Finalize();
    return 0;
}
