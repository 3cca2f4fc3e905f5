/* Checksums through the MPI reader: after rank 0 flips one byte in chunk 0
 * of the last task with a non-empty stream, reading that task fails with
 * ERR_CONTAINER_CHECKSUM on every rank that reads it, the other tasks read
 * fine, and the no_verify option reads the flipped byte. */
#include "mpiutil.h"

static uint32_t victim(void)
{
    for (uint32_t t = (uint32_t)mpitest_size; t-- > 0;)
        if (t_size(t) > 0) return t;
    return UINT32_MAX;
}

static void read_all(int no_verify, uint32_t bad)
{
    lattio_container_options opt;
    lattio_container *c = NULL;
    unsigned char *buf = malloc(8 * T_CAP);
    lattio_container_options_default(&opt);
    opt.no_verify = no_verify;
    CHECK_OK(lattio_container_open(MPI_COMM_WORLD, "c.ltc", LATTIO_MODE_READ, 0, MPI_INFO_NULL, &opt, &c));
    for (uint32_t t = 0; c && t < (uint32_t)mpitest_size; t++) {
        uint64_t got = 0;
        CHECK_OK(lattio_container_select(c, t));
        int rc = lattio_container_read(c, buf, 8 * T_CAP, &got);
        if (t == bad && !no_verify) {
            CHECK_STATUS(rc, LATTIO_ERR_CONTAINER_CHECKSUM);
            continue;
        }
        CHECK_OK(rc);
        CHECK_U64(got, t_size(t));
        CHECK_INT(pattern_mismatches(t, 0, buf, (size_t)got), t == bad ? 1 : 0);
    }
    CHECK_OK(lattio_container_close(c));
    free(buf);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    lattio_container *c = NULL;
    uint32_t bad = victim();
    CHECK_OK(m_create(MPI_COMM_WORLD, "c.ltc", 0, &c));
    CHECK_OK(m_write_stream(c, (uint32_t)mpitest_rank));
    CHECK_OK(lattio_container_close(c));
    if (mpitest_rank == 0 && bad != UINT32_MAX) {
        FILE *f = fopen("c.ltc", "r+b");
        long at = (long)t_chunk((uint32_t)mpitest_size, bad, 0) + 3;
        int ch = 0;
        CHECK(f && fseek(f, at, SEEK_SET) == 0 && (ch = fgetc(f)) != EOF);
        if (f && fseek(f, at, SEEK_SET) == 0) fputc(ch ^ 0x40, f);
        if (f) fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    read_all(0, bad);
    read_all(1, bad);
    return mpitest_finish();
}
