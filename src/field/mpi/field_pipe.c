/* field_pipe.c -- the parallel field pipeline's common part: descriptor
 * checks and the stager joining the MPI-free staging (field_stage.c) to the
 * MPI layer's one door (src/io/xfer.h).  The same pipe serves every on-disk
 * format: a format says where the field's bytes go (a LIME record here) and
 * the pipe moves, converts and checksums them. */
#include "field_mpi.h"
#include "field/field_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Staging bound: the descriptor's, the environment's (LATTIO_STAGING_BYTES),
 * or 0 (the strategy's default: src/strategy/independent.c, collective.c). */
uint64_t lattio_field_staging_bound(const lattio_field_desc *d, const lattio_file *f)
{
    return d->staging_bytes ? d->staging_bytes : lattio_xfer_staging_bytes(f);
}

static void phase_cb(void *ctx, int phase)
{
    lattio_xfer_phase(ctx, phase == LATTIO_STAGE_CHECKSUM ? LATTIO_PHASE_CHECKSUM : LATTIO_PHASE_PACK);
}

int lattio_field_pipe_init(lattio_field_pipe *p, lattio_file *f, const lattio_field_desc *d,
                           const lattio_layout *l, int disk_fmt, void *local)
{
    memset(p, 0, sizeof *p);
    RETURN_IF_ERROR(lattio_field_stage_init(&p->st, l, d->mem_format, disk_fmt, d->elements, local));
    p->st.phase = phase_cb;
    p->st.phase_ctx = f;
    lattio_layout_packed_view(&p->fl, l, p->st.disk_site);
    /* the bound counts the larger of a memory and a disk site, as each
     * staging buffer holds one and the block the other */
    const size_t big = p->st.disk_site > l->site_bytes ? p->st.disk_site : l->site_bytes;
    const uint64_t bound = lattio_field_staging_bound(d, f);
    const uint64_t sites = bound ? (bound / big ? bound / big : 1) : 0;
    p->s.fill = lattio_field_stage_fill;
    p->s.drain = lattio_field_stage_drain;
    p->s.ctx = &p->st;
    p->s.staging_sites = sites;
    p->s.block_sites = p->st.block_sites;
    p->s.lanes = 2;
    return LATTIO_OK;
}

void lattio_field_pipe_free(lattio_field_pipe *p) { lattio_field_stage_free(&p->st); }

int lattio_field_xor_sum(MPI_Comm comm, lattio_scidac_sum *sum)
{
    uint32_t in[2] = {sum->suma, sum->sumb}, out[2];
    if (MPI_Allreduce(in, out, 2, MPI_UINT32_T, MPI_BXOR, comm) != MPI_SUCCESS)
        return LATTIO_FAIL(LATTIO_ERR_MPI, "checksum reduction");
    sum->suma = out[0];
    sum->sumb = out[1];
    return LATTIO_OK;
}

int lattio_field_bcast_string(MPI_Comm comm, int rank, char **s)
{
    uint64_t len = rank == 0 && *s ? strlen(*s) + 1 : 0;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Bcast(&len, 1, MPI_UINT64_T, 0, comm), "MPI_Bcast"));
    if (rank != 0) *s = len ? lattio_malloc((size_t)len) : NULL;
    RETURN_IF_ERROR(lattio_agree(comm, len && !*s ? LATTIO_FAIL(LATTIO_ERR_NOMEM, "broadcast") : LATTIO_OK));
    if (len == 0) return LATTIO_OK;
    RETURN_IF(len > INT32_MAX, LATTIO_ERR_OVERFLOW);
    return lattio_xfer_mpi(MPI_Bcast(*s, (int)len, MPI_CHAR, 0, comm), "MPI_Bcast");
}

int lattio_field_check_read(const lattio_field_info *fi, const lattio_field_desc *d, const lattio_layout *l,
                            const void *local)
{
    RETURN_IF_ERROR(lattio_field_check_memory(d, l, local));
    if (fi->recordtype != 0) {
        lattio_detail_set("field %d is %s, not a lattice field", fi->index,
                          fi->recordtype == 1 ? "global data" : "a subset");
        return LATTIO_FAIL(LATTIO_ERR_UNSUPPORTED, "record type");
    }
    RETURN_IF(fi->precision != 32 && fi->precision != 64, LATTIO_ERR_FIELD_PRECISION);
    RETURN_IF(l->ndims != fi->nd, LATTIO_ERR_FIELD_DIMS);
    for (int i = 0; i < l->ndims; i++)
        RETURN_IF(l->global[l->file_order[i]] != fi->dims[fi->nd - 1 - i], LATTIO_ERR_FIELD_DIMS);
    RETURN_IF(fi->typesize * fi->datacount != d->elements * (uint64_t)(fi->precision / 8), LATTIO_ERR_FIELD_LENGTH);
    return LATTIO_OK;
}
