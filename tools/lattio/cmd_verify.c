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

/* The FILE arguments in place at the front of argv (after "--" every word
 * is a file); *json for --json.  Returns the number of files, or -1 after
 * the usage message. */
static int files_of(int argc, char **argv, int *json)
{
    int n = 0, only_files = 0;
    *json = 0;
    for (int i = 1; i < argc; i++) {
        const int option = !only_files && argv[i][0] == '-' && argv[i][1] != '\0';
        if (option && strcmp(argv[i], "--") == 0) only_files = 1;
        else if (option && strcmp(argv[i], "--json") == 0) *json = 1;
        else if (option) return tool_usage("verify", "unknown option '%s'", argv[i]), -1;
        else argv[1 + n++] = argv[i];
    }
    if (n == 0) tool_usage("verify", "missing FILE");
    return n ? n : -1;
}

/* One file verified (collectively under MPI); rank 0 prints the report. */
static int verify_one(const char *path, int json, int first)
{
    static verify_report rep;
    int ret = tool_verify(path, &rep) ? TOOL_OK : TOOL_FAIL;
    if (tool_rank() != 0) return ret; /* under MPI rank 0 reports */
    if (json) {
        fputs(first ? "\n" : ",\n", stdout);
        if (verify_print_json(stdout, &rep) != LATTIO_OK)
            ret = tool_status_error("verify", path, LATTIO_ERR_NOMEM, "%s", "");
    } else {
        verify_print_text(stdout, &rep);
    }
    fflush(stdout);
    return ret;
}

static int run_verify(int argc, char **argv)
{
    int json;
    const int n = files_of(argc, argv, &json);
    if (n < 0) return TOOL_USAGE;
    int ret = TOOL_OK;
    if (json && tool_rank() == 0) fputc('[', stdout);
    for (int i = 0; i < n; i++)
        if (verify_one(argv[1 + i], json, i == 0) != TOOL_OK) ret = TOOL_FAIL;
    if (json && tool_rank() == 0) fputs("\n]\n", stdout);
    return ret;
}

const tool_command tool_cmd_verify = {"verify", "verify checksums, metadata and gauge observables",
                                      verify_help, run_verify, 1};
