/* cmd_convert.c -- `lattio convert`: a gauge configuration from any
 * supported format into any other, verified before and after writing,
 * every field of a file of other fields, QIO volume sets joined and split.
 * The conversion is the library's (lattio_convert_file, lattio_convert);
 * the command parses its arguments and prints the report. */
#include "gauge_tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char convert_help[] =
    "usage: lattio convert IN OUT [--json] [--to ildg|scidac|nersc|milc|openqcd|hdf5|hirep]\n"
    "                      [--precision 32|64] [--nersc-rows 2|3]\n"
    "                      [--layout qdp|qlua] [--path /IN/FILE]\n"
    "       lattio convert IN BASE --volumes multi|part|partdir --grid X,Y,Z,T\n"
    "                      [--io-grid X,Y,Z,T]\n"
    "       lattio convert BASE OUT\n"
    "\n"
    "Convert a gauge configuration, or every field of a file of other fields.\n"
    "IN's format is detected from its content\n"
    "and IN is verified first (as 'lattio verify'); nothing is written when it\n"
    "fails.  OUT is written under a temporary name next to it, read back and\n"
    "verified (checksums, every link and the plaquette equal to IN's within\n"
    "the output precision), and only then renamed to OUT.\n"
    "  --to          output format (default ildg: the QIO record set with\n"
    "                ildg-format, ildg-data-lfn, ildg-binary-data, scidac-checksum)\n"
    "  --precision   bits per real in OUT (default: IN's; MILC is always 32,\n"
    "                openQCD always 64)\n"
    "  --nersc-rows  NERSC: 2 (4D_SU3_GAUGE) or 3 (4D_SU<N>_GAUGE_<N>x<N>, default)\n"
    "  --layout      HDF5: qdp (QDP++/Chroma, default) or qlua\n"
    "  --path        HDF5: the object OUT's field goes to (default /lattice)\n"
    "IN may be an HDF5 file (FILE, or FILE:/PATH for one field of several).\n"
    "SU(N) fields (N = 2 .. 16: ILDG su<N>gauge, SciDAC colors N, NERSC\n"
    "4D_SU<N>_GAUGE_<N>x<N>, HiRep, HDF5 .ColorMatrix<P><N>) convert between\n"
    "ILDG, SciDAC, NERSC, HiRep and HDF5; MILC and openQCD hold SU(3) only.\n"
    "IN's file XML, record XML, LFN and date go into OUT where both formats\n"
    "hold them (ILDG, SciDAC, HDF5).\n"
    "\n"
    "QIO volume sets (multifile and partfile: BASE.vol0000, ... or\n"
    "DIR/vol0000/NAME): IN = BASE of a set without --to joins it into the\n"
    "single file OUT (byte for byte what QIO_part_to_single writes); with\n"
    "--to it converts the set's gauge field like any IN.\n"
    "  --volumes     multi|part|partdir: split the single file IN into the\n"
    "                set OUT (QIO_single_to_part's bytes for the same cut)\n"
    "  --grid        X,Y,Z,T: nodes per dimension (each divides the extent)\n"
    "  --io-grid     X,Y,Z,T: I/O partitions per dimension (partfile; each\n"
    "                divides --grid; default: a volume per node)\n"
    "Every checksum is verified as the sites move and OUT read back.\n"
    "\n"
    "Under mpirun an ILDG/SciDAC IN is verified and read in parallel (every\n"
    "rank a slab of t) and an ILDG/SciDAC OUT is written with the parallel\n"
    "field writer (verified after writing, one rewrite allowed) and verified\n"
    "in parallel: the bytes equal a serial run's apart from the record date.\n"
    "Other formats are converted by rank 0 alone.\n"
    "\n"
    "Other fields: when IN is a SciDAC/QIO file of several fields (a multi-\n"
    "record file: eigenvector sets, propagators) or of one field that is not\n"
    "a gauge configuration, or an HDF5 file (FILE: all its fields; FILE:/PATH:\n"
    "the field at PATH or every field under the group PATH, in name order)\n"
    "of such fields, every field is converted, to --to scidac (one multi-\n"
    "record file, each field its own record set and checksum) or --to hdf5\n"
    "(PATH for one field, else PATH/field0, PATH/field1, ...; --layout qdp\n"
    "or qlua), with its datatype, colors, spins, datacount and user XML.\n"
    "Each field is read over the ranks (stored checksum compared), written by\n"
    "the parallel writer (verified after writing), then OUT is read back and\n"
    "every value compared with IN's (equal, or within 2^-23 relative when\n"
    "--precision 32 narrows) before OUT is renamed into place.\n"
    "\n"
    "--json prints the library's report (lattio_convert_report_json) on\n"
    "standard output instead of the lines above.\n"
    "\n"
    "Exit status: 0 converted and verified, 1 IN or OUT failed verification\n"
    "or a write failed, 2 unusable arguments.\n";

