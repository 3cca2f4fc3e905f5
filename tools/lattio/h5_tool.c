/* h5_tool.c -- HDF5 files in the `lattio` command: which arguments name
 * one, their verification (every lattice field read with lattio_h5_read
 * over the ranks, checksums compared, gauge observables), their listing
 * (`info`, `check`) and the write of a converted gauge field. */
#include "gauge_tool.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Split "FILE:/PATH" (the last ":/"); *path NULL for a bare FILE. */
static void split(const char *arg, char *file, size_t size, const char **path)
{
    const char *sep = NULL;
    for (const char *p = arg; (p = strstr(p, ":/")); p++) sep = p;
    *path = NULL;
    size_t n = strlen(arg);
    if (sep && !lattio_h5_is_hdf5(arg)) {
        n = (size_t)(sep - arg);
        *path = sep + 1;
    }
    if (n >= size) n = size - 1;
    memcpy(file, arg, n);
    file[n] = '\0';
}

int h5_tool_target(const char *arg)
{
    char file[4096];
    const char *path;
    split(arg, file, sizeof file, &path);
    return lattio_h5_is_hdf5(file);
}

/* The detail of the last failure, as ": detail" or "". */
static const char *detail(void)
{
    static _Thread_local char buf[300];
    char d[256];
    if (lattio_last_detail(d, sizeof d) <= 0 || !d[0]) return "";
    snprintf(buf, sizeof buf, ": %s", d);
    return buf;
}

/* A problem (or warning) of rep, printf-style, escaped. */
static void note(verify_report *rep, int is_problem, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void note(verify_report *rep, int is_problem, const char *fmt, ...)
{
    int *n = is_problem ? &rep->nproblems : &rep->nwarnings;
    if (*n >= VR_MAX_PROBLEMS) return;
    char raw[VR_TEXT];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    tool_escape(is_problem ? rep->problems[(*n)++] : rep->warnings[(*n)++], VR_TEXT, raw);
}

/* Collective: read one listed field, into rep; a gauge field's observables. */
static void verify_entry(const char *file, const lattio_h5_entry *e, int i, verify_report *rep, MPI_Comm comm,
                         lattio_layout *gl, double **glocal)
{
    char target[4096 + 300];
    if (snprintf(target, sizeof target, "%s:%s", file, e->path) >= (int)sizeof target) target[0] = '\0';
    lattio_layout l;
    int rc = tool_slab_layout(comm, e->nd, e->dims, e->elements, &l);
    const uint64_t n = rc == LATTIO_OK ? lattio_layout_local_sites(&l) * e->elements : 0;
    double *local = malloc(n ? n * sizeof *local : 1);
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, e->elements);
    lattio_h5_options o;
    lattio_h5_options_default(&o);
    o.layout = LATTIO_H5_AUTO;
    lattio_field_read_info info;
    lattio_h5_info h5;
    memset(&info, 0, sizeof info);
    if (rc == LATTIO_OK && local) rc = lattio_h5_read(comm, target, &d, &l, local, &o, &info, &h5);
    else rc = LATTIO_ERR_NOMEM;
    vr_field *v = verify_report_field(rep);
    if (!v) note(rep, 1, "%s: out of memory (ERR_NOMEM)", e->path);
    if (v) {
        v->record = i + 1;
        tool_escape(v->type, sizeof v->type, e->path);
        v->site_bytes = e->elements * (uint64_t)e->precision / 8;
        uint64_t vol = 1;
        for (int k = 0; k < e->nd; k++) vol *= e->dims[k];
        v->length = vol * v->site_bytes;
        v->has_stored = info.field.has_checksum;
        v->stored = info.field.stored;
        v->computed = info.computed;
        v->ok = rc == LATTIO_OK;
        v->io_failed = tool_is_io_status(rc);
    }
    if (rc != LATTIO_OK) {
        note(rep, 1, "%s: %s (%s)%s", e->path, lattio_strerror(rc), lattio_error_name(rc), detail());
    } else if (info.checksum == LATTIO_CHECKSUM_MISSING) {
        note(rep, 0, "%s: no stored checksum (suma/sumb or .sha256)", e->path);
    }
    if (e->gauge && !rep->has_gauge && (rc == LATTIO_OK || rc == LATTIO_ERR_CHECKSUM)) {
        rep->format = LATTIO_GAUGE_HDF5;
        rep->info.format = LATTIO_GAUGE_HDF5;
        memcpy(rep->info.dims, e->dims, sizeof rep->info.dims);
        rep->info.volume = lattio_layout_global_sites(&l);
        rep->info.precision = e->precision;
        rep->info.little_endian = !e->big_endian;
        rep->info.rows = rep->info.colors = e->colors ? e->colors : 3;
        verify_report_meta(rep, &info.field);
        if (lattio_gauge_stats_mpi(comm, &l, local, &rep->stats) == LATTIO_OK) {
            rep->has_gauge = 1;
            if (!(rep->stats.unitarity <= LATTIO_GAUGE_UNITARITY_TOL)) {
                note(rep, 1, "%s: links not unitary: max |U^+U - 1| = %.3g > %g (ERR_UNITARITY)", e->path,
                     rep->stats.unitarity, LATTIO_GAUGE_UNITARITY_TOL);
            }
            if (glocal && !*glocal) {
                *gl = l;
                *glocal = local;
                local = NULL;
            }
        }
    }
    lattio_field_info_free(&info.field);
    free(local);
}

