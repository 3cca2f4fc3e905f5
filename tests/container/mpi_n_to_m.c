/* A container written by a sub-communicator (the first half of the ranks,
 * at least one) is read by all ranks (rank r reads task r mod ntasks) and
 * by each rank alone on MPI_COMM_SELF, which reads every task. */
#include "mpiutil.h"

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    int writers = (mpitest_size + 1) / 2;
    MPI_Comm wcomm;
    MPI_Comm_split(MPI_COMM_WORLD, mpitest_rank < writers ? 0 : 1, mpitest_rank, &wcomm);
    if (mpitest_rank < writers) {
        lattio_container *c = NULL;
        CHECK_OK(m_create(wcomm, "c.ltc", 0, &c));
        CHECK_OK(m_write_stream(c, (uint32_t)mpitest_rank));
        CHECK_OK(lattio_container_close(c));
    }
    MPI_Comm_free(&wcomm);
    MPI_Barrier(MPI_COMM_WORLD);
    lattio_container *c = NULL;
    CHECK_OK(lattio_container_open(MPI_COMM_WORLD, "c.ltc", LATTIO_MODE_READ, 0, MPI_INFO_NULL, NULL, &c));
    CHECK_INT(lattio_container_ntasks(c), writers);
    if (mpitest_rank >= writers) { /* no own task: nothing selected yet */
        uint64_t got = 7;
        unsigned char b;
        CHECK_STATUS(lattio_container_read(c, &b, 1, &got), LATTIO_ERR_CONTAINER_TASK);
        CHECK_STATUS(lattio_container_select(c, (uint32_t)writers), LATTIO_ERR_CONTAINER_TASK);
    }
    m_check_stream(c, (uint32_t)(mpitest_rank % writers));
    CHECK_OK(lattio_container_close(c));
    CHECK_OK(lattio_container_open(MPI_COMM_SELF, "c.ltc", LATTIO_MODE_READ, 0, MPI_INFO_NULL, NULL, &c));
    for (uint32_t t = 0; t < (uint32_t)writers; t++) m_check_stream(c, t);
    CHECK_OK(lattio_container_close(c));
    return mpitest_finish();
}
