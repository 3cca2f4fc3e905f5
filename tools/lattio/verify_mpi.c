/* verify_mpi.c -- `lattio verify` (and `lattio convert`'s checks) under an
 * MPI launcher.  Rank 0 runs the serial verification (structure, metadata,
 * printing); each binary record it meets is announced to the other ranks,
 * and all of them read it with lattio_field_read (slabs of the slowest
 * dimension, checksum compared in parallel) and, for a gauge field, compute
 * the observables with lattio_gauge_stats_mpi.  Records lattio_field_read
 * cannot take (global or subset data, integer precisions) and records it
 * fails on for another reason than the checksum or an I/O or MPI error
 * are read serially by rank 0, so the report's wording is the serial one;
 * an I/O error is reported, never hidden by a serial re-read. */
#include "gauge_tool.h"

#include <stdlib.h>
#include <string.h>

enum { OP_DONE = 0, OP_FIELD = 1 };

/* What rank 0 announces: read field `index` of the current file. */
typedef struct par_cmd {
    int op, index, nd, gauge;
    uint64_t dims[LATTIO_MAX_DIMS];
    uint64_t elements;
} par_cmd;

/* The last gauge field read in parallel (kept for `lattio convert`). */
static struct {
    int have;
    lattio_layout l;
    double *local;
} kept;

/* Collective: the most negative status of any rank. */
static int agree(int rc)
{
    int all = rc;
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* Collective: read field c->index of path over the ranks. */
static int par_read(const char *path, const par_cmd *c, lattio_scidac_sum *computed,
                    lattio_gauge_stats *stats)
{
    lattio_layout l;
    double *local = NULL;
    int rc = tool_slab_layout(MPI_COMM_WORLD, c->nd, c->dims, c->elements, &l);
    const uint64_t n = rc == LATTIO_OK ? lattio_layout_local_sites(&l) * c->elements : 0;
    if (rc == LATTIO_OK && !(local = malloc(n ? n * sizeof *local : 1))) rc = LATTIO_ERR_NOMEM;
    rc = agree(rc);
    lattio_file *f = NULL;
    if (rc == LATTIO_OK)
        rc = lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f);
    if (rc == LATTIO_OK) {
        lattio_field_desc d;
        lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE,
                                  LATTIO_REAL_F64_BE, c->elements);
        lattio_field_read_info info;
        rc = lattio_field_read(f, c->index, &d, &l, local, &info);
        *computed = info.computed;
        lattio_field_info_free(&info.field);
    }
    lattio_close(f);
    if (c->gauge && (rc == LATTIO_OK || rc == LATTIO_ERR_CHECKSUM)) {
        const int src = lattio_gauge_stats_mpi(MPI_COMM_WORLD, &l, local, stats);
        if (src != LATTIO_OK) rc = src;
    }
    if (c->gauge && rc == LATTIO_OK) {
        free(kept.local);
        kept.have = 1, kept.l = l, kept.local = local;
        local = NULL;
    }
    free(local);
    return rc;
}

/* Rank 0: a record lattio_field_read can take, as a command. */
static int parallel_ok(const lattio_field_info *fi, par_cmd *c)
{
    memset(c, 0, sizeof *c);
    if (fi->recordtype != 0 || (fi->precision != 32 && fi->precision != 64)) return 0;
    if (fi->nd < 1 || fi->nd > LATTIO_MAX_DIMS || fi->volume == 0) return 0;
    const uint64_t bytes = fi->typesize * fi->datacount, real = (uint64_t)fi->precision / 8;
    if (bytes == 0 || bytes % real) return 0;
    c->op = OP_FIELD;
    c->index = fi->index;
    c->nd = fi->nd;
    memcpy(c->dims, fi->dims, sizeof c->dims);
    c->elements = bytes / real;
    return 1;
}

static int root_hook(const char *path, const lattio_field_info *fi, int gauge,
                     lattio_scidac_sum *computed, lattio_gauge_stats *stats)
{
    par_cmd c;
    if (!parallel_ok(fi, &c)) return VR_SERIAL;
    c.gauge = gauge;
    tool_mpi_bcast(&c, sizeof c, 0);
    const int rc = par_read(path, &c, computed, stats);
    /* an I/O or MPI error is reported as such, never hidden by a serial
     * re-read that might succeed; other refusals are read serially */
    return rc == LATTIO_OK || rc == LATTIO_ERR_CHECKSUM || tool_is_io_status(rc) ? rc : VR_SERIAL;
}

/* Ranks other than 0: take part in every read rank 0 announces. */
static void follow(const char *path)
{
    for (;;) {
        par_cmd c;
        tool_mpi_bcast(&c, sizeof c, 0);
        if (c.op != OP_FIELD) return;
        lattio_scidac_sum s;
        lattio_gauge_stats st;
        par_read(path, &c, &s, &st);
    }
}

int verify_file_any(const char *path, verify_report *rep)
{
    free(kept.local);
    kept.have = 0, kept.local = NULL;
    /* rank 0 alone looks at the file (one metadata access; the other ranks'
     * first reads are the field's) */
    int h5 = tool_rank() == 0 ? h5_tool_target(path) : 0;
    tool_mpi_bcast(&h5, sizeof h5, 0);
    if (h5) { /* every rank, collective */
        tool_mpi_ensure();
        lattio_layout l;
        double *local = NULL;
        const int ok = verify_h5(path, rep, MPI_COMM_WORLD, &l, &local);
        if (local) verify_keep_gauge(&l, local);
        return ok;
    }
    if (tool_nranks() < 2) return verify_file(path, rep, NULL);
    if (tool_rank() != 0) {
        follow(path);
        return 1;
    }
    verify_field_hook = root_hook;
    const int ok = verify_file(path, rep, NULL);
    verify_field_hook = NULL;
    par_cmd done;
    memset(&done, 0, sizeof done);
    tool_mpi_bcast(&done, sizeof done, 0);
    return ok;
}

void verify_keep_gauge(const lattio_layout *l, double *local)
{
    free(kept.local);
    kept.have = 1, kept.l = *l, kept.local = local;
}

int verify_take_gauge(lattio_layout *l, double **local)
{
    *local = NULL;
    if (!kept.have) return 0;
    *l = kept.l;
    *local = kept.local;
    kept.have = 0, kept.local = NULL;
    return 1;
}
