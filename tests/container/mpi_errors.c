/* Agreed errors of the MPI container: APPEND unsupported, a path differing
 * on one rank, a missing file, a damaged one (bad magic), calls in the
 * wrong mode; a failed open leaves no temporary behind. */
#include "mpiutil.h"

#include <unistd.h>

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    lattio_container *c = NULL;
    CHECK_STATUS(lattio_container_open(MPI_COMM_WORLD, "c.ltc", LATTIO_MODE_APPEND, 0, MPI_INFO_NULL, NULL, &c),
                 LATTIO_ERR_UNSUPPORTED);
    CHECK(c == NULL);
    CHECK_STATUS(lattio_container_open(MPI_COMM_WORLD, "missing.ltc", LATTIO_MODE_READ, 0, MPI_INFO_NULL, NULL, &c),
                 LATTIO_ERR_OPEN);
    if (mpitest_size > 1)
        CHECK_STATUS(lattio_container_open(MPI_COMM_WORLD, mpitest_rank ? "x.ltc" : "y.ltc", LATTIO_MODE_CREATE,
                                           0, MPI_INFO_NULL, NULL, &c), LATTIO_ERR_RANK_ARG);
    lattio_container_options opt;
    lattio_container_options_default(&opt);
    opt.align = mpitest_rank == mpitest_size - 1 ? 100 : 512; /* not a power of two on one rank */
    CHECK_STATUS(lattio_container_open(MPI_COMM_WORLD, "z.ltc", LATTIO_MODE_CREATE, 0, MPI_INFO_NULL, &opt, &c),
                 LATTIO_ERR_ARG);
    CHECK_INT(test_count_temporaries(), 0);
    if (mpitest_rank == 0) {
        FILE *f = fopen("junk.ltc", "wb");
        fputs("this is not a container, only some text long enough for a header..........", f);
        fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_STATUS(lattio_container_open(MPI_COMM_WORLD, "junk.ltc", LATTIO_MODE_READ, 0, MPI_INFO_NULL, NULL, &c),
                 LATTIO_ERR_CONTAINER_MAGIC);
    if (mpitest_rank == 0) unlink("w.ltc"); /* from an earlier run */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(m_create(MPI_COMM_WORLD, "w.ltc", 0, &c));
    unsigned char b = 0;
    uint64_t got = 0;
    CHECK_STATUS(lattio_container_read(c, &b, 1, &got), LATTIO_ERR_STATE);
    CHECK_STATUS(lattio_container_seek(c, 0), LATTIO_ERR_STATE);
    CHECK_STATUS(lattio_container_write(c, NULL, 1), LATTIO_ERR_ARG);
    /* a refused write poisons the container: close returns it, nothing is published */
    CHECK_STATUS(lattio_container_write(c, &b, 1), LATTIO_ERR_STATE);
    CHECK_STATUS(lattio_container_close(c), LATTIO_ERR_ARG);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(access("w.ltc", F_OK) != 0);
    CHECK_INT(test_count_temporaries(), 0);
    CHECK_OK(lattio_container_close(NULL));
    return mpitest_finish();
}
