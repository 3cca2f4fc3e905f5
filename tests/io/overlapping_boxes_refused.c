/* overlapping_boxes_refused.c -- issue 17, case 2: boxes that overlap are
 * ERR_LAYOUT on every rank under every strategy, before any byte is
 * written, for full and partial lattice writes and reads (with 2+ ranks the
 * site counts still add up to the lattice, which used to be the only check);
 * boxes outside the lattice or leaving a hole are refused too; nothing is
 * published.  Correct layouts still work (the same file under each
 * strategy). */
#include "mpitest.h"

#include <string.h>
#include <unistd.h>

static const uint64_t G[2] = {4, 6}; /* 24 sites of 8 bytes */
#define LEN (24 * 8)

static const int strategies[] = {LATTIO_STRATEGY_AUTO, LATTIO_STRATEGY_INDEPENDENT,
                                 LATTIO_STRATEGY_COLLECTIVE, LATTIO_STRATEGY_AGGREGATE,
                                 LATTIO_STRATEGY_SERIAL, LATTIO_STRATEGY_MAPPED};

/* Row split of dimension 1; with `shift` the last rank's box starts one row
 * early (overlapping its neighbour) and ends one row early (the site count
 * is unchanged). */
static void layout_of(lattio_layout *l, int shift)
{
    uint64_t lo[2] = {0, 0}, cnt[2] = {G[0], 0};
    lattio_split(G[1], (uint64_t)mpitest_size, (uint64_t)mpitest_rank, &lo[1], &cnt[1]);
    if (shift && mpitest_rank == mpitest_size - 1 && lo[1] > 0) lo[1]--;
    CHECK_OK(lattio_layout_init(l, 2, G, lo, cnt, 8));
}

static void write_one(int strategy, const lattio_layout *l, int partial, int expect)
{
    static unsigned char buf[LEN];
    memset(buf, 0x5a, sizeof buf);
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = strategy;
    if (mpitest_rank == 0) unlink("boxes.lime");
    MPI_Barrier(MPI_COMM_WORLD);
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "boxes.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, &opt, &f));
    CHECK_OK(lattio_record_begin(f, "lat", LEN, 1, 1));
    int rc = partial ? lattio_lattice_write_part(f, l, 0, buf) : lattio_lattice_write(f, l, 0, buf);
    CHECK_STATUS(rc, expect);
    if (rc == LATTIO_OK) CHECK_OK(lattio_record_end(f, partial));
    CHECK_STATUS(lattio_close(f), expect);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK((access("boxes.lime", F_OK) == 0) == (expect == LATTIO_OK));
    CHECK_INT(test_count_temporaries(), 0);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void read_one(int strategy, const lattio_layout *l, int partial, int expect)
{
    static unsigned char buf[LEN];
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = strategy;
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "boxes.lime", LATTIO_MODE_READ, MPI_INFO_NULL, &opt, &f));
    CHECK_OK(lattio_record_next(f, NULL));
    int rc = partial ? lattio_lattice_read_part(f, l, 0, buf) : lattio_lattice_read(f, l, 0, buf);
    CHECK_STATUS(rc, expect);
    CHECK_OK(lattio_close(f));
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    lattio_layout good, shifted;
    layout_of(&good, 0);
    layout_of(&shifted, 1);
    const int overlap = mpitest_size > 1 ? LATTIO_ERR_LAYOUT : LATTIO_OK;
    for (size_t s = 0; s < sizeof strategies / sizeof strategies[0]; s++) {
        write_one(strategies[s], &shifted, 0, overlap);
        write_one(strategies[s], &shifted, 1, overlap);
        write_one(strategies[s], &good, 1, LATTIO_OK);
        write_one(strategies[s], &good, 0, LATTIO_OK);
        read_one(strategies[s], &shifted, 0, overlap);
        read_one(strategies[s], &shifted, 1, overlap);
        read_one(strategies[s], &good, 0, LATTIO_OK);
    }
    /* a box past the lattice's edge: refused locally, agreed */
    lattio_layout out = good;
    if (mpitest_rank == 0) out.lo[0] = 1;
    write_one(LATTIO_STRATEGY_AUTO, &out, 0, LATTIO_ERR_LAYOUT);
    /* a hole (one rank forgets a row): the sites do not add up */
    lattio_layout hole = good;
    if (mpitest_rank == mpitest_size - 1) hole.count[1]--;
    write_one(LATTIO_STRATEGY_AUTO, &hole, 0, LATTIO_ERR_LAYOUT);
    return mpitest_finish();
}
