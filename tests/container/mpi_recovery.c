/* A parallel writer that stops before close (test hook: no final trailers,
 * no footer, written in place): a strict open refuses it, a recovering open
 * (parallel and serial) gives every task its full chunks. */
#include "mpiutil.h"
#include "container/mpi/container_mpi.h"

static uint64_t full_chunks(uint32_t t) { return t_size(t) / T_CAP * T_CAP; }

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    lattio_container *c = NULL;
    CHECK_OK(m_create(MPI_COMM_WORLD, "c.ltc", 1, &c));
    CHECK_OK(m_write_stream(c, (uint32_t)mpitest_rank));
    MPI_Barrier(MPI_COMM_WORLD);
    lattio_container_test_abandon(c);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_STATUS(lattio_container_open(MPI_COMM_WORLD, "c.ltc", LATTIO_MODE_READ, 0, MPI_INFO_NULL, NULL, &c),
                 LATTIO_ERR_CONTAINER_TRUNCATED);
    lattio_container_options opt;
    lattio_container_options_default(&opt);
    opt.recover = 1;
    CHECK_OK(lattio_container_open(MPI_COMM_WORLD, "c.ltc", LATTIO_MODE_READ, 0, MPI_INFO_NULL, &opt, &c));
    unsigned char *buf = malloc(8 * T_CAP);
    for (uint32_t t = 0; t < (uint32_t)mpitest_size; t++) {
        uint64_t size = 99, got = 0;
        CHECK_OK(lattio_container_stream_size(c, t, &size));
        CHECK_U64(size, full_chunks(t));
        CHECK_OK(lattio_container_select(c, t));
        CHECK_OK(lattio_container_read(c, buf, 8 * T_CAP, &got));
        CHECK_U64(got, full_chunks(t));
        CHECK_INT(pattern_mismatches(t, 0, buf, (size_t)got), 0);
    }
    CHECK_OK(lattio_container_close(c));
    if (mpitest_rank == 0) {
        lattio_container_reader *r = NULL;
        CHECK_OK(lattio_container_open_serial("c.ltc", LATTIO_CONTAINER_RECOVER, &r));
        for (uint32_t t = 0; t < (uint32_t)mpitest_size; t++) {
            uint64_t size = 99;
            int complete = 1;
            CHECK_OK(lattio_container_reader_size(r, t, &size, &complete));
            CHECK_U64(size, full_chunks(t));
            CHECK_INT(complete, 0);
        }
        lattio_container_reader_close(r);
    }
    free(buf);
    return mpitest_finish();
}
