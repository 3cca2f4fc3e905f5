/* route.c -- sites that arrive on one rank but belong to others (a QIO
 * volume read whole by one rank, its sites spread over the lattice)
 * delivered to their ranks: lattio_xfer_route (io/xfer.h), one
 * all-to-all of counts and one of the items. */
#include "strategy.h"

#include <string.h>

/* The counts and displacements of one exchange, in items. */
typedef struct route_counts {
    int *sc, *sd, *rc, *rd;
} route_counts;

static void counts_free(route_counts *c)
{
    lattio_free(c->sc);
    lattio_free(c->sd);
    lattio_free(c->rc);
    lattio_free(c->rd);
}

/* Local: the items after each other in *sbuf, with their counts. */
static int pack_out(int size, size_t elem, unsigned char *const *out, const uint64_t *n_out, route_counts *c,
                    unsigned char **sbuf)
{
    const size_t P = (size_t)size;
    c->sc = lattio_calloc(P, sizeof *c->sc), c->sd = lattio_calloc(P, sizeof *c->sd);
    c->rc = lattio_calloc(P, sizeof *c->rc), c->rd = lattio_calloc(P, sizeof *c->rd);
    RETURN_IF(!c->sc || !c->sd || !c->rc || !c->rd, LATTIO_ERR_NOMEM);
    uint64_t total = 0;
    for (size_t q = 0; q < P; q++) {
        RETURN_IF(n_out[q] > INT32_MAX || total > INT32_MAX, LATTIO_ERR_OVERFLOW);
        c->sc[q] = (int)n_out[q];
        c->sd[q] = (int)total;
        total += n_out[q];
    }
    RETURN_IF(total > INT32_MAX, LATTIO_ERR_OVERFLOW);
    RETURN_IF(!(*sbuf = lattio_malloc((size_t)(total ? total * elem : 1))), LATTIO_ERR_NOMEM);
    for (size_t q = 0; q < P; q++)
        if (n_out[q]) memcpy(*sbuf + (size_t)c->sd[q] * elem, out[q], (size_t)(n_out[q] * elem));
    return LATTIO_OK;
}

/* Local: the receive displacements from the counts, and the buffer. */
static int receive_room(int size, size_t elem, route_counts *c, unsigned char **in, uint64_t *nin)
{
    uint64_t total = 0;
    for (int q = 0; q < size; q++) {
        RETURN_IF(total > INT32_MAX, LATTIO_ERR_OVERFLOW);
        c->rd[q] = (int)total;
        total += (uint64_t)c->rc[q];
    }
    RETURN_IF(total > INT32_MAX, LATTIO_ERR_OVERFLOW);
    RETURN_IF(!(*in = lattio_malloc((size_t)(total ? total * elem : 1))), LATTIO_ERR_NOMEM);
    *nin = total;
    return LATTIO_OK;
}

/* Collective: the items, one element type of `elem` bytes. */
static int move_items(MPI_Comm comm, size_t elem, const unsigned char *sbuf, const route_counts *c,
                      unsigned char *in)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int rc = lattio_xfer_mpi(MPI_Type_contiguous((int)elem, MPI_BYTE, &t), "MPI_Type_contiguous");
    if (rc == LATTIO_OK) rc = lattio_xfer_mpi(MPI_Type_commit(&t), "MPI_Type_commit");
    rc = lattio_agree(comm, rc);
    if (rc == LATTIO_OK)
        rc = lattio_xfer_mpi(MPI_Alltoallv(sbuf, c->sc, c->sd, t, in, c->rc, c->rd, t, comm), "MPI_Alltoallv");
    if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
    return lattio_agree(comm, rc);
}

int lattio_xfer_route(MPI_Comm comm, size_t elem, unsigned char *const *out, const uint64_t *n_out,
                      unsigned char **in, uint64_t *nin)
{
    int size = 0;
    *in = NULL;
    *nin = 0;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size"));
    route_counts c = {0};
    unsigned char *sbuf = NULL;
    int rc = lattio_agree(comm, elem == 0 || elem > INT32_MAX ? LATTIO_FAIL(LATTIO_ERR_ARG, "item size")
                                                               : pack_out(size, elem, out, n_out, &c, &sbuf));
    if (rc == LATTIO_OK) { /* agreed, so every rank is here: one agreement whatever fails */
        rc = lattio_xfer_mpi(MPI_Alltoall(c.sc, 1, MPI_INT, c.rc, 1, MPI_INT, comm), "MPI_Alltoall");
        if (rc == LATTIO_OK) rc = receive_room(size, elem, &c, in, nin);
        rc = lattio_agree(comm, rc);
    }
    if (rc == LATTIO_OK) rc = move_items(comm, elem, sbuf, &c, *in);
    if (rc != LATTIO_OK) {
        lattio_free(*in);
        *in = NULL;
        *nin = 0;
    }
    lattio_free(sbuf);
    counts_free(&c);
    return rc;
}
