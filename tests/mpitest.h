/* mpitest.h -- assertions for MPI tests: each rank counts its failures,
 * mpitest_finish() sums them so every rank leaves together with the same
 * verdict (no rank waits in a collective the others skipped). */
#ifndef LATTIO_MPITEST_H
#define LATTIO_MPITEST_H

#include "testutil.h"

#include <lattio.h>
#include <mpi.h>

static int mpitest_rank, mpitest_size;

static inline void mpitest_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &mpitest_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpitest_size);
}

static inline int mpitest_finish(void)
{
    int mine = test_failures_, total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (mine) fprintf(stderr, "rank %d: %d of %d checks failed\n", mpitest_rank, mine, test_checks_);
    if (mpitest_rank == 0 && !total) printf("all ranks passed (%d checks on rank 0)\n", test_checks_);
    MPI_Finalize();
    return total ? 1 : 0;
}

/* Collective.  The number of nodes (shared-memory domains) the ranks run on. */
static inline int mpitest_nodes(void)
{
    MPI_Comm node;
    int me = 0, nodes = 0, leader;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &me);
    MPI_Comm_free(&node);
    leader = me == 0;
    MPI_Allreduce(&leader, &nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return nodes;
}

/* Collective.  1 when every rank runs on one node (one shared-memory
 * domain), 0 across nodes (the emulated cluster, scripts/cluster). */
static inline int mpitest_one_node(void) { return mpitest_nodes() == 1; }

/* `path` opened for reading on every rank with `strategy`, at its first
 * record (NULL where the open failed, which is counted as a failure). */
static inline lattio_file *mpitest_open_first(const char *path, int strategy)
{
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = strategy;
    lattio_file *f = NULL;
    lattio_record_info info;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_READ, MPI_INFO_NULL, &opt, &f));
    if (f) CHECK_OK(lattio_record_next(f, &info));
    return f;
}

#endif
