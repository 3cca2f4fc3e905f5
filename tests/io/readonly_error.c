/* readonly_error.c -- open and write errors are every rank's status and
 * leave nothing behind.  Beyond tests/io/agreement.c (which covers CREATE in
 * a missing directory, one rank's different path at CREATE, a NULL path,
 * READ of an absent file and, as non-root only, a read-only directory):
 *   - a path under /proc, where even root cannot create files: ERR_OPEN on
 *     every rank for CREATE (temporary name and in place) and APPEND;
 *   - a missing directory for APPEND and in-place CREATE: ERR_OPEN;
 *   - one rank naming a different (existing) file for READ: ERR_RANK_ARG;
 *   - one rank passing a NULL buffer to lattio_lattice_write: the same error
 *     on every rank; close then fails, removes the temporary file and keeps
 *     the previous file (or creates none). */
#include "mpitest.h"

#include <sys/stat.h>
#include <unistd.h>

static int last;

static void expect_open_error(const char *path, int mode, int in_place, int expected)
{
    lattio_options opt;
    lattio_options_default(&opt);
    opt.in_place = in_place;
    lattio_file *f = (lattio_file *)&opt;
    CHECK_STATUS(lattio_open(MPI_COMM_WORLD, path, mode, MPI_INFO_NULL, &opt, &f), expected);
    CHECK(f == NULL);
}

static void proc_paths(void)
{
    expect_open_error("/proc/lattio-test.lime", LATTIO_MODE_CREATE, 0, LATTIO_ERR_OPEN);
    expect_open_error("/proc/lattio-test.lime", LATTIO_MODE_CREATE, 1, LATTIO_ERR_OPEN);
    expect_open_error("/proc/lattio-test.lime", LATTIO_MODE_APPEND, 0, LATTIO_ERR_OPEN);
    expect_open_error("/proc/self/lattio-test.lime", LATTIO_MODE_CREATE, 0, LATTIO_ERR_OPEN);
    expect_open_error("no/such/dir/x.lime", LATTIO_MODE_APPEND, 0, LATTIO_ERR_OPEN);
    expect_open_error("no/such/dir/x.lime", LATTIO_MODE_CREATE, 1, LATTIO_ERR_OPEN);
    struct stat st;
    CHECK(stat("/proc/lattio-test.lime", &st) != 0);
}

static void write_small(const char *path)
{
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_write(f, "r", "data", 4, 1, 1));
    CHECK_OK(lattio_close(f));
}

static void read_different_paths(void)
{
    write_small("a.lime");
    write_small("b.lime");
    lattio_file *f = NULL;
    CHECK_STATUS(lattio_open(MPI_COMM_WORLD, mpitest_rank == last ? "b.lime" : "a.lime",
                             LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f),
                 last ? LATTIO_ERR_RANK_ARG : LATTIO_OK);
    if (!last) CHECK_OK(lattio_close(f));
    if (last) CHECK(f == NULL);
}

/* A 4x3 lattice of 8-byte sites split along dimension 0. */
static void null_buffer(const char *path)
{
    const uint64_t g[2] = {4, 3};
    uint64_t lo[2] = {0, 0}, count[2] = {0, 3};
    lattio_split(g[0], (uint64_t)mpitest_size, (uint64_t)mpitest_rank, &lo[0], &count[0]);
    lattio_layout l;
    CHECK_OK(lattio_layout_init(&l, 2, g, lo, count, 8));
    unsigned char buf[4 * 3 * 8];
    memset(buf, 7, sizeof buf);
    /* the last rank owns sites whenever there are at most 4 ranks */
    const void *mine = mpitest_rank == last ? NULL : buf;
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_begin(f, "lattice", 4 * 3 * 8, 1, 1));
    CHECK_STATUS(lattio_lattice_write(f, &l, 0, mine), LATTIO_ERR_ARG);
    CHECK_INT(test_count_temporaries(), 1); /* still writing: the temporary exists */
    int rc = lattio_close(f);
    CHECK(rc < 0);
    int r0 = rc;
    MPI_Bcast(&r0, 1, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK_INT(rc, r0); /* the same status on every rank */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_INT(test_count_temporaries(), 0);
}

static void null_buffer_cases(void)
{
    null_buffer("fresh.lime");
    CHECK(access("fresh.lime", F_OK) != 0);
    write_small("keep.lime");
    size_t n0 = 0, n1 = 0;
    unsigned char *before = test_slurp("keep.lime", &n0);
    null_buffer("keep.lime");
    unsigned char *after = test_slurp("keep.lime", &n1);
    CHECK(before && after && n0 == n1 && memcmp(before, after, n0) == 0);
    free(before);
    free(after);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    last = mpitest_size - 1;
    proc_paths();
    read_different_paths();
    null_buffer_cases();
    return mpitest_finish();
}
