/* extract.h -- shared between the serial (cmd_extract.c) and the MPI
 * (extract_mpi.c) halves of `lattio extract`. */
#ifndef LATTIO_TOOL_EXTRACT_H
#define LATTIO_TOOL_EXTRACT_H

#include "tool.h"

typedef struct extract_args {
    const char *file, *out, *type;
    uint64_t record, message, nth;
} extract_args;

/* Open the file and walk to the record the arguments name.  TOOL_OK with
 * the walk open on that record; otherwise the message is printed, the walk
 * closed and TOOL_FAIL returned. */
int extract_find(const extract_args *a, tool_walk *w);

/* Copy the current record's payload to a->out (or standard output), in
 * place, by this process alone.  Returns the exit status. */
int extract_write_payload(const extract_args *a, tool_walk *w);

/* Under MPI with more than one rank: the whole command, collectively. */
int extract_parallel(const extract_args *a);

#endif
