/* agg_shared.h -- the aggregators' window buffers, shared in memory with
 * the ranks of their node (MPI-3 shared windows), so that those ranks
 * place their converted sites straight into the window the aggregator
 * writes (and take them straight from the window it read): no message,
 * no copy.  Ranks outside an aggregator's group send messages as before
 * (aggregate.c).  With peers the aggregators hold two buffers, used in
 * turn by even and odd rounds, so peers fill the next window while the
 * aggregator writes this one. */
#ifndef LATTIO_AGG_SHARED_H
#define LATTIO_AGG_SHARED_H

#include "agg_plan.h"

typedef struct agg_shared {
    MPI_Comm group;       /* this rank's sharing group (MPI_COMM_NULL: alone) */
    MPI_Win win;          /* MPI_WIN_NULL: no shared window */
    int nbuf;             /* buffers per aggregator: 2 with peers, else 1 */
    unsigned char *own;   /* a private buffer when not shared */
    unsigned char **at;   /* per aggregator: its buffers when this rank reaches them, else NULL */
    uint64_t *half;       /* per aggregator: bytes per buffer */
    int *grank;           /* per rank of f: its rank in the group, MPI_UNDEFINED if outside
                             (this rank: 0 when it has no group) */
} agg_shared;

/* Collective.  Buffers for aggregator `me` (-1: none) of plan p; groups of
 * `group` ranks of a node (0: nobody shares; UINT64_MAX: the node).  The
 * status is this rank's (agreed by the caller). */
int lattio_agg_shared_open(lattio_file *f, const agg_plan *p, uint64_t group, int me, agg_shared *sh);
/* Collective over the group. */
void lattio_agg_shared_close(agg_shared *sh);
/* Aggregator a's buffer of round r (NULL: not reachable in memory). */
unsigned char *lattio_agg_shared_buf(const agg_shared *sh, int a, uint64_t r);
/* Local: order this rank's stores and loads on the shared window before a
 * note is sent / after one arrived. */
void lattio_agg_shared_sync(const agg_shared *sh);

#endif
