/* lattice.c -- distributed lattices in a record: each rank packs its sites
 * in file order into a bounded staging buffer and transfers the file runs
 * they occupy.  The default (independent) strategy writes runs with
 * independent MPI-IO calls at explicit offsets: a t-slab decomposition gives
 * one large write per rank, straight from the caller's buffer when it has no
 * ghosts and is in file order, and no collective-write module of the MPI
 * library is trusted with the data.  The collective strategy
 * (src/io/collective.c) is chosen by the options or LATTIO_STRATEGY. */
#include "io_internal.h"

#include <stdlib.h>
#include <string.h>

#define STAGING_BYTES ((uint64_t)16 << 20)
#define MAX_RUNS 4096

/* Every rank must describe the same lattice; the boxes must add up (to at
 * most the lattice when `partial`). */
static int same_lattice(lattio_file *f, const lattio_layout *l, int local_rc, int partial)
{
    uint64_t key[3 + 2 * LATTIO_MAX_DIMS] = {0}, root[3 + 2 * LATTIO_MAX_DIMS];
    uint64_t sites = 0, total = 0;
    if (local_rc == LATTIO_OK) {
        key[0] = (uint64_t)l->ndims;
        key[1] = l->site_bytes;
        for (int d = 0; d < l->ndims; d++) {
            key[3 + d] = l->global[d];
            key[3 + LATTIO_MAX_DIMS + d] = (uint64_t)l->file_order[d];
        }
        sites = lattio_layout_local_sites(l);
    }
    RETURN_IF_ERROR(lattio_agree(f->comm, local_rc));
    memcpy(root, key, sizeof key);
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(root, (int)(sizeof root / 8), MPI_UINT64_T, 0, f->comm),
                              LATTIO_ERR_MPI));
    int rc = memcmp(root, key, sizeof key) ? LATTIO_FAIL(LATTIO_ERR_RANK_ARG, "layouts differ") : LATTIO_OK;
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    RETURN_IF_ERROR(MPI_CHECK(MPI_Allreduce(&sites, &total, 1, MPI_UINT64_T, MPI_SUM, f->comm),
                              LATTIO_ERR_MPI));
    if (partial) RETURN_IF(total > lattio_layout_global_sites(l), LATTIO_ERR_LAYOUT);
    else RETURN_IF(total != lattio_layout_global_sites(l), LATTIO_ERR_LAYOUT);
    return LATTIO_OK;
}

int lattio_same_lattice(lattio_file *f, const lattio_layout *l, int local_rc)
{
    return same_lattice(f, l, local_rc, 0);
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

typedef int (*run_fn)(lattio_file *f, uint64_t off, unsigned char *staging, const lattio_run *r);

static int write_run(lattio_file *f, uint64_t off, unsigned char *staging, const lattio_run *r)
{
    return lattio_write_at(f, off + r->file_offset, staging + r->packed_offset, r->bytes);
}

static int read_run(lattio_file *f, uint64_t off, unsigned char *staging, const lattio_run *r)
{
    return lattio_read_at(f, off + r->file_offset, staging + r->packed_offset, r->bytes);
}

/* Transfer the runs of sites [first, first+n) between staging and the file. */
static int transfer_runs(lattio_file *f, const lattio_layout *l, uint64_t off, uint64_t first,
                         uint64_t n, unsigned char *staging, run_fn fn)
{
    lattio_run runs[64];
    size_t nruns = 0;
    while (n > 0) {
        uint64_t k = n;
        RETURN_IF_ERROR(lattio_layout_runs(l, first, k, runs, 64, &nruns));
        while (nruns > 64) { /* too many runs: take fewer sites at a time */
            uint64_t fewer = k / nruns * 64;
            k = fewer ? fewer : 1;
            RETURN_IF_ERROR(lattio_layout_runs(l, first, k, runs, 64, &nruns));
        }
        uint64_t base = runs[0].packed_offset;
        for (size_t i = 0; i < nruns; i++) {
            lattio_run r = runs[i];
            r.packed_offset -= base;
            RETURN_IF_ERROR(fn(f, off, staging, &r));
        }
        staging += k * l->site_bytes;
        first += k;
        n -= k;
    }
    return LATTIO_OK;
}

/* Packing is the identity when the buffer has no ghosts and its memory
 * order is the file order: the caller's buffer already holds the sites in
 * increasing file rank. */
static int packing_is_identity(const lattio_layout *l)
{
    for (int d = 0; d < l->ndims; d++)
        if (l->halo_lo[d] || l->halo_hi[d] || l->mem_order[d] != l->file_order[d]) return 0;
    return 1;
}

/* Move this rank's sites: straight between the caller's buffer and the file
 * when packing is the identity, otherwise in chunks through a staging buffer. */
static int move_sites(lattio_file *f, const lattio_layout *l, uint64_t off, unsigned char *local,
                      int writing)
{
    uint64_t total = lattio_layout_local_sites(l);
    if (total > 0 && packing_is_identity(l))
        return transfer_runs(f, l, off, 0, total, local, writing ? write_run : read_run);
    uint64_t chunk = STAGING_BYTES / l->site_bytes ? STAGING_BYTES / l->site_bytes : 1;
    if (chunk > total) chunk = total;
    if (total == 0) return LATTIO_OK;
    unsigned char *staging = lattio_malloc((size_t)(chunk * l->site_bytes));
    RETURN_IF(!staging, LATTIO_ERR_NOMEM);
    int rc = LATTIO_OK;
    for (uint64_t first = 0; first < total && rc == LATTIO_OK; first += chunk) {
        uint64_t n = total - first < chunk ? total - first : chunk;
        if (writing) rc = lattio_layout_pack(l, local, first, n, staging);
        if (rc == LATTIO_OK)
            rc = transfer_runs(f, l, off, first, n, staging, writing ? write_run : read_run);
        if (rc == LATTIO_OK && !writing) rc = lattio_layout_unpack(l, staging, first, n, local);
    }
    lattio_free(staging);
    return rc;
}

/* Collective.  The strategy of this call: opt.strategy, or when AUTO the
 * environment's LATTIO_STRATEGY=independent|collective, else independent.
 * Rank 0's choice is used everywhere (all ranks must make the same calls). */
static int choose_strategy(lattio_file *f, int *strategy)
{
    int s = f->opt.strategy;
    if (s == LATTIO_STRATEGY_AUTO) {
        const char *e = getenv("LATTIO_STRATEGY");
        s = e && strcmp(e, "collective") == 0 ? LATTIO_STRATEGY_COLLECTIVE : LATTIO_STRATEGY_INDEPENDENT;
        if (e && *e && strcmp(e, "collective") != 0 && strcmp(e, "independent") != 0)
            LATTIO_TRACE("LATTIO_STRATEGY=%s unknown: independent", e);
    }
    int rc = s == LATTIO_STRATEGY_INDEPENDENT || s == LATTIO_STRATEGY_COLLECTIVE
                 ? LATTIO_OK
                 : LATTIO_FAIL(LATTIO_ERR_ARG, "unknown lattio_options.strategy");
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(&s, 1, MPI_INT, 0, f->comm), LATTIO_ERR_MPI));
    /* no collective MPI-IO call while a non-blocking request is pending
     * (npending is equal on every rank) */
    if (f->npending > 0) s = LATTIO_STRATEGY_INDEPENDENT;
    *strategy = s;
    return LATTIO_OK;
}

