/* parallel_lattice.c -- records and a distributed lattice in one shared
 * LIME file, in one page.
 * Run me:  mpirun -n 4 build/examples/example_parallel_lattice [FILE]
 * (or without mpirun, on one rank).  Rank 0's metadata record, then a
 * 16x8x8x8 lattice of 24-byte sites, each rank writing its box of a
 * Cartesian grid; read back through the record index, the boxes compared. */
#include "lattio.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SITE = 3 }; /* doubles per site */

static int report(const char *what, int rc)
{
    fprintf(stderr, "example: %s: %s (%s)\n", what, lattio_strerror(rc), lattio_error_name(rc));
    return rc;
}

/* Collective: the file written; the same status on every rank. */
static int write_file(MPI_Comm cart, const char *path, const lattio_layout *l, const double *local)
{
    static const char xml[] = "<note>a lattice written by lattio's example</note>";
    const size_t site_bytes = l->site_bytes;
    const uint64_t global_sites = lattio_layout_global_sites(l);
    lattio_file *f;
    int rc = lattio_open(cart, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f);
    if (rc < 0) return report("open for writing", rc);
    rc = lattio_record_write(f, "my-xml", xml, strlen(xml), 1, 0);   /* rank 0's bytes */
    if (rc == LATTIO_OK) rc = lattio_record_begin(f, "my-lattice", global_sites * site_bytes, 0, 1);
    if (rc == LATTIO_OK) rc = lattio_lattice_write(f, l, 0, local);   /* every rank its box */
    if (rc == LATTIO_OK) rc = lattio_record_end(f, 0);
    const int closed = lattio_close(f);                                /* agreed, then renamed */
    return rc < 0 ? report("write", rc) : closed < 0 ? report("close", closed) : LATTIO_OK;
}

/* Collective: the lattice record found by type and read into back. */
static int read_file(MPI_Comm cart, const char *path, const lattio_layout *l, double *back)
{
    lattio_file *f;
    lattio_record_info info;
    int rc = lattio_open(cart, path, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f);
    if (rc < 0) return report("open for reading", rc);
    rc = lattio_record_find(f, "my-lattice", 0, &info);   /* by type, not by position */
    if (rc == LATTIO_OK) rc = lattio_lattice_read(f, l, 0, back);
    lattio_close(f);
    return rc < 0 ? report("read", rc) : LATTIO_OK;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size = 0, rank = 0, dims[4] = {0, 0, 0, 0}, periods[4] = {0, 0, 0, 0};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 4, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 4, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    const uint64_t global[4] = {16, 8, 8, 8}; /* t, z, y, x: slowest first, as in the file */
    const size_t site_bytes = SITE * sizeof(double);
    lattio_layout l;
    int rc = lattio_layout_from_cart(cart, global, site_bytes, &l);   /* or any box per rank */
    const uint64_t sites = rc == LATTIO_OK ? lattio_layout_local_sites(&l) : 0;
    double *local = malloc(sites * site_bytes + 1), *back = malloc(sites * site_bytes + 1);
    for (uint64_t i = 0; i < sites * SITE; i++) local[i] = rank + i / 1000.0;
    if (rc == LATTIO_OK) rc = write_file(cart, argc > 1 ? argv[1] : "lattice.lime", &l, local);
    if (rc == LATTIO_OK) rc = read_file(cart, argc > 1 ? argv[1] : "lattice.lime", &l, back);
    int same = rc == LATTIO_OK && memcmp(local, back, sites * site_bytes) == 0, all = 0;
    MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, cart);
    if (rank == 0) printf("%d rank(s): lattice written and read back %s\n", size, all ? "equal" : "DIFFERENT");
    free(local);
    free(back);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return all ? 0 : 1;
}
