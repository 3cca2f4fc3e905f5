/* tool.h -- shared declarations of the `lattio` command-line tool.
 *
 * Every subcommand is one `tool_command` defined in its own cmd_*.c file and
 * listed in the table in main.c.  A subcommand's run function gets argv
 * without the program name (argv[0] is the subcommand's name) and returns the
 * process exit status: TOOL_OK, TOOL_FAIL or TOOL_USAGE. */
#ifndef LATTIO_TOOL_H
#define LATTIO_TOOL_H

#include "lattio.h"
#include "support.h" /* the internal support calls (temporary files), lattio_internal */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { TOOL_OK = 0, TOOL_FAIL = 1, TOOL_USAGE = 2 };

typedef struct tool_command {
    const char *name;
    const char *summary; /* one line for `lattio --help` */
    const char *help;    /* full text for `lattio NAME --help` */
    int (*run)(int argc, char **argv);
    int parallel; /* under MPI: 1 every rank runs it, 0 rank 0 runs it alone */
} tool_command;

extern const tool_command tool_cmd_info;
extern const tool_command tool_cmd_check;
extern const tool_command tool_cmd_extract;
extern const tool_command tool_cmd_pack;
extern const tool_command tool_cmd_unpack;
extern const tool_command tool_cmd_verify;
extern const tool_command tool_cmd_convert;
extern const tool_command tool_cmd_container;
extern const tool_command tool_cmd_bench;
extern const tool_command tool_cmd_clean;

/* --- MPI launchers (mpi/launcher.c; serial/no_mpi.c without MPI) -----------
 * Under mpirun/mpiexec/srun the command runs on every rank; otherwise MPI is
 * never initialised and the functions below act as for one rank. */

/* MPI_Init when started by an MPI launcher.  Returns 0, or -1 (message printed). */
int tool_mpi_start(int *argc, char ***argv);
/* MPI_Finalize if initialised; returns rc. */
int tool_mpi_finish(int rc);
/* MPI initialised (as a singleton when the command was not launched by
 * mpirun: HDF5 files need MPI-IO); idempotent. */
void tool_mpi_ensure(void);
/* This process's rank and the number of ranks (0 and 1 when serial). */
int tool_rank(void);
int tool_nranks(void);
/* Broadcast bytes from root; waiting ranks sleep instead of spinning. */
void tool_mpi_bcast(void *buf, size_t bytes, int root);
/* Every rank returns rank 0's rc. */
int tool_mpi_share_status(int rc);
/* Collective: the lowest rank that passed failed != 0, or -1 if none did. */
int tool_mpi_first_failure(int failed);
/* Run a non-parallel command on rank 0 only; every rank returns its status. */
int tool_run_on_root(const tool_command *c, int argc, char **argv);

/* Streaming block size for payload copies. */
#define TOOL_BLOCK_SIZE ((size_t)8 << 20)

/* --- messages (util.c) ---------------------------------------------------
 * All failures print exactly one line on stderr: "lattio CMD: FILE: text".
 * Under MPI only rank 0 prints (the functions are silent on other ranks). */

/* "lattio CMD: FILE: <strerror(status)> (<NAME>)<suffix>"; returns TOOL_FAIL. */
int tool_status_error(const char *cmd, const char *file, int status, const char *suffix_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* The library's detail of its last failure as ": detail" (control bytes
 * escaped), or "" when it has none; reading it clears it. */
const char *tool_detail(void);
/* 1 for a status of the I/O (-1xx) or MPI (-4xx) ranges: a failure of the
 * system, not of the file's contents. */
static inline int tool_is_io_status(int status) { return lattio_status_is_io(status); }

