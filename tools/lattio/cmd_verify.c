/* cmd_verify.c -- `lattio verify`: checksums, metadata and gauge observables
 * of lattice files in any supported format. */
#include "gauge_tool.h"

#include <string.h>

static const char verify_help[] =
    "usage: lattio verify FILE... [--json]\n"
    "\n"
    "Verify lattice files.  The format is detected from the content: LIME\n"
    "(ILDG/SciDAC), NERSC archive, MILC version 5, openQCD export, HDF5\n"
    "(QDP++ or Qlua layout; FILE:/PATH names one field of several).\n"
    "LIME files: the record structure (as 'lattio check'; MB/ME problems are\n"
    "warnings), the metadata of every binary record (dims, precision, payload\n"
    "size) and its SciDAC checksum against the scidac-checksum record.\n"
    "Gauge fields (any format): the header checksum (NERSC sum, MILC\n"
    "sum29/sum31), plaquette and link trace (Re tr / 3) against the header's\n"
    "values (tolerance 1e-6) and unitarity (max |U^+U - 1| <= 1e-5).\n"
    "Prints a short report per file ending in 'FILE: ok' or 'FILE: FAILED';\n"
    "each problem names the record (numbered from 1) or header field.\n"
    "--json prints one JSON array with an object per file instead.\n"
    "Under mpirun every rank reads a slab of each binary record (checksums\n"
    "and gauge observables computed in parallel); rank 0 prints the same\n"
    "report.  Other formats are verified by rank 0 alone.\n"
    "\n"
    "Exit status: 0 everything holds for every file, 1 anything does not\n"
    "(or a file is unreadable), 2 unusable arguments.\n";

static int run_verify(int argc, char **argv)
{
    int json = 0, nfiles = 0, only_files = 0;
    for (int i = 1; i < argc; i++) {
        if (!only_files && strcmp(argv[i], "--") == 0) only_files = 1;
        else if (!only_files && strcmp(argv[i], "--json") == 0) json = 1;
        else if (!only_files && argv[i][0] == '-' && argv[i][1] != '\0')
            return tool_usage("verify", "unknown option '%s'", argv[i]);
        else nfiles++;
    }
    if (nfiles == 0) return tool_usage("verify", "missing FILE");
    static verify_report rep;
    int ret = TOOL_OK, first = 1;
    only_files = 0;
    if (json && tool_rank() == 0) fputc('[', stdout);
    for (int i = 1; i < argc; i++) {
        if (!only_files && strcmp(argv[i], "--") == 0) {
            only_files = 1;
            continue;
        }
        if (!only_files && strcmp(argv[i], "--json") == 0) continue;
        if (!verify_file_any(argv[i], &rep)) ret = TOOL_FAIL;
        if (tool_rank() != 0) continue; /* under MPI rank 0 reports */
        if (json) {
            fputs(first ? "\n" : ",\n", stdout);
            verify_print_json(stdout, &rep);
        } else {
            verify_print_text(stdout, &rep);
        }
        first = 0;
        fflush(stdout);
    }
    if (json && tool_rank() == 0) fputs("\n]\n", stdout);
    return ret;
}

const tool_command tool_cmd_verify = {"verify", "verify checksums, metadata and gauge observables",
                                      verify_help, run_verify, 1};
