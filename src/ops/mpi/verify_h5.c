/* verify_h5.c -- the verification of an HDF5 target over a communicator:
 * every lattice field read with lattio_h5_read (slabs of t), checksums
 * compared, a gauge field's observables. */
#include "ops_mpi.h"

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

/* Collective: a gauge field's description and observables into rep. */
static void gauge_entry(MPI_Comm comm, lattio_verify_report *rep, const lattio_h5_entry *e,
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
    if (lattio_gauge_stats_mpi(comm, l, local, &rep->stats) == LATTIO_OK) lattio_ops_stats_checks(rep, e->path);
}

/* Collective: read one listed field into rep; a gauge field's observables. */
static void verify_entry(MPI_Comm comm, const char *file, const lattio_h5_entry *e, int i,
                         lattio_verify_report *rep, lattio_layout *gl, double **glocal)
{
    char *target = malloc(strlen(file) + strlen(e->path) + 2);
    lattio_layout l;
    int rc = lattio_layout_slab(comm, e->nd, e->dims, e->elements, &l);
    const uint64_t n = rc == LATTIO_OK ? lattio_layout_local_sites(&l) * e->elements : 0;
    double *local = malloc(n ? n * sizeof *local : 1);
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, e->elements);
    lattio_h5_options o;
    lattio_h5_options_default(&o);
    o.layout = LATTIO_H5_AUTO;
    lattio_field_read_info info;
    memset(&info, 0, sizeof info);
    if (rc == LATTIO_OK && (!local || !target)) rc = LATTIO_ERR_NOMEM;
    rc = lattio_agree(comm, rc);
    if (rc == LATTIO_OK) {
        sprintf(target, "%s:%s", file, e->path);
        rc = lattio_h5_read(comm, target, &d, &l, local, &o, &info, NULL);
    }
    field_entry(rep, e, i, rc, &info);
    char why[300];
    if (rc != LATTIO_OK)
        lattio_ops_problem(rep, rc, "%s: %s (%s)%s", e->path, lattio_strerror(rc), lattio_error_name(rc),
                           lattio_ops_detail(why, sizeof why));
    else if (info.checksum == LATTIO_CHECKSUM_MISSING)
        lattio_ops_warning(rep, "%s: no stored checksum (suma/sumb or .sha256)", e->path);
    if (e->gauge && !rep->has_gauge && (rc == LATTIO_OK || rc == LATTIO_ERR_CHECKSUM)) {
        gauge_entry(comm, rep, e, &l, local, &info);
        if (rep->has_gauge && glocal && !*glocal) {
            *gl = l;
            *glocal = local;
            local = NULL;
        }
    }
    lattio_field_info_free(&info.field);
    free(local);
    free(target);
}

int lattio_ops_verify_h5(MPI_Comm comm, const char *target, lattio_verify_report *rep, lattio_layout *gl,
                         double **glocal)
{
    int rc = lattio_ops_reset(rep, target);
    if (rc != LATTIO_OK) return rc;
    rep->is_hdf5 = 1;
    lattio_h5_entry *list = NULL;
    int count = 0;
    char file[4096];
    rc = lattio_h5_fields(comm, target, 4, file, sizeof file, &list, &count);
    if (rc != LATTIO_OK) {
        char why[300];
        lattio_ops_problem(rep, rc, "%s (%s)%s", lattio_strerror(rc), lattio_error_name(rc), lattio_ops_detail(why, sizeof why));
        return rep->status;
    }
    rep->nrecords = (size_t)count;
    for (int i = 0; i < count; i++) {
        rep->h5_layout = list[i].layout;
        verify_entry(comm, file, &list[i], i, rep, gl, glocal);
    }
    free(list);
    if (!count)
        lattio_ops_problem(rep, LATTIO_ERR_HDF5_NOT_FOUND, "no lattice field in the file (ERR_HDF5_NOT_FOUND)");
    return rep->status;
}
