/* field_after_records.c -- a field written after other records (an
 * xlf-info-like record first, as tmLQCD writes) still gets the SciDAC file
 * header pair, so its dims are in the file: the serial reader verifies it
 * and it reads back in parallel.  A second field does not repeat the pair.
 * (Found by the fault tests: such a file had no scidac-private-file-xml and
 * no reader could tell its dims.) */
#include "fmtest.h"

static const char *const types[9] = {
    "xlf-info", "scidac-private-file-xml", "scidac-file-xml", "scidac-private-record-xml",
    "scidac-record-xml", "scidac-binary-data", "scidac-checksum", "scidac-private-record-xml",
    "scidac-record-xml"};

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    const uint64_t g[4] = {4, 4, 4, 6};
    int grid[4];
    fm_grid(0, mpitest_size, grid);
    lattio_layout l;
    CHECK_OK(fm_layout(&l, g, grid, mpitest_rank, 12 * 8, 0, 0));
    const uint64_t n = lattio_layout_local_sites(&l) * 12;
    double *v = malloc(n * sizeof *v), *back = malloc(n * sizeof *back);
    for (uint64_t i = 0; i < n; i++) v[i] = (double)i * 0.5 + mpitest_rank;
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, 12);
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "after.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_write(f, "xlf-info", "plaquette = 1\n", 14, 1, 1));
    CHECK_OK(lattio_field_write(f, &d, &l, v, NULL));
    CHECK_OK(lattio_field_write(f, &d, &l, v, NULL));
    CHECK_OK(lattio_close(f));
    if (mpitest_rank == 0) {
        lattio_lime_reader *r = NULL;
        lattio_record_info info;
        CHECK_OK(lattio_lime_reader_open("after.lime", &r));
        for (int i = 0; i < 9; i++) {
            CHECK_OK(lattio_lime_reader_next(r, &info));
            CHECK_STR(info.type, types[i]);
        }
        lattio_lime_reader_close(r);
        lattio_field_info fi;
        CHECK_OK(lattio_field_verify("after.lime", 1, &fi, NULL));
        CHECK(fi.nd == 4 && fi.dims[0] == 4 && fi.dims[3] == 6);
        lattio_field_info_free(&fi);
    }
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "after.lime", LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_field_read(f, 0, &d, &l, back, NULL));
    CHECK(memcmp(back, v, n * sizeof *v) == 0);
    CHECK_OK(lattio_close(f));
    free(v);
    free(back);
    return mpitest_finish();
}
