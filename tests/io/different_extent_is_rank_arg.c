/* different_extent_is_rank_arg.c -- issue 17, case 10: a rank that passes a
 * different global extent (here one more row, which makes its lattice
 * overrun the record) gets ERR_RANK_ARG on every rank, not
 * ERR_RECORD_OVERRUN, for full and partial writes and reads; the previous
 * file stays as it was.  A rank whose layout is invalid in itself keeps its
 * own status (ERR_LAYOUT), and the agreed extents still work. */
#include "mpitest.h"

#include <string.h>
#include <unistd.h>

#define ROWS 6
#define LEN (4 * ROWS * 8)

/* Rows split over the ranks; the last rank claims `extra` more global rows. */
static void layout_of(lattio_layout *l, uint64_t extra)
{
    uint64_t g[2] = {4, ROWS}, lo[2] = {0, 0}, cnt[2] = {4, 0};
    lattio_split(ROWS, (uint64_t)mpitest_size, (uint64_t)mpitest_rank, &lo[1], &cnt[1]);
    if (mpitest_rank == mpitest_size - 1) g[1] += extra;
    CHECK_OK(lattio_layout_init(l, 2, g, lo, cnt, 8));
}

static void write_file(uint64_t extra, int partial, int expect)
{
    static unsigned char buf[LEN];
    memset(buf, 0x3c, sizeof buf);
    lattio_layout l;
    layout_of(&l, extra);
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "extent.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_begin(f, "lat", LEN, 1, 1));
    int rc = partial ? lattio_lattice_write_part(f, &l, 0, buf) : lattio_lattice_write(f, &l, 0, buf);
    CHECK_STATUS(rc, expect);
    if (rc == LATTIO_OK) CHECK_OK(lattio_record_end(f, partial));
    CHECK_STATUS(lattio_close(f), expect);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_INT(test_count_temporaries(), 0);
}

static void read_file(uint64_t extra, int partial, int expect)
{
    static unsigned char buf[LEN];
    lattio_layout l;
    layout_of(&l, extra);
    lattio_file *f = NULL;
    lattio_record_info info;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "extent.lime", LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_find(f, "lat", 0, &info));
    int rc = partial ? lattio_lattice_read_part(f, &l, 0, buf) : lattio_lattice_read(f, &l, 0, buf);
    CHECK_STATUS(rc, expect);
    CHECK_OK(lattio_close(f));
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    if (mpitest_rank == 0) unlink("extent.lime");
    MPI_Barrier(MPI_COMM_WORLD);
    write_file(0, 0, LATTIO_OK);
    size_t n0 = 0;
    unsigned char *before = test_slurp("extent.lime", &n0);
    CHECK(before != NULL);
    /* with one rank there is nobody to disagree with: the overrun is the error */
    const int differ = mpitest_size > 1 ? LATTIO_ERR_RANK_ARG : LATTIO_ERR_RECORD_OVERRUN;
    for (int partial = 0; partial < 2; partial++) {
        write_file(1, partial, differ);
        read_file(1, partial, differ);
        size_t n = 0;
        unsigned char *now = test_slurp("extent.lime", &n);
        CHECK(now && n == n0 && memcmp(now, before, n) == 0); /* previous file intact */
        free(now);
    }
    read_file(0, 0, LATTIO_OK);
    free(before);
    return mpitest_finish();
}