/* Collective: every lattice field of FILE (counted, then listed); *list is
 * malloc'd (free it), NULL when there is none. */
static int list_all(MPI_Comm comm, const char *file, lattio_h5_entry **list, int *count)
{
    *list = NULL;
    int rc = lattio_h5_list(comm, file, 4, NULL, 0, count);
    if (rc != LATTIO_OK || *count == 0) return rc;
    *list = malloc((size_t)*count * sizeof **list);
    int ok = *list != NULL, all = 0;
    if (MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS) ok = 0;
    rc = ok ? lattio_h5_list(comm, file, 4, *list, *count, &all) : LATTIO_ERR_NOMEM;
    if (rc == LATTIO_OK && all != *count) rc = LATTIO_ERR_HDF5; /* the file changed between the calls */
    if (rc != LATTIO_OK) {
        free(*list);
        *list = NULL;
        *count = 0;
    }
    return rc;
}

/* Collective: the field at PATH of FILE (soft links inside the file
 * followed) as a list of one, or every field of FILE when PATH is NULL. */
static int list_some(MPI_Comm comm, const char *file, const char *path, lattio_h5_entry **list, int *count)
{
    if (!path) return list_all(comm, file, list, count);
    *count = 0;
    *list = malloc(sizeof **list);
    char *target = malloc(strlen(file) + strlen(path) + 2);
    int rc = *list && target ? LATTIO_OK : LATTIO_ERR_NOMEM;
    if (MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS) rc = LATTIO_ERR_MPI;
    if (rc == LATTIO_OK) {
        sprintf(target, "%s:%s", file, path);
        rc = lattio_h5_find(comm, target, 4, *list);
    }
    free(target);
    if (rc != LATTIO_OK) {
        free(*list);
        *list = NULL;
        return rc;
    }
    *count = 1;
    return LATTIO_OK;
}

int verify_h5(const char *arg, verify_report *rep, MPI_Comm comm, lattio_layout *gl, double **glocal)
{
    verify_report_reset(rep, arg);
    rep->is_hdf5 = 1;
    if (glocal) *glocal = NULL;
    char file[4096];
    const char *path;
    split(arg, file, sizeof file, &path);
    lattio_h5_entry *list = NULL;
    int count = 0;
    const int rc = list_some(comm, file, path, &list, &count);
    if (rc != LATTIO_OK) {
        note(rep, 1, "%s (%s)%s", lattio_strerror(rc), lattio_error_name(rc), detail());
        return 0;
    }
    rep->nrecords = (size_t)count;
    for (int i = 0; i < count; i++) {
        rep->h5_layout = list[i].layout;
        verify_entry(file, &list[i], i, rep, comm, gl, glocal);
    }
    free(list);
    if (!count) note(rep, 1, "no lattice field in the file (ERR_HDF5_NOT_FOUND)");
    return rep->nproblems == 0;
}

/* --- info and check ------------------------------------------------------------ */

static const char *layout_name(int layout) { return layout == LATTIO_H5_QLUA ? "qlua" : "qdp"; }

static const char *checksum_word(int c) { return c == 1 ? "scidac" : c == 2 ? "sha256" : "none"; }

/* This process alone: every field of ARG's file (in *list, malloc'd);
 * prints the error of `cmd` and returns TOOL_FAIL when it cannot list. */
