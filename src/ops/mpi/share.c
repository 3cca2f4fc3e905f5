/* share.c -- what rank 0 learnt of IN, on every rank: strings and other
 * writers' records of its verification (the collective conversions:
 * convert_mpi.c, convert_fields.c). */
#include "ops_mpi.h"

#include <stdlib.h>
#include <string.h>

/* Collective: rank 0's string *s on every rank (NULL kept as NULL). */
int lattio_ops_bcast_str(MPI_Comm comm, int rank, char **s)
{
    int64_t n = *s ? (int64_t)strlen(*s) : -1;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Bcast(&n, 1, MPI_INT64_T, 0, comm), "convert"));
    if (rank != 0) {
        free(*s);
        *s = n >= 0 ? calloc(1, (size_t)n + 1) : NULL;
    }
    int rc = lattio_agree(comm, n >= 0 && !*s ? LATTIO_ERR_NOMEM : LATTIO_OK);
    if (rc == LATTIO_OK && n > 0) rc = lattio_xfer_mpi(MPI_Bcast(*s, (int)n, MPI_CHAR, 0, comm), "convert");
    return rc;
}

int lattio_ops_share_other(MPI_Comm comm, int rank, lattio_verify_report *v)
{
    int n = v->meta_n_other;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Bcast(&n, 1, MPI_INT, 0, comm), "convert"));
    if (rank != 0) {
        lattio_text_records_free(v->meta_other, v->meta_n_other);
        v->meta_other = n > 0 ? calloc((size_t)n, sizeof *v->meta_other) : NULL;
        v->meta_n_other = v->meta_other ? n : 0;
    }
    int rc = lattio_agree(comm, n > 0 && !v->meta_other ? LATTIO_ERR_NOMEM : LATTIO_OK);
    for (int i = 0; rc == LATTIO_OK && i < n; i++) {
        rc = lattio_ops_bcast_str(comm, rank, (char **)&v->meta_other[i].type);
        if (rc == LATTIO_OK) rc = lattio_ops_bcast_str(comm, rank, (char **)&v->meta_other[i].text);
    }
    return rc;
}

