/* Multi-file containers written in parallel: nfiles 1 .. min(3, ranks)
 * (rank r in file r * nfiles / size) and a colour communicator (rank 0
 * alone, the others together); every file's bytes as the format defines
 * them; no temporaries left; read back in parallel (every stream, stream
 * CRCs) and serially.  A colour communicator whose colours are not runs of
 * consecutive ranks is refused (ERR_ARG on every rank), and so is nfiles
 * larger than the number of ranks.  A two-file writer stopped before close
 * (test hook) is refused strictly, recovered in parallel (every task its
 * full chunks) and, after lattio_container_repair, opens strictly. */
#include "mpiutil.h"
#include "container/mpi/container_mpi.h"

#include <unistd.h>

static void check_files(const char *path, uint32_t nf, const uint32_t *first)
{
    char name[256];
    uint32_t n = (uint32_t)mpitest_size;
    if (mpitest_rank != 0) return;
    for (uint32_t f = 0; f < nf; f++) {
        uint32_t end = f + 1 < nf ? first[f + 1] : n;
        t_member(name, sizeof name, path, f);
        t_check_file(name, n, nf, f, first[f], end - first[f]);
    }
    t_member(name, sizeof name, path, nf);
    CHECK(access(name, F_OK) != 0); /* no further member */
    lattio_container_reader *r = NULL;
    unsigned char *buf = malloc(8 * T_CAP);
    CHECK_OK(lattio_container_open_serial(path, 0, &r));
    for (uint32_t t = 0; r && t < n; t++) {
        CHECK_OK(lattio_container_reader_read(r, t, 0, buf, (size_t)t_size(t)));
        CHECK_INT(pattern_mismatches(t, 0, buf, (size_t)t_size(t)), 0);
    }
    free(buf);
    lattio_container_reader_close(r);
}

static void parallel_read(const char *path)
{
    lattio_container *c = NULL;
    CHECK_OK(lattio_container_open(MPI_COMM_WORLD, path, LATTIO_MODE_READ, 0, MPI_INFO_NULL, NULL, &c));
    for (int k = 0; c && k < mpitest_size; k++) {
        uint32_t t = (uint32_t)((mpitest_rank + k) % mpitest_size), crc = 0;
        m_check_stream(c, t);
        CHECK_OK(lattio_container_stream_crc(c, t, &crc));
        CHECK_U64(crc, t_pattern_crc(t, 0, t_size(t)));
    }
    CHECK_OK(lattio_container_close(c));
}

static void write_with(const char *path, uint32_t nf, MPI_Comm colours)
{
    lattio_container_options opt;
    lattio_container *c = NULL;
    lattio_container_options_default(&opt);
    opt.align = T_ALIGN;
    opt.nfiles = nf;
    opt.file_comm = colours;
    CHECK_OK(lattio_container_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, T_HINT, MPI_INFO_NULL, &opt, &c));
    CHECK_OK(m_write_stream(c, (uint32_t)mpitest_rank));
    uint32_t crc = 0;
    CHECK_OK(lattio_container_stream_crc(c, (uint32_t)mpitest_rank, &crc));
    CHECK_U64(crc, t_pattern_crc((uint32_t)mpitest_rank, 0, t_size((uint32_t)mpitest_rank)));
    CHECK_OK(lattio_container_close(c));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_INT(test_count_temporaries(), 0);
}

static void refused(void)
{
    lattio_container_options opt;
    lattio_container *c = NULL;
    lattio_container_options_default(&opt);
    opt.align = T_ALIGN;
    opt.nfiles = (uint32_t)mpitest_size + 1;
    CHECK_STATUS(lattio_container_open(MPI_COMM_WORLD, "x.ltc", LATTIO_MODE_CREATE, T_HINT, MPI_INFO_NULL,
                                       &opt, &c), LATTIO_ERR_ARG);
    if (mpitest_size < 3) return;
    MPI_Comm odd;
    MPI_Comm_split(MPI_COMM_WORLD, mpitest_rank % 2, mpitest_rank, &odd);
    opt.nfiles = 0;
    opt.file_comm = odd;
    CHECK_STATUS(lattio_container_open(MPI_COMM_WORLD, "x.ltc", LATTIO_MODE_CREATE, T_HINT, MPI_INFO_NULL,
                                       &opt, &c), LATTIO_ERR_ARG);
    MPI_Comm_free(&odd);
}

