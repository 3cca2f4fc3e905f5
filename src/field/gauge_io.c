/* gauge_io.c -- the public entry points of the gauge formats: names,
 * write options, lattio_gauge_read (detection, then the format's reader)
 * and lattio_gauge_write (the format's writer).  The formats sit below
 * (nersc.c, milc.c, openqcd.c, gauge_lime.c, detect.c), the pieces they
 * share below them (gauge_links.c). */
#include "gauge_internal.h"
#include "fsinfo.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* --- public entry points -------------------------------------------------- */

static const char *const format_names[] = {"unknown", "ildg", "scidac", "nersc", "milc", "openqcd", "hdf5", "hirep"};

const char *lattio_gauge_format_name(int format)
{
    if (format < 1 || format > LATTIO_GAUGE_HIREP) return format_names[0];
    return format_names[format];
}

int lattio_gauge_format_from_name(const char *name)
{
    for (int f = 1; name && f <= LATTIO_GAUGE_HIREP; f++)
        if (strcmp(name, format_names[f]) == 0) return f;
    return LATTIO_GAUGE_UNKNOWN;
}

void lattio_gauge_write_options_default(lattio_gauge_write_options *opt, int format)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->precision = 64;
    opt->nersc_rows = 3;
    opt->little_endian = format == LATTIO_GAUGE_MILC;
}

static int read_plain(const char *path, int format, lattio_gauge_info *info, double **u)
{
    int fd;
    RETURN_IF_ERROR(lattio_open_regular(path, &fd));
    lattio_source src;
    int rc = lattio_source_fd(fd, &src);
    if (rc == LATTIO_OK) {
        if (format == LATTIO_GAUGE_NERSC) rc = gauge_nersc_read(&src, info, u);
        else if (format == LATTIO_GAUGE_MILC) rc = gauge_milc_read(&src, info, u);
        else if (format == LATTIO_GAUGE_HIREP) rc = gauge_hirep_read(&src, info, u);
        else rc = gauge_openqcd_read(&src, info, u);
    }
    close(fd);
    return rc;
}

int lattio_gauge_read(const char *path, lattio_gauge_info *info, double **u)
{
    RETURN_IF(!path || !info || !u, LATTIO_ERR_ARG);
    *u = NULL;
    memset(info, 0, sizeof *info);
    int format;
    RETURN_IF_ERROR(lattio_gauge_detect(path, &format));
    info->format = format;
    if (format == LATTIO_GAUGE_HDF5) {
        snprintf(info->problem, sizeof info->problem, "an HDF5 file: read it with lattio_h5_read (MPI)");
        return LATTIO_FAIL(LATTIO_ERR_UNSUPPORTED, "HDF5 needs the MPI library");
    }
    int rc = format == LATTIO_GAUGE_ILDG ? gauge_lime_read(path, info, u)
                                         : read_plain(path, format, info, u);
    if (rc != LATTIO_OK && rc != LATTIO_ERR_CHECKSUM) {
        lattio_free(*u);
        *u = NULL;
        return rc;
    }
    if (!info->colors) info->colors = 3; /* MILC, openQCD: SU(3) */
    if (rc == LATTIO_OK && info->has_checksum &&
        (info->stored[0] != info->computed[0] || info->stored[1] != info->computed[1]))
        rc = LATTIO_FAIL(LATTIO_ERR_CHECKSUM, "stored checksum != computed");
    return rc;
}

int lattio_gauge_check_header(const lattio_gauge_info *info, const lattio_gauge_stats *stats)
{
    RETURN_IF(!info || !stats, LATTIO_ERR_ARG);
    RETURN_IF(info->has_plaquette &&
                  !(fabs(info->plaquette - stats->plaquette) <= LATTIO_GAUGE_HEADER_TOL),
              LATTIO_ERR_PLAQUETTE);
    RETURN_IF(info->has_link_trace &&
                  !(fabs(info->link_trace - stats->link_trace) <= LATTIO_GAUGE_HEADER_TOL),
              LATTIO_ERR_PLAQUETTE);
    return LATTIO_OK;
}

static int check_write_args(int format, const lattio_gauge_write_options *opt,
                            const uint64_t dims[4], const double *u)
{
    RETURN_IF(!dims || !u || !opt, LATTIO_ERR_ARG);
    RETURN_IF(opt->precision != 32 && opt->precision != 64, LATTIO_ERR_ARG);
    RETURN_IF(opt->nersc_rows != 2 && opt->nersc_rows != 3, LATTIO_ERR_ARG);
    RETURN_IF(format < LATTIO_GAUGE_ILDG || format > LATTIO_GAUGE_HIREP || format == LATTIO_GAUGE_HDF5, LATTIO_ERR_ARG);
    RETURN_IF(opt->colors < 0 || opt->colors == 1 || opt->colors > LATTIO_GAUGE_MAX_COLORS, LATTIO_ERR_ARG);
    if (opt->colors && opt->colors != 3 && (format == LATTIO_GAUGE_MILC || format == LATTIO_GAUGE_OPENQCD)) {
        lattio_detail_set("%s stores SU(3) fields only, not SU(%d)", lattio_gauge_format_name(format), opt->colors);
        return LATTIO_FAIL(LATTIO_ERR_UNSUPPORTED, "SU(N) in an SU(3) format");
    }
    if (opt->n_other && format != LATTIO_GAUGE_ILDG && format != LATTIO_GAUGE_SCIDAC) {
        lattio_detail_set("other writers' records go into LIME files (ILDG, SciDAC), not %s",
                          lattio_gauge_format_name(format));
        return LATTIO_FAIL(LATTIO_ERR_ARG, "other records");
    }
    uint64_t v, b;
    return gauge_volume(dims, 0, &v, &b) == LATTIO_OK ? LATTIO_OK : LATTIO_ERR_ARG;
}

int lattio_gauge_write(const char *path, int format, const lattio_gauge_write_options *opt,
                       const uint64_t dims[4], const double *u)
{
    lattio_gauge_write_options def;
    if (!opt) {
        lattio_gauge_write_options_default(&def, format);
        opt = &def;
    }
    RETURN_IF(!path, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(check_write_args(format, opt, dims, u));
    if (format == LATTIO_GAUGE_ILDG || format == LATTIO_GAUGE_SCIDAC)
        return gauge_lime_write(path, format, opt, dims, u);
    gauge_out o;
    RETURN_IF_ERROR(gauge_out_open(&o, path));
    int rc;
    if (format == LATTIO_GAUGE_NERSC) rc = gauge_nersc_write(&o, opt, dims, u);
    else if (format == LATTIO_GAUGE_MILC) rc = gauge_milc_write(&o, opt, dims, u);
    else if (format == LATTIO_GAUGE_HIREP) rc = gauge_hirep_write(&o, opt, dims, u);
    else rc = gauge_openqcd_write(&o, dims, u);
    const int rc2 = gauge_out_close(&o, rc == LATTIO_OK);
    return rc != LATTIO_OK ? rc : rc2;
}
