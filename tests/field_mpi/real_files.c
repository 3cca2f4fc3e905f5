/* real_files.c -- every real ILDG/SciDAC field file (tmLQCD, QIO, MILC
 * through QIO, the three generic QIO fields) read in parallel with several
 * decompositions, halos and memory orders: the checksum is verified against
 * the stored one and every site equals the serial reference reader's. */
#include "fmtest.h"

typedef struct real_field {
    const char *file;
    int index;
} real_field;

static const real_field fields[] = {
    {"unity.lime", 0},
    {"t_dprec_ildg.lime", 0},
    {"lat.sample.l4444.ildg", 0},
    {"t_qio.intel-scalar.lime", 0},
    {"t_qio.intel-scalar.lime", 1},
    {"t_qio.intel-scalar.lime", 2},
};

/* The serial reader's view: metadata and the whole field in doubles. */
static double *serial_read(const char *path, int index, lattio_field_info *fi)
{
    lattio_lime_reader *r = NULL;
    double *all = NULL;
    CHECK_OK(lattio_lime_reader_open(path, &r));
    CHECK_OK(lattio_field_info_read(r, index, fi));
    const uint64_t n = fi->binary.length / (uint64_t)(fi->precision / 8);
    all = malloc(n * sizeof *all);
    CHECK_OK(lattio_field_read_double(r, fi, all, n, NULL));
    lattio_lime_reader_close(r);
    return all;
}

static void read_one(const char *path, const real_field *rf, const lattio_field_info *sfi,
                     const double *all, int variant, int halo_mem)
{
    const uint64_t elements = sfi->typesize * sfi->datacount / (uint64_t)(sfi->precision / 8);
    const uint64_t g[4] = {sfi->dims[0], sfi->dims[1], sfi->dims[2], sfi->dims[3]};
    int grid[4];
    fm_grid(variant, mpitest_size, grid);
    lattio_layout l;
    CHECK_OK(fm_layout(&l, g, grid, mpitest_rank, elements * 8, halo_mem, halo_mem));
    double *local = fm_buffer(&l);
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, 0, elements);
    lattio_file *f = NULL;
    lattio_field_read_info info;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_field_read(f, rf->index, &d, &l, local, &info));
    CHECK_INT(info.checksum, LATTIO_CHECKSUM_VERIFIED);
    CHECK(info.computed.suma == sfi->stored.suma && info.computed.sumb == sfi->stored.sumb);
    CHECK_U64(info.field.binary.offset, sfi->binary.offset);
    CHECK_U64(fm_mismatches(&l, local, all, elements), 0);
    lattio_field_info_free(&info.field);
    CHECK_OK(lattio_close(f));
    free(local);
}

/* Gauge files found by kind (index < 0) as 72 doubles per site. */
static void read_by_kind(const char *path, const double *all, const lattio_field_info *sfi)
{
    const uint64_t g[4] = {sfi->dims[0], sfi->dims[1], sfi->dims[2], sfi->dims[3]};
    int grid[4];
    fm_grid(3, mpitest_size, grid);
    lattio_layout l;
    CHECK_OK(fm_layout(&l, g, grid, mpitest_rank, 576, 0, 0));
    double *local = fm_buffer(&l);
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_ILDG_GAUGE, LATTIO_REAL_F64_NATIVE, 0, 0);
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_field_read(f, -1, &d, &l, local, NULL));
    CHECK_U64(fm_mismatches(&l, local, all, 72), 0);
    CHECK_OK(lattio_close(f));
    free(local);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const char *path = test_data(fields[i].file);
        lattio_field_info sfi;
        double *all = serial_read(path, fields[i].index, &sfi);
        for (int v = 0; v < 5; v++) read_one(path, &fields[i], &sfi, all, v, v == 3);
        if (sfi.kind != LATTIO_FIELD_GENERIC) read_by_kind(path, all, &sfi);
        lattio_field_info_free(&sfi);
        free(all);
    }
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
