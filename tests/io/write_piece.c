/* write_piece.c -- independent write calls are cut into pieces of the
 * write piece (LATTIO_WRITE_PIECE; by default the file system's unit, 256
 * KiB on page-cache file systems): the test intercepts MPI_File_write_at
 * (PMPI) during lattice writes by the independent strategy (straight from
 * the caller's buffer: a t slab; through staging: halos) and by the
 * aggregate one (its window writes), page cache and durable (early
 * writeback over the pieces), and MPI_File_iwrite_at during non-blocking
 * lattice writes, and checks that no call exceeds the piece,
 * that the calls add up to the bytes each rank owns (independent), and
 * that the file equals the serial image.  A value outside 4096..2^30 is
 * ignored (the default applies). */
#include "io/io_internal.h"
#include "bytecases.h"

#include <stdlib.h>

static int counting;
static long calls, biggest;
static long long total;

static void seen(int n, MPI_Datatype t)
{
    if (!counting) return;
    int size = 1;
    MPI_Type_size(t, &size);
    const long bytes = (long)n * size;
    calls++;
    total += bytes;
    if (bytes > biggest) biggest = bytes;
}

int MPI_File_write_at(MPI_File fh, MPI_Offset off, const void *buf, int n, MPI_Datatype t, MPI_Status *st)
{
    seen(n, t);
    return PMPI_File_write_at(fh, off, buf, n, t, st);
}

int MPI_File_iwrite_at(MPI_File fh, MPI_Offset off, const void *buf, int n, MPI_Datatype t, MPI_Request *r)
{
    seen(n, t);
    return PMPI_File_iwrite_at(fh, off, buf, n, t, r);
}

/* Non-blocking: lattio_lattice_iwrite of l's sites from buf into a new
 * file's only record (counted), then the payload against the serial image. */
static void write_nonblocking(const lattio_options *opt, const lattio_layout *l, const void *buf, uint64_t bytes)
{
    lattio_file *f = NULL;
    lattio_request *req = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "piece.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, opt, &f));
    CHECK_OK(lattio_record_begin(f, "lattice", bytes, 1, 1));
    counting = 1;
    CHECK_OK(lattio_lattice_iwrite(f, l, 0, buf, &req));
    counting = 0;
    CHECK_OK(lattio_wait(&req));
    CHECK_OK(lattio_record_end(f, 0));
    CHECK_OK(lattio_close(f));
    if (mpitest_rank != 0) return;
    size_t m = 0;
    unsigned char *file = test_slurp("piece.lime", &m), *img = sim_expected_file(l);
    CHECK(file && m >= 144 + bytes && memcmp(file + 144, img, bytes) == 0);
    free(file);
    free(img);
}

/* Write the 8x8x8x16 lattice of 72-byte sites split as `split`, halos
 * `mode`, with `strategy` (-1: non-blocking); the largest call of any rank, and whether this
 * rank's calls wrote exactly its own sites' bytes. */
static void run(int split, int mode, int strategy, int durable, long *big, int *own_bytes)
{
    sim_case s;
    static const uint64_t g[4] = {8, 8, 8, 16};
    bc_make_case(4, g, split, mode, 72, &s);
    lattio_layout l;
    bc_layout_of(&s, mpitest_rank, 0, &l);
    unsigned char *buf = sim_buffer(&l, 0xA5);
    const uint64_t bytes = 8 * 8 * 8 * 16 * 72;
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = strategy < 0 ? LATTIO_STRATEGY_INDEPENDENT : strategy;
    opt.durable = durable;
    calls = biggest = 0;
    total = 0;
    if (strategy < 0) write_nonblocking(&opt, &l, buf, bytes);
    else bc_write_single("piece.lime", &opt, &l, buf, bytes, &counting);
    MPI_Allreduce(&biggest, big, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    *own_bytes = total == (long long)(lattio_layout_local_sites(&l) * 72);
    free(buf);
}

static void check_pieces(const char *piece, long limit)
{
    if (piece) setenv("LATTIO_WRITE_PIECE", piece, 1);
    else unsetenv("LATTIO_WRITE_PIECE");
    const int splits[2] = {BC_SLOWEST, BC_SPREAD};
    for (int durable = 0; durable < 2; durable++)
        for (int i = 0; i < 2; i++)
            for (int mode = 0; mode < 5; mode += 4) { /* 0: no halo (straight), 4: halos */
                long big = 0;
                int own = 0;
                run(splits[i], mode, LATTIO_STRATEGY_INDEPENDENT, durable, &big, &own);
                CHECK(big > 0 && big <= limit);
                CHECK(own); /* independent: every rank writes exactly its own sites' bytes */
                run(splits[i], mode, -1, durable, &big, &own); /* non-blocking */
                CHECK(big > 0 && big <= limit);
                CHECK(own);
            }
    long big = 0;
    int own = 0;
    run(BC_SPREAD, 4, LATTIO_STRATEGY_AGGREGATE, 0, &big, &own);
    CHECK(big > 0 && big <= limit);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    setenv("LATTIO_STRIPING_UNIT", "65536", 1); /* aggregate windows of several pieces */
    setenv("LATTIO_CB_BUFFER_SIZE", "65536", 1);
    check_pieces("8192", 8192);
    check_pieces("5000", 5000); /* not a power of two: pieces cut mid-site */
    check_pieces(NULL, 256 << 10);   /* the default on this (page-cache) file system */
    check_pieces("100", 256 << 10);  /* ignored: below 4096 */
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
