/* scidac_set.c -- two generic SciDAC fields (12 reals per site, the second
 * in 32-bit) written into one file: the file message comes once, each field
 * is QIO's four-record message, both read back by index and verified by
 * the serial reader; a layout or descriptor that does not match the stored
 * field is refused on every rank with its specific status. */
#include "fmtest.h"

static const char *const types[10] = {
    "scidac-private-file-xml", "scidac-file-xml",    "scidac-private-record-xml",
    "scidac-record-xml",       "scidac-binary-data", "scidac-checksum",
    "scidac-private-record-xml", "scidac-record-xml", "scidac-binary-data", "scidac-checksum"};

static void write_two(const lattio_layout *l, const double *local)
{
    lattio_field_desc d;
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "two.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, 12);
    d.datacount = 3;
    d.datatype = "QDP_D_Test";
    CHECK_OK(lattio_field_write(f, &d, l, local, NULL));
    d.disk_format = LATTIO_REAL_F32_BE;
    d.record_xml = "<?xml version=\"1.0\"?><second/>";
    CHECK_OK(lattio_field_write(f, &d, l, local, NULL));
    CHECK_OK(lattio_close(f));
}

static void check_records(void)
{
    lattio_lime_reader *r = NULL;
    lattio_record_info info;
    CHECK_OK(lattio_lime_reader_open("two.lime", &r));
    for (int i = 0; i < 10; i++) {
        CHECK_OK(lattio_lime_reader_next(r, &info));
        CHECK_STR(info.type, types[i]);
    }
    CHECK_STATUS(lattio_lime_reader_next(r, &info), LATTIO_ERR_EOF);
    lattio_lime_reader_close(r);
    lattio_field_info fi;
    CHECK_OK(lattio_field_verify("two.lime", 0, &fi, NULL));
    CHECK(fi.typesize == 32 && fi.datacount == 3 && fi.precision == 64 && fi.nd == 4);
    CHECK_STR(fi.datatype, "QDP_D_Test");
    lattio_field_info_free(&fi);
    CHECK_OK(lattio_field_verify("two.lime", 1, &fi, NULL));
    CHECK(fi.typesize == 16 && fi.precision == 32);
    CHECK_STR(fi.record_xml, "<?xml version=\"1.0\"?><second/>");
    lattio_field_info_free(&fi);
}

/* Read field `index` with layout l and desc d; the status is agreed. */
static int read_as(int index, const lattio_layout *l, const lattio_field_desc *d, void *local)
{
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "two.lime", LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    const int rc = lattio_field_read(f, index, d, l, local, NULL);
    CHECK_OK(lattio_close(f));
    CHECK(fm_same_everywhere(rc));
    return rc;
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    int grid[4];
    fm_grid(3, mpitest_size, grid);
    lattio_layout l;
    CHECK_OK(fm_layout(&l, fm_g, grid, mpitest_rank, 96, 0, 0));
    double *local = fm_fill(&l, 12);
    write_two(&l, local);
    if (mpitest_rank == 0) check_records();
    double *all = malloc(6 * 4 * 8 * 10 * 12 * sizeof *all);
    for (uint64_t i = 0; i < 6 * 4 * 8 * 10 * 12; i++) all[i] = fm_value(i / 12, i % 12);
    fm_grid(1, mpitest_size, grid);
    CHECK_OK(fm_layout(&l, fm_g, grid, mpitest_rank, 96, 1, 1));
    double *got = fm_buffer(&l);
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, 0, 12);
    CHECK_OK(read_as(0, &l, &d, got));
    CHECK_U64(fm_mismatches(&l, got, all, 12), 0);
    CHECK_OK(read_as(1, &l, &d, got));
    CHECK_U64(fm_mismatches(&l, got, all, 12), lattio_layout_local_sites(&l)); /* rounded */
    CHECK_STATUS(read_as(2, &l, &d, got), LATTIO_ERR_NOT_FOUND);
    d.elements = 6;
    l.site_bytes = 48;
    CHECK_STATUS(read_as(0, &l, &d, got), LATTIO_ERR_FIELD_LENGTH);
    l.site_bytes = 50;
    CHECK_STATUS(read_as(0, &l, &d, got), LATTIO_ERR_ARG);
    const uint64_t other[4] = {6, 4, 10, 8};
    fm_grid(0, mpitest_size, grid);
    CHECK_OK(fm_layout(&l, other, grid, mpitest_rank, 96, 0, 0));
    d.elements = 12;
    CHECK_STATUS(read_as(0, &l, &d, got), LATTIO_ERR_FIELD_DIMS);
    free(got);
    free(all);
    free(local);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
