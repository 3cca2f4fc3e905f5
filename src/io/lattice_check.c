/* lattice_check.c -- the checks every lattice transfer makes before it
 * moves a byte: the lattice fits its record (local), every rank describes
 * the same lattice and the ranks' boxes cover it without overlap
 * (collective).  Used by the transfer plan (strategy/xfer.c) and the
 * non-blocking calls (request.c). */
#include "io_internal.h"

#include <string.h>

/* Collective.  No two ranks' boxes share a site (ERR_LAYOUT on every rank
 * otherwise): every rank gathers the boxes (2 * ndims values per rank) and
 * checks its own against the others.  With the site counts adding up to the
 * lattice, disjoint boxes inside it cover it exactly: no hole, no site
 * written twice, no byte left unwritten. */
static int disjoint_boxes(lattio_file *f, const lattio_layout *l)
{
    const int w = 2 * l->ndims;
    uint64_t mine[2 * LATTIO_MAX_DIMS];
    uint64_t *all = lattio_malloc((size_t)f->size * (size_t)w * sizeof *all);
    int rc = lattio_agree(f->comm, all ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "boxes"));
    if (rc == LATTIO_OK) {
        lattio_box_of(l, mine);
        rc = MPI_CHECK(MPI_Allgather(mine, w, MPI_UINT64_T, all, w, MPI_UINT64_T, f->comm), LATTIO_ERR_MPI);
        if (rc == LATTIO_OK && lattio_box_overlaps(all, (size_t)f->size, l->ndims, (size_t)f->rank))
            rc = LATTIO_FAIL(LATTIO_ERR_LAYOUT, "boxes of two ranks overlap");
        rc = lattio_agree(f->comm, rc);
    }
    lattio_free(all);
    return rc;
}

/* Every rank must describe the same lattice; the boxes must add up (to at
 * most the lattice when `partial`) and be disjoint.  A rank whose lattice
 * (dimensions, extents, site size, file order) differs from rank 0's gets
 * ERR_RANK_ARG even when its local check failed because of it (a larger
 * lattice overruns the record: the cause is the disagreement). */
int lattio_same_lattice_part(lattio_file *f, const lattio_layout *l, int local_rc, int partial)
{
    uint64_t key[3 + 2 * LATTIO_MAX_DIMS] = {0}, root[3 + 2 * LATTIO_MAX_DIMS];
    uint64_t sites = 0, total = 0;
    const int valid = l && lattio_layout_check(l) == LATTIO_OK;
    if (valid) {
        key[0] = (uint64_t)l->ndims;
        key[1] = l->site_bytes;
        for (int d = 0; d < l->ndims; d++) {
            key[3 + d] = l->global[d];
            key[3 + LATTIO_MAX_DIMS + d] = (uint64_t)l->file_order[d];
        }
        sites = lattio_layout_local_sites(l);
    }
    memcpy(root, key, sizeof key);
    RETURN_IF_ERROR(lattio_agree(f->comm, MPI_CHECK(MPI_Bcast(root, (int)(sizeof root / 8), MPI_UINT64_T,
                                                              0, f->comm), LATTIO_ERR_MPI)));
    int rc = local_rc;
    if (valid && root[0] != 0 && memcmp(root, key, sizeof key) != 0)
        rc = LATTIO_FAIL(LATTIO_ERR_RANK_ARG, "layouts differ");
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    RETURN_IF_ERROR(MPI_CHECK(MPI_Allreduce(&sites, &total, 1, MPI_UINT64_T, MPI_SUM, f->comm),
                              LATTIO_ERR_MPI));
    if (partial) RETURN_IF(total > lattio_layout_global_sites(l), LATTIO_ERR_LAYOUT);
    else RETURN_IF(total != lattio_layout_global_sites(l), LATTIO_ERR_LAYOUT);
    return disjoint_boxes(f, l);
}

int lattio_same_lattice(lattio_file *f, const lattio_layout *l, int local_rc)
{
    return lattio_same_lattice_part(f, l, local_rc, 0);
}

/* Local checks shared by reading and writing: the lattice fits the record. */
int lattio_lattice_fits(const lattio_layout *l, uint64_t offset, uint64_t record_length,
                        const void *buf)
{
    RETURN_IF(!l, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lattio_layout_check(l));
    uint64_t bytes = lattio_layout_global_sites(l) * l->site_bytes; /* checked above */
    RETURN_IF(offset > record_length || bytes > record_length - offset, LATTIO_ERR_RECORD_OVERRUN);
    RETURN_IF(!buf && lattio_layout_local_sites(l) > 0, LATTIO_ERR_ARG);
    return LATTIO_OK;
}
