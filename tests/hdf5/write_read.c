/* write_read.c -- a gauge field written to HDF5 in both layouts (QDP++,
 * Qlua), both transports (lattio's pipeline at the dataset's offset, and
 * collective H5Dwrite / H5Dread), both precisions, from several
 * decompositions with and without halos, is read back in another
 * decomposition with every value equal; the QDP++ layout's suma/sumb equal
 * the SciDAC checksum of the same field written as ILDG; HDF5's transfers
 * stayed collective (no-collective cause 0); every status is the same on
 * every rank. */
#include "../field_mpi/fmtest.h"

#include <stdlib.h>

static double rounded(double v, int f32) { return f32 ? (double)(float)v : v; }

/* Count the interior sites of l whose values differ from fm_value. */
static uint64_t wrong_sites(const lattio_layout *l, const double *local, int f32)
{
    uint64_t *pos, *gr, bad = 0;
    const uint64_t n = fm_sites(l, &pos, &gr);
    for (uint64_t s = 0; s < n; s++)
        for (uint64_t k = 0; k < 72; k++)
            if (local[pos[s] * 72 + k] != rounded(fm_value(gr[s], k), f32)) {
                bad++;
                break;
            }
    free(pos);
    free(gr);
    return bad;
}

static void one(int v, int odd, int layout, int transport, int f32, lattio_scidac_sum ildg)
{
    lattio_layout l, r;
    CHECK_OK(fm_decomposed(&l, v, odd));
    CHECK_OK(fm_decomposed(&r, (v + 2) % 5, !odd));
    double *local = fm_fill(&l, 72), *back = fm_buffer(&r);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, f32 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE);
    d.verify = 1;
    lattio_h5_options o;
    lattio_h5_options_default(&o);
    o.layout = layout;
    o.transport = transport;
    lattio_field_write_info wi;
    lattio_h5_info h5;
    int rc = lattio_h5_write(MPI_COMM_WORLD, "g.h5:/cfg/0001/U", &d, &l, local, &o, &wi, &h5);
    CHECK(fm_same_everywhere(rc));
    CHECK_OK(rc);
    CHECK(h5.layout == layout);
    CHECK(h5.ndatasets == (layout == LATTIO_H5_QLUA ? 4 : 1));
    if (transport == LATTIO_H5_TRANSPORT_HDF5) CHECK(h5.no_collective_cause == 0);
    CHECK(h5.transport == (transport == LATTIO_H5_TRANSPORT_HDF5 ? LATTIO_H5_TRANSPORT_HDF5 : LATTIO_H5_TRANSPORT_LATTIO));
    if (layout == LATTIO_H5_QDP) CHECK(wi.sum.suma == ildg.suma && wi.sum.sumb == ildg.sumb);
    lattio_field_read_info ri;
    lattio_h5_options ro;
    lattio_h5_options_default(&ro);
    ro.layout = LATTIO_H5_AUTO;
    ro.transport = transport;
    lattio_h5_info rh;
    rc = lattio_h5_read(MPI_COMM_WORLD, "g.h5:/cfg/0001/U", &d, &r, back, &ro, &ri, &rh);
    CHECK(fm_same_everywhere(rc));
    CHECK_OK(rc);
    CHECK(rh.layout == layout);
    CHECK(ri.checksum == LATTIO_CHECKSUM_VERIFIED);
    CHECK(ri.field.precision == (f32 ? 32 : 64));
    CHECK(ri.field.lfn && strcmp(ri.field.lfn, "lfn://lattio/test") == 0);
    CHECK(strcmp(ri.field.date, FM_DATE) == 0);
    if (layout == LATTIO_H5_QLUA)
        for (int mu = 0; mu < 4; mu++) CHECK(memcmp(rh.sha256[mu].x, h5.sha256[mu].x, 32) == 0);
    if (transport == LATTIO_H5_TRANSPORT_HDF5) CHECK(rh.no_collective_cause == 0);
    lattio_field_info_free(&ri.field);
    const uint64_t bad = wrong_sites(&r, back, f32);
    if (bad) fprintf(stderr, "v %d odd %d layout %d transport %d f32 %d: %llu sites wrong\n", v, odd, layout,
                     transport, f32, (unsigned long long)bad);
    CHECK(bad == 0);
    free(local);
    free(back);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    for (int f32 = 0; f32 < 2; f32++) {
        /* the reference: the same field as ILDG */
        lattio_layout l;
        CHECK_OK(fm_decomposed(&l, 0, 0));
        double *local = fm_fill(&l, 72);
        lattio_field_desc d;
        fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, f32 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE);
        lattio_field_write_info wi;
        CHECK_OK(fm_write(MPI_COMM_WORLD, "ref.lime", &d, &l, local, &wi));
        free(local);
        for (int layout = LATTIO_H5_QDP; layout <= LATTIO_H5_QLUA; layout++)
            for (int transport = getenv("T_HDF5_FIRST") ? 2 : 0; transport <= LATTIO_H5_TRANSPORT_HDF5; transport += 2)
                for (int v = 0; v < 5; v += 2)
                    for (int odd = 0; odd < 2; odd++) one(v, odd, layout, transport, f32, wi.sum);
    }
    return mpitest_finish();
}