static int list_file(const char *cmd, const char *arg, char *file, size_t size, const char **path,
                     lattio_h5_entry **list, int *count)
{
    split(arg, file, size, path);
    tool_mpi_ensure();
    const int rc = list_some(MPI_COMM_SELF, file, *path, list, count);
    return rc == LATTIO_OK ? TOOL_OK : tool_status_error(cmd, arg, rc, "%s", detail());
}

int h5_info(const char *arg, int json)
{
    char file[4096];
    const char *path;
    int count = 0;
    lattio_h5_entry *list = NULL;
    if (list_file("info", arg, file, sizeof file, &path, &list, &count) != TOOL_OK) return TOOL_FAIL;
    if (json) {
        fputs("{\"file\": ", stdout);
        tool_json_string(stdout, file);
        fputs(", \"hdf5\": true, \"fields\": [", stdout);
    } else {
        printf("%s: HDF5, %d lattice field%s\n", file, count, count == 1 ? "" : "s");
    }
    for (int i = 0, shown = 0; i < count; i++) {
        const lattio_h5_entry *e = &list[i];
        if (json) {
            fputs(shown++ ? ",\n  {\"path\": " : "\n  {\"path\": ", stdout);
            tool_json_string(stdout, e->path);
            printf(", \"layout\": \"%s\", \"dims\": [", layout_name(e->layout));
            for (int k = 0; k < e->nd; k++) printf(k ? ", %" PRIu64 : "%" PRIu64, e->dims[k]);
            printf("], \"elements\": %" PRIu64 ", \"precision\": %d, \"byte_order\": \"%s\", \"gauge\": %s, "
                   "\"colors\": %d, \"checksum\": \"%s\"}",
                   e->elements, e->precision, e->big_endian ? "big" : "little", e->gauge ? "true" : "false",
                   e->colors, checksum_word(e->checksum));
        } else {
            char esc[600];
            tool_escape(esc, sizeof esc, e->path);
            printf("  %s: %s layout, ", esc, layout_name(e->layout));
            if (e->gauge) printf("SU(%d) gauge field ", e->colors ? e->colors : 3);
            else fputs("field ", stdout);
            for (int k = 0; k < e->nd; k++) printf(k ? "x%" PRIu64 : "%" PRIu64, e->dims[k]);
            printf(" (x fastest), %" PRIu64 " reals per site, %d-bit %s-endian, checksum %s\n", e->elements,
                   e->precision, e->big_endian ? "big" : "little", checksum_word(e->checksum));
        }
    }
    if (json) fputs("\n]}\n", stdout);
    free(list);
    return TOOL_OK;
}

int h5_check(const char *arg)
{
    char file[4096];
    const char *path;
    int count = 0;
    lattio_h5_entry *list = NULL;
    if (list_file("check", arg, file, sizeof file, &path, &list, &count) != TOOL_OK) return TOOL_FAIL;
    free(list);
    if (count == 0) return tool_error("check", arg, "no lattice field in the HDF5 file (ERR_HDF5_NOT_FOUND)");
    printf("%s: ok, HDF5, %d lattice field%s\n", arg, count, count == 1 ? "" : "s");
    return TOOL_OK;
}

/* --- writing a converted gauge field --------------------------------------------- */

int h5_write_gauge(MPI_Comm comm, const char *target, int layout, int precision, const lattio_layout *l,
                   const double *u, const verify_report *meta)
{
    tool_mpi_ensure();
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_ILDG_GAUGE, LATTIO_REAL_F64_NATIVE,
                              precision == 32 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE, 72);
    d.colors = lattio_gauge_colors_of(l->site_bytes / (4 * sizeof(double))); /* the layout's 8 N^2 doubles */
    d.elements = 8 * (uint64_t)(d.colors * d.colors);
    d.record_xml = lattio_gauge_record_xml(d.colors);
    convert_meta_desc(meta, &d);
    d.verify = 1;
    d.verify_retries = 1;
    lattio_h5_options o;
    lattio_h5_options_default(&o);
    o.layout = layout ? layout : LATTIO_H5_QDP;
    return lattio_h5_write(comm, target, &d, l, u, &o, NULL, NULL);
}

int h5_whole_layout(const uint64_t dims[4], int colors, lattio_layout *l)
{
    const uint64_t lo[4] = {0, 0, 0, 0};
    const size_t n = colors > 0 ? (size_t)colors : 3;
    int rc = lattio_layout_init(l, 4, dims, lo, dims, 64 * n * n);
    for (int d = 0; rc == LATTIO_OK && d < 4; d++) l->file_order[d] = l->mem_order[d] = 3 - d;
    return rc;
}