static int lattice_write(lattio_file *f, const lattio_layout *l, uint64_t offset,
                         const void *local, int partial)
{
    RETURN_IF(!f, LATTIO_ERR_ARG);
    int rc = lattio_record_writing(f);
    if (rc == LATTIO_OK) rc = lattio_lattice_fits(l, offset, f->rec_len, local);
    RETURN_IF_ERROR(same_lattice(f, l, rc, partial));
    int strategy = LATTIO_STRATEGY_INDEPENDENT;
    rc = choose_strategy(f, &strategy);
    if (rc == LATTIO_OK && strategy == LATTIO_STRATEGY_COLLECTIVE)
        rc = lattio_collective_write(f, l, f->rec_data + offset, local);
    else if (rc == LATTIO_OK)
        rc = move_sites(f, l, f->rec_data + offset, (unsigned char *)local, 1);
    rc = lattio_agree(f->comm, rc);
    if (rc < 0) f->failed = 1;
    RETURN_IF_ERROR(rc);
    f->rec_written += lattio_layout_local_sites(l) * l->site_bytes;
    return LATTIO_OK;
}

static int lattice_read(lattio_file *f, const lattio_layout *l, uint64_t offset, void *local,
                        int partial)
{
    RETURN_IF(!f, LATTIO_ERR_ARG);
    const lattio_record_info *r = lattio_current_record(f);
    int rc = !r ? LATTIO_FAIL(LATTIO_ERR_STATE, "no current record")
                : lattio_lattice_fits(l, offset, r->length, local);
    RETURN_IF_ERROR(same_lattice(f, l, rc, partial));
    int strategy = LATTIO_STRATEGY_INDEPENDENT;
    RETURN_IF_ERROR(choose_strategy(f, &strategy));
    if (strategy == LATTIO_STRATEGY_COLLECTIVE)
        rc = lattio_collective_read(f, l, r->data_offset + offset, local);
    else
        rc = move_sites(f, l, r->data_offset + offset, local, 0);
    return lattio_agree(f->comm, rc);
}

/* The full and partial (boxes need not cover the lattice) variants. */
int lattio_lattice_write(lattio_file *f, const lattio_layout *l, uint64_t offset,
                         const void *local)
{
    return lattice_write(f, l, offset, local, 0);
}

int lattio_lattice_write_part(lattio_file *f, const lattio_layout *l, uint64_t offset,
                              const void *local)
{
    return lattice_write(f, l, offset, local, 1);
}

int lattio_lattice_read(lattio_file *f, const lattio_layout *l, uint64_t offset, void *local)
{
    return lattice_read(f, l, offset, local, 0);
}

int lattio_lattice_read_part(lattio_file *f, const lattio_layout *l, uint64_t offset, void *local)
{
    return lattice_read(f, l, offset, local, 1);
}
