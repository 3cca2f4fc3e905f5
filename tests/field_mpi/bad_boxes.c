/* bad_boxes.c -- a field write is one planned transfer of the whole
 * lattice, so boxes that leave a hole or share a site are refused before
 * any byte of the binary record moves: ERR_LAYOUT on every rank (no rank
 * left waiting), close returns it, and the file already at the path is
 * left as it was.  A read whose boxes overlap is refused the same way. */
#include "fmtest.h"

#include <stdlib.h>

/* t slabs, then damaged: `hole` drops the last t slice from the last rank
 * (1 rank: its box loses it), else rank 0's box grows one slice into rank
 * 1's (needs 2 ranks). */
static void damaged(lattio_layout *l, int hole)
{
    CHECK_OK(fm_decomposed(l, 0, 0));
    if (hole && mpitest_rank == mpitest_size - 1) l->count[3] -= 1;
    if (!hole && mpitest_rank == 0) l->count[3] += 1;
    CHECK_OK(lattio_layout_check(l));
}

static void refused_write(int hole)
{
    lattio_layout l;
    damaged(&l, hole);
    double *local = fm_fill(&l, 72);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "keep.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    const int rc = lattio_field_write(f, &d, &l, local, NULL);
    CHECK(fm_same_everywhere(rc));
    CHECK_STATUS(rc, LATTIO_ERR_LAYOUT);
    CHECK_STATUS(lattio_close(f), LATTIO_ERR_LAYOUT);
    free(local);
    MPI_Barrier(MPI_COMM_WORLD);
    if (mpitest_rank == 0) CHECK(fm_same_file("keep.lime", "ref.lime"));
}

static void refused_read(void)
{
    lattio_layout l;
    damaged(&l, 0);
    double *local = fm_buffer(&l);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, 0);
    lattio_field_read_info info;
    const int rc = fm_read(MPI_COMM_WORLD, "keep.lime", &d, &l, local, &info);
    CHECK(fm_same_everywhere(rc));
    CHECK_STATUS(rc, LATTIO_ERR_LAYOUT);
    free(local);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    fm_write_reference("ref.lime", LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    fm_write_reference("keep.lime", LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    refused_write(1);
    if (mpitest_size > 1) {
        refused_write(0);
        refused_read();
    }
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
