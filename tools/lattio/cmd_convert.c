/* cmd_convert.c -- `lattio convert`: a gauge configuration from any
 * supported format into any other, verified before and after writing. */
#include "gauge_tool.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char convert_help[] =
    "usage: lattio convert IN OUT [--to ildg|scidac|nersc|milc|openqcd|hdf5|hirep]\n"
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
    "Exit status: 0 converted and verified, 1 IN or OUT failed verification\n"
    "or a write failed, 2 unusable arguments.\n";

static int parse_value(const char *opt, const char *v, convert_args *a)
{
    if (!strcmp(opt, "--volumes") || !strcmp(opt, "--grid") || !strcmp(opt, "--io-grid"))
        return convert_volumes_option(opt, v, a);
    if (strcmp(opt, "--to") == 0) {
        a->to_given = 1;
        a->format = lattio_gauge_format_from_name(v);
        return a->format ? 0 : tool_usage("convert", "unknown format '%s'", v);
    }
    if (strcmp(opt, "--layout") == 0) {
        a->h5_layout = strcmp(v, "qdp") == 0 ? LATTIO_H5_QDP : strcmp(v, "qlua") == 0 ? LATTIO_H5_QLUA : 0;
        return a->h5_layout ? 0 : tool_usage("convert", "unknown HDF5 layout '%s' (qdp, qlua)", v);
    }
    if (strcmp(opt, "--path") == 0) {
        if (v[0] != '/' || strlen(v) > 255) return tool_usage("convert", "--path must start with '/' (at most 255 bytes)");
        return a->h5_path = v, 0;
    }
    const int n = (int)strtol(v, NULL, 10);
    if (strcmp(opt, "--precision") == 0 && (strcmp(v, "32") == 0 || strcmp(v, "64") == 0))
        return a->precision = n, 0;
    if (strcmp(opt, "--nersc-rows") == 0 && (strcmp(v, "2") == 0 || strcmp(v, "3") == 0))
        return a->rows = n, 0;
    return tool_usage("convert", "bad value '%s' for %s", v, opt);
}

/* argv[*i] as one of convert's options with its value: 1 taken, 0 not an
 * option of convert, -1 after a usage message. */
static int take_option(int argc, char **argv, int *i, convert_args *a)
{
    static const char *const opts[] = {"--to",   "--precision", "--nersc-rows", "--layout",
                                       "--path", "--volumes",   "--grid",       "--io-grid"};
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
    if ((a->h5_layout || a->h5_path) && a->format != LATTIO_GAUGE_HDF5)
        return tool_usage("convert", "--layout and --path apply to --to hdf5");
    if (!a->h5_path) a->h5_path = "/lattice";
    if ((a->grid_nd || a->io_nd) && !a->volfmt) return tool_usage("convert", "--grid and --io-grid apply to --volumes");
    if (a->volfmt && a->to_given) return tool_usage("convert", "--volumes splits IN as it is: no --to");
    return TOOL_OK;
}

