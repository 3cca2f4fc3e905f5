/* serial.c -- the serial strategy: gather to rank 0, which writes large
 * contiguous pieces; for reads rank 0 reads and sends every rank its sites
 * (the "master I/O" of seed 001, Grid's and QIO's serial paths).
 *
 * This is exactly the aggregate strategy (src/io/aggregate.c) with one
 * aggregator, which is rank 0: rank 0's one file domain region is the whole
 * lattice, cut into windows of at most cb_buffer_size bytes (default
 * 16 MiB, at most 1 GiB) aligned to the file-system block; in each round
 * every rank sends (receives) the one contiguous piece of its packed sites
 * that lies in the window with a point-to-point message of at most 1 GiB,
 * and rank 0 makes one independent MPI-IO call per window.  So rounds are
 * bounded by cb_buffer_size, all offsets and sizes are 64-bit and no MPI
 * count overflows; the code is reused rather than duplicated. */
#include "io_internal.h"

int lattio_serial_write(lattio_file *f, const lattio_layout *l, uint64_t base, const void *local)
{
    lattio_prof_phase(f, LATTIO_PHASE_EXCHANGE); /* rounds alternate exchange and rank 0's I/O */
    return lattio_aggregate_move(f, l, base, (unsigned char *)local, 1, 1, 0);
}

int lattio_serial_read(lattio_file *f, const lattio_layout *l, uint64_t base, void *local)
{
    lattio_prof_phase(f, LATTIO_PHASE_EXCHANGE);
    return lattio_aggregate_move(f, l, base, local, 0, 1, 0);
}
