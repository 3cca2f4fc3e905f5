/* cmd_bench.c -- `lattio bench`: the parallel I/O benchmark (issue 5).
 * Options and help: cmd_bench_opts.c; set-up: cmd_bench_setup.c; the timed
 * cases: cmd_bench_cases.c; checks: cmd_bench_verify.c; output:
 * cmd_bench_report.c.  Runs on every rank; without an MPI launcher it
 * initialises MPI itself and runs on one rank. */
#include "cmd_bench.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double loadavg(void)
{
    double l = -1;
    FILE *fp = fopen("/proc/loadavg", "r");
    if (fp && fscanf(fp, "%lf", &l) != 1) l = -1;
    if (fp) fclose(fp);
    return l;
}

/* Rank 0: the table (on stderr when the JSON goes to stdout) and the JSON.
 * Returns TOOL_FAIL if the JSON could not be written. */
static int report(bench *b, int rc)
{
    if (b->rank != 0) return rc;
    int json_stdout = b->json == stdout;
    bench_print_table(b, json_stdout ? stderr : stdout);
    if (!b->json) return rc;
    bench_write_json(b, b->json);
    if (json_stdout) return rc;
    if (ferror(b->json) | (fclose(b->json) != 0)) {
        b->json = NULL;
        unlink(b->o.json);
        return tool_error("bench", b->o.json, "writing the JSON file failed");
    }
    b->json = NULL;
    return rc;
}

static int bench_main(bench *b)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &b->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &b->size);
    int rc = bench_setup(b);
    if (rc == TOOL_OK) {
        b->load[0] = loadavg();
        rc = bench_run_all(b);
        b->load[1] = loadavg();
        rc = report(b, rc);
    }
    if (b->json && b->json != stdout) { /* set-up failed after opening it */
        fclose(b->json);
        unlink(b->o.json);
    }
    bench_teardown(b);
    int all = rc; /* every rank exits with the worst status */
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

static int run_bench(int argc, char **argv)
{
    static bench b; /* large (the per-repetition profiles): not on the stack */
    memset(&b, 0, sizeof b);
    int rc = bench_parse(argc, argv, tool_nranks(), &b.o);
    if (rc != TOOL_OK) return rc;
    int inited = 0;
    MPI_Initialized(&inited);
    int provided = 0;
    if (!inited && MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return tool_error("bench", NULL, "MPI_Init failed");
    rc = bench_main(&b);
    if (!inited) MPI_Finalize();
    return rc;
}

const tool_command tool_cmd_bench = {
    "bench", "parallel I/O benchmark of the lattio strategies (under mpirun)", bench_help, run_bench,
    1};
