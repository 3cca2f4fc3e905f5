/* convert_file.c -- one conversion, one report: the call `lattio convert`
 * and Python's lattio.convert make.
 * Run me:  build/examples/example_convert_file [IN OUT]
 * Writes the unit gauge field as ILDG (without IN), converts it to NERSC
 * serially and to HDF5 over MPI_COMM_WORLD, and prints what each report
 * holds; converting the output onto itself shows a refusal. */
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
    const uint64_t dims[4] = {4, 4, 4, 8};
    double *u = calloc(512 * 4 * 18, sizeof *u);
    if (!u) return fail("calloc", LATTIO_ERR_NOMEM);
    for (int s = 0; s < 512 * 4; s++)
        for (int a = 0; a < 3; a++) u[18 * s + 8 * a] = 1.0; /* (a, a): real part 1 */
    const int rc = lattio_gauge_write(path, LATTIO_GAUGE_ILDG, NULL, dims, u);
    free(u);
    return rc < 0 ? fail("write", rc) : 0;
}

static int show(const lattio_convert_report *r)
{
    if (r->status == LATTIO_OK)
        printf("%s -> %s: %s -> %s, %d-bit, links within %.3g, plaquette %.12f (IN %.12f)\n", r->in, r->out,
               lattio_gauge_format_name(r->in_format), lattio_gauge_format_name(r->out_format), r->precision,
               r->max_diff, r->out_check.stats.plaquette, r->in_check.stats.plaquette);
    for (int i = 0; i < r->nproblems; i++) /* each names IN or OUT */
        printf("%s: %s\n", r->problem_out[i] ? r->out : r->in, r->problems[i]);
    return r->status;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *in = argc > 2 ? argv[1] : "unit.ildg", *out = argc > 2 ? argv[2] : "unit.nersc";
    if (argc < 3 && rank == 0 && write_unit(in)) MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    lattio_convert_options o;
    lattio_convert_options_default(&o);
    o.format = LATTIO_GAUGE_NERSC; /* IN's format is detected from its content */
    lattio_convert_report rep;
    lattio_convert_report_init(&rep);
    int rc = rank == 0 ? lattio_convert_file(in, out, &o, &rep) : LATTIO_OK; /* MPI-free */
    if (rank == 0 && show(&rep) != LATTIO_OK) return fail("convert", rc);
    o.format = LATTIO_GAUGE_HDF5; /* HDF5 and files of fields need the collective call */
    rc = lattio_convert(MPI_COMM_WORLD, out, "unit.h5", &o, &rep);
    if (rank == 0) show(&rep);
    if (rc != LATTIO_OK && rc != LATTIO_ERR_HDF5_UNAVAILABLE) return fail("lattio_convert", rc);
    rc = lattio_convert(MPI_COMM_WORLD, out, out, NULL, &rep); /* refused: nothing written */
    if (rank == 0) show(&rep);
    char *json;
    if (rank == 0 && lattio_convert_report_json(&rep, &json) == LATTIO_OK) {
        printf("%s\n", json); /* `lattio convert --json`'s object */
        free(json);
    }
    lattio_convert_report_free(&rep);
    MPI_Finalize();
    return rc == LATTIO_ERR_OUTPUT_IS_INPUT ? 0 : fail("self-conversion", rc);
}