static int parse_args(int argc, char **argv, convert_args *a)
{
    int npos = 0;
    memset(a, 0, sizeof *a);
    a->format = LATTIO_GAUGE_ILDG;
    a->rows = 3;
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

static verify_report convert_written; /* the written file, verified */

static int compare(const verify_report *in, const double *u, const verify_report *out,
                   const double *v, int precision, int rows)
{
    if (memcmp(in->info.dims, out->info.dims, sizeof in->info.dims) != 0)
        return convert_compare(in, out, 0, precision, rows);
    const uint64_t nc = in->info.colors ? (uint64_t)in->info.colors : 3;
    if ((out->info.colors ? (uint64_t)out->info.colors : 3) != nc) return convert_compare(in, out, INFINITY, precision, rows);
    return convert_compare(in, out, max_diff(u, v, in->info.volume * 8 * nc * nc), precision, rows);
}

static int write_and_check(const convert_args *a, const verify_report *in, const double *u,
                           const char *tmp)
{
    lattio_gauge_write_options opt;
    lattio_gauge_write_options_default(&opt, a->format);
    opt.precision = convert_precision(a, in->info.precision);
    opt.nersc_rows = a->rows;
    opt.colors = in->info.colors;
    /* IN's metadata, where both formats have them */
    opt.file_xml = in->meta_file_xml;
    opt.record_xml = in->meta_record_xml;
    opt.lfn = in->meta_lfn;
    opt.date = in->meta_date[0] ? in->meta_date : NULL;
    char target[sizeof ((tool_output *)0)->tmp + 300];
    snprintf(target, sizeof target, "%s", tmp);
    int rc;
    const int su3_only = a->format == LATTIO_GAUGE_MILC || a->format == LATTIO_GAUGE_OPENQCD;
    if (su3_only && in->info.colors && in->info.colors != 3) {
        fprintf(stderr, "lattio convert: %s: an SU(%d) field; %s holds SU(3) gauge fields only (ERR_UNSUPPORTED)\n",
                a->in, in->info.colors, lattio_gauge_format_name(a->format));
        return TOOL_FAIL;
    }
    if (a->format == LATTIO_GAUGE_HDF5) { /* this process alone */
        lattio_layout l;
        convert_h5_target(a, tmp, target, sizeof target);
        rc = h5_whole_layout(in->info.dims, in->info.colors, &l);
        if (rc == LATTIO_OK) rc = h5_write_gauge(MPI_COMM_SELF, target, a->h5_layout, opt.precision, &l, u, in);
    } else {
        rc = lattio_gauge_write(tmp, a->format, &opt, in->info.dims, u);
    }
    if (rc != LATTIO_OK) return tool_status_error("convert", a->out, rc, "%s", " (writing)");
    verify_report *out = &convert_written;
    double *v = NULL;
    int ret = TOOL_OK;
    if (!tool_verify_serial(target, out, &v) || !v) {
        convert_report_problems(out, "written file holds no gauge field (ERR_VERIFY)");
        ret = TOOL_FAIL;
    } else {
        ret = compare(in, u, out, v, opt.precision, a->format == LATTIO_GAUGE_NERSC ? a->rows : 3);
    }
    if (a->format == LATTIO_GAUGE_HDF5) free(v);
    else lattio_gauge_free(v);
    return ret; /* the success line comes after the rename */
}

static int run_convert(int argc, char **argv)
{
    convert_args a;
    const int prc = parse_args(argc, argv, &a);
    if (prc != TOOL_OK) return prc;
    int volumes = tool_rank() == 0 && convert_volumes_wanted(&a);
    tool_mpi_bcast(&volumes, sizeof volumes, 0);
    if (volumes) return convert_volumes(&a);
    /* HDF5 needs MPI: a single process starts it (under mpirun it runs) */
    if (a.format == LATTIO_GAUGE_HDF5 || (tool_nranks() < 2 && h5_tool_target(a.in))) tool_mpi_ensure();
    int fields = tool_rank() == 0 && convert_fields_wanted(&a);
    tool_mpi_bcast(&fields, sizeof fields, 0);
    if (fields) {
        tool_mpi_ensure(); /* a single process reads and writes through the MPI layer too */
        return convert_fields(&a);
    }
    if (tool_nranks() > 1) {
        int par = tool_rank() == 0 && convert_in_parallel(&a);
        tool_mpi_bcast(&par, sizeof par, 0);
        if (par) return convert_parallel(&a);
        if (tool_rank() != 0) return TOOL_OK; /* rank 0 converts; its status is shared */
    }
    static verify_report in;
    double *u = NULL;
    const char *inputs[1] = {a.in};
    if (tool_output_allowed("convert", a.out, inputs, 1) != TOOL_OK) return TOOL_FAIL;
    if (!tool_verify_serial(a.in, &in, &u) || !u) {
        convert_report_problems(&in, "no gauge field to convert (ERR_UNSUPPORTED)");
        lattio_gauge_free(u);
        return TOOL_FAIL;
    }
    tool_output o;
    int ret = tool_output_open(&o, "convert", a.out);
    if (ret == TOOL_OK) {
        close(o.fd); /* lattio_gauge_write replaces the reserved name */
        o.fd = -1;
        ret = tool_output_finish(&o, write_and_check(&a, &in, u, o.tmp));
    }
    if (ret == TOOL_OK) convert_print(&a, &in, &convert_written, convert_precision(&a, in.info.precision));
    lattio_gauge_free(u);
    return ret;
}

const tool_command tool_cmd_convert = {"convert", "convert a gauge configuration between formats",
                                       convert_help, run_convert, 1};
