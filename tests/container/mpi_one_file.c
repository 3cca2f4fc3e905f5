/* The MPI writer creates one file whatever the number of ranks, and
 * nothing else in the directory (no MPI-IO lock-test or hint files): while
 * open, exactly the temporary "PATH.lattio-tmp.*"; after close, exactly
 * PATH, holding every rank's stream; a failed open (a rank giving another
 * path) leaves the directory empty; reading creates nothing. */
#include "mpiutil.h"

#include <dirent.h>
#include <unistd.h>

/* Entries of the working directory other than "." and ".."; *tmp: how
 * many are temporaries, *final: whether `name` is one of them. */
static int entries(const char *name, int *tmp, int *final)
{
    int n = 0;
    DIR *d = opendir(".");
    struct dirent *e;
    *tmp = *final = 0;
    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        n++;
        if (strstr(e->d_name, ".lattio-tmp.")) (*tmp)++;
        if (strcmp(e->d_name, name) == 0) *final = 1;
    }
    if (d) closedir(d);
    return n;
}

static int base; /* entries left by an earlier run of the test (not c.ltc) */

/* Rank 0 counts after every rank got there. */
static void expect(int n_want, int tmp_want, int final_want)
{
    int tmp = 0, final = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (mpitest_rank == 0) {
        CHECK_INT(entries("c.ltc", &tmp, &final) - base, n_want);
        CHECK_INT(tmp, tmp_want);
        CHECK_INT(final, final_want);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    lattio_container *c = NULL;
    int tmp = 0, final = 0;
    if (mpitest_rank == 0) {
        unlink("c.ltc");
        base = entries("c.ltc", &tmp, &final);
        CHECK_INT(tmp, 0);
    }
    expect(0, 0, 0);
    if (mpitest_size > 1)
        CHECK_STATUS(m_create(MPI_COMM_WORLD, mpitest_rank ? "x.ltc" : "c.ltc", 0, &c),
                     LATTIO_ERR_RANK_ARG);
    expect(0, 0, 0);
    CHECK_OK(m_create(MPI_COMM_WORLD, "c.ltc", 0, &c));
    expect(1, 1, 0);
    CHECK_OK(m_write_stream(c, (uint32_t)mpitest_rank));
    expect(1, 1, 0);
    CHECK_OK(lattio_container_close(c));
    expect(1, 0, 1);
    CHECK_OK(lattio_container_open(MPI_COMM_WORLD, "c.ltc", LATTIO_MODE_READ, 0, MPI_INFO_NULL, NULL, &c));
    expect(1, 0, 1);
    for (uint32_t t = 0; t < (uint32_t)mpitest_size; t++) m_check_stream(c, t);
    CHECK_OK(lattio_container_close(c));
    expect(1, 0, 1);
    return mpitest_finish();
}
