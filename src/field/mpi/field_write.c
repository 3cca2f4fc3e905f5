/* field_write.c -- a field written as an ILDG/SciDAC record set through
 * the MPI layer: the metadata records, the binary record moved by the
 * field pipe in one planned call (field_pipe.c, src/io/xfer.h), its
 * verification after writing and the scidac-checksum record. */
#include "field_mpi.h"

#include <stdio.h>
#include <string.h>

/* --- verification after writing ------------------------------------------- */

/* Collective: re-read the open binary record (split evenly over the ranks
 * by site rank, a 1-D lattice of its sites, not the writing layout) and
 * compare its checksum with `want`. */
static int verify_record(lattio_file *f, const lattio_field_desc *d, size_t disk_site,
                         int disk_fmt, uint64_t volume, lattio_scidac_sum want, int *same)
{
    MPI_Comm comm = lattio_xfer_comm(f);
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    RETURN_IF_ERROR(lattio_xfer_sync(f));
    uint64_t lo = 0, n = 0;
    lattio_layout vl;
    lattio_field_pipe p;
    memset(&vl, 0, sizeof vl);
    memset(&p, 0, sizeof p);
    int rc = lattio_split(volume, (uint64_t)size, (uint64_t)rank, &lo, &n);
    if (rc == LATTIO_OK) rc = lattio_layout_init(&vl, 1, &volume, &lo, &n, disk_site);
    lattio_field_desc vd = *d;
    vd.mem_format = disk_fmt; /* unused: checksums only */
    if (rc == LATTIO_OK) rc = lattio_field_pipe_init(&p, f, &vd, &vl, disk_fmt, NULL);
    if (rc == LATTIO_OK) p.st.sum_only = 1;
    /* a failed set-up still takes part in the collective call */
    rc = lattio_xfer_read(f, rc == LATTIO_OK ? &p.fl : &vl, 0, 0, rc == LATTIO_OK ? &p.s : NULL, NULL);
    lattio_scidac_sum got = lattio_field_stage_sum(&p.st);
    lattio_field_pipe_free(&p);
    RETURN_IF_ERROR(rc);
    RETURN_IF_ERROR(lattio_field_xor_sum(comm, &got));
    *same = got.suma == want.suma && got.sumb == want.sumb;
    if (!*same)
        LATTIO_TRACE("verify: binary record reads %x %x, written %x %x", (unsigned)got.suma,
                     (unsigned)got.sumb, (unsigned)want.suma, (unsigned)want.sumb);
    return LATTIO_OK;
}

/* Collective: the binary record's bytes through the pipe, and on every
 * rank the checksum of the whole record; verified (and rewritten up to
 * d->verify_retries times) when d->verify. */
static int write_binary(lattio_file *f, const lattio_field_desc *d, lattio_field_pipe *p,
                        uint64_t volume, lattio_field_write_info *out)
{
    MPI_Comm comm = lattio_xfer_comm(f);
    for (int attempt = 0;; attempt++) {
        lattio_xfer_info xi;
        p->st.sum[0] = p->st.sum[1] = (lattio_scidac_sum){0, 0};
        RETURN_IF_ERROR(lattio_xfer_write(f, &p->fl, 0, 0, &p->s, &xi));
        lattio_scidac_sum sum = lattio_field_stage_sum(&p->st);
        RETURN_IF_ERROR(lattio_field_xor_sum(comm, &sum));
        out->sum = sum;
        out->rounds = xi.rounds;
        out->threaded = xi.threaded;
        out->retries = attempt;
        if (!d->verify) return LATTIO_OK;
        int same = 0;
        RETURN_IF_ERROR(verify_record(f, d, p->st.disk_site, d->disk_format, volume, sum, &same));
        if (same) return LATTIO_OK;
        if (attempt >= d->verify_retries)
            return LATTIO_FAIL(LATTIO_ERR_VERIFY, "binary record differs after rewrites");
    }
}

/* --- the record set ----------------------------------------------------------- */

/* Local: the descriptor makes sense for this layout. */
static int check_write_desc(const lattio_field_desc *d, const lattio_layout *l,
                            const void *local)
{
    RETURN_IF_ERROR(lattio_field_check_memory(d, l, local));
    RETURN_IF_ERROR(lattio_field_check_metadata(d));
    RETURN_IF(d->disk_format != LATTIO_REAL_F32_BE && d->disk_format != LATTIO_REAL_F64_BE,
              LATTIO_ERR_ARG);
    RETURN_IF(d->datacount == 0 || d->elements % d->datacount, LATTIO_ERR_ARG);
    const uint64_t nc = d->colors > 0 ? (uint64_t)d->colors : 3; /* SU(N): 4 N x N complex links */
    if (d->kind == LATTIO_FIELD_ILDG_GAUGE)
        RETURN_IF(l->ndims != 4 || d->elements != 8 * nc * nc || d->datacount != 4, LATTIO_ERR_ARG);
    return lattio_field_desc_type_check(d, l);
}

