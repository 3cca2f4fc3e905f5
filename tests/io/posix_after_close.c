/* posix_after_close.c -- once lattio_close has returned, a plain POSIX
 * reader on any node of the job sees the whole file: its final size and
 * every byte, with no refresh of its own (open, lseek to the end, pread).
 * On GlusterFS a node's client kept the size its own aggregator's writes
 * had made while another node's aggregator wrote the tail, and
 * lattice_bench's pread check failed in 2 of 4 runs at 2x2
 * (bench/results/scale-2026-11-27.md); lattio_close now makes every node's
 * view current.  Lattices of 16x16x16xT sites of 72 bytes, T = 16..19,
 * fine x,y split, the aggregate strategy with one aggregator per node and
 * 1 MiB domains, so the last bytes are written on the last node.  (A
 * guard: without the refresh it did not fail in 9 runs here, with 576-byte
 * sites too; the failure needed the count tool's timing, docs/scaling.md.) */
#include "bytecases.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/* This rank's plain view of path: 0 when its size and bytes equal the image. */
static int plain_view_differs(const char *path, const unsigned char *img, uint64_t bytes)
{
    const off_t want = (off_t)(144 + bytes + (8 - bytes % 8) % 8);
    int fd = open(path, O_RDONLY);
    unsigned char head[144];
    if (fd < 0 || pread(fd, head, sizeof head, 0) != (ssize_t)sizeof head) return 1;
    off_t size = lseek(fd, 0, SEEK_END);
    unsigned char *got = malloc((size_t)bytes);
    int bad = size != want || !got || pread(fd, got, (size_t)bytes, 144) != (ssize_t)bytes ||
              memcmp(got, img, (size_t)bytes) != 0;
    if (bad) printf("rank %d: %s: size %lld of %lld, bytes %s\n", mpitest_rank, path, (long long)size,
                    (long long)want, got && size == want ? "differ" : "not compared");
    free(got);
    close(fd);
    return bad;
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    setenv("LATTIO_STRIPING_UNIT", "1048576", 1);
    const int nodes = mpitest_nodes();
    for (uint64_t t = 16; t < 20; t++) {
        sim_case s;
        const uint64_t g[4] = {16, 16, 16, t}, bytes = 16 * 16 * 16 * t * 72;
        bc_make_case(4, g, BC_XY, 4, 72, &s);
        lattio_layout l;
        bc_layout_of(&s, mpitest_rank, 0, &l);
        unsigned char *buf = sim_buffer(&l, 0xA5), *img = sim_expected_file(&l);
        lattio_options opt;
        lattio_options_default(&opt);
        opt.strategy = LATTIO_STRATEGY_AGGREGATE;
        opt.aggregators = nodes;
        char path[64];
        snprintf(path, sizeof path, "after_close_%llu.lime", (unsigned long long)t);
        lattio_file *f = NULL;
        CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, &opt, &f));
        CHECK_OK(lattio_record_begin(f, "lattice", bytes, 1, 1));
        CHECK_OK(lattio_lattice_write(f, &l, 0, buf));
        CHECK_OK(lattio_record_end(f, 0));
        CHECK_OK(lattio_close(f));
        int bad = plain_view_differs(path, img, bytes), any = 0;
        MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (mpitest_rank == 0)
            printf("T=%llu, %d nodes: %d of %d ranks see a different file\n", (unsigned long long)t, nodes, any,
                   mpitest_size);
        CHECK_INT(any, 0);
        free(buf);
        free(img);
    }
    return mpitest_finish();
}