/* The command's arguments: the library's options and how to print. */
typedef struct convert_args {
    const char *in, *out;
    lattio_convert_options o;
    int to_given, json, io_nd;
} convert_args;

static int parse_grid(const char *opt, const char *v, convert_args *a)
{
    const int io = strcmp(opt, "--io-grid") == 0;
    int *grid = io ? a->o.split.io_grid : a->o.split.grid, n = 0;
    const char *s = v;
    while (n < LATTIO_MAX_DIMS) {
        char *end;
        const long g = strtol(s, &end, 10);
        if (end == s || g < 1 || g > 1000000 || (*end && *end != ',')) break;
        grid[n++] = (int)g;
        if (!*end) {
            *(io ? &a->io_nd : &a->o.split.nd) = n;
            return 0;
        }
        s = end + 1;
    }
    return tool_usage("convert", "%s wants positive extents, x first, separated by commas: '%s'", opt, v);
}

static int parse_volumes(const char *v, convert_args *a)
{
    a->o.split.volfmt = strcmp(v, "multi") == 0     ? LATTIO_VOLFMT_MULTI
                        : strcmp(v, "part") == 0    ? LATTIO_VOLFMT_PART
                        : strcmp(v, "partdir") == 0 ? LATTIO_VOLFMT_PART_DIR
                                                    : 0;
    return a->o.split.volfmt ? 0 : tool_usage("convert", "unknown volume format '%s' (multi, part, partdir)", v);
}

static int parse_value(const char *opt, const char *v, convert_args *a)
{
    if (!strcmp(opt, "--volumes")) return parse_volumes(v, a);
    if (!strcmp(opt, "--grid") || !strcmp(opt, "--io-grid")) return parse_grid(opt, v, a);
    if (strcmp(opt, "--to") == 0) {
        a->to_given = 1;
        a->o.format = lattio_gauge_format_from_name(v);
        return a->o.format ? 0 : tool_usage("convert", "unknown format '%s'", v);
    }
    if (strcmp(opt, "--layout") == 0) {
        a->o.h5_layout = strcmp(v, "qdp") == 0 ? LATTIO_H5_QDP : strcmp(v, "qlua") == 0 ? LATTIO_H5_QLUA : 0;
        return a->o.h5_layout ? 0 : tool_usage("convert", "unknown HDF5 layout '%s' (qdp, qlua)", v);
    }
    if (strcmp(opt, "--path") == 0) {
        if (v[0] != '/' || strlen(v) > 255) return tool_usage("convert", "--path must start with '/' (at most 255 bytes)");
        return a->o.h5_path = v, 0;
    }
    const int n = (int)strtol(v, NULL, 10);
    if (strcmp(opt, "--precision") == 0 && (strcmp(v, "32") == 0 || strcmp(v, "64") == 0))
        return a->o.precision = n, 0;
    if (strcmp(opt, "--nersc-rows") == 0 && (strcmp(v, "2") == 0 || strcmp(v, "3") == 0))
        return a->o.nersc_rows = n, 0;
    return tool_usage("convert", "bad value '%s' for %s", v, opt);
}

/* argv[*i] as one of convert's options with its value: 1 taken, 0 not an
 * option of convert, -1 after a usage message. */
static int take_option(int argc, char **argv, int *i, convert_args *a)
{
    static const char *const opts[] = {"--to",   "--precision", "--nersc-rows", "--layout",
                                       "--path", "--volumes",   "--grid",       "--io-grid"};
    if (strcmp(argv[*i], "--json") == 0) return a->json = 1, 1;
    for (int k = 0; k < (int)(sizeof opts / sizeof opts[0]); k++) {
        const char *v = NULL;
        const int m = tool_option(argc, argv, i, opts[k], &v);
        if (m < 0) return tool_usage("convert", "missing value for %s", opts[k]), -1;
        if (m > 0) return parse_value(opts[k], v, a) ? -1 : 1;
    }
    return 0;
}

/* The options that go together. */
static int check_args(convert_args *a)
{
    const lattio_volumes_plan *p = &a->o.split;
    if ((a->o.h5_layout || a->o.h5_path) && a->o.format != LATTIO_GAUGE_HDF5)
        return tool_usage("convert", "--layout and --path apply to --to hdf5");
    if ((p->nd || a->io_nd) && !p->volfmt) return tool_usage("convert", "--grid and --io-grid apply to --volumes");
    if (p->volfmt && a->to_given) return tool_usage("convert", "--volumes splits IN as it is: no --to");
    if (p->volfmt && p->nd == 0) return tool_usage("convert", "--volumes needs --grid X,Y,Z,T (nodes per dimension)");
    if (a->io_nd && a->io_nd != p->nd) return tool_usage("convert", "--io-grid needs as many extents as --grid");
    return TOOL_OK;
}