/* Local: the payload of metadata record `rec` (lattio_malloc'd into *out). */
static int payload_of(const lattio_field_info *fi, int rec, char **out, size_t *len)
{
    *out = NULL;
    RETURN_IF_ERROR(lattio_field_payload(fi, rec, NULL, 0, len));
    RETURN_IF(!(*out = lattio_malloc(*len ? *len : 1)), LATTIO_ERR_NOMEM);
    return lattio_field_payload(fi, rec, *out, *len, len);
}

_Static_assert(LATTIO_SET_HEAD_MAX <= LATTIO_XFER_RECORDS_MAX, "a record set's head fits one write");

int lattio_field_put_records(lattio_file *f, const lattio_field_info *fi, const lattio_set_record *set, int n)
{
    lattio_xfer_record r[LATTIO_SET_HEAD_MAX];
    char *payload[LATTIO_SET_HEAD_MAX] = {NULL};
    int rc = n <= LATTIO_SET_HEAD_MAX ? LATTIO_OK : LATTIO_ERR_ARG;
    for (int i = 0; i < n && rc == LATTIO_OK; i++) {
        size_t len = 0;
        rc = payload_of(fi, set[i].rec, &payload[i], &len);
        r[i] = (lattio_xfer_record){lattio_field_record_type(set[i].rec), payload[i], len, set[i].mb, set[i].me};
    }
    rc = lattio_xfer_agree(f, rc);
    if (rc == LATTIO_OK) rc = lattio_xfer_records(f, n, r);
    for (int i = 0; i < n && i < LATTIO_SET_HEAD_MAX; i++) lattio_free(payload[i]);
    return rc;
}

/* Collective: other writers' records (checked by the caller), each a
 * message of its own, LATTIO_XFER_RECORDS_MAX to a call. */
static int put_other(lattio_file *f, const lattio_field_info *fi)
{
    for (int first = 0; first < fi->n_other; first += LATTIO_XFER_RECORDS_MAX) {
        lattio_xfer_record r[LATTIO_XFER_RECORDS_MAX];
        int n = 0;
        for (int i = first; i < fi->n_other && n < LATTIO_XFER_RECORDS_MAX; i++, n++)
            r[n] = (lattio_xfer_record){fi->other[i].type, fi->other[i].text, strlen(fi->other[i].text), 1, 1};
        RETURN_IF_ERROR(lattio_xfer_records(f, n, r));
    }
    return LATTIO_OK;
}

static int put_metadata(lattio_file *f, const lattio_field_info *fi, int ildg)
{
    /* the file header pair once per file, before its first record set (not
     * only at the start: a field after other records needs its dims too),
     * other writers' records before it */
    const int header = !lattio_file_has_type(f, lattio_field_record_type(LATTIO_REC_PRIVATE_FILE_XML));
    if (header) RETURN_IF_ERROR(put_other(f, fi));
    lattio_set_record head[LATTIO_SET_HEAD_MAX];
    return lattio_field_put_records(f, fi, head, lattio_field_set_head(ildg, header, head));
}

static int field_write(lattio_file *f, const lattio_field_desc *d, const lattio_layout *l,
                       const void *local, lattio_field_write_info *out)
{
    lattio_args a = {0};
    lattio_args_desc(&a, d, 1);
    RETURN_IF_ERROR(lattio_args_agree(lattio_xfer_comm(f), &a));
    RETURN_IF_ERROR(lattio_xfer_agree(f, check_write_desc(d, l, local)));
    lattio_field_info fi;
    lattio_field_describe(&fi, d, l);
    const int ildg = d->kind == LATTIO_FIELD_ILDG_GAUGE;
    RETURN_IF_ERROR(put_metadata(f, &fi, ildg));
    lattio_field_pipe p;
    int rc = lattio_xfer_agree(f, lattio_field_pipe_init(&p, f, d, l, d->disk_format, (void *)local));
    if (rc == LATTIO_OK)
        rc = lattio_record_begin(f, ildg ? "ildg-binary-data" : "scidac-binary-data",
                                 fi.volume * p.st.disk_site, 0, 0);
    if (rc == LATTIO_OK) rc = write_binary(f, d, &p, fi.volume, out);
    lattio_field_pipe_free(&p);
    if (rc == LATTIO_OK) rc = lattio_record_end(f, 0);
    RETURN_IF_ERROR(rc);
    fi.stored = out->sum;
    const lattio_set_record checksum = {LATTIO_REC_CHECKSUM, 0, 1};
    return lattio_field_put_records(f, &fi, &checksum, 1);
}

/* Timed as one call (lattio_profile_get): conversion in PACK, the SciDAC
 * sums in CHECKSUM, the MPI layer's phases as they come. */
int lattio_field_write(lattio_file *f, const lattio_field_desc *d, const lattio_layout *l,
                       const void *local, lattio_field_write_info *out)
{
    RETURN_IF(!f, LATTIO_ERR_ARG);
    lattio_field_write_info mine;
    if (!out) out = &mine;
    memset(out, 0, sizeof *out);
    lattio_xfer_call_begin(f, LATTIO_PHASE_SETUP);
    return lattio_xfer_call_end(f, field_write(f, d, l, local, out), 1);
}
