/* verify_mpi.c -- lattio_verify: the verification of one file over a
 * communicator.  Rank 0 runs the MPI-free checks (structure, metadata,
 * the report); each binary record it meets is announced to the other
 * ranks, and all of them read it with lattio_field_read (slabs of the
 * slowest dimension, checksum compared in parallel) and, for a gauge
 * field, compute the observables with lattio_gauge_stats_mpi.  Records
 * lattio_field_read cannot take (global or subset data, integer
 * precisions) and records it refuses for another reason than the checksum
 * or an I/O or MPI error are read by rank 0's serial reader, so the
 * report's wording is the serial one; an I/O error is reported, never
 * hidden by a serial re-read.  HDF5 targets are read by every rank. */
#include "ops_mpi.h"

#include <stdlib.h>
#include <string.h>

enum { OP_DONE = 0, OP_FIELD = 1 };

/* What rank 0 announces: read field `index` of the current file. */
typedef struct par_cmd {
    int op, index, nd, gauge;
    uint64_t dims[LATTIO_MAX_DIMS];
    uint64_t elements;
} par_cmd;

/* One collective verification: its communicator and the gauge field read
 * in parallel (kept for the caller when it asks). */
typedef struct par_state {
    MPI_Comm comm;
    int keep, have;
    lattio_layout l;
    double *local;
} par_state;

/* Collective: read field c->index of path over the ranks. */
static int par_read(par_state *s, const char *path, const par_cmd *c, lattio_scidac_sum *computed,
                    lattio_gauge_stats *stats)
{
    lattio_layout l;
    double *local = NULL;
    int rc = lattio_layout_slab(s->comm, c->nd, c->dims, c->elements, &l);
    const uint64_t n = rc == LATTIO_OK ? lattio_layout_local_sites(&l) * c->elements : 0;
    if (rc == LATTIO_OK && !(local = malloc(n ? n * sizeof *local : 1))) rc = LATTIO_ERR_NOMEM;
    rc = lattio_agree(s->comm, rc);
    lattio_file *f = NULL;
    if (rc == LATTIO_OK) rc = lattio_open(s->comm, path, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f);
    memset(computed, 0, sizeof *computed);
    if (rc == LATTIO_OK) {
        lattio_field_desc d;
        lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE,
                                  c->elements);
        lattio_field_read_info info;
        rc = lattio_field_read(f, c->index, &d, &l, local, &info);
        *computed = info.computed;
        lattio_field_info_free(&info.field);
    }
    lattio_close(f);
    if (c->gauge && (rc == LATTIO_OK || rc == LATTIO_ERR_CHECKSUM)) {
        const int src = lattio_gauge_stats_mpi(s->comm, &l, local, stats);
        if (src != LATTIO_OK) rc = src;
    }
    if (c->gauge && rc == LATTIO_OK && s->keep && !s->have) {
        s->have = 1, s->l = l, s->local = local;
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

static int announce(par_state *s, par_cmd *c)
{
    return lattio_xfer_mpi(MPI_Bcast(c, (int)sizeof *c, MPI_BYTE, 0, s->comm), "verify");
}

/* Rank 0's reader of binary records (lattio_ops_reader). */
static int root_reader(void *arg, const char *path, const lattio_field_info *fi, int gauge,
                       lattio_scidac_sum *computed, lattio_gauge_stats *stats)
{
    par_state *s = arg;
    par_cmd c;
    if (!parallel_ok(fi, &c)) return LATTIO_OPS_SERIAL;
    c.gauge = gauge;
    int rc = announce(s, &c);
    if (rc == LATTIO_OK) rc = par_read(s, path, &c, computed, stats);
    /* an I/O or MPI error is reported as such, never hidden by a serial
     * re-read that might succeed; other refusals are read serially */
    return rc == LATTIO_OK || rc == LATTIO_ERR_CHECKSUM || lattio_status_is_io(rc) ? rc : LATTIO_OPS_SERIAL;
}

/* Ranks other than 0: take part in every read rank 0 announces. */
static int follow(par_state *s, const char *path)
{
    for (;;) {
        par_cmd c;
        const int rc = announce(s, &c);
        if (rc != LATTIO_OK || c.op != OP_FIELD) return rc;
        lattio_scidac_sum sum;
        lattio_gauge_stats st;
        par_read(s, path, &c, &sum, &st);
    }
}

/* Collective: the LIME (or other non-HDF5) verification, rank 0 leading. */
static int verify_led(par_state *s, int rank, const char *path, lattio_verify_report *rep)
{
    if (rank != 0) {
        const int rc = follow(s, path);
        return rc == LATTIO_OK ? lattio_ops_reset(rep, path) : rc;
    }
    lattio_ops_verify(path, rep, NULL, root_reader, s);
    par_cmd done;
    memset(&done, 0, sizeof done);
    const int rc = announce(s, &done);
    return rc == LATTIO_OK ? rep->status : rc;
}

int lattio_verify(MPI_Comm comm, const char *path, lattio_verify_report *rep, lattio_layout *gl, double **glocal)
{
    if (glocal) *glocal = NULL;
    lattio_args a = {0};
    lattio_args_str(&a, "path", path ? path : "");
    lattio_args_int(&a, "gauge", glocal != NULL);
    int rc = rep && path && (!glocal || gl) ? LATTIO_OK : LATTIO_ERR_ARG;
    rc = lattio_agree(comm, rc);
    if (rc == LATTIO_OK) rc = lattio_args_agree(comm, &a);
    if (rc != LATTIO_OK) return rc;
    int rank = 0, h5 = 0;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_rank(comm, &rank), "verify"));
    if (rank == 0) h5 = lattio_h5_is_target(path); /* rank 0 alone looks at the file first */
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Bcast(&h5, 1, MPI_INT, 0, comm), "verify"));
    if (h5) return lattio_ops_verify_h5(comm, path, rep, gl, glocal);
    par_state s = {comm, glocal != NULL, 0, {0}, NULL};
    rc = verify_led(&s, rank, path, rep);
    int shared[2] = {rc, s.have};
    rc = lattio_xfer_mpi(MPI_Bcast(shared, 2, MPI_INT, 0, comm), "verify");
    if (rc == LATTIO_OK && shared[1] && glocal) {
        *gl = s.l;
        *glocal = s.local;
        s.local = NULL;
    }
    free(s.local);
    return rc == LATTIO_OK ? shared[0] : rc;
}
