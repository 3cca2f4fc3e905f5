/* boxes.c -- the ranks' boxes of a volume set's lattice in file order:
 * the site ranks the file gives them, and every rank's box known to all. */
#include "volumes_mpi.h"

#include <string.h>

void lattio_vbox_of(const lattio_layout *l, lattio_vbox *b)
{
    memset(b, 0, sizeof *b);
    b->nd = l->ndims;
    for (int k = 0; k < l->ndims; k++) {
        const int f = l->file_order[k];
        b->global[k] = l->global[f];
        b->lo[k] = l->lo[f];
        b->n[k] = l->count[f];
    }
}

static uint64_t extent_sites(const uint64_t *n, int nd)
{
    uint64_t s = 1;
    for (int k = 0; k < nd; k++) s *= n[k];
    return s;
}

uint64_t lattio_vbox_sites(const lattio_vbox *b) { return extent_sites(b->n, b->nd); }

uint64_t lattio_vbox_rank(const lattio_vbox *b, uint64_t i)
{
    uint64_t rank = 0, stride = 1;
    for (int k = b->nd - 1; k >= 0; k--) {
        rank += (b->lo[k] + i % b->n[k]) * stride;
        i /= b->n[k];
        stride *= b->global[k];
    }
    return rank;
}

uint64_t lattio_vbox_index(const lattio_vbox *b, const uint64_t *lo, const uint64_t *n, uint64_t r)
{
    uint64_t idx = 0, stride = 1;
    for (int k = b->nd - 1; k >= 0; k--) {
        const uint64_t c = r % b->global[k];
        r /= b->global[k];
        if (c < lo[k] || c >= lo[k] + n[k]) return UINT64_MAX;
        idx += (c - lo[k]) * stride;
        stride *= n[k];
    }
    return idx;
}

/* Local: ERR_LAYOUT when this rank's box overlaps another's. */
static int check_overlap(const uint64_t *boxes, int size, int rank, int nd)
{
    /* lattio_box_overlaps takes lo[nd], count[nd] per box */
    uint64_t *packed = lattio_malloc((size_t)size * 2 * (size_t)nd * sizeof *packed);
    RETURN_IF(!packed, LATTIO_ERR_NOMEM);
    for (int r = 0; r < size; r++) {
        const uint64_t *b = boxes + (size_t)r * LATTIO_VBOX_VALUES;
        memcpy(packed + (size_t)r * 2 * nd, b, (size_t)nd * sizeof *b);
        memcpy(packed + (size_t)r * 2 * nd + nd, b + LATTIO_MAX_DIMS, (size_t)nd * sizeof *b);
    }
    const int bad = lattio_box_overlaps(packed, (size_t)size, nd, (size_t)rank);
    lattio_free(packed);
    return bad ? LATTIO_FAIL(LATTIO_ERR_LAYOUT, "boxes overlap") : LATTIO_OK;
}

int lattio_vbox_share(MPI_Comm comm, const lattio_vbox *b, uint64_t **boxes, int *tile)
{
    int rank, size;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank"));
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size"));
    *tile = 0;
    *boxes = lattio_calloc((size_t)size * LATTIO_VBOX_VALUES, sizeof **boxes);
    RETURN_IF_ERROR(lattio_agree(comm, *boxes ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "boxes")));
    uint64_t mine[LATTIO_VBOX_VALUES] = {0};
    memcpy(mine, b->lo, sizeof b->lo);
    memcpy(mine + LATTIO_MAX_DIMS, b->n, sizeof b->n);
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Allgather(mine, LATTIO_VBOX_VALUES, MPI_UINT64_T, *boxes, LATTIO_VBOX_VALUES,
                                                  MPI_UINT64_T, comm),
                                    "MPI_Allgather"));
    uint64_t total = 0;
    for (int r = 0; r < size; r++) total += extent_sites(*boxes + (size_t)r * LATTIO_VBOX_VALUES + LATTIO_MAX_DIMS, b->nd);
    *tile = total == extent_sites(b->global, b->nd);
    return lattio_agree(comm, check_overlap(*boxes, size, rank, b->nd));
}
