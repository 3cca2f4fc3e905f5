/* hdf5_field.c -- a gauge field in an HDF5 file, in one page.
 * Run me:  mpirun -n 4 build/examples/example_hdf5_field [FILE]
 * (or without mpirun, on one rank).  The field goes to FILE:/cfg/0001/U in
 * QDP++'s layout, then a second copy is added to the same file in Qlua's;
 * the first is read back (checksum verified) and the file's fields listed.
 * A build without HDF5 says so and passes. */
#include "lattio.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int report(const char *what, int rc)
{
    fprintf(stderr, "example: %s: %s (%s)\n", what, lattio_strerror(rc), lattio_error_name(rc));
    return rc;
}

/* Collective: write, append, read back, list; *n the fields listed. */
static int h5_round_trip(MPI_Comm cart, const lattio_layout *l, const double *u, double *back, int *n)
{
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_ILDG_GAUGE, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, 72);
    lattio_field_write_info wi;
    lattio_field_read_info ri;
    lattio_h5_info h5i;
    lattio_h5_entry entries[64];
    int rc;
    lattio_h5_options o;
    lattio_h5_options_default(&o);          /* QDP++ layout, new file */
    rc = lattio_h5_write(cart, "cfg.h5:/cfg/0001/U", &d, l, u, &o, &wi, &h5i);
    if (rc < 0) return rc;
    o.layout = LATTIO_H5_QLUA;               /* or Qlua's */
    o.append = 1;                            /* add to an existing file */
    rc = lattio_h5_write(cart, "cfg.h5:/cfg/0002/U", &d, l, u, &o, &wi, &h5i);
    if (rc < 0) return report("append", rc);
    rc = lattio_h5_read(cart, "cfg.h5:/cfg/0001/U", &d, l, back, NULL, &ri, &h5i);
    if (rc < 0) return report("read", rc);
    lattio_field_info_free(&ri.field);
    if (ri.checksum != LATTIO_CHECKSUM_VERIFIED) return report("checksum", LATTIO_ERR_CHECKSUM);
    rc = lattio_h5_list(cart, "cfg.h5", 4, entries, 64, n);
    return rc < 0 ? report("list", rc) : LATTIO_OK;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    (void)argv;
    int rank = 0, size = 0, n = 0, dims[4] = {0, 0, 0, 0}, periods[4] = {0, 0, 0, 0};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 4, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 4, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    const uint64_t global[4] = {8, 4, 4, 4}; /* t, z, y, x */
    lattio_layout l;
    int rc = lattio_layout_from_cart(cart, global, 72 * sizeof(double), &l);
    const uint64_t sites = rc == LATTIO_OK ? lattio_layout_local_sites(&l) : 0;
    double *u = calloc(sites * 72 + 1, sizeof *u), *back = calloc(sites * 72 + 1, sizeof *back);
    for (uint64_t link = 0; link < sites * 4; link++) { /* diag(e^ia, e^ia, e^-2ia): in SU(3) */
        double *m = u + 18 * link, a = (double)(link % 101) / 101.0;
        m[0] = m[8] = cos(a), m[1] = m[9] = sin(a), m[16] = cos(2 * a), m[17] = -sin(2 * a);
    }
    if (argc > 1) fprintf(stderr, "example: the file is cfg.h5 in the working directory\n");
    if (rc == LATTIO_OK) rc = h5_round_trip(cart, &l, u, back, &n);
    if (rc < 0 && rc != LATTIO_ERR_HDF5_UNAVAILABLE) report("hdf5", rc);
    int ok = rc == LATTIO_ERR_HDF5_UNAVAILABLE ||
             (rc == LATTIO_OK && n == 2 && memcmp(u, back, sites * 72 * sizeof *u) == 0);
    if (rank == 0 && rc == LATTIO_ERR_HDF5_UNAVAILABLE) printf("built without HDF5: nothing to show\n");
    else if (rank == 0) printf("cfg.h5: %d fields, the first read back %s\n", n, ok ? "equal, checksum verified" : "WRONG");
    free(u);
    free(back);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return ok ? 0 : 1;
}
