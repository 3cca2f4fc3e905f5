/* verify_file.c -- one verification, one verdict: the report the library
 * gives `lattio verify`, `lattio convert` and Python's lattio.verify.
 * Run me:  build/examples/example_verify_file [FILE]
 * Writes the unit gauge field as ILDG (without FILE), verifies it serially
 * and over MPI_COMM_WORLD, prints what the report holds and its JSON form. */
#include "lattio.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int fail(const char *what, int rc)
{
    fprintf(stderr, "example: %s: %s (%s)\n", what, lattio_strerror(rc), lattio_error_name(rc));
    return 1;
}

/* The unit field: every link the identity. */
static int write_unit(const char *path)
{
    const uint64_t dims[4] = {4, 4, 4, 4};
    double *u = calloc(256 * 4 * 18, sizeof *u);
    if (!u) return fail("calloc", LATTIO_ERR_NOMEM);
    for (int s = 0; s < 256 * 4; s++)
        for (int a = 0; a < 3; a++) u[18 * s + 8 * a] = 1.0; /* (a, a): real part 1 */
    const int rc = lattio_gauge_write(path, LATTIO_GAUGE_ILDG, NULL, dims, u);
    free(u);
    return rc < 0 ? fail("write", rc) : 0;
}

static int show(const lattio_verify_report *r)
{
    for (int i = 0; i < r->nfields; i++)
        printf("record %d (%s): checksum %08x %08x %s\n", r->fields[i].record, r->fields[i].type,
               (unsigned)r->fields[i].computed.suma, (unsigned)r->fields[i].computed.sumb,
               r->fields[i].ok ? "ok" : "FAILED");
    if (r->has_gauge) printf("plaquette %.12f, unitarity %.3g\n", r->stats.plaquette, r->stats.unitarity);
    for (int i = 0; i < r->nproblems; i++) printf("problem (%s): %s\n", lattio_error_name(r->problem_status[i]),
                                                  r->problems[i]);
    return r->status;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *path = argc > 1 ? argv[1] : "unit.ildg";
    if (argc < 2 && rank == 0 && write_unit(path)) MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    lattio_verify_report rep;
    lattio_verify_report_init(&rep);
    int rc = rank == 0 ? lattio_verify_file(path, &rep, NULL) : LATTIO_OK; /* MPI-free */
    if (rank == 0 && show(&rep) != LATTIO_OK) rc = fail("verify", rc);
    rc = lattio_verify(MPI_COMM_WORLD, path, &rep, NULL, NULL); /* collective: the records read over the ranks */
    if (rc != LATTIO_OK) return fail("lattio_verify", rc);
    char *json;
    if (rank == 0 && lattio_verify_report_json(&rep, &json) == LATTIO_OK) {
        printf("%s\n", json); /* `lattio verify --json`'s object */
        free(json);
    }
    const int unit = argc > 1 || (rep.has_gauge && rep.stats.plaquette == 1.0);
    lattio_verify_report_free(&rep);
    MPI_Finalize();
    return rank == 0 && !unit ? fail("unit field", LATTIO_ERR_PLAQUETTE) : 0;
}
