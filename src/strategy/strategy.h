/* strategy.h -- the strategies behind lattio_xfer_*: one table of
 * operations, so xfer.c (the plan: checks, choice, agreement) needs no
 * strategy's internals and no strategy needs another's.  Every operation
 * is collective over f's communicator, moves this rank's sites of one
 * lattice between the stager and the file (the lattice's first byte at
 * absolute offset m->base) and returns this rank's status (xfer.c agrees
 * once); none makes a status agreement of its own per round. */
#ifndef LATTIO_STRATEGY_H
#define LATTIO_STRATEGY_H

#include "io/io_internal.h"
#include "io/xfer.h"

#include <stdatomic.h>

typedef struct lattio_move {
    lattio_file *f;
    const lattio_layout *l;  /* site_bytes: file bytes per site */
    uint64_t base;           /* absolute offset of the lattice's first byte */
    const lattio_stager *s;
    uint64_t naggs;          /* aggregate: default aggregators (0: one per rank) */
    int helper;              /* every rank agreed on a helper thread */
    lattio_helper *crew;     /* that thread, kept for the call (NULL: none) */
    uint64_t rounds;         /* set by the strategy: its rounds on this rank */
} lattio_move;

typedef struct lattio_strategy_ops {
    const char *name;
    int (*write)(lattio_move *m);
    int (*read)(lattio_move *m);
} lattio_strategy_ops;

extern const lattio_strategy_ops lattio_independent_ops; /* independent.c */
extern const lattio_strategy_ops lattio_collective_ops;  /* collective.c */
extern const lattio_strategy_ops lattio_aggregate_ops;   /* aggregate.c */
extern const lattio_strategy_ops lattio_serial_ops;      /* serial.c */
extern const lattio_strategy_ops lattio_mapped_ops;      /* mapped.c */

/* The stager's fill / drain of sites [first, first + n) on `lane`
 * (direct stagers: a copy from / to their buffer). */
int lattio_stage_fill(const lattio_stager *s, int lane, uint64_t first, uint64_t n,
                      size_t site_bytes, unsigned char *dst);
int lattio_stage_drain(const lattio_stager *s, int lane, uint64_t first, uint64_t n,
                       size_t site_bytes, const unsigned char *src);

/* Local: stage sites [first, first + n) (fill when writing, drain when
 * reading) between the stager and `buf` in blocks of s->block_sites, which
 * this thread and, when lattio_lanes_start was told so, the helper thread
 * take in turn; see lanes.c. */
typedef struct lattio_lanes lattio_lanes;
struct lattio_lanes {
    const lattio_stager *s;
    size_t site_bytes;
    int writing;
    uint64_t first, n, block;
    unsigned char *buf;
    _Atomic uint64_t next;
    lattio_task task;
    int helper; /* the helper thread was started */
};
void lattio_lanes_init(lattio_lanes *x, const lattio_stager *s, size_t site_bytes, int writing,
                       uint64_t first, uint64_t n, unsigned char *buf);
/* Start the helper thread's share (when `h` is not NULL), then take
 * blocks on this thread only after lattio_lanes_finish. */
void lattio_lanes_start(lattio_lanes *x, lattio_helper *h);
/* This thread takes the blocks left, then joins the helper: the status. */
int lattio_lanes_finish(lattio_lanes *x);

/* Collective: 1 on every rank when every rank wants a helper thread for a
 * stager with two lanes (LATTIO_FIELD_THREADS=0/1 decides, else: MPI
 * initialised for threads, at least 2 CPUs allowed and 2 per rank on the
 * node). */
int lattio_helper_agreed(lattio_file *f, const lattio_stager *s, int *yes);

#endif
