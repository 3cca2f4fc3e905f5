/* agg_plan.h -- the geometry of lattio's two-phase I/O (aggregate.c):
 * parameters rank 0 chooses, file domains, aggregators' regions and
 * windows, and where a rank's bytes lie in a window.  Pure arithmetic on
 * the plan and the boxes, the same on every rank; no MPI but the one
 * broadcast of the parameters. */
#ifndef LATTIO_AGG_PLAN_H
#define LATTIO_AGG_PLAN_H

#include "io/io_internal.h"

typedef struct agg_params {
    uint64_t block, nodes, buffer; /* nodes 0: default */
    uint64_t shared;               /* ranks per shared-memory group, 0: no shared windows */
} agg_params;

/* Collective.  Rank 0's parameters (hints, environment, file system), broadcast. */
int lattio_agg_params(lattio_file *f, agg_params *p);

typedef struct agg_plan {
    uint64_t base, bytes; /* the lattice's absolute first byte and size */
    uint64_t block, window;
    uint64_t ndomains, rounds;
    int naggs;
    int size;
} agg_plan;

void lattio_agg_plan(const agg_params *par, uint64_t base, uint64_t bytes, int size, agg_plan *p);
/* Aggregator a's window in round r, absolute [*lo, *hi); empty: lo == hi. */
void lattio_agg_window(const agg_plan *p, int a, uint64_t r, uint64_t *lo, uint64_t *hi);
/* The longest window of aggregator a. */
uint64_t lattio_agg_window_need(const agg_plan *p, int a);
/* The rank of aggregator a. */
int lattio_agg_rank(const agg_plan *p, int a);
/* The packed piece [*p0, *p1) of box l in the absolute window [lo, hi). */
void lattio_agg_piece(const agg_plan *p, const lattio_layout *l, uint64_t lo, uint64_t hi, uint64_t *p0,
                      uint64_t *p1);
/* When box l's piece [p0, p1) is one file run inside [lo, hi): its absolute
 * file offset in *at and 1; otherwise 0. */
int lattio_agg_single_run(const agg_plan *p, const lattio_layout *l, uint64_t p0, uint64_t p1, uint64_t lo,
                          uint64_t hi, uint64_t *at);

/* Called for each file run of a piece: packed bytes [a, b) of the box,
 * which lie at win + (absolute offset - window start). */
typedef int (*agg_run_fn)(void *ctx, uint64_t a, uint64_t b, unsigned char *at);
/* File bytes [lo, hi) held in memory at `bytes` (a window). */
typedef struct agg_win {
    unsigned char *bytes;
    uint64_t lo, hi;
} agg_win;
/* Local.  Visit the file runs of box l's packed bytes [p0, p1) inside
 * window w, in order; ERR_LAYOUT when one falls outside (overlapping
 * boxes). */
int lattio_agg_runs(const agg_plan *p, const lattio_layout *l, uint64_t p0, uint64_t p1, const agg_win *w,
                    agg_run_fn fn, void *ctx);

#endif
