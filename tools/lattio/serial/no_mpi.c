/* no_mpi.c -- the command in a build without MPI (the Python package's
 * serial install): one process, never a launcher; the operations on this
 * process (lattio_verify_file, lattio_convert_file: HDF5 read on a serial
 * libhdf5 where the build found one), and what needs MPI refused by name. */
#include "extract.h"
#include "gauge_tool.h"

int tool_mpi_start(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}

int tool_mpi_finish(int rc) { return rc; }
void tool_mpi_ensure(void) {}
int tool_rank(void) { return 0; }
int tool_nranks(void) { return 1; }
void tool_mpi_bcast(void *buf, size_t bytes, int root) { (void)buf, (void)bytes, (void)root; }
int tool_mpi_share_status(int rc) { return rc; }
int tool_mpi_first_failure(int failed) { return failed ? 0 : -1; }
int tool_run_on_root(const tool_command *c, int argc, char **argv) { return c->run(argc, argv); }

int tool_verify(const char *path, verify_report *rep) { return tool_verify_serial(path, rep, NULL); }

void tool_convert(const char *in, const char *out, const lattio_convert_options *o, lattio_convert_report *rep)
{
    lattio_convert_file(in, out, o, rep); /* what needs MPI: ERR_UNSUPPORTED, named in the report */
}

int extract_parallel(const extract_args *a) /* never called: one rank */
{
    (void)a;
    return TOOL_FAIL;
}

static const char bench_help[] = "usage: lattio bench ...\n\nThe benchmark needs the MPI build of lattio "
                                 "(docs/install.md); this one was built without MPI.\n";

static int run_bench(int argc, char **argv)
{
    (void)argc, (void)argv;
    return tool_error("bench", NULL, "needs the MPI build of lattio (docs/install.md); this one was built without MPI");
}

const tool_command tool_cmd_bench = {"bench", "benchmark the write strategies (MPI build only)", bench_help,
                                     run_bench, 0};
