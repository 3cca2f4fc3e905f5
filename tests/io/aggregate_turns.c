/* aggregate_turns.c -- the aggregators of a node write their windows in
 * turns where the kernel serialises writes to one file (LATTIO_AGG_TURNS
 * unset on a page-cache file system, or 1): no two ranks of the node are
 * ever inside a window write at once.  The test intercepts
 * MPI_File_write_at (PMPI), which the aggregators' window writes go
 * through, keeps a count of the ranks inside it in memory shared by the
 * node's ranks, and holds every call open for a moment so that writes at
 * the same time would be seen.  With LATTIO_AGG_TURNS=0 the aggregators
 * write at once (seen at 2 ranks and more: the test's proof that it can
 * see an overlap).  Every write, page cache and durable, equals the
 * serial image, and the file reads back. */
#define _DEFAULT_SOURCE 1
#include "io/io_internal.h"
#include "bytecases.h"

#include <stdlib.h>
#include <unistd.h>

static int counting;
static int *shared; /* [0]: ranks of the node inside a write call; [1]: calls that found another inside */

int MPI_File_write_at(MPI_File fh, MPI_Offset off, const void *buf, int n, MPI_Datatype t, MPI_Status *st)
{
    if (!counting) return PMPI_File_write_at(fh, off, buf, n, t, st);
    if (__atomic_add_fetch(&shared[0], 1, __ATOMIC_SEQ_CST) > 1) __atomic_add_fetch(&shared[1], 1, __ATOMIC_SEQ_CST);
    usleep(300); /* widen the call, so that writes at once would overlap here */
    int rc = PMPI_File_write_at(fh, off, buf, n, t, st);
    __atomic_sub_fetch(&shared[0], 1, __ATOMIC_SEQ_CST);
    return rc;
}

/* Write the 8x8x8x16 lattice of 72-byte sites (ILDG order, halos, split
 * over several dimensions) with one aggregator per rank and many rounds,
 * check it against the serial image and read it back; the number of write
 * calls that overlapped another rank's on this node. */
static int overlaps_of(const char *turns, int durable)
{
    if (turns) setenv("LATTIO_AGG_TURNS", turns, 1);
    else unsetenv("LATTIO_AGG_TURNS");
    sim_case s;
    static const uint64_t g[4] = {8, 8, 8, 16};
    bc_make_case(4, g, BC_SPREAD, 4, 72, &s);
    lattio_layout l;
    bc_layout_of(&s, mpitest_rank, 0, &l);
    unsigned char *buf = sim_buffer(&l, 0xA5), *got = sim_buffer(&l, 0xA5);
    const uint64_t n = sim_buffer_sites(&l) * l.site_bytes, bytes = 8 * 8 * 8 * 16 * 72;
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = LATTIO_STRATEGY_AGGREGATE;
    opt.durable = durable;
    MPI_Barrier(MPI_COMM_WORLD);
    if (mpitest_rank == 0) shared[1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    bc_write_single("turns.lime", &opt, &l, buf, bytes, &counting);
    MPI_Barrier(MPI_COMM_WORLD);
    const int seen = __atomic_load_n(&shared[1], __ATOMIC_SEQ_CST);
    lattio_file *f = NULL;
    lattio_record_info info;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "turns.lime", LATTIO_MODE_READ, MPI_INFO_NULL, &opt, &f));
    CHECK_OK(lattio_record_find(f, "lattice", 0, &info));
    CHECK_OK(lattio_lattice_read(f, &l, 0, got));
    CHECK_OK(lattio_close(f));
    CHECK(memcmp(got, buf, n) == 0); /* interior sites back, ghosts untouched (0xA5 both) */
    free(buf);
    free(got);
    return seen;
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    MPI_Comm node;
    MPI_Win win;
    int *base = NULL, disp = 0;
    MPI_Aint size = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int node_size = 0;
    MPI_Comm_size(node, &node_size);
    CHECK_INT(node_size, mpitest_size); /* the test runs on one node */
    MPI_Win_allocate_shared(mpitest_rank == 0 ? 2 * (MPI_Aint)sizeof(int) : 0, sizeof(int), MPI_INFO_NULL, node,
                            &base, &win);
    MPI_Win_shared_query(win, 0, &size, &disp, &shared);
    if (mpitest_rank == 0) shared[0] = shared[1] = 0;
    setenv("LATTIO_STRIPING_UNIT", "1024", 1);
    setenv("LATTIO_CB_BUFFER_SIZE", "4096", 1); /* many rounds */
    char naggs[16];
    snprintf(naggs, sizeof naggs, "%d", mpitest_size);
    setenv("LATTIO_CB_NODES", naggs, 1); /* every rank an aggregator */
    lattio_fsinfo fs;
    CHECK_OK(lattio_fsinfo_path(".", &fs));
    const int serialised = fs.kind != LATTIO_FS_LUSTRE && fs.kind != LATTIO_FS_GPFS;
    const int by_default = overlaps_of(NULL, 0), in_turns = overlaps_of("1", 0);
    const int durable = overlaps_of("1", 1), at_once = overlaps_of("0", 0);
    if (mpitest_rank == 0)
        printf("np %d: overlapping write calls: default %d, turns %d, turns durable %d, no turns %d\n", mpitest_size,
               by_default, in_turns, durable, at_once);
    CHECK_INT(in_turns, 0);
    CHECK_INT(durable, 0);
    if (serialised) CHECK_INT(by_default, 0);
    if (mpitest_size > 1) CHECK(at_once > 0);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
