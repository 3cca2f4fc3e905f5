/* agg_shared.h -- the aggregators' window buffers, shared in memory with
 * the ranks of their node (MPI-3 shared windows), so that those ranks
 * place their converted sites straight into the window the aggregator
 * writes (and take them straight from the window it read): no message,
 * no copy.  Ranks outside an aggregator's group send messages as before
 * (aggregate.c).  With peers the aggregators hold two buffers, used in
 * turn by even and odd rounds, so peers fill the next window while the
 * aggregator writes this one.
 *
 * The file keeps what this costs to make between calls (f->strategy_cache):
 * the sharing group (a split of the node's ranks), every rank's place in
 * it, the shared window and the private buffer.  A later call with the
 * same group size reuses them and makes no collective call of its own;
 * the window is made again only when an aggregator of the group needs
 * more than it holds.  lattio_close frees them (f->strategy_release:
 * lattio_agg_cache_free). */
#ifndef LATTIO_AGG_SHARED_H
#define LATTIO_AGG_SHARED_H

#include "agg_plan.h"

/* Collective: free what the aggregate strategy kept in f. */
void lattio_agg_cache_free(lattio_file *f);

typedef struct agg_shared {
    MPI_Win win;          /* MPI_WIN_NULL: no shared window; the file's */
    int nbuf;             /* buffers per aggregator: 2 with peers, else 1 */
    unsigned char **at;   /* per aggregator: its buffers when this rank reaches them, else NULL */
    uint64_t *half;       /* per aggregator: bytes per buffer */
    const int *grank;     /* per rank of f: its rank in the group, MPI_UNDEFINED if outside
                             (this rank: 0 when it has no group); the file's */
} agg_shared;

/* Collective.  Buffers for aggregator `me` (-1: none) of plan p; groups of
 * `group` ranks of a node (0: nobody shares; UINT64_MAX: the node),
 * equal on every rank.  Agreed status; on failure the file keeps nothing. */
int lattio_agg_shared_open(lattio_file *f, const agg_plan *p, uint64_t group, int me, agg_shared *sh);
/* Local.  The call's own tables; the file keeps the group and buffers. */
void lattio_agg_shared_close(agg_shared *sh);
/* Aggregator a's buffer of round r (NULL: not reachable in memory). */
unsigned char *lattio_agg_shared_buf(const agg_shared *sh, int a, uint64_t r);
/* Local: order this rank's stores and loads on the shared window before a
 * note is sent / after one arrived. */
void lattio_agg_shared_sync(const agg_shared *sh);

#endif
