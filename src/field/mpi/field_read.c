/* field_read.c -- a field read from an ILDG/SciDAC record set through the
 * MPI layer: rank 0 parses the record set and broadcasts it, the binary
 * record goes through the field pipe (field_pipe.c, src/io/xfer.h) in one
 * planned call on any number of ranks and any boxes, and the SciDAC
 * checksum computed on the way is compared with the stored one. */
#include "field_mpi.h"

#include <string.h>

/* --- reading -------------------------------------------------------------- */

static int kind_matches(int want, const lattio_field_info *fi)
{
    if (!lattio_field_is_gauge_kind(want)) return 1;
    return lattio_field_is_gauge_kind(fi->kind);
}

/* Rank 0: describe field `index` (< 0: the first of d->kind's family). */
static int parse_on_root(const char *path, int index, int kind, lattio_field_info *fi)
{
    lattio_lime_reader *r;
    RETURN_IF_ERROR(lattio_lime_reader_open(path, &r));
    int rc = LATTIO_OK, count = 0;
    if (index >= 0) rc = lattio_field_info_read(r, index, fi);
    else rc = lattio_field_count(r, &count);
    for (int i = 0; index < 0 && rc == LATTIO_OK; i++) {
        if (i == count) {
            rc = LATTIO_FAIL(LATTIO_ERR_NOT_FOUND, "no field of the requested kind");
            break;
        }
        rc = lattio_field_info_read(r, i, fi);
        if (rc == LATTIO_OK && kind_matches(kind, fi)) break;
        if (rc == LATTIO_OK) lattio_field_info_free(fi);
    }
    lattio_lime_reader_close(r);
    return rc;
}

/* Collective: rank 0 parses, every rank receives the description and makes
 * the binary record current. */
static int share_info(lattio_file *f, int index, int kind, lattio_field_info *fi)
{
    memset(fi, 0, sizeof *fi);
    MPI_Comm comm = lattio_xfer_comm(f);
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const char *path = lattio_xfer_path(f);
    int rc = path ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_UNSUPPORTED, "no path");
    RETURN_IF_ERROR(lattio_xfer_agree(f, rc));
    if (rank == 0) rc = parse_on_root(path, index, kind, fi);
    RETURN_IF_ERROR(lattio_xfer_agree(f, rc));
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Bcast(fi, (int)sizeof *fi, MPI_BYTE, 0, comm), "MPI_Bcast"));
    if (rank != 0) fi->lfn = fi->file_xml = fi->record_xml = NULL;
    rc = lattio_field_bcast_string(comm, rank, &fi->lfn);
    if (rc == LATTIO_OK) rc = lattio_field_bcast_string(comm, rank, &fi->file_xml);
    if (rc == LATTIO_OK) rc = lattio_field_bcast_string(comm, rank, &fi->record_xml);
    if (rc == LATTIO_OK) rc = lattio_xfer_select(f, fi->binary.offset, fi->binary.length);
    if (rc < 0) lattio_field_info_free(fi);
    return rc;
}

/* Collective: how the checksum is treated, and the final status. */
static int judge(lattio_file *f, const lattio_field_info *fi, const lattio_field_desc *d,
                 const lattio_layout *l, lattio_scidac_sum sum, int *state)
{
    uint64_t sites = lattio_layout_local_sites(l), total = 0;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Allreduce(&sites, &total, 1, MPI_UINT64_T, MPI_SUM,
                                                  lattio_xfer_comm(f)), "MPI_Allreduce"));
    if (d->skip_checksum) *state = LATTIO_CHECKSUM_SKIPPED;
    else if (total < fi->volume) *state = LATTIO_CHECKSUM_PARTIAL;
    else if (!fi->has_checksum) *state = LATTIO_CHECKSUM_MISSING;
    else *state = LATTIO_CHECKSUM_VERIFIED;
    if (*state == LATTIO_CHECKSUM_MISSING && d->require_checksum)
        return LATTIO_FAIL(LATTIO_ERR_NO_CHECKSUM, "no scidac-checksum record");
    if (*state != LATTIO_CHECKSUM_VERIFIED) return LATTIO_OK;
    if (sum.suma == fi->stored.suma && sum.sumb == fi->stored.sumb) return LATTIO_OK;
    return lattio_field_sum_mismatch(fi, sum);
}

/* Collective: the binary record through the pipe into the caller's buffer
 * (partial boxes allowed), the checksum XORed over the ranks, judged. */
static int read_binary(lattio_file *f, const lattio_field_info *fi, const lattio_field_desc *d,
                       const lattio_layout *l, void *local, lattio_field_read_info *info)
{
    const int disk = fi->precision == 32 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE;
    lattio_field_pipe p;
    int rc = lattio_xfer_agree(f, lattio_field_pipe_init(&p, f, d, l, disk, local));
    lattio_xfer_info xi = {0, 0, 0};
    if (rc == LATTIO_OK) rc = lattio_xfer_read(f, &p.fl, 0, 1, &p.s, &xi);
    lattio_scidac_sum sum = lattio_field_stage_sum(&p.st);
    lattio_field_pipe_free(&p);
    if (rc == LATTIO_OK) rc = lattio_field_xor_sum(lattio_xfer_comm(f), &sum);
    int state = 0;
    if (rc == LATTIO_OK) rc = judge(f, fi, d, l, sum, &state);
    info->computed = sum;
    info->checksum = state;
    info->rounds = xi.rounds;
    info->threaded = xi.threaded;
    return rc;
}

static int field_read(lattio_file *f, int index, const lattio_field_desc *d, const lattio_layout *l,
                      void *local, lattio_field_read_info *info)
{
    lattio_args a = {0};
    lattio_args_int(&a, "record set index", index);
    lattio_args_desc(&a, d, 0);
    RETURN_IF_ERROR(lattio_args_agree(lattio_xfer_comm(f), &a));
    int rc = d ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_ARG, "desc");
    if (rc == LATTIO_OK && !lattio_xfer_reading(f)) rc = LATTIO_FAIL(LATTIO_ERR_STATE, "mode");
    RETURN_IF_ERROR(lattio_xfer_agree(f, rc));
    RETURN_IF_ERROR(share_info(f, index, d->kind, &info->field));
    rc = lattio_xfer_agree(f, lattio_field_check_read(&info->field, d, l, local));
    if (rc == LATTIO_OK) rc = read_binary(f, &info->field, d, l, local, info);
    return rc;
}

int lattio_field_read(lattio_file *f, int index, const lattio_field_desc *d,
                      const lattio_layout *l, void *local, lattio_field_read_info *info)
{
    RETURN_IF(!f, LATTIO_ERR_ARG);
    lattio_field_read_info mine;
    if (!info) info = &mine;
    memset(info, 0, sizeof *info);
    lattio_xfer_call_begin(f, LATTIO_PHASE_SETUP);
    const int rc = field_read(f, index, d, l, local, info);
    if (info == &mine) lattio_field_info_free(&mine.field);
    return lattio_xfer_call_end(f, rc, 0);
}
