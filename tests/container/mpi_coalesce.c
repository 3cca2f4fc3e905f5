/* Coalescing: the same streams written with coalesce = 2 and 3 (one file,
 * and two files where there are two ranks or more: groups stay within a
 * file) give files byte for byte equal to the uncoalesced container with
 * the same id (test hook), which are also the bytes the format defines;
 * buffered streams report their position and CRC and are not on disk
 * before close; the coalesced container reads back in parallel. */
#include "mpiutil.h"

#define TEST_ID 0x1234567890abcdefULL

static void write_one(const char *path, uint32_t nf, int k)
{
    lattio_container_options opt;
    lattio_container *c = NULL;
    uint32_t me = (uint32_t)mpitest_rank, crc = 0;
    lattio_container_options_default(&opt);
    opt.align = T_ALIGN;
    opt.nfiles = nf;
    opt.coalesce = k;
    lattio_cont_test_set_id(TEST_ID);
    CHECK_OK(lattio_container_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, T_HINT, MPI_INFO_NULL, &opt, &c));
    lattio_cont_test_set_id(0);
    CHECK_OK(m_write_stream(c, me));
    CHECK_U64(lattio_container_tell(c), t_size(me));
    CHECK_OK(lattio_container_stream_crc(c, me, &crc));
    CHECK_U64(crc, t_pattern_crc(me, 0, t_size(me)));
    CHECK_OK(lattio_container_close(c));
}

static void same_files(const char *a, const char *b, uint32_t nf)
{
    char na[64], nb[64];
    uint32_t n = (uint32_t)mpitest_size;
    for (uint32_t f = 0; f < nf; f++) {
        size_t la = 0, lb = 0;
        t_member(na, sizeof na, a, f);
        t_member(nb, sizeof nb, b, f);
        unsigned char *x = test_slurp(na, &la), *y = test_slurp(nb, &lb);
        CHECK(x && y && la == lb && memcmp(x, y, la) == 0);
        free(x);
        free(y);
        uint32_t first = t_first(f, n, nf), end = f + 1 < nf ? t_first(f + 1, n, nf) : n;
        t_check_file(na, n, nf, f, first, end - first);
    }
}

/* Before close, a buffered stream (rank 1: 100 bytes) is not on disk yet,
 * a spilled one (rank 2: five chunks and a bit) is (written in place): seen
 * from another node only where ranks 0 and 2 share one (a network file
 * system shows another client's writes after its sync or close, and
 * MooseFS not even the file's new size before). */
static void buffered_until_close(void)
{
    lattio_container_options opt;
    lattio_container *c = NULL;
    lattio_container_options_default(&opt);
    opt.align = T_ALIGN;
    opt.in_place = 1;
    opt.coalesce = 2;
    CHECK_OK(lattio_container_open(MPI_COMM_WORLD, "b.ltc", LATTIO_MODE_CREATE, T_HINT, MPI_INFO_NULL, &opt, &c));
    CHECK_OK(m_write_stream(c, (uint32_t)mpitest_rank));
    MPI_Barrier(MPI_COMM_WORLD);
    const int one_node = mpitest_one_node();
    if (mpitest_rank == 0 && mpitest_size >= 3) {
        size_t len = 0;
        unsigned char *b = test_slurp("b.ltc", &len);
        uint64_t one = t_chunk((uint32_t)mpitest_size, 1, 0), two = t_chunk((uint32_t)mpitest_size, 2, 0);
        /* across nodes the size too may wait for rank 2's close (MooseFS's
         * client caches writes; GlusterFS's sends them at once) */
        CHECK(b && (len >= two + T_STRIDE || !one_node));
        if (b && len >= two + T_STRIDE) {
            size_t nonzero = 0;
            for (uint64_t i = one; i < one + T_STRIDE; i++) nonzero += b[i] != 0;
            CHECK_INT(nonzero, 0);
            if (one_node) CHECK_INT(pattern_mismatches(2, 0, b + two, T_CAP), 0);
        }
        free(b);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(lattio_container_close(c));
    if (mpitest_rank == 0) t_check_file("b.ltc", (uint32_t)mpitest_size, 1, 0, 0, (uint32_t)mpitest_size);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    char plain[32], coal[32];
    for (uint32_t nf = 1; nf <= 2 && nf <= (uint32_t)mpitest_size; nf++) {
        snprintf(plain, sizeof plain, "p%u.ltc", (unsigned)nf);
        write_one(plain, nf, 0);
        for (int k = 2; k <= 3; k++) {
            snprintf(coal, sizeof coal, "c%u_%d.ltc", (unsigned)nf, k);
            write_one(coal, nf, k);
            MPI_Barrier(MPI_COMM_WORLD);
            if (mpitest_rank == 0) same_files(plain, coal, nf);
            lattio_container *c = NULL;
            CHECK_OK(lattio_container_open(MPI_COMM_WORLD, coal, LATTIO_MODE_READ, 0, MPI_INFO_NULL, NULL, &c));
            for (int j = 0; c && j < mpitest_size; j++) m_check_stream(c, (uint32_t)j);
            CHECK_OK(lattio_container_close(c));
        }
    }
    buffered_until_close();
    CHECK_INT(test_count_temporaries(), 0);
    return mpitest_finish();
}
