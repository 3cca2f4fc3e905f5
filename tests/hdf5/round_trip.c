/* round_trip.c -- LIME -> HDF5 -> LIME through the API keeps the record
 * set: a gauge field written as ILDG with its own file XML, record XML,
 * LFN and date, read back (lattio_field_read gives the metadata), written
 * as HDF5 from that metadata in each layout, read from HDF5 (the metadata
 * now from the attributes) and written as ILDG again is the first file
 * byte for byte, at any number of ranks and another decomposition each
 * time. */
#include "../field_mpi/fmtest.h"

#include <stdlib.h>

static const char *const file_xml = "<?xml version=\"1.0\"?><run><beta>6.0</beta><traj>1200</traj></run>";
static const char *const record_xml = "<?xml version=\"1.0\"?><cfg>hmc, &amp; smeared \xc3\xa9</cfg>";

/* The descriptor carrying fi's metadata. */
static void from_info(lattio_field_desc *d, const lattio_field_info *fi)
{
    fm_gauge_desc(d, LATTIO_REAL_F64_NATIVE, fi->precision == 32 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE);
    d->file_xml = fi->file_xml;
    d->record_xml = fi->record_xml;
    d->lfn = fi->lfn;
    d->date = fi->date;
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    for (int layout = LATTIO_H5_QDP; layout <= LATTIO_H5_QLUA; layout++) {
        lattio_layout l0, l1, l2;
        CHECK_OK(fm_decomposed(&l0, 0, 0));
        CHECK_OK(fm_decomposed(&l1, 2, 1));
        CHECK_OK(fm_decomposed(&l2, 3, 0));
        double *u = fm_fill(&l0, 72), *v = fm_buffer(&l1), *w = fm_buffer(&l2);
        lattio_field_desc d;
        fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F32_BE);
        d.file_xml = file_xml;
        d.record_xml = record_xml;
        d.lfn = "lfn://ildg/test/ens/cfg_1200";
        CHECK_OK(fm_write(MPI_COMM_WORLD, "a.lime", &d, &l0, u, NULL));
        /* LIME -> HDF5 */
        lattio_file *f = NULL;
        lattio_field_read_info ri;
        CHECK_OK(lattio_open(MPI_COMM_WORLD, "a.lime", LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
        CHECK_OK(lattio_field_read(f, 0, &d, &l1, v, &ri));
        CHECK_OK(lattio_close(f));
        lattio_field_desc dh;
        from_info(&dh, &ri.field);
        lattio_h5_options o;
        lattio_h5_options_default(&o);
        o.layout = layout;
        CHECK_OK(lattio_h5_write(MPI_COMM_WORLD, "a.h5:/cfg/1200/U", &dh, &l1, v, &o, NULL, NULL));
        lattio_field_info_free(&ri.field);
        /* HDF5 -> LIME */
        lattio_field_read_info hi;
        CHECK_OK(lattio_h5_read(MPI_COMM_WORLD, "a.h5:/cfg/1200/U", &d, &l2, w, NULL, &hi, NULL));
        CHECK(hi.checksum == LATTIO_CHECKSUM_VERIFIED);
        CHECK(hi.field.precision == 32);
        CHECK(hi.field.record_xml && strcmp(hi.field.record_xml, record_xml) == 0);
        lattio_field_desc dl;
        from_info(&dl, &hi.field);
        CHECK_OK(fm_write(MPI_COMM_WORLD, "b.lime", &dl, &l2, w, NULL));
        lattio_field_info_free(&hi.field);
        if (mpitest_rank == 0) CHECK(fm_same_file("a.lime", "b.lime"));
        free(u);
        free(v);
        free(w);
    }
    return mpitest_finish();
}
