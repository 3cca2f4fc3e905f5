/* aggregate_write_calls.c -- what the aggregate strategy asks of the file
 * system: every write call (PMPI: MPI_File_write_at, each rank's offsets
 * and lengths gathered) covers whole blocks of the plan's block size (the
 * stripe: LATTIO_STRIPING_UNIT here, 4096 bytes) except where the record's
 * payload begins and ends, and no block is written by two ranks (no two
 * aggregators share a stripe's lock).  A fine x,y split of an 8x8x8x16
 * field of 72-byte sites, one aggregator per node; the file equals its
 * serial image.  Across nodes (2x2, 4x1) as on one.  Calls of 4 stripes
 * (LATTIO_WRITE_PIECE) inside windows of 16. */
#include "strategy/agg_plan.h"
#include "bytecases.h"

#include <stdlib.h>

#define BLOCK 4096
#define MAXCALLS 4096

static int counting, ncalls;
static long long calls[MAXCALLS][2]; /* offset, bytes */

int MPI_File_write_at(MPI_File fh, MPI_Offset off, const void *b, int n, MPI_Datatype t, MPI_Status *st)
{
    int size = 0;
    MPI_Type_size(t, &size);
    if (counting && ncalls < MAXCALLS) calls[ncalls][0] = off, calls[ncalls++][1] = (long long)n * size;
    return PMPI_File_write_at(fh, off, b, n, t, st);
}

typedef struct { long long first, last; int rank; } span; /* blocks [first, last] */

static int by_first(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* Rank 0: every call whole blocks but at the payload's ends; no block of two ranks. */
static void check_calls(const long long *all, const int *counts, long long base, long long end)
{
    int total = 0, bad_align = 0, shared = 0;
    for (int r = 0; r < mpitest_size; r++) total += counts[r];
    span *s = malloc((size_t)(total ? total : 1) * sizeof *s);
    for (int r = 0, k = 0; r < mpitest_size; r++)
        for (int i = 0; i < counts[r]; i++, k++) {
            const long long off = all[2 * k], len = all[2 * k + 1];
            if ((off % BLOCK && off != base) || ((off + len) % BLOCK && off + len != end)) bad_align++;
            s[k] = (span){off / BLOCK, (off + len - 1) / BLOCK, r};
        }
    qsort(s, (size_t)total, sizeof *s, by_first);
    for (int k = 1; k < total; k++)
        if (s[k].first <= s[k - 1].last && s[k].rank != s[k - 1].rank) shared++;
    printf("%d ranks: %d write calls, %d not whole blocks, %d blocks written by two ranks\n", mpitest_size,
           total, bad_align, shared);
    CHECK(total > 0);
    CHECK_INT(bad_align, 0);
    CHECK_INT(shared, 0);
    free(s);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    setenv("LATTIO_STRIPING_UNIT", "4096", 1);
    setenv("LATTIO_CB_BUFFER_SIZE", "65536", 1); /* several rounds */
    /* calls of 4 stripes inside each window: the first window starts at the
     * payload, inside a stripe (every call of it straddled two before the
     * cut at absolute multiples, agree.c) */
    setenv("LATTIO_WRITE_PIECE", "16384", 1);
    sim_case s;
    static const uint64_t g[4] = {8, 8, 8, 16};
    bc_make_case(4, g, BC_XY, 4, 72, &s);
    lattio_layout l;
    bc_layout_of(&s, mpitest_rank, 0, &l);
    const uint64_t bytes = 8 * 8 * 8 * 16 * 72;
    unsigned char *buf = sim_buffer(&l, 0xA5);
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = LATTIO_STRATEGY_AGGREGATE;
    opt.aggregators = mpitest_nodes();
    bc_write_single("calls.lime", &opt, &l, buf, bytes, &counting);
    int *counts = malloc((size_t)mpitest_size * sizeof *counts), *displs = malloc((size_t)mpitest_size * sizeof *displs);
    int mine = 2 * ncalls, total = 0;
    MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0; mpitest_rank == 0 && r < mpitest_size; r++) displs[r] = total, total += counts[r];
    long long *all = malloc((size_t)(total ? total : 1) * sizeof *all);
    MPI_Gatherv(calls, mine, MPI_LONG_LONG, all, counts, displs, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (mpitest_rank == 0) {
        for (int r = 0; r < mpitest_size; r++) counts[r] /= 2;
        check_calls(all, counts, 144, 144 + (long long)bytes);
    }
    free(all);
    free(counts);
    free(displs);
    free(buf);
    return mpitest_finish();
}