static uint64_t full_chunks(uint32_t t) { return t_size(t) / T_CAP * T_CAP; }

static void check_sizes(const char *path, int recover)
{
    lattio_container_options opt;
    lattio_container *c = NULL;
    lattio_container_options_default(&opt);
    opt.recover = recover;
    CHECK_OK(lattio_container_open(MPI_COMM_WORLD, path, LATTIO_MODE_READ, 0, MPI_INFO_NULL, &opt, &c));
    unsigned char *buf = malloc(8 * T_CAP);
    for (uint32_t t = 0; c && t < (uint32_t)mpitest_size; t++) {
        uint64_t size = 99, got = 0;
        CHECK_OK(lattio_container_stream_size(c, t, &size));
        CHECK_U64(size, full_chunks(t));
        CHECK_OK(lattio_container_select(c, t));
        CHECK_OK(lattio_container_read(c, buf, 8 * T_CAP, &got));
        CHECK_U64(got, full_chunks(t));
        CHECK_INT(pattern_mismatches(t, 0, buf, (size_t)got), 0);
    }
    free(buf);
    CHECK_OK(lattio_container_close(c));
}

static void killed(void)
{
    lattio_container_options opt;
    lattio_container *c = NULL;
    lattio_container_options_default(&opt);
    opt.align = T_ALIGN;
    opt.in_place = 1;
    opt.nfiles = mpitest_size >= 2 ? 2 : 1;
    CHECK_OK(lattio_container_open(MPI_COMM_WORLD, "k.ltc", LATTIO_MODE_CREATE, T_HINT, MPI_INFO_NULL, &opt, &c));
    CHECK_OK(m_write_stream(c, (uint32_t)mpitest_rank));
    MPI_Barrier(MPI_COMM_WORLD);
    lattio_container_test_abandon(c);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_STATUS(lattio_container_open(MPI_COMM_WORLD, "k.ltc", LATTIO_MODE_READ, 0, MPI_INFO_NULL, NULL, &c),
                 LATTIO_ERR_CONTAINER_TRUNCATED);
    check_sizes("k.ltc", 1);
    if (mpitest_rank == 0) {
        lattio_container_repair_report rep;
        CHECK_OK(lattio_container_repair("k.ltc", NULL, 0, &rep));
        CHECK_INT(rep.nfiles, opt.nfiles);
        for (uint32_t t = 0; rep.sizes && t < (uint32_t)mpitest_size; t++)
            CHECK_U64(rep.sizes[t], full_chunks(t));
        lattio_container_repair_report_free(&rep);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    check_sizes("k.ltc", 0);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    uint32_t n = (uint32_t)mpitest_size, first[3];
    char path[32];
    for (uint32_t nf = 1; nf <= 3 && nf <= n; nf++) {
        snprintf(path, sizeof path, "n%u.ltc", (unsigned)nf);
        write_with(path, nf, MPI_COMM_NULL);
        for (uint32_t f = 0; f < nf; f++) first[f] = t_first(f, n, nf);
        check_files(path, nf, first);
        parallel_read(path);
    }
    MPI_Comm colours;
    MPI_Comm_split(MPI_COMM_WORLD, mpitest_rank == 0 ? 7 : 3, mpitest_rank, &colours);
    write_with("col.ltc", 0, colours);
    MPI_Comm_free(&colours);
    first[0] = 0;
    first[1] = 1;
    check_files("col.ltc", n > 1 ? 2 : 1, first);
    parallel_read("col.ltc");
    refused();
    killed();
    CHECK_INT(test_count_temporaries(), 0);
    return mpitest_finish();
}