/* "lattio CMD: FILE: <text>"; file may be NULL.  Returns TOOL_FAIL. */
int tool_error(const char *cmd, const char *file, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* "lattio CMD: <text> (try 'lattio CMD --help')"; returns TOOL_USAGE. */
int tool_usage(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* --- argument scanning (util.c) ------------------------------------------ */

/* If argv[*i] is `name VALUE` or `name=VALUE`, set *value, advance *i past
 * the value and return 1; return 0 when argv[*i] is another word; -1 when
 * the value is missing. */
int tool_option(int argc, char **argv, int *i, const char *name, const char **value);
/* Parse a decimal number >= min.  Returns 0 on success, -1 otherwise. */
int tool_parse_u64(const char *s, uint64_t min, uint64_t *out);

/* --- records and payloads (util.c) -------------------------------------- */

/* lattio_lime_reader_next plus the lime_contents numbering: a record starts
 * a new message when its MB flag is set or it is the first record. */
typedef struct tool_walk {
    lattio_lime_reader *reader;
    lattio_record_info info; /* the current record */
    uint64_t next_offset;    /* where the next header is expected */
    uint64_t index;          /* 1-based index of the current record */
    int message, record;     /* lime_contents numbering, 1-based */
} tool_walk;

/* Open `path` for walking.  Returns a lattio status. */
int tool_walk_open(tool_walk *w, const char *path);
/* Advance; returns LATTIO_OK, LATTIO_ERR_EOF or a format/I-O error. */
int tool_walk_next(tool_walk *w);
void tool_walk_close(tool_walk *w);
/* Report a failed tool_walk_next: "... at record N, offset O". */
int tool_walk_error(const char *cmd, const char *file, const tool_walk *w, int status);

/* Copy the current record's payload to out_fd in large blocks.  Uses
 * copy_file_range on Linux when both ends allow it (unless the environment
 * sets LATTIO_NO_COPY_RANGE=1), else the reader in TOOL_BLOCK_SIZE blocks.
 * `path` is the LIME file (opened again for copy_file_range).  On failure
 * prints one line naming `path` or `out_name` and returns TOOL_FAIL. */
int tool_copy_payload(const char *cmd, tool_walk *w, const char *path, int out_fd,
                      const char *out_name);

/* Write all n bytes; returns 0 or -1 (errno set). */
int tool_write_all(int fd, const void *buf, size_t n);

/* --- outputs (util.c) ------------------------------------------------------
 * Every file a command writes goes through one crash-safe path: it is
 * written under a lattio temporary name beside OUT (lattio_temp_open), and
 * renamed to OUT only when everything succeeded; on failure or a signal the
 * previous OUT is untouched and the temporary is removed (a killed process
 * leaves one that `lattio clean OUT` removes). */
typedef struct tool_output {
    const char *cmd, *path;
    char tmp[4096];
    int fd; /* the temporary file, -1 when closed */
} tool_output;

/* OUT may be written: it is not a directory, not a symbolic link and not
 * the same file (device and inode) as any of the n inputs.  Prints the reason and returns TOOL_FAIL
 * otherwise. */
int tool_output_allowed(const char *cmd, const char *out, const char *const *inputs, int n);
/* Create the temporary file of OUT (after tool_output_allowed). */
int tool_output_open(tool_output *o, const char *cmd, const char *path);
/* ret == TOOL_OK: close, rename into place (messages carry strerror);
 * otherwise close and remove.  Returns the final status. */
int tool_output_finish(tool_output *o, int ret);
/* The system's reason of the latest failed lattio call, as " (reason)" or
 * "" (lattio_last_errno). */
const char *tool_errno_suffix(void);

/* --- text ---------------------------------------------------------------- */

/* Text taken from a file, made safe for a terminal or a log: every byte
 * outside printable ASCII, and the backslash, becomes \xNN.  tool_escape
 * writes at most size bytes (NUL included; truncated at a whole escape). */
void tool_escape(char *dst, size_t size, const char *src);
void tool_print_escaped(FILE *f, const char *s);
/* The same for multi-line text: newlines and tabs are kept. */
void tool_print_text(FILE *f, const char *s);

/* `lattio check` and `info`: a note on stderr for each stale temporary
 * beside path (cmd_clean.c). */
void tool_note_temporaries(const char *cmd, const char *path);

/* Print s as a JSON string literal (with quotes); bytes >= 0x80 and control
 * characters are escaped as \u00XX, so the output is always ASCII. */
void tool_json_string(FILE *f, const char *s);
/* A JSON number (%.9g), or null when v is not finite (strict JSON has no inf/nan). */
void tool_json_number(FILE *out, double v);

#endif
