/* config.h -- lattio's configuration from the environment, read in one
 * place (config.c) from one table.  The variables and their defaults are
 * listed in lattio.h ("Configuration") and docs/configuration.md. */
#ifndef LATTIO_CONFIG_H
#define LATTIO_CONFIG_H

#include <stddef.h>
#include <stdint.h>

/* What a file takes from the environment: read once when it is opened
 * (rank 0's values, which lattio_open shares with every rank). */
typedef struct lattio_config {
    int strategy;            /* LATTIO_STRATEGY: enum lattio_strategy, 0 (AUTO) by default */
    uint64_t staging_bytes;  /* LATTIO_STAGING_BYTES: 0, the strategy's default */
    uint64_t write_piece;    /* LATTIO_WRITE_PIECE: 0, from the file system */
    uint64_t striping_unit;  /* LATTIO_STRIPING_UNIT: 0, the hint or the file system */
    uint64_t cb_nodes;       /* LATTIO_CB_NODES: 0, the hint or one per node */
    uint64_t cb_buffer_size; /* LATTIO_CB_BUFFER_SIZE: 0, the hint or 16 MiB */
    uint64_t agg_shared;     /* LATTIO_AGG_SHARED: UINT64_MAX, a node's ranks share */
    int field_threads;       /* LATTIO_FIELD_THREADS: -1 the rule, 0 never, 1 always */
    int writeback;           /* LATTIO_WRITEBACK: 1 */
    int trust_collective;    /* LATTIO_TRUST_COLLECTIVE: 0 */
    uint64_t one_writer_bytes; /* LATTIO_ONE_WRITER_BYTES: 8 MiB */
    uint32_t ignored;        /* bit i: the table's entry i was set but not understood */
} lattio_config;

/* What the process takes from the environment, read once at its first use. */
typedef struct lattio_process_config {
    int trace;             /* LATTIO_TRACE: 0 */
    int h5_guard;          /* LATTIO_H5_GUARD: 1, HDF5 opens a file first in a child */
    char ompi_io[128];     /* OMPI_MCA_io (Open MPI's), when MPI_T cannot tell */
    char ompi_sharedfp[128]; /* OMPI_MCA_sharedfp (Open MPI's), likewise */
} lattio_process_config;

/* Read the file configuration from the environment (never traces, so the
 * trace channel may use this file). */
void lattio_config_read(lattio_config *c);
/* For the trace: when entry i is a file setting the environment sets,
 * "NAME=value" (with " ignored" when c could not use it) into out, and 1;
 * else 0. */
int lattio_config_setting(const lattio_config *c, unsigned i, char *out, size_t size);
/* The process configuration (read at the first call). */
const lattio_process_config *lattio_process_config_get(void);

/* The table, for the docs test: entry i's name, default and meaning
 * (NULL past the end). */
const char *lattio_config_name(unsigned i, const char **dflt, const char **meaning);

#endif
