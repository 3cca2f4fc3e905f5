/* launcher.c -- the `lattio` command under an MPI launcher.
 *
 * Started by mpirun/mpiexec/srun (recognised by the launcher's environment
 * variables) the command initialises MPI and every rank runs it: commands
 * marked `parallel` (extract) share the work, the others run on rank 0 while
 * the other ranks wait for its exit status.  Only rank 0 prints.  Started
 * any other way the command never touches MPI (no MPI_Init on login nodes). */
#include "tool.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static int mpi_on, mpi_rank, mpi_size = 1;

/* Environment variables set by the launchers: Open MPI, PMIx (Open MPI 5,
 * srun --mpi=pmix), Hydra/PMI (MPICH, Intel MPI, srun --mpi=pmi2). */
static int launched_by_mpi(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK",
                                       "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return 1;
    }
    return 0;
}

/* Before MPI_Init: keep Open MPI's lockedfile shared-file-pointer component
 * out of every MPI_File_open (it hangs the open across nodes on GlusterFS
 * and NFS; lattio never uses shared file pointers, and the library refuses
 * such an open with ERR_MPI_SHAREDFP rather than hang).  A user's own
 * OMPI_MCA_sharedfp wins.  Other MPI libraries ignore the variable. */
static void before_init(void) { setenv("OMPI_MCA_sharedfp", "^lockedfile", 0); }

int tool_mpi_start(int *argc, char ***argv)
{
    if (!launched_by_mpi()) return 0;
    before_init();
    int provided = 0; /* FUNNELED: field I/O may use a helper thread (no MPI calls) */
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fputs("lattio: MPI_Init failed\n", stderr);
        return -1;
    }
    mpi_on = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
    return 0;
}

void tool_mpi_ensure(void)
{
    int done = 0;
    MPI_Initialized(&done);
    if (done) return;
    before_init();
    int provided = 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) return;
    mpi_on = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
}

int tool_mpi_finish(int rc)
{
    if (mpi_on) MPI_Finalize();
    mpi_on = 0;
    return rc;
}

int tool_rank(void) { return mpi_rank; }
int tool_nranks(void) { return mpi_size; }

/* Complete a request, sleeping between tests: ranks waiting for rank 0 (which
 * may copy gigabytes) should not spin on the cores it needs. */
static void wait_politely(MPI_Request *req)
{
    int done = 0;
    const struct timespec nap = {0, 2000000}; /* 2 ms */
    for (;;) {
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done) return;
        nanosleep(&nap, NULL);
    }
}

void tool_mpi_bcast(void *buf, size_t bytes, int root)
{
    if (mpi_size < 2) return;
    MPI_Request req;
    MPI_Ibcast(buf, (int)bytes, MPI_BYTE, root, MPI_COMM_WORLD, &req);
    wait_politely(&req);
}

int tool_mpi_share_status(int rc)
{
    tool_mpi_bcast(&rc, sizeof rc, 0);
    return rc;
}

int tool_mpi_first_failure(int failed)
{
    if (mpi_size < 2) return failed ? 0 : -1;
    struct {
        int value, rank;
    } mine = {failed ? 0 : 1, mpi_rank}, all = {1, 0};
    MPI_Allreduce(&mine, &all, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
    return all.value == 0 ? all.rank : -1;
}

int tool_run_on_root(const tool_command *c, int argc, char **argv)
{
    int rc = TOOL_OK;
    if (mpi_rank == 0) {
        rc = c->run(argc, argv);
        if (fflush(stdout) != 0 && rc == TOOL_OK) {
            fprintf(stderr, "lattio %s: writing standard output failed\n", c->name);
            rc = TOOL_FAIL;
        }
    }
    return tool_mpi_share_status(rc);
}

