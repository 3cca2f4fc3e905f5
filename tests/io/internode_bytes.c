/* internode_bytes.c -- the bytes the aggregate strategy sends between
 * nodes are the minimum: a field write (and its read) with one aggregator
 * per node moves exactly the bytes whose aggregator sits on another node,
 * nothing more (ratio 1.00; the bound is 1.05).  The test counts,
 * through PMPI, the MPI_BYTE payloads each rank sends to ranks of other
 * nodes, and computes the minimum from the plan the strategy uses
 * (agg_plan.h: each window of each aggregator on another node, the piece of
 * this rank's box in it).  On one node both are 0.  The file equals its
 * serial image and the read gives the sites back. */
#include "strategy/agg_plan.h"
#include "bytecases.h"

#include <stdlib.h>

static int counting, *node_of; /* node_of[world rank] */
static long long remote_bytes;

/* The world rank of rank `r` of communicator c. */
static int world_rank(MPI_Comm c, int r)
{
    MPI_Group g, w;
    int out = r;
    MPI_Comm_group(c, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    MPI_Group_translate_ranks(g, 1, &r, w, &out);
    MPI_Group_free(&g);
    MPI_Group_free(&w);
    return out;
}

static void sent(int n, MPI_Datatype t, int to, MPI_Comm c)
{
    if (counting && t == MPI_BYTE && node_of[world_rank(c, to)] != node_of[mpitest_rank]) remote_bytes += n;
}
int MPI_Isend(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c, MPI_Request *r)
{
    sent(n, t, to, c);
    return PMPI_Isend(b, n, t, to, tag, c, r);
}
int MPI_Send(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c)
{
    sent(n, t, to, c);
    return PMPI_Send(b, n, t, to, tag, c);
}

/* Every rank's node: the world rank of its node's first rank; *nnodes. */
static void map_nodes(int *nnodes)
{
    MPI_Comm node;
    int leader = mpitest_rank, first = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Allreduce(&leader, &first, 1, MPI_INT, MPI_MIN, node);
    MPI_Comm_free(&node);
    node_of = malloc((size_t)mpitest_size * sizeof *node_of);
    MPI_Allgather(&first, 1, MPI_INT, node_of, 1, MPI_INT, MPI_COMM_WORLD);
    int mine = first == mpitest_rank;
    MPI_Allreduce(&mine, nnodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

/* The bytes of box l that belong in windows of aggregators on other nodes
 * than `me`'s: the least a write must send (and a read receive). */
static long long minimum(lattio_file *f, const lattio_layout *l, uint64_t base, uint64_t bytes, int naggs)
{
    agg_params par;
    agg_plan p;
    long long least = 0;
    CHECK_OK(lattio_agg_params(f, &par));
    par.nodes = (uint64_t)naggs;
    lattio_agg_plan(&par, base, bytes, mpitest_size, &p);
    for (int a = 0; a < p.naggs; a++) {
        if (node_of[lattio_agg_rank(&p, a)] == node_of[mpitest_rank]) continue;
        for (uint64_t r = 0; r < p.rounds; r++) {
            uint64_t lo, hi, p0, p1;
            lattio_agg_window(&p, a, r, &lo, &hi);
            if (lo == hi) continue;
            lattio_agg_piece(&p, l, lo, hi, &p0, &p1);
            least += (long long)(p1 - p0);
        }
    }
    return least;
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    int nnodes = 1;
    map_nodes(&nnodes);
    setenv("LATTIO_CB_BUFFER_SIZE", "65536", 1); /* several rounds */
    sim_case s;
    static const uint64_t g[4] = {8, 8, 8, 16};
    bc_make_case(4, g, BC_XY, 4, 72, &s); /* a fine split: every window holds every rank's bytes */
    lattio_layout l;
    bc_layout_of(&s, mpitest_rank, 0, &l);
    const uint64_t bytes = 8 * 8 * 8 * 16 * 72, n = sim_buffer_sites(&l) * l.site_bytes;
    unsigned char *buf = sim_buffer(&l, 0xA5), *got = sim_buffer(&l, 0xA5);
    memset(got, 0xA5, n);
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = LATTIO_STRATEGY_AGGREGATE;
    opt.aggregators = nnodes; /* one per node, the default for fine splits */
    long long least = 0, wrote = 0, read = 0, sums[3], mine[3];
    bc_write_single("internode.lime", &opt, &l, buf, bytes, &counting);
    wrote = remote_bytes;
    lattio_file *f = NULL;
    lattio_record_info info;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "internode.lime", LATTIO_MODE_READ, MPI_INFO_NULL, &opt, &f));
    CHECK_OK(lattio_record_find(f, "lattice", 0, &info));
    if (f) least = minimum(f, &l, info.data_offset, bytes, nnodes);
    remote_bytes = 0;
    counting = 1;
    CHECK_OK(lattio_lattice_read(f, &l, 0, got));
    counting = 0;
    read = remote_bytes;
    CHECK_OK(lattio_close(f));
    CHECK(memcmp(got, buf, n) == 0);
    mine[0] = least, mine[1] = wrote, mine[2] = read;
    MPI_Allreduce(mine, sums, 3, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (mpitest_rank == 0)
        printf("%d ranks on %d nodes, %llu lattice bytes: between nodes minimum %lld, write sent %lld (%.3fx), "
               "read sent %lld\n", mpitest_size, nnodes, (unsigned long long)bytes, sums[0], sums[1],
               sums[0] ? (double)sums[1] / (double)sums[0] : 1.0, sums[2]);
    CHECK(sums[1] >= sums[0] && (double)sums[1] <= 1.05 * (double)sums[0]); /* writes: per-rank pieces out */
    CHECK(sums[2] >= sums[0] && (double)sums[2] <= 1.05 * (double)sums[0]); /* reads: the same pieces back */
    if (nnodes == 1) CHECK(sums[0] == 0 && sums[1] == 0 && sums[2] == 0);
    else CHECK(sums[0] > 0);
    free(buf);
    free(got);
    free(node_of);
    return mpitest_finish();
}
