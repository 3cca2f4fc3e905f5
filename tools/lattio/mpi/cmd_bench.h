/* cmd_bench.h -- shared declarations of `lattio bench` (cmd_bench*.c).
 *
 * The bench writes a distributed lattice into one LIME record with each
 * lattio strategy and reads it back, verifying every file and every read
 * against a site-dependent pattern, next to two POSIX baselines of the same
 * bytes (every rank its own file; rank 0 the whole volume). */
#ifndef LATTIO_CMD_BENCH_H
#define LATTIO_CMD_BENCH_H

#include "tool.h"

#define BENCH_MAX_REPS 100
#define BENCH_RECORD_TYPE "ildg-binary-data"
/* A POSIX failure as a status: below every lattio status. */
#define BENCH_ERRNO_BASE 10000

/* The cases: two baselines, then the strategies. */
enum bench_case_id {
    BC_POSIX_ALL, /* every rank writes/reads its own bytes to its own file */
    BC_POSIX_ONE, /* rank 0 writes/reads the whole volume alone */
    BC_INDEPENDENT,
    BC_COLLECTIVE,
    BC_AGGREGATE,
    BC_SERIAL,
    BC_MAPPED,
    BC_AUTO,
    BC_NCASES
};
enum { BENCH_WRITE = 0, BENCH_READ = 1 };
enum bench_state { BS_OK = 0, BS_UNSUPPORTED, BS_CORRUPT, BS_ERROR, BS_SKIPPED };

typedef struct bench_opts {
    int ndims;
    uint64_t dims[LATTIO_MAX_DIMS];
    int grid[LATTIO_MAX_DIMS]; /* all 0: auto */
    size_t site;
    int want[BC_NCASES]; /* strategies asked for (baselines always run) */
    int weak, reps, warmup, fsync, drop, profile;
    const char *dir, *json, *label;
} bench_opts;

typedef struct bench_result {
    int state[2];  /* per operation: enum bench_state */
    int status[2]; /* the failing status (lattio or BENCH_ERRNO_BASE + errno, negated) */
    int nrep[2];
    double t[2][BENCH_MAX_REPS];
    int nprof[2], prof_ok[2]; /* prof_ok: the current operation's profile was taken */
    lattio_profile prof[2][BENCH_MAX_REPS];
} bench_result;

typedef struct bench {
    bench_opts o;
    MPI_Comm comm; /* Cartesian */
    int rank, size;
    lattio_layout lay;
    uint64_t local_sites, local_bytes, global_bytes;
    unsigned char *src, *dst;  /* this rank's box, file order */
    unsigned char *scratch;    /* rank 0's buffer when it owns no sites */
    char prefix[4096];         /* DIR/lattio-bench.PID */
    FILE *json;                /* rank 0, opened before the run */
    int dropped;               /* 1 caches dropped, 0 not asked, -1 could not */
    char drop_msg[160];
    double load[2];
    bench_result r[BC_NCASES];
} bench;

/* cmd_bench_opts.c */
extern const char bench_help[];
const char *bench_case_name(int c);
int bench_strategy_of(int c); /* enum lattio_strategy of a strategy case */
int bench_parse(int argc, char **argv, int nranks, bench_opts *o);

/* cmd_bench_setup.c */
int bench_setup(bench *b);
void bench_teardown(bench *b);
int bench_agree(const bench *b, int status);
int bench_errno_status(int e); /* a POSIX errno as a status */
const char *bench_status_text(int status);

/* cmd_bench_cases.c */
int bench_run_all(bench *b);

/* cmd_bench_verify.c */
void bench_fill(const bench *b);
int bench_verify_file(const bench *b, const char *path);
int bench_verify_read(const bench *b, int c);

/* cmd_bench_report.c */
void bench_print_table(const bench *b, FILE *out);
void bench_write_json(const bench *b, FILE *out);

#endif
