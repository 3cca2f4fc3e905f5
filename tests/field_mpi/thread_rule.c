/* thread_rule.c -- when the field writer and reader use a helper thread
 * (lattio_field_write_info / lattio_field_read_info .threaded).  Each rank
 * first widens its CPU affinity to every online CPU, so only the thread
 * level and the CPUs per rank decide.  By default: never under
 * MPI_THREAD_SINGLE (MPI_Init, this test without argument); with
 * "funneled" (MPI_Init_thread, MPI_THREAD_FUNNELED) exactly when the node
 * has at least 2 CPUs per rank.  Always with LATTIO_FIELD_THREADS=1; never
 * with 0; an unknown value falls back to the rule.  Every rank reports the
 * same. */
#define _GNU_SOURCE /* sched_setaffinity */
#include "fmtest.h"

#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

/* Write and read back with LATTIO_FIELD_THREADS = v (NULL: unset); the
 * helper flags of both calls. */
static void run(const char *v, int *wt, int *rt)
{
    if (v) setenv("LATTIO_FIELD_THREADS", v, 1);
    else unsetenv("LATTIO_FIELD_THREADS");
    int grid[4];
    fm_grid(0, mpitest_size, grid);
    lattio_layout l;
    CHECK_OK(fm_layout(&l, fm_g, grid, mpitest_rank, 576, 0, 0));
    double *local = fm_fill(&l, 72);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    d.staging_bytes = 576 * 48;
    lattio_field_write_info wi;
    CHECK_OK(fm_write(MPI_COMM_WORLD, "t.lime", &d, &l, local, &wi));
    lattio_field_read_info ri;
    CHECK_OK(fm_read(MPI_COMM_WORLD, "t.lime", &d, &l, local, &ri));
    CHECK_INT(ri.checksum, LATTIO_CHECKSUM_VERIFIED);
    free(local);
    *wt = wi.threaded;
    *rt = ri.threaded;
    CHECK(fm_same_everywhere(*wt) && fm_same_everywhere(*rt));
}

/* Every online CPU in this process's affinity mask; their number. */
static int widen_affinity(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;
    CPU_ZERO(&set);
    for (long c = 0; c < n && c < CPU_SETSIZE; c++) CPU_SET((int)c, &set);
    CHECK(sched_setaffinity(0, sizeof set, &set) == 0);
    return (int)n;
}

int main(int argc, char **argv)
{
    const int funneled = argc > 1 && strcmp(argv[1], "funneled") == 0;
    int level = -1, wt = -1, rt = -1;
    if (funneled) MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &level);
    else MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &mpitest_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpitest_size);
    MPI_Query_thread(&level);
    const int cpus = widen_affinity();
    if (funneled) CHECK(level >= MPI_THREAD_FUNNELED);
    const int want = level >= MPI_THREAD_FUNNELED && cpus >= 2 && cpus >= 2 * mpitest_size;
    run(NULL, &wt, &rt);
    CHECK_INT(wt, want);
    CHECK_INT(rt, want);
    run("1", &wt, &rt);
    CHECK(wt == 1 && rt == 1);
    run("0", &wt, &rt);
    CHECK(wt == 0 && rt == 0);
    run("yes", &wt, &rt);
    CHECK_INT(wt, want);
    CHECK_INT(rt, want);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
