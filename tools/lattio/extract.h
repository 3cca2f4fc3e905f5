/* extract.h -- `lattio extract`: the shared pieces (extract.c: find the
 * record, write its payload) below the serial command (cmd_extract.c) and
 * the MPI copy (extract_mpi.c). */
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
