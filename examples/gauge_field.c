/* gauge_field.c -- a gauge field written and read in parallel, in one page.
 * Run me:  mpirun -n 4 build/examples/example_gauge_field [FILE]
 * (or without mpirun, on one rank).  Every rank holds its box of an 8^3x16
 * lattice (MPI_Dims_create splits it, unevenly if need be) of SU(3)
 * links, writes it as an ILDG file (QIO's record set, 64-bit big-endian on disk, SciDAC
 * checksum), reads it back with the checksum verified, and compares. */
#include "lattio.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int report(const char *what, int rc)
{
    fprintf(stderr, "example: %s: %s (%s)\n", what, lattio_strerror(rc), lattio_error_name(rc));
    return rc;
}

/* Write then read back `path`; every rank returns the same status. */
static int round_trip(MPI_Comm cart, const char *path, double *u, double *back, const lattio_layout *l)
{
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_ILDG_GAUGE, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, 72);
    lattio_file *f = NULL;
    int rc = lattio_open(cart, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f);
    if (rc < 0) return report("open for writing", rc);
    rc = lattio_field_write(f, &d, l, u, NULL);       /* the whole record set, checksummed */
    const int closed = lattio_close(f);               /* renamed into place only on success */
    if (rc < 0 || closed < 0) return report("write", rc < 0 ? rc : closed);
    rc = lattio_open(cart, path, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f);
    if (rc < 0) return report("open for reading", rc);
    lattio_field_read_info info;
    rc = lattio_field_read(f, -1, &d, l, back, &info); /* the first field, checksum verified */
    lattio_close(f);
    if (rc < 0) return report("read", rc);
    lattio_field_info_free(&info.field);
    return LATTIO_OK;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size = 0, dims[4] = {0, 0, 0, 0}, periods[4] = {0, 0, 0, 0};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 4, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 4, dims, periods, 0, &cart);
    const uint64_t global[4] = {16, 8, 8, 8}; /* t, z, y, x: slowest first, as in the file */
    lattio_layout l;
    int rc = lattio_layout_from_cart(cart, global, 72 * sizeof(double), &l);
    const uint64_t sites = rc == LATTIO_OK ? lattio_layout_local_sites(&l) : 0;
    double *u = malloc(sites * 72 * sizeof *u + 1), *back = malloc(sites * 72 * sizeof *back + 1);
    for (uint64_t link = 0; link < sites * 4; link++) { /* diag(e^ia, e^ia, e^-2ia): in SU(3) */
        double *m = u + 18 * link, a = (double)(link % 1009) / 1009.0;
        for (int k = 0; k < 18; k++) m[k] = 0;
        m[0] = m[8] = cos(a), m[1] = m[9] = sin(a), m[16] = cos(2 * a), m[17] = -sin(2 * a);
    }
    if (rc == LATTIO_OK) rc = round_trip(cart, argc > 1 ? argv[1] : "gauge.ildg", u, back, &l);
    int same = rc == LATTIO_OK;
    for (uint64_t i = 0; same && i < sites * 72; i++) same = u[i] == back[i];
    int all = 0;
    MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, cart);
    int rank = 0;
    MPI_Comm_rank(cart, &rank);
    if (rank == 0) printf("%d rank(s), grid %dx%dx%dx%d: written, read back %s\n", size, dims[0], dims[1], dims[2],
                          dims[3], all ? "equal, checksum verified" : "DIFFERENT");
    free(u);
    free(back);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return all ? 0 : 1;
}
