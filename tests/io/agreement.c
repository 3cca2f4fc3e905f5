/* agreement.c -- one rank's bad argument or failure is every rank's status,
 * nobody hangs, and a failed write leaves the previous file intact with no
 * temporary file behind. */
#include "mpitest.h"

#include <sys/stat.h>
#include <unistd.h>

static int last;

static void one_rank_overruns(void)
{
    lattio_file *f = NULL;
    if (mpitest_rank == 0) unlink("data.lime"); /* from an earlier run */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "data.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_begin(f, "r", 100, 1, 1));
    char buf[64] = {0};
    uint64_t off = mpitest_rank == last ? 90 : 0; /* the last rank writes past the end */
    CHECK_STATUS(lattio_record_write_at(f, off, buf, 20), LATTIO_ERR_RECORD_OVERRUN);
    /* the failure poisons the file on every rank: nothing more is written */
    CHECK_STATUS(lattio_record_write_at(f, 0, buf, mpitest_rank == 0 ? 60 : 0), LATTIO_ERR_STATE);
    CHECK_STATUS(lattio_record_end(f, 0), LATTIO_ERR_STATE);
    CHECK_STATUS(lattio_close(f), LATTIO_ERR_RECORD_OVERRUN);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(access("data.lime", F_OK) != 0);
    /* a record closed short, then one rank names a different type */
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "data.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_begin(f, "r", 100, 1, 1));
    CHECK_OK(lattio_record_write_at(f, 0, buf, mpitest_rank == 0 ? 60 : 0));
    CHECK_STATUS(lattio_record_end(f, 0), LATTIO_ERR_RECORD_SHORT);
    CHECK_STATUS(lattio_close(f), LATTIO_ERR_RECORD_SHORT);
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "data.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_STATUS(lattio_record_begin(f, mpitest_rank == last ? "odd" : "even", 8, 1, 1),
                 last ? LATTIO_ERR_RANK_ARG : LATTIO_OK);
    if (!last) CHECK_OK(lattio_record_end(f, 1));
    CHECK_STATUS(lattio_close(f), last ? LATTIO_ERR_RANK_ARG : LATTIO_OK);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK((access("data.lime", F_OK) == 0) == !last);
}

static void failed_write_keeps_previous(void)
{
    if (mpitest_rank == 0) {
        FILE *p = fopen("keep.lime", "wb");
        fputs("previous", p);
        fclose(p);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "keep.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_begin(f, "r", 1000, 1, 1));
    /* closing with the record open: the write is abandoned */
    CHECK_STATUS(lattio_close(f), LATTIO_ERR_RECORD_SHORT);
    size_t n = 0;
    unsigned char *p = test_slurp("keep.lime", &n);
    CHECK(p && n == 8 && memcmp(p, "previous", 8) == 0);
    free(p);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_INT(test_count_temporaries(), 0);
}

static void bad_open(void)
{
    lattio_file *f = (lattio_file *)&f;
    /* a directory that does not exist */
    CHECK_STATUS(lattio_open(MPI_COMM_WORLD, "no/such/dir/x.lime", LATTIO_MODE_CREATE,
                             MPI_INFO_NULL, NULL, &f), LATTIO_ERR_OPEN);
    CHECK(f == NULL);
    /* one rank passes a different path */
    CHECK_STATUS(lattio_open(MPI_COMM_WORLD, mpitest_rank == last ? "b.lime" : "a.lime",
                             LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f),
                 last ? LATTIO_ERR_RANK_ARG : LATTIO_OK);
    if (!last) CHECK_OK(lattio_close(f));
    /* one rank passes NULL */
    CHECK_STATUS(lattio_open(MPI_COMM_WORLD, mpitest_rank == last ? NULL : "a.lime",
                             LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f), LATTIO_ERR_ARG);
    /* reading a file that is not there */
    CHECK_STATUS(lattio_open(MPI_COMM_WORLD, "absent.lime", LATTIO_MODE_READ, MPI_INFO_NULL,
                             NULL, &f), LATTIO_ERR_OPEN);
}

static void read_only_directory(void)
{
    if (mpitest_rank == 0) mkdir("ro", 0555);
    MPI_Barrier(MPI_COMM_WORLD);
    if (geteuid() == 0) return; /* root writes anywhere: covered by bad_open */
    lattio_file *f = NULL;
    CHECK_STATUS(lattio_open(MPI_COMM_WORLD, "ro/x.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL,
                             NULL, &f), LATTIO_ERR_OPEN);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    last = mpitest_size - 1;
    one_rank_overruns();
    failed_write_keeps_previous();
    bad_open();
    read_only_directory();
    return mpitest_finish();
}
