/* cmd_container.h -- shared parts of `lattio container` (container_input.c,
 * below the subcommands cmd_container_*.c and the dispatcher
 * cmd_container.c): opening a container strictly or with recovery, copying
 * stream bytes, atomic output files. */
#ifndef LATTIO_CMD_CONTAINER_H
#define LATTIO_CMD_CONTAINER_H

#include "tool.h"

/* An opened input container. */
/* Tasks of one physical file; `listed` of them (from first on) have their
 * chunk 0 beginning within the file (all of them unless recovered). */
typedef struct ct_range {
    uint32_t first, tasks, listed;
} ct_range;

typedef struct ct_input {
    const char *cmd;  /* "container dump", ... (for messages) */
    const char *path;
    lattio_container_reader *r;
    lattio_container_info info;
    lattio_container_file_info *files; /* [info.nfiles] */
    ct_range *ranges;                  /* [info.nfiles] */
    uint64_t file_size;                /* of every physical file together */
    int strict_status; /* status of the strict open (LATTIO_OK when it worked) */
    int recovered;     /* opened with LATTIO_CONTAINER_RECOVER after a strict failure */
} ct_input;

/* Flags of ct_open. */
enum { CT_RECOVER = 1, CT_NO_VERIFY = 2 };

/* Open `path`.  Without CT_RECOVER only a strict open.  With it, when the
 * strict open fails for a damaged or unfinished container, open it with
 * LATTIO_CONTAINER_RECOVER (in->recovered, in->strict_status say so).
 * CT_NO_VERIFY: LATTIO_CONTAINER_NO_VERIFY.  On failure prints one line
 * and returns TOOL_FAIL. */
int ct_open(ct_input *in, const char *cmd, const char *path, int flags);
void ct_close(ct_input *in);

/* The first task >= t worth listing, or info.ntasks: every task for a
 * strict open; when recovered, only those whose first chunk begins within
 * their file (the others are empty), so a hostile task count in a small
 * file costs nothing.  Loop: for (t = ct_next(in, 0); t < n; t = ct_next(in, t + 1)). */
uint32_t ct_next(const ct_input *in, uint32_t t);
/* Number of tasks ct_next visits. */
uint32_t ct_listed_count(const ct_input *in);

/* Stream size of a task (0 on error), and whether it ended with FINAL. */
uint64_t ct_stream_size(const ct_input *in, uint32_t task, int *complete);
/* The task's info (zeroed on error). */
lattio_container_task_info ct_task(const ct_input *in, uint32_t task);
/* Name of physical file k of container `path` (PATH, PATH.000001, ...); caller frees. */
char *ct_member_name(const char *path, uint32_t k);

/* Copy n bytes at `offset` of task's stream to fd.  Prints one line naming
 * the container or out_name on failure; returns TOOL_OK / TOOL_FAIL. */
int ct_copy(const ct_input *in, uint32_t task, uint64_t offset, uint64_t n, int fd,
            const char *out_name);

/* Read n bytes at `offset` of task's stream, discarding them (the library
 * checks chunk CRCs on the way).  Returns a lattio status. */
int ct_copy_check(const ct_input *in, uint32_t task, uint64_t offset, uint64_t n);

/* A temporary file next to `final` ("FINAL.lattio-tmp.PID"); caller frees. */
char *ct_temp_name(const char *final);

/* Parse a task number below in->info.ntasks; TOOL_OK or TOOL_USAGE/FAIL printed. */
int ct_parse_task(const ct_input *in, const char *s, uint32_t *task);

/* The subcommands (argv[0] is the subcommand's name). */
int ct_dump(int argc, char **argv);
int ct_split(int argc, char **argv);
int ct_cat(int argc, char **argv);
int ct_defrag(int argc, char **argv);
int ct_repair(int argc, char **argv);

#endif