static int parse_args(int argc, char **argv, convert_args *a)
{
    int npos = 0;
    memset(a, 0, sizeof *a);
    lattio_convert_options_default(&a->o);
    for (int i = 1; i < argc; i++) {
        const int taken = take_option(argc, argv, &i, a);
        if (taken < 0) return TOOL_USAGE;
        if (taken) continue;
        if (argv[i][0] == '-' && argv[i][1]) return tool_usage("convert", "unknown option '%s'", argv[i]);
        if (npos == 0) a->in = argv[i];
        else if (npos == 1) a->out = argv[i];
        npos++;
    }
    if (npos != 2) return tool_usage("convert", "need IN and OUT");
    return check_args(a);
}

/* --- the report printed ------------------------------------------------------ */

static void print_fields(const lattio_convert_report *rep)
{
    printf("%s -> %s: %d field%s converted to %s", rep->in, rep->out, rep->nfields, rep->nfields == 1 ? "" : "s",
           rep->out_format == LATTIO_GAUGE_HDF5 ? (rep->h5_layout == LATTIO_H5_QLUA ? "HDF5 (qlua)" : "HDF5 (qdp)")
                                                : "SciDAC");
    if (rep->precision) printf(", %d-bit", rep->precision);
    printf("; verified: checksums, every value read back (largest relative difference %.3g)\n", rep->max_diff);
    for (int i = 0; i < rep->nmap; i++) {
        char in[600], out[600];
        tool_escape(in, sizeof in, rep->map_in[i]);
        tool_escape(out, sizeof out, rep->map_out[i]);
        printf("  field %d%s%s -> %s\n", i, in[0] ? " " : "", in, out);
    }
    if (rep->nfields > rep->nmap && rep->nmap) printf("  ... %d more\n", rep->nfields - rep->nmap);
}

static void print_done(const lattio_convert_report *rep)
{
    if (rep->kind == LATTIO_CONVERT_FIELDS) print_fields(rep);
    else if (rep->kind == LATTIO_CONVERT_GAUGE)
        printf("%s -> %s: %s -> %s, %d-bit, plaquette %.12f (IN %.12f)\n", rep->in, rep->out,
               lattio_gauge_format_name(rep->in_format), lattio_gauge_format_name(rep->out_format), rep->precision,
               rep->out_check.stats.plaquette, rep->in_check.stats.plaquette);
    else
        printf("%s -> %s: %s, every checksum verified\n", rep->in, rep->out,
               rep->kind == LATTIO_CONVERT_SPLIT ? "split into a QIO volume set" : "QIO volume set joined into one file");
}

static int print_report(const convert_args *a, const lattio_convert_report *rep)
{
    if (a->json) {
        char *json = NULL;
        const int rc = lattio_convert_report_json(rep, &json);
        if (rc == LATTIO_OK) printf("%s\n", json);
        free(json);
        if (rc != LATTIO_OK) return tool_status_error("convert", a->out, rc, "%s", "");
    } else if (rep->status == LATTIO_OK) {
        print_done(rep);
        for (int i = 0; i < rep->in_check.nwarnings; i++) /* escaped by the library */
            printf("%s: warning: %s\n", rep->in, rep->in_check.warnings[i]);
    }
    for (int i = 0; i < rep->nproblems; i++) /* already escaped by the library */
        tool_error("convert", rep->problem_out[i] ? rep->out : rep->in, "%s", rep->problems[i]);
    if (rep->dropped) tool_error("convert", rep->in, "%d more problems not kept", rep->dropped);
    if (rep->status != LATTIO_OK && rep->nproblems == 0)
        tool_status_error("convert", rep->out, rep->status, "%s", tool_detail());
    return rep->status == LATTIO_OK ? TOOL_OK : TOOL_FAIL;
}

static int run_convert(int argc, char **argv)
{
    convert_args a;
    const int prc = parse_args(argc, argv, &a);
    if (prc != TOOL_OK) return prc;
    lattio_convert_report *rep = calloc(1, sizeof *rep);
    if (!rep) return tool_status_error("convert", a.out, LATTIO_ERR_NOMEM, "%s", "");
    tool_convert(a.in, a.out, &a.o, rep);
    int ret = rep->status == LATTIO_OK ? TOOL_OK : TOOL_FAIL;
    if (tool_rank() == 0) ret = print_report(&a, rep);
    lattio_convert_report_free(rep);
    free(rep);
    return tool_mpi_share_status(ret);
}

const tool_command tool_cmd_convert = {"convert", "convert a gauge configuration between formats",
                                       convert_help, run_convert, 1};
