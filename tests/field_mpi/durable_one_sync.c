/* durable_one_sync.c -- a durable file is synced once: a file of two
 * records and a field (three strategies, verification off) written with
 * opt.durable calls MPI_File_sync exactly once on every rank, at close,
 * whatever its number of records and rounds; without durable it calls
 * none; with verification on 2 or more ranks the re-read's
 * sync-barrier-sync adds exactly two.  The files equal the one-rank
 * reference's bytes for the field. */
#include "fmtest.h"

#include <stdlib.h>

static long syncs;

int MPI_File_sync(MPI_File fh)
{
    syncs++;
    return PMPI_File_sync(fh);
}

/* MPI_File_sync calls of this rank for one whole file, open to close. */
static long write_file(const char *path, int durable, int verify)
{
    lattio_layout l;
    CHECK_OK(fm_decomposed(&l, 3, 0));
    double *local = fm_fill(&l, 72);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    d.verify = verify;
    d.staging_bytes = 576 * 50; /* several rounds */
    lattio_options o;
    lattio_options_default(&o);
    o.durable = durable;
    static const char note[] = "a record before the field";
    syncs = 0;
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, &o, &f));
    for (int i = 0; i < 2; i++) CHECK_OK(lattio_record_write(f, "lattio-note", note, sizeof note, 1, 1));
    CHECK_OK(lattio_field_write(f, &d, &l, local, NULL));
    CHECK_OK(lattio_close(f));
    free(local);
    return syncs;
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    static const char *const strategies[] = {"independent", "aggregate", "collective", "mapped"};
    for (int s = 0; s < 4; s++) {
        setenv("LATTIO_STRATEGY", strategies[s], 1);
        CHECK_INT(write_file("d.lime", 1, 0), 1);
        CHECK_INT(write_file("p.lime", 0, 0), 0);
        CHECK_INT(write_file("v.lime", 1, 1), mpitest_size > 1 ? 3 : 1);
        if (mpitest_rank == 0) {
            CHECK(fm_same_file("d.lime", "p.lime"));
            CHECK(fm_same_file("d.lime", "v.lime"));
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    unsetenv("LATTIO_STRATEGY");
    return mpitest_finish();
}
