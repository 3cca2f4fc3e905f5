/* write_piece.c -- independent write calls are cut into pieces of the
 * write piece (LATTIO_WRITE_PIECE; by default the file system's unit, 256
 * KiB on page-cache file systems): the test intercepts MPI_File_write_at
 * (PMPI) during lattice writes by the independent strategy (straight from
 * the caller's buffer: a t slab; through staging: halos) and by the
 * aggregate one (its window writes), page cache and durable (early
 * writeback over the pieces), and checks that no call exceeds the piece,
 * that the calls add up to the bytes each rank owns (independent), and
 * that the file equals the serial image.  A value outside 4096..2^30 is
 * ignored (the default applies). */
#include "io/io_internal.h"
#include "bytecases.h"

#include <stdlib.h>

static int counting;
static long calls, biggest;
static long long total;

int MPI_File_write_at(MPI_File fh, MPI_Offset off, const void *buf, int n, MPI_Datatype t, MPI_Status *st)
{
    if (counting) {
        int size = 1;
        MPI_Type_size(t, &size);
        const long bytes = (long)n * size;
        calls++;
        total += bytes;
        if (bytes > biggest) biggest = bytes;
    }
    return PMPI_File_write_at(fh, off, buf, n, t, st);
}

/* Write the 8x8x8x16 lattice of 72-byte sites split as `split`, halos
 * `mode`, with `strategy`; the largest call of any rank and every rank's
 * bytes written in calls. */
static void run(int split, int mode, int strategy, int durable, long *big, long long *mine)
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
    opt.strategy = strategy;
    opt.durable = durable;
    lattio_file *f = NULL;
    calls = biggest = 0;
    total = 0;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "piece.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, &opt, &f));
    CHECK_OK(lattio_record_begin(f, "lattice", bytes, 1, 1));
    counting = 1;
    CHECK_OK(lattio_lattice_write(f, &l, 0, buf));
    counting = 0;
    CHECK_OK(lattio_record_end(f, 0));
    CHECK_OK(lattio_close(f));
    if (mpitest_rank == 0) {
        size_t m = 0;
        unsigned char *file = test_slurp("piece.lime", &m), *img = sim_expected_file(&l);
        CHECK(file && m >= 144 + bytes && memcmp(file + 144, img, bytes) == 0);
        free(file);
        free(img);
    }
    MPI_Allreduce(&biggest, big, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    *mine = total;
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
                long long mine = 0;
                run(splits[i], mode, LATTIO_STRATEGY_INDEPENDENT, durable, &big, &mine);
                CHECK(big > 0 && big <= limit);
                /* independent: every rank writes exactly its own sites' bytes */
                lattio_layout l;
                sim_case s;
                static const uint64_t g[4] = {8, 8, 8, 16};
                bc_make_case(4, g, splits[i], mode, 72, &s);
                bc_layout_of(&s, mpitest_rank, 0, &l);
                CHECK(mine == (long long)(lattio_layout_local_sites(&l) * 72));
            }
    long big = 0;
    long long mine = 0;
    run(BC_SPREAD, 4, LATTIO_STRATEGY_AGGREGATE, 0, &big, &mine);
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
