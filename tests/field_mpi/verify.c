/* verify.c -- verify-after-write: a clean write verifies with no retry; a
 * test hook that corrupts the first chunk rank 0 writes is caught by the
 * re-read and repaired by one rewrite (the file then equals the one-rank
 * reference); without verification the same hook leaves a file the serial
 * reader rejects (ERR_CHECKSUM); corruption on every write exhausts the
 * retries: ERR_VERIFY on every rank, the previous file intact, no
 * temporary file left. */
#include "fmtest.h"

#include <dirent.h>

static int write_v(const char *path, int verify, int retries, int corrupt,
                   lattio_field_write_info *wi)
{
    lattio_layout l;
    CHECK_OK(fm_decomposed(&l, 3, 0));
    double *local = fm_fill(&l, 72);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    d.verify = verify;
    d.verify_retries = retries;
    d.staging_bytes = 576 * 40;
    if (mpitest_rank == 0) lattio_field_test_corrupt_writes(corrupt);
    const int rc = fm_write(MPI_COMM_WORLD, path, &d, &l, local, wi);
    lattio_field_test_corrupt_writes(0);
    free(local);
    CHECK(fm_same_everywhere(rc));
    MPI_Barrier(MPI_COMM_WORLD);
    return rc;
}

static int temporaries(void)
{
    int n = 0;
    DIR *dir = opendir(".");
    for (struct dirent *e; dir && (e = readdir(dir));) n += strstr(e->d_name, "lattio-tmp") != NULL;
    if (dir) closedir(dir);
    return n;
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    lattio_field_write_info wi;
    fm_write_reference("ref.lime", LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    CHECK_OK(write_v("v.lime", 1, 2, 0, &wi));
    CHECK_INT(wi.retries, 0);
    if (mpitest_rank == 0) CHECK(fm_same_file("v.lime", "ref.lime"));
    CHECK_OK(write_v("once.lime", 1, 2, 1, &wi));
    CHECK_INT(wi.retries, 1);
    if (mpitest_rank == 0) CHECK(fm_same_file("once.lime", "ref.lime"));
    CHECK_OK(write_v("bad.lime", 0, 0, 1, &wi));
    if (mpitest_rank == 0) CHECK_STATUS(lattio_field_verify("bad.lime", 0, NULL, NULL), LATTIO_ERR_CHECKSUM);
    CHECK_STATUS(write_v("v.lime", 1, 1, 1000000, &wi), LATTIO_ERR_VERIFY);
    CHECK_INT(wi.retries, 1);
    if (mpitest_rank == 0) {
        CHECK(fm_same_file("v.lime", "ref.lime"));
        CHECK_INT(temporaries(), 0);
    }
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
