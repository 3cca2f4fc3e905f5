/* verify_h5.c -- the verification of an HDF5 target, MPI-free: every
 * lattice field listed and read whole, checksums compared, a gauge
 * field's observables, into the report.  How the fields are listed and
 * read is the caller's (lattio_ops_h5_io): on this process by the serial
 * HDF5 calls (lattio_verify_file, below), or over a communicator
 * (src/ops/mpi/verify_h5.c); both fill the report here, so a file gets
 * one verdict whoever reads it. */
#include "internal.h"
#include "ops_internal.h"

#include <stdlib.h>
#include <string.h>

/* rep's entry for field i of the listing, filled from the read. */
static void field_entry(lattio_verify_report *rep, const lattio_h5_entry *e, int i, int rc,
                        const lattio_field_read_info *info)
{
    lattio_verify_field *v = lattio_ops_field(rep);
    if (!v) {
        lattio_ops_problem(rep, LATTIO_ERR_NOMEM, "%s: out of memory (ERR_NOMEM)", e->path);
        return;
    }
    v->record = i + 1;
    lattio_text_escape(v->type, sizeof v->type, e->path);
    v->site_bytes = e->elements * (uint64_t)e->precision / 8;
    uint64_t vol = 1;
    for (int k = 0; k < e->nd; k++) vol *= e->dims[k];
    v->length = vol * v->site_bytes;
    v->has_stored = info->field.has_checksum;
    v->stored = info->field.stored;
    v->computed = info->computed;
    v->ok = rc == LATTIO_OK;
    v->io_failed = lattio_status_is_io(rc);
}

/* A gauge field's description and observables into rep. */
static void gauge_entry(const lattio_ops_h5_io *io, lattio_verify_report *rep, const lattio_h5_entry *e,
                        const lattio_layout *l, const double *local, const lattio_field_read_info *info)
{
    rep->format = LATTIO_GAUGE_HDF5;
    rep->info.format = LATTIO_GAUGE_HDF5;
    memcpy(rep->info.dims, e->dims, sizeof rep->info.dims);
    rep->info.volume = lattio_layout_global_sites(l);
    rep->info.precision = e->precision;
    rep->info.little_endian = !e->big_endian;
    rep->info.rows = rep->info.colors = e->colors ? e->colors : 3;
    lattio_ops_meta(rep, &info->field);
    if (io->stats(io->arg, l, local, &rep->stats) == LATTIO_OK) lattio_ops_stats_checks(rep, e->path);
}

/* Field i of the listing read into rep; the first gauge field's values
 * handed over in *gl / *glocal when glocal is given. */
static void verify_entry(const lattio_ops_h5_io *io, const char *file, const lattio_h5_entry *e, int i,
                         lattio_verify_report *rep, lattio_layout *gl, double **glocal)
{
    lattio_layout l;
    double *local = NULL;
    lattio_field_read_info info;
    memset(&info, 0, sizeof info);
    const int rc = io->read(io->arg, file, e, &l, &local, &info);
    field_entry(rep, e, i, rc, &info);
    char why[300];
    if (rc != LATTIO_OK)
        lattio_ops_problem(rep, rc, "%s: %s (%s)%s", e->path, lattio_strerror(rc), lattio_error_name(rc),
                           lattio_ops_detail(why, sizeof why));
    else if (info.checksum == LATTIO_CHECKSUM_MISSING)
        lattio_ops_warning(rep, "%s: no stored checksum (suma/sumb or .sha256)", e->path);
    if (e->gauge && !rep->has_gauge && local && (rc == LATTIO_OK || rc == LATTIO_ERR_CHECKSUM)) {
        gauge_entry(io, rep, e, &l, local, &info);
        if (rep->has_gauge && glocal && !*glocal) {
            *gl = l;
            *glocal = local;
            local = NULL;
        }
    }
    lattio_field_info_free(&info.field);
    free(local);
}

int lattio_ops_verify_h5_io(const lattio_ops_h5_io *io, const char *target, lattio_verify_report *rep,
                            lattio_layout *gl, double **glocal)
{
    int rc = lattio_ops_reset(rep, target);
    if (rc != LATTIO_OK) return rc;
    rep->is_hdf5 = 1;
    lattio_h5_entry *list = NULL;
    int count = 0;
    char file[4096];
    rc = io->fields(io->arg, target, file, sizeof file, &list, &count);
    if (rc != LATTIO_OK) {
        char why[300];
        lattio_ops_problem(rep, rc, "%s (%s)%s", lattio_strerror(rc), lattio_error_name(rc), lattio_ops_detail(why, sizeof why));
        return rep->status;
    }
    rep->nrecords = (size_t)count;
    for (int i = 0; i < count; i++) {
        rep->h5_layout = list[i].layout;
        verify_entry(io, file, &list[i], i, rep, gl, glocal);
    }
    free(list);
    if (!count)
        lattio_ops_problem(rep, LATTIO_ERR_HDF5_NOT_FOUND, "no lattice field in the file (ERR_HDF5_NOT_FOUND)");
    return rep->status;
}

/* --- on this process ----------------------------------------------------------- */

static int serial_fields(void *arg, const char *target, char *file, size_t size, lattio_h5_entry **list, int *count)
{
    (void)arg;
    return lattio_h5_fields_serial(target, 4, file, size, list, count);
}

/* Field e read whole: the lattice's layout (x fastest, as the collective
 * read's slabs are laid out) and native doubles. */
static int serial_read(void *arg, const char *file, const lattio_h5_entry *e, lattio_layout *l, double **local,
                       lattio_field_read_info *info)
{
    (void)arg;
    RETURN_IF_ERROR(lattio_layout_slab_of(e->nd, e->dims, e->elements, 1, 0, l));
    const uint64_t n = lattio_layout_local_sites(l) * e->elements;
    RETURN_IF(n > SIZE_MAX / sizeof **local, LATTIO_ERR_OVERFLOW);
    *local = malloc(n ? (size_t)n * sizeof **local : 1);
    char *target = malloc(strlen(file) + strlen(e->path) + 2);
    int rc = *local && target ? LATTIO_OK : LATTIO_ERR_NOMEM;
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, e->elements);
    if (rc == LATTIO_OK) {
        sprintf(target, "%s:%s", file, e->path);
        rc = lattio_h5_read_serial(target, &d, l, *local, info);
    }
    free(target);
    return rc;
}

static int serial_stats(void *arg, const lattio_layout *l, const double *local, lattio_gauge_stats *st)
{
    (void)arg;
    uint64_t dims[4];
    for (int i = 0; i < 4; i++) dims[i] = l->global[l->file_order[3 - i]];
    return lattio_gauge_stats_compute_nc(local, dims, lattio_gauge_colors_of(l->site_bytes / (4 * sizeof(double))), st);
}

int lattio_ops_verify_h5_serial(const char *target, lattio_verify_report *rep, double **gauge)
{
    if (!lattio_h5_serial_available()) {
        int rc = lattio_ops_reset(rep, target);
        if (rc != LATTIO_OK) return rc;
        rep->is_hdf5 = 1;
        lattio_ops_problem(rep, LATTIO_ERR_HDF5_UNAVAILABLE,
                           "an HDF5 file: this build of lattio reads no HDF5 without MPI (lattio --version, "
                           "docs/install.md) (ERR_HDF5_UNAVAILABLE)");
        return rep->status;
    }
    const lattio_ops_h5_io io = {NULL, serial_fields, serial_read, serial_stats};
    lattio_layout gl;
    return lattio_ops_verify_h5_io(&io, target, rep, &gl, gauge);
}
