/* run_mpi.c -- the operations of the command that a launcher's ranks run
 * together: verify and convert over MPI_COMM_WORLD, or on this process
 * (lattio_verify_file, lattio_convert_file: without MPI) unless what they
 * do needs the MPI library (lattio_convert_needs_mpi: MPI then started as
 * a singleton). */
#include "gauge_tool.h"

int tool_verify(const char *path, verify_report *rep)
{
    int running = 0;
    MPI_Initialized(&running);
    if (!running || tool_nranks() < 2) return tool_verify_serial(path, rep, NULL);
    lattio_layout l;
    return lattio_verify(MPI_COMM_WORLD, path, rep, &l, NULL) == LATTIO_OK;
}

void tool_convert(const char *in, const char *out, const lattio_convert_options *o, lattio_convert_report *rep)
{
    int running = 0;
    MPI_Initialized(&running);
    /* writing HDF5 and files of fields go through the MPI layer: a single process starts it */
    if (!running && lattio_convert_needs_mpi(in, o)) tool_mpi_ensure(), running = 1;
    if (running) lattio_convert(tool_nranks() > 1 ? MPI_COMM_WORLD : MPI_COMM_SELF, in, out, o, rep);
    else lattio_convert_file(in, out, o, rep);
}
