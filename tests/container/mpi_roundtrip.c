/* Every rank writes its own stream (sizes 0, 100, five chunks and a bit in
 * one write, one chunk, two chunks) with local calls; read back in parallel
 * (each rank its own stream, then every stream), with seek, and serially on
 * rank 0; the temporary is renamed and gone. */
#include "mpiutil.h"

static void parallel_read(void)
{
    lattio_container *c = NULL;
    unsigned char buf[64];
    uint64_t got = 0;
    CHECK_OK(lattio_container_open(MPI_COMM_WORLD, "c.ltc", LATTIO_MODE_READ, 0, MPI_INFO_NULL, NULL, &c));
    CHECK_INT(lattio_container_ntasks(c), mpitest_size);
    for (int k = 0; k < mpitest_size; k++) /* own stream first, then the others' */
        m_check_stream(c, (uint32_t)((mpitest_rank + k) % mpitest_size));
    uint32_t t = 2 % (uint32_t)mpitest_size;
    uint64_t size = t_size(t);
    CHECK_OK(lattio_container_select(c, t));
    if (size > T_CAP + 10) {
        CHECK_OK(lattio_container_seek(c, T_CAP - 20)); /* across a chunk boundary */
        CHECK_OK(lattio_container_read(c, buf, 40, &got));
        CHECK_U64(got, 40);
        CHECK_INT(pattern_mismatches(t, T_CAP - 20, buf, 40), 0);
    }
    CHECK_STATUS(lattio_container_seek(c, size + 1), LATTIO_ERR_RECORD_OVERRUN);
    CHECK_STATUS(lattio_container_write(c, buf, 1), LATTIO_ERR_STATE);
    CHECK_OK(lattio_container_close(c));
}

static void serial_read(void)
{
    lattio_container_reader *r = NULL;
    lattio_container_info info;
    CHECK_OK(lattio_container_open_serial("c.ltc", 0, &r));
    CHECK_OK(lattio_container_reader_info(r, &info));
    CHECK_INT(info.complete, 1);
    CHECK_U64(info.stride, T_STRIDE);
    unsigned char *buf = malloc(8 * T_CAP);
    for (uint32_t t = 0; t < (uint32_t)mpitest_size; t++) {
        uint64_t size = 0;
        CHECK_OK(lattio_container_reader_size(r, t, &size, NULL));
        CHECK_U64(size, t_size(t));
        CHECK_OK(lattio_container_reader_read(r, t, 0, buf, (size_t)size));
        CHECK_INT(pattern_mismatches(t, 0, buf, (size_t)size), 0);
    }
    free(buf);
    lattio_container_reader_close(r);
    /* bytes on disk: task t's first chunk where the format puts it */
    size_t len = 0;
    unsigned char *f = test_slurp("c.ltc", &len);
    for (uint32_t t = 0; f && t < (uint32_t)mpitest_size; t++) {
        uint64_t n = t_size(t) < T_CAP ? t_size(t) : T_CAP;
        if (t_chunk((uint32_t)mpitest_size, t, 0) + n <= len)
            CHECK_INT(pattern_mismatches(t, 0, f + t_chunk((uint32_t)mpitest_size, t, 0), (size_t)n), 0);
        else
            CHECK(0);
    }
    free(f);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    lattio_container *c = NULL;
    CHECK_OK(m_create(MPI_COMM_WORLD, "c.ltc", 0, &c));
    CHECK_OK(m_write_stream(c, (uint32_t)mpitest_rank));
    CHECK_U64(lattio_container_tell(c), t_size((uint32_t)mpitest_rank));
    CHECK_OK(lattio_container_close(c));
    CHECK_INT(test_count_temporaries(), 0);
    parallel_read();
    if (mpitest_rank == 0) serial_read();
    return mpitest_finish();
}
