/* partial.c -- the ranks read time slices 3..5 only (split over the ranks
 * by t, on 4 ranks one rank reads nothing; or split by z): every site equals
 * the same site of the full serial read, the call succeeds and says the
 * checksum could not be compared (PARTIAL). */
#include "fmtest.h"

/* Boxes covering t = 3..5, all of x, y, z; split over the ranks along t
 * (by_z = 0) or along z. */
static void slice_layout(lattio_layout *l, const uint64_t g[4], size_t site, int by_z)
{
    uint64_t lo[4] = {0, 0, 0, 3}, count[4] = {g[0], g[1], g[2], 3};
    const int d = by_z ? 2 : 3;
    uint64_t a, n;
    lattio_split(count[d], (uint64_t)mpitest_size, (uint64_t)mpitest_rank, &a, &n);
    lo[d] += a;
    count[d] = n;
    if (n == 0) lo[d] = 0;
    CHECK_OK(lattio_layout_init(l, 4, g, lo, count, site));
    for (int i = 0; i < 4; i++) l->file_order[i] = l->mem_order[i] = fm_file_order[i];
    CHECK_OK(lattio_layout_check(l));
}

static void read_slices(const char *path, int index, int by_z)
{
    lattio_lime_reader *r = NULL;
    lattio_field_info fi;
    CHECK_OK(lattio_lime_reader_open(path, &r));
    CHECK_OK(lattio_field_info_read(r, index, &fi));
    const uint64_t elements = fi.typesize * fi.datacount / (uint64_t)(fi.precision / 8);
    double *all = malloc(fi.volume * elements * sizeof *all);
    CHECK_OK(lattio_field_read_double(r, &fi, all, fi.volume * elements, NULL));
    lattio_lime_reader_close(r);
    const uint64_t g[4] = {fi.dims[0], fi.dims[1], fi.dims[2], fi.dims[3]};
    lattio_layout l;
    slice_layout(&l, g, elements * 8, by_z);
    double *local = fm_buffer(&l);
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, 0, elements);
    d.staging_bytes = elements * 8 * 5; /* several rounds per slice */
    lattio_file *f = NULL;
    lattio_field_read_info info;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_field_read(f, index, &d, &l, local, &info));
    CHECK_INT(info.checksum, LATTIO_CHECKSUM_PARTIAL);
    lattio_field_info_free(&info.field);
    CHECK_OK(lattio_close(f));
    CHECK_U64(fm_mismatches(&l, local, all, elements), 0);
    lattio_field_info_free(&fi);
    free(all);
    free(local);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    /* a written 6x4x8x10 field (t = 10) and QIO's random 4x4x4x8 field */
    fm_write_reference("g.lime", LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    for (int by_z = 0; by_z < 2; by_z++) {
        read_slices("g.lime", 0, by_z);
        read_slices(test_data("t_qio.intel-scalar.lime"), 2, by_z);
    }
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
