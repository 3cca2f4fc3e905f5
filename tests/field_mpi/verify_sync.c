/* verify_sync.c -- verify-after-write syncs only when it must: the re-read
 * splits the record over the ranks differently from the write, so with 2 or
 * more ranks each reads bytes another wrote and MPI-IO's sync-barrier-sync
 * comes first (MPI_File_sync on every rank); a single rank reads its own
 * writes through the same handle and calls no MPI_File_sync (on a local file
 * system that is an fsync of the whole file, the largest cost of a verified
 * write).  Either way the verified file equals the one-rank reference, and a
 * corruption of the written bytes is still caught and repaired. */
#include "fmtest.h"

static int counting;
static long syncs;

int MPI_File_sync(MPI_File fh)
{
    if (counting) syncs++;
    return PMPI_File_sync(fh);
}

/* Syncs of one verified field write (this rank), corrupt: chunks spoiled. */
static long write_counting(const char *path, int corrupt, lattio_field_write_info *wi)
{
    lattio_layout l;
    CHECK_OK(fm_decomposed(&l, 3, 0));
    double *local = fm_fill(&l, 72);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    d.verify = 1;
    d.verify_retries = 1;
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    if (mpitest_rank == 0) lattio_field_test_corrupt_writes(corrupt);
    syncs = 0;
    counting = 1;
    CHECK_OK(lattio_field_write(f, &d, &l, local, wi));
    counting = 0;
    lattio_field_test_corrupt_writes(0);
    CHECK_OK(lattio_close(f));
    free(local);
    return syncs;
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    fm_write_reference("ref.lime", LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    lattio_field_write_info wi;
    long n = write_counting("v.lime", 0, &wi);
    if (mpitest_size == 1) CHECK_INT(n, 0);
    else CHECK(n >= 2); /* sync, barrier, sync */
    CHECK_INT(wi.retries, 0);
    if (mpitest_rank == 0) CHECK(fm_same_file("v.lime", "ref.lime"));
    /* without the sync a spoiled write is still seen and rewritten */
    n = write_counting("once.lime", 1, &wi);
    CHECK_INT(wi.retries, 1);
    if (mpitest_size == 1) CHECK_INT(n, 0);
    if (mpitest_rank == 0) CHECK(fm_same_file("once.lime", "ref.lime"));
    return mpitest_finish();
}
