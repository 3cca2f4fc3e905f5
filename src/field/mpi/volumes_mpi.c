/* volumes_mpi.c -- QIO volume sets read and written in parallel.
 *
 * Reading: rank 0 finds the set and reads volume 0's metadata and
 * broadcasts it; the ranks share the volumes (volume i to rank i mod P),
 * each reads its volumes whole (records checked, site list, the field's
 * part), checksums the sites with their ranks and sends each site to the
 * rank whose box holds it (one MPI_Alltoallv); receivers place and convert
 * them and check that no site came twice and, when the boxes tile the
 * lattice, none is missing.  The checksum covers every site of the set
 * whatever the boxes.
 *
 * Writing: multifile gives every rank its volume (its box, sites in
 * lexicographic order), partfile every node (the ranks sharing memory:
 * the lowest gathers its node's sites, sorted, and names the volume after
 * its rank, as QIO names a partition's after its I/O node); rank 0's
 * volume 0 carries the metadata and each field's checksum, XORed over the
 * ranks.  Each volume is written under a temporary name and renamed when
 * every volume of the set is complete; volumes of an earlier set of the
 * same name that the new one does not have are removed. */
#include "field_mpi.h"
#include "field/volumes_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --- the lattice in file order (dimension 0 slowest, as the file ranks) --- */

typedef struct geometry {
    int nd;
    uint64_t global[LATTIO_MAX_DIMS], lo[LATTIO_MAX_DIMS], n[LATTIO_MAX_DIMS];
} geometry;

static void geometry_of(const lattio_layout *l, geometry *g)
{
    memset(g, 0, sizeof *g);
    g->nd = l->ndims;
    for (int k = 0; k < l->ndims; k++) {
        const int f = l->file_order[k];
        g->global[k] = l->global[f];
        g->lo[k] = l->lo[f];
        g->n[k] = l->count[f];
    }
}

/* File rank of the rank's i-th site (increasing file rank, as lattio_layout_pack numbers them). */
static uint64_t rank_of(const geometry *g, uint64_t i)
{
    uint64_t rank = 0, stride = 1;
    for (int k = g->nd - 1; k >= 0; k--) {
        rank += (g->lo[k] + i % g->n[k]) * stride;
        i /= g->n[k];
        stride *= g->global[k];
    }
    return rank;
}

/* Index in box (lo, n) of the site of file rank r; UINT64_MAX outside. */
static uint64_t index_in(const geometry *g, const uint64_t *lo, const uint64_t *n, uint64_t r)
{
    uint64_t idx = 0, stride = 1;
    for (int k = g->nd - 1; k >= 0; k--) {
        const uint64_t c = r % g->global[k];
        r /= g->global[k];
        if (c < lo[k] || c >= lo[k] + n[k]) return UINT64_MAX;
        idx += (c - lo[k]) * stride;
        stride *= n[k];
    }
    return idx;
}

static uint64_t box_sites(const uint64_t *n, int nd)
{
    uint64_t s = 1;
    for (int k = 0; k < nd; k++) s *= n[k];
    return s;
}

/* Collective: every rank's box (lo[], n[] in file order, 2 * LATTIO_MAX_DIMS
 * values each); ERR_LAYOUT when boxes overlap.  *tile: they cover the
 * lattice. */
static int share_boxes(MPI_Comm comm, const geometry *g, uint64_t **boxes, int *tile)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const int per = 2 * LATTIO_MAX_DIMS;
    *boxes = lattio_calloc((size_t)size * (size_t)per, sizeof **boxes);
    RETURN_IF_ERROR(lattio_agree(comm, *boxes ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "boxes")));
    uint64_t mine[2 * LATTIO_MAX_DIMS] = {0};
    memcpy(mine, g->lo, sizeof g->lo);
    memcpy(mine + LATTIO_MAX_DIMS, g->n, sizeof g->n);
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Allgather(mine, per, MPI_UINT64_T, *boxes, per, MPI_UINT64_T, comm),
                                    "MPI_Allgather"));
    /* lattio_box_overlaps takes lo[ndims], count[ndims] per box */
    uint64_t *packed = lattio_malloc((size_t)size * 2 * (size_t)g->nd * sizeof *packed);
    int rc = packed ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "boxes");
    uint64_t total = 0;
    for (int r = 0; rc == LATTIO_OK && r < size; r++) {
        const uint64_t *b = *boxes + (size_t)r * per;
        memcpy(packed + (size_t)r * 2 * g->nd, b, (size_t)g->nd * sizeof *b);
        memcpy(packed + (size_t)r * 2 * g->nd + g->nd, b + LATTIO_MAX_DIMS, (size_t)g->nd * sizeof *b);
        total += box_sites(b + LATTIO_MAX_DIMS, g->nd);
    }
    if (rc == LATTIO_OK && lattio_box_overlaps(packed, (size_t)size, g->nd, (size_t)rank))
        rc = LATTIO_FAIL(LATTIO_ERR_LAYOUT, "boxes overlap");
    lattio_free(packed);
    *tile = total == box_sites(g->global, g->nd);
    return lattio_agree(comm, rc);
}

/* --- reading -------------------------------------------------------------- */

/* What rank 0 found and every rank needs. */
typedef struct set_view {
    int in_dirs, count, *numbers;
    lattio_volume_meta m;
    lattio_field_info fi;
    int index;
} set_view;

static void view_free(set_view *s)
{
    lattio_free(s->numbers);
    lattio_volume_meta_free(&s->m);
    lattio_field_info_free(&s->fi);
    memset(s, 0, sizeof *s);
}

/* Rank 0: the volumes and field `index` (< 0: the first lattice field). */
static int view_on_root(const char *base, int index, set_view *s)
{
    RETURN_IF_ERROR(lattio_volumes_list(base, &s->in_dirs, &s->numbers, &s->count));
    char path[4096];
    RETURN_IF_ERROR(lattio_volumes_name(base, s->in_dirs ? LATTIO_VOLFMT_PART_DIR : LATTIO_VOLFMT_PART, 0, path,
                                        sizeof path));
    lattio_field_info *fields = NULL;
    RETURN_IF_ERROR(lattio_volume_master_meta(path, &s->m, &fields));
    for (int k = 0; index < 0 && k < s->m.nbinary; k++)
        if (fields[k].recordtype == 0) index = k;
    int rc = index >= 0 && index < s->m.nbinary ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOT_FOUND, "field index");
    for (int k = 0; k < s->m.nbinary; k++) {
        if (rc == LATTIO_OK && k == index) s->fi = fields[k];
        else lattio_field_info_free(&fields[k]);
    }
    lattio_free(fields);
    s->index = index;
    return rc;
}

static int bcast_bytes(MPI_Comm comm, void *p, uint64_t n)
{
    RETURN_IF(n > INT32_MAX, LATTIO_ERR_OVERFLOW);
    return lattio_xfer_mpi(MPI_Bcast(p, (int)n, MPI_BYTE, 0, comm), "MPI_Bcast");
}

/* Collective: rank 0's array (n elements of `size` bytes) on every rank. */
static int bcast_array(MPI_Comm comm, int rank, void **p, uint64_t n, size_t size)
{
    if (rank != 0) *p = lattio_calloc((size_t)(n ? n : 1), size);
    RETURN_IF_ERROR(lattio_agree(comm, *p ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "broadcast")));
    return bcast_bytes(comm, *p, n * size);
}

/* Collective: rank 0's view on every rank. */
static int share_view(MPI_Comm comm, const char *base, int index, set_view *s)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    memset(s, 0, sizeof *s);
    RETURN_IF_ERROR(lattio_agree(comm, rank == 0 ? view_on_root(base, index, s) : LATTIO_OK));
    set_view head = *s;
    RETURN_IF_ERROR(bcast_bytes(comm, &head, sizeof head));
    if (rank != 0) {
        *s = head;
        s->numbers = NULL;
        s->m.is_lattice = s->m.lattice_of = s->m.whole = NULL;
        s->m.site_bytes = NULL;
        s->fi.lfn = s->fi.file_xml = s->fi.record_xml = NULL;
    }
    const uint64_t nb = (uint64_t)s->m.nbinary;
    RETURN_IF_ERROR(bcast_array(comm, rank, (void **)&s->numbers, (uint64_t)s->count, sizeof *s->numbers));
    RETURN_IF_ERROR(bcast_array(comm, rank, (void **)&s->m.is_lattice, nb, sizeof *s->m.is_lattice));
    RETURN_IF_ERROR(bcast_array(comm, rank, (void **)&s->m.lattice_of, nb, sizeof *s->m.lattice_of));
    RETURN_IF_ERROR(bcast_array(comm, rank, (void **)&s->m.whole, nb, sizeof *s->m.whole));
    RETURN_IF_ERROR(bcast_array(comm, rank, (void **)&s->m.site_bytes, nb, sizeof *s->m.site_bytes));
    RETURN_IF_ERROR(lattio_field_bcast_string(comm, rank, &s->fi.lfn));
    RETURN_IF_ERROR(lattio_field_bcast_string(comm, rank, &s->fi.file_xml));
    return lattio_field_bcast_string(comm, rank, &s->fi.record_xml);
}

/* Sites bound for each rank: (file rank, file bytes) pairs. */
typedef struct outbox {
    const geometry *g;
    const uint64_t *boxes;
    int size, last, me;
    uint64_t site, elem, read;
    unsigned char **buf;
    uint64_t *len, *cap;
    lattio_scidac_sum sum;
    /* this rank's own sites, placed as they come: packed (file order,
     * memory format), seen (a bit each), how many */
    unsigned char *packed, *seen;
    uint64_t placed;
    size_t site_bytes, reals;
    int mem_format, disk_format;
} outbox;

/* Site of rank r (file bytes) into this rank's packed buffer, once. */
static int put_site(outbox *o, uint64_t r, const unsigned char *bytes)
{
    const uint64_t idx = index_in(o->g, o->g->lo, o->g->n, r);
    if (idx == UINT64_MAX || (o->seen[idx / 8] & (1u << (idx % 8)))) {
        lattio_detail_set("site %llu arrives twice (listed in two volumes)", (unsigned long long)r);
        return LATTIO_FAIL(LATTIO_ERR_VOLUME_SITES, "duplicate site");
    }
    o->seen[idx / 8] |= (unsigned char)(1u << (idx % 8));
    o->placed++;
    return lattio_convert_reals(o->packed + idx * o->site_bytes, o->mem_format, bytes, o->disk_format, o->reals);
}

static int owner_of(outbox *o, uint64_t r)
{
    const int per = 2 * LATTIO_MAX_DIMS;
    for (int t = 0; t < o->size; t++) {
        const int q = (o->last + t) % o->size;
        const uint64_t *b = o->boxes + (size_t)q * per;
        if (index_in(o->g, b, b + LATTIO_MAX_DIMS, r) != UINT64_MAX) return o->last = q;
    }
    return -1;
}

static int post(void *ctx, const unsigned char *buf, const uint64_t *ranks, uint64_t n)
{
    outbox *o = ctx;
    RETURN_IF_ERROR(lattio_scidac_sum_ranked(&o->sum, buf, (size_t)o->site, (size_t)o->site, n, ranks));
    o->read += n;
    for (uint64_t i = 0; i < n; i++) {
        const int q = owner_of(o, ranks[i]);
        if (q < 0) continue; /* no rank reads this site */
        if (q == o->me) { /* this rank's own: no message */
            RETURN_IF_ERROR(put_site(o, ranks[i], buf + i * o->site));
            continue;
        }
        if (o->len[q] == o->cap[q]) {
            const uint64_t cap = o->cap[q] ? 2 * o->cap[q] : 64;
            unsigned char *p = lattio_realloc(o->buf[q], (size_t)(cap * o->elem));
            RETURN_IF(!p, LATTIO_ERR_NOMEM);
            o->buf[q] = p;
            o->cap[q] = cap;
        }
        unsigned char *e = o->buf[q] + o->len[q]++ * o->elem;
        memcpy(e, &ranks[i], 8);
        memcpy(e + 8, buf + i * o->site, (size_t)o->site);
    }
    return LATTIO_OK;
}

/* Local: read this rank's volumes (i = rank, rank + size, ...). */
static int read_my_volumes(MPI_Comm comm, const char *base, const set_view *s, outbox *o)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const int fmt = s->in_dirs ? LATTIO_VOLFMT_PART_DIR : LATTIO_VOLFMT_PART;
    for (int i = rank; i < s->count; i += size) {
        char path[4096];
        lattio_volume vo;
        memset(&vo, 0, sizeof vo);
        vo.number = s->numbers[i];
        RETURN_IF_ERROR(lattio_volumes_name(base, fmt, vo.number, path, sizeof path));
        vo.path = path;
        int rc = lattio_volume_scan(&vo, &s->m);
        uint64_t *ranks = rc == LATTIO_OK ? lattio_malloc((size_t)(vo.sites ? vo.sites : 1) * 8) : NULL;
        if (rc == LATTIO_OK && !ranks) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "ranks");
        lattio_lime_reader *r = NULL;
        if (rc == LATTIO_OK) rc = lattio_lime_reader_open(path, &r);
        if (rc == LATTIO_OK) rc = lattio_volume_ranks(r, &vo, s->fi.volume, ranks);
        if (rc == LATTIO_OK) rc = lattio_volume_read_part(r, &vo, s->m.lattice_of[s->index], ranks, &s->fi, post, o);
        lattio_lime_reader_close(r);
        lattio_free(ranks);
        vo.path = NULL;
        lattio_volume_free(&vo);
        if (rc < 0) {
            char what[LATTIO_DETAIL_MAX];
            snprintf(what, sizeof what, "%s", lattio_detail_peek());
            lattio_detail_set("volume %s: %s", path, what[0] ? what : lattio_strerror(rc));
            return rc;
        }
    }
    return LATTIO_OK;
}

/* The counts and displacements of one exchange, in sites. */
typedef struct counts {
    int *sc, *sd, *rc, *rd;
} counts;

static void counts_free(counts *c)
{
    lattio_free(c->sc);
    lattio_free(c->sd);
    lattio_free(c->rc);
    lattio_free(c->rd);
}

/* Local: the posted sites after each other in *sbuf, with their counts. */
static int pack_posted(const outbox *o, counts *c, unsigned char **sbuf)
{
    const size_t P = (size_t)o->size;
    c->sc = lattio_calloc(P, sizeof *c->sc), c->sd = lattio_calloc(P, sizeof *c->sd);
    c->rc = lattio_calloc(P, sizeof *c->rc), c->rd = lattio_calloc(P, sizeof *c->rd);
    RETURN_IF(!c->sc || !c->sd || !c->rc || !c->rd, LATTIO_ERR_NOMEM);
    uint64_t total = 0;
    for (size_t q = 0; q < P; q++) {
        RETURN_IF(o->len[q] > INT32_MAX || total > INT32_MAX, LATTIO_ERR_OVERFLOW);
        c->sc[q] = (int)o->len[q];
        c->sd[q] = (int)total;
        total += o->len[q];
    }
    RETURN_IF(!(*sbuf = lattio_malloc((size_t)(total ? total * o->elem : 1))), LATTIO_ERR_NOMEM);
    for (size_t q = 0; q < P; q++)
        if (o->len[q]) memcpy(*sbuf + (size_t)c->sd[q] * o->elem, o->buf[q], (size_t)(o->len[q] * o->elem));
    return LATTIO_OK;
}

/* Local: the receive displacements from the counts, and the buffer. */
static int receive_room(const outbox *o, counts *c, unsigned char **in, uint64_t *nin)
{
    uint64_t rtotal = 0;
    for (size_t q = 0; q < (size_t)o->size; q++) {
        c->rd[q] = (int)rtotal;
        rtotal += (uint64_t)c->rc[q];
    }
    RETURN_IF(rtotal > INT32_MAX, LATTIO_ERR_OVERFLOW);
    RETURN_IF(!(*in = lattio_malloc((size_t)(rtotal ? rtotal * o->elem : 1))), LATTIO_ERR_NOMEM);
    *nin = rtotal;
    return LATTIO_OK;
}

/* Collective: the posted sites to their ranks (counts in sites, one
 * element type of 8 + site bytes). */
static int exchange(MPI_Comm comm, outbox *o, unsigned char **in, uint64_t *nin)
{
    counts c = {0};
    unsigned char *sbuf = NULL;
    *nin = 0;
    int rc = lattio_agree(comm, pack_posted(o, &c, &sbuf));
    if (rc == LATTIO_OK) rc = lattio_xfer_mpi(MPI_Alltoall(c.sc, 1, MPI_INT, c.rc, 1, MPI_INT, comm), "MPI_Alltoall");
    if (rc == LATTIO_OK) rc = lattio_agree(comm, receive_room(o, &c, in, nin));
    MPI_Datatype t = MPI_DATATYPE_NULL;
    if (rc == LATTIO_OK) rc = lattio_xfer_mpi(MPI_Type_contiguous((int)o->elem, MPI_BYTE, &t), "MPI_Type_contiguous");
    if (rc == LATTIO_OK) rc = lattio_xfer_mpi(MPI_Type_commit(&t), "MPI_Type_commit");
    if (rc == LATTIO_OK)
        rc = lattio_xfer_mpi(MPI_Alltoallv(sbuf, c.sc, c.sd, t, *in, c.rc, c.rd, t, comm), "MPI_Alltoallv");
    if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
    lattio_free(sbuf);
    counts_free(&c);
    return rc;
}

/* Local: the received sites placed too; every site of the box once when
 * the boxes tile the lattice; into the caller's buffer. */
static int place_sites(outbox *o, const unsigned char *in, uint64_t nin, const lattio_layout *l, int tile,
                       void *local)
{
    const uint64_t ls = lattio_layout_local_sites(l);
    for (uint64_t i = 0; i < nin; i++) {
        uint64_t r;
        memcpy(&r, in + i * o->elem, 8);
        RETURN_IF_ERROR(put_site(o, r, in + i * o->elem + 8));
    }
    if (tile && o->placed != ls) {
        lattio_detail_set("%llu of this rank's %llu sites are in no volume", (unsigned long long)(ls - o->placed),
                          (unsigned long long)ls);
        return LATTIO_FAIL(LATTIO_ERR_VOLUME_SITES, "missing sites");
    }
    return ls ? lattio_layout_unpack(l, o->packed, 0, ls, local) : LATTIO_OK;
}

static void outbox_free(outbox *o)
{
    for (int q = 0; o->buf && q < o->size; q++) lattio_free(o->buf[q]);
    lattio_free(o->buf);
    lattio_free(o->len);
    lattio_free(o->cap);
    lattio_free(o->packed);
    lattio_free(o->seen);
}

/* Local: the outbox of this rank's reads (its buffers for every rank). */
static int outbox_init(MPI_Comm comm, const set_view *s, const lattio_field_desc *d, const lattio_layout *l,
                       const geometry *g, const uint64_t *boxes, outbox *o)
{
    memset(o, 0, sizeof *o);
    o->g = g;
    o->boxes = boxes;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_size(comm, &o->size), "MPI_Comm_size"));
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_rank(comm, &o->me), "MPI_Comm_rank"));
    o->site = s->fi.typesize * s->fi.datacount;
    o->elem = 8 + o->site;
    o->site_bytes = l->site_bytes;
    o->reals = (size_t)d->elements;
    o->mem_format = d->mem_format;
    o->disk_format = s->fi.precision == 32 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE;
    const uint64_t ls = lattio_layout_local_sites(l);
    o->buf = lattio_calloc((size_t)o->size, sizeof *o->buf);
    o->len = lattio_calloc((size_t)o->size, sizeof *o->len);
    o->cap = lattio_calloc((size_t)o->size, sizeof *o->cap);
    o->packed = lattio_malloc((size_t)(ls ? ls * l->site_bytes : 1));
    o->seen = lattio_calloc((size_t)(ls / 8 + 1), 1);
    return o->buf && o->len && o->cap && o->packed && o->seen ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "outbox");
}

/* Collective: the volumes read held every site of the lattice once. */
static int count_read(MPI_Comm comm, const set_view *s, const outbox *o)
{
    uint64_t read = 0;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Allreduce(&o->read, &read, 1, MPI_UINT64_T, MPI_SUM, comm), "MPI_Allreduce"));
    if (read == s->fi.volume) return LATTIO_OK;
    lattio_detail_set("the %d volumes hold %llu sites, the lattice has %llu", s->count, (unsigned long long)read,
                      (unsigned long long)s->fi.volume);
    return LATTIO_FAIL(LATTIO_ERR_VOLUME_SITES, "site count");
}

/* The checksum over every volume against the stored one, as
 * lattio_field_read states it. */
static int check_sum(const set_view *s, const lattio_field_desc *d, lattio_scidac_sum sum,
                     lattio_field_read_info *info)
{
    int state = d->skip_checksum ? LATTIO_CHECKSUM_SKIPPED
                : !s->fi.has_checksum ? LATTIO_CHECKSUM_MISSING : LATTIO_CHECKSUM_VERIFIED;
    if (info) {
        info->computed = sum;
        info->checksum = state;
    }
    if (state == LATTIO_CHECKSUM_MISSING && d->require_checksum)
        return LATTIO_FAIL(LATTIO_ERR_NO_CHECKSUM, "no scidac-checksum record");
    if (state == LATTIO_CHECKSUM_VERIFIED && (sum.suma != s->fi.stored.suma || sum.sumb != s->fi.stored.sumb))
        return lattio_field_sum_mismatch(&s->fi, sum);
    return LATTIO_OK;
}

static int read_set(MPI_Comm comm, const char *base, const set_view *s, const lattio_field_desc *d,
                    const lattio_layout *l, void *local, lattio_field_read_info *info)
{
    geometry g;
    geometry_of(l, &g);
    uint64_t *boxes = NULL;
    int tile = 0;
    int rc = share_boxes(comm, &g, &boxes, &tile);
    outbox o;
    memset(&o, 0, sizeof o);
    if (rc == LATTIO_OK) rc = outbox_init(comm, s, d, l, &g, boxes, &o);
    if (rc == LATTIO_OK) rc = read_my_volumes(comm, base, s, &o);
    rc = lattio_agree(comm, rc);
    if (rc == LATTIO_OK) rc = count_read(comm, s, &o);
    unsigned char *in = NULL;
    uint64_t nin = 0;
    if (rc == LATTIO_OK) rc = exchange(comm, &o, &in, &nin);
    if (rc == LATTIO_OK) rc = lattio_agree(comm, place_sites(&o, in, nin, l, tile, local));
    lattio_scidac_sum sum = o.sum;
    if (rc == LATTIO_OK) rc = lattio_agree(comm, lattio_field_xor_sum(comm, &sum));
    lattio_free(in);
    outbox_free(&o);
    lattio_free(boxes);
    RETURN_IF_ERROR(rc);
    return check_sum(s, d, sum, info);
}

int lattio_volumes_read(MPI_Comm comm, const char *base, int index, const lattio_field_desc *d, const lattio_layout *l,
                        void *local, lattio_field_read_info *info)
{
    if (info) memset(info, 0, sizeof *info);
    lattio_detail_clear();
    RETURN_IF_ERROR(lattio_agree(comm, base && d && l ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_ARG, "NULL argument")));
    lattio_args a = {0};
    lattio_args_str(&a, "base", base);
    lattio_args_int(&a, "index", index);
    lattio_args_int(&a, "dimensions", l->ndims);
    lattio_args_desc(&a, d, 0);
    RETURN_IF_ERROR(lattio_args_agree(comm, &a));
    set_view s;
    int rc = share_view(comm, base, index, &s);
    if (rc == LATTIO_OK) rc = lattio_agree(comm, lattio_field_check_read(&s.fi, d, l, local));
    if (rc == LATTIO_OK) rc = lattio_agree(comm, read_set(comm, base, &s, d, l, local, info));
    if (info && rc >= 0) {
        info->field = s.fi;
        memset(&s.fi, 0, sizeof s.fi);
    }
    view_free(&s);
    return rc;
}

/* --- writing -------------------------------------------------------------- */

/* The ranks that write one volume: all of a node (partfile) or one. */
typedef struct writers {
    MPI_Comm group;
    int grank, gsize, number; /* number: the volume's, the world rank of its writer */
    int *counts, *displs;     /* on the writer: each member's sites */
    uint64_t total;           /* the volume's sites (on the writer) */
    uint64_t *order;          /* on the writer: received site k goes to place order[k] */
    uint64_t *ranks;          /* on the writer: the volume's ranks, sorted */
} writers;

static void writers_free(writers *w)
{
    if (w->group != MPI_COMM_NULL) MPI_Comm_free(&w->group);
    lattio_free(w->counts);
    lattio_free(w->displs);
    lattio_free(w->order);
    lattio_free(w->ranks);
    memset(w, 0, sizeof *w);
    w->group = MPI_COMM_NULL;
}

static const uint64_t *sort_keys;
static int by_key(const void *a, const void *b)
{
    const uint64_t x = sort_keys[*(const uint64_t *)a], y = sort_keys[*(const uint64_t *)b];
    return (x > y) - (x < y);
}

/* Collective: the groups, and on each writer its volume's sorted ranks. */
static int make_writers(MPI_Comm comm, int volfmt, const uint64_t *mine, uint64_t ls, writers *w)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    memset(w, 0, sizeof *w);
    w->group = MPI_COMM_NULL;
    int rc = volfmt == LATTIO_VOLFMT_MULTI
                 ? MPI_Comm_split(comm, rank, 0, &w->group)
                 : MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &w->group);
    RETURN_IF_ERROR(lattio_agree(comm, lattio_xfer_mpi(rc, "MPI_Comm_split")));
    MPI_Comm_rank(w->group, &w->grank);
    MPI_Comm_size(w->group, &w->gsize);
    w->number = rank;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Bcast(&w->number, 1, MPI_INT, 0, w->group), "MPI_Bcast"));
    RETURN_IF(ls > INT32_MAX, LATTIO_ERR_OVERFLOW);
    int n = (int)ls;
    if (w->grank == 0) {
        w->counts = lattio_calloc((size_t)w->gsize, sizeof *w->counts);
        w->displs = lattio_calloc((size_t)w->gsize, sizeof *w->displs);
        RETURN_IF(!w->counts || !w->displs, LATTIO_ERR_NOMEM);
    }
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Gather(&n, 1, MPI_INT, w->counts, 1, MPI_INT, 0, w->group), "MPI_Gather"));
    for (int q = 0; w->grank == 0 && q < w->gsize; q++) {
        RETURN_IF(w->total > INT32_MAX, LATTIO_ERR_OVERFLOW);
        w->displs[q] = (int)w->total;
        w->total += (uint64_t)w->counts[q];
    }
    if (w->grank == 0) {
        w->ranks = lattio_malloc((size_t)(w->total ? w->total : 1) * 8);
        w->order = lattio_malloc((size_t)(w->total ? w->total : 1) * 8);
        RETURN_IF(!w->ranks || !w->order, LATTIO_ERR_NOMEM);
    }
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Gatherv(mine, n, MPI_UINT64_T, w->ranks, w->counts, w->displs, MPI_UINT64_T,
                                                0, w->group), "MPI_Gatherv"));
    if (w->grank != 0) return LATTIO_OK;
    uint64_t *perm = lattio_malloc((size_t)(w->total ? w->total : 1) * 8);
    RETURN_IF(!perm, LATTIO_ERR_NOMEM);
    for (uint64_t k = 0; k < w->total; k++) perm[k] = k;
    sort_keys = w->ranks; /* one thread sorts: the MPI calls around it are the caller's */
    qsort(perm, (size_t)w->total, sizeof *perm, by_key);
    uint64_t *sorted = lattio_malloc((size_t)(w->total ? w->total : 1) * 8);
    if (!sorted) {
        lattio_free(perm);
        return LATTIO_FAIL(LATTIO_ERR_NOMEM, "ranks");
    }
    for (uint64_t k = 0; k < w->total; k++) {
        w->order[perm[k]] = k;
        sorted[k] = w->ranks[perm[k]];
    }
    lattio_free(perm);
    lattio_free(w->ranks);
    w->ranks = sorted;
    return LATTIO_OK;
}

/* Writer: open the volume and write its header records. */
static int open_volume(const char *base, int volfmt, const writers *w, const lattio_field_info *fi, int master,
                       lattio_volume_out *o, char made[4096])
{
    char path[4096];
    RETURN_IF_ERROR(lattio_volumes_name(base, volfmt, w->number, path, sizeof path));
    int new_dir = 0;
    if (volfmt == LATTIO_VOLFMT_PART_DIR) RETURN_IF_ERROR(lattio_volume_make_parent(path, &new_dir));
    if (new_dir) snprintf(made, 4096, "%.*s", (int)(strrchr(path, '/') - path), path);
    RETURN_IF_ERROR(lattio_volume_out_open(o, path));
    unsigned char *list;
    uint64_t len;
    RETURN_IF_ERROR(lattio_volume_sitelist(w->ranks, w->total, &list, &len));
    int rc = master ? lattio_volume_out_payload(o, fi, LATTIO_REC_PRIVATE_FILE_XML, 1, 0) : LATTIO_OK;
    if (rc == LATTIO_OK) rc = lattio_volume_out_record(o, LATTIO_SITELIST_TYPE, list, len, !master, !master, NULL);
    if (rc == LATTIO_OK && master) rc = lattio_volume_out_payload(o, fi, LATTIO_REC_FILE_XML, 0, 1);
    lattio_free(list);
    return rc;
}

#define CHUNK_BYTES ((size_t)4 << 20)

/* Writer, d->verify: the volume's binary record (n sites at `at`) read
 * back in bounded chunks sums as written (`want`). */
static int reread(lattio_volume_out *o, uint64_t at, size_t site, const uint64_t *ranks, uint64_t n,
                  lattio_scidac_sum want)
{
    const uint64_t per = site >= CHUNK_BYTES ? 1 : CHUNK_BYTES / site;
    unsigned char *buf = lattio_malloc((size_t)((n < per ? n : per) * site) + 1);
    RETURN_IF(!buf, LATTIO_ERR_NOMEM);
    lattio_scidac_sum got = {0, 0};
    int rc = LATTIO_OK;
    for (uint64_t first = 0; rc == LATTIO_OK && first < n; first += per) {
        const uint64_t k = n - first < per ? n - first : per;
        rc = lattio_volume_out_pread(o, buf, (size_t)(k * site), at + first * site);
        if (rc == LATTIO_OK) rc = lattio_scidac_sum_ranked(&got, buf, site, site, k, ranks + first);
    }
    lattio_free(buf);
    RETURN_IF_ERROR(rc);
    if (got.suma == want.suma && got.sumb == want.sumb) return LATTIO_OK;
    lattio_detail_set("volume %s: its binary record reads back as %08x %08x, written %08x %08x", o->path,
                      (unsigned)got.suma, (unsigned)got.sumb, (unsigned)want.suma, (unsigned)want.sumb);
    return LATTIO_FAIL(LATTIO_ERR_VERIFY, "volume read back");
}

/* Writer: the records of field fi's set before its binary record (volume
 * 0), then the binary record's header for n sites (its payload's offset in *at). */
static int write_head(lattio_volume_out *o, const lattio_field_info *fi, int master, uint64_t bytes, uint64_t *at)
{
    const int ildg = fi->kind == LATTIO_FIELD_ILDG_GAUGE;
    lattio_set_record head[LATTIO_SET_HEAD_MAX];
    const int nh = master ? lattio_field_set_head(ildg, 0, head) : 0;
    for (int i = 0; i < nh; i++) RETURN_IF_ERROR(lattio_volume_out_payload(o, fi, head[i].rec, head[i].mb, head[i].me));
    return lattio_volume_out_record(o, ildg ? "ildg-binary-data" : "scidac-binary-data", NULL, bytes, !master,
                                    !master, at);
}

/* A rank that is its volume's only writer: its sites (increasing rank:
 * the volume's order) packed, converted, summed and written in bounded
 * chunks straight from its buffer. */
static int stream_own(const lattio_field_desc *d, const lattio_layout *l, const void *local, const uint64_t *mine,
                      uint64_t ls, lattio_volume_out *o, uint64_t at, lattio_scidac_sum *sum)
{
    const size_t site = (size_t)d->elements * lattio_real_size(d->disk_format);
    const uint64_t per = site >= CHUNK_BYTES ? 1 : CHUNK_BYTES / site;
    const uint64_t n0 = ls < per ? ls : per;
    unsigned char *packed = lattio_malloc((size_t)(n0 * l->site_bytes) + 1), *bytes = lattio_malloc((size_t)(n0 * site) + 1);
    int rc = packed && bytes ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "chunk");
    for (uint64_t first = 0; rc == LATTIO_OK && first < ls; first += per) {
        const uint64_t n = ls - first < per ? ls - first : per;
        rc = lattio_layout_pack(l, local, first, n, packed);
        if (rc == LATTIO_OK)
            rc = lattio_convert_reals(bytes, d->disk_format, packed, d->mem_format, (size_t)(n * d->elements));
        if (rc == LATTIO_OK) rc = lattio_scidac_sum_ranked(sum, bytes, site, site, n, mine + first);
        if (rc == LATTIO_OK) rc = lattio_volume_out_pwrite(o, bytes, (size_t)(n * site), at + first * site);
    }
    lattio_free(packed);
    lattio_free(bytes);
    return rc;
}

/* Collective: one field, each rank its own volume; the checksum record
 * once the ranks' sums are combined. */
static int write_own(MPI_Comm comm, const lattio_field_desc *d, const lattio_layout *l, const void *local,
                     const uint64_t *mine, uint64_t ls, lattio_field_info *fi, int master, lattio_volume_out *o,
                     lattio_scidac_sum *total)
{
    const size_t site = (size_t)d->elements * lattio_real_size(d->disk_format);
    lattio_scidac_sum sum = {0, 0};
    uint64_t at = 0;
    int rc = write_head(o, fi, master, ls * site, &at);
    if (rc == LATTIO_OK) rc = stream_own(d, l, local, mine, ls, o, at, &sum);
    if (rc == LATTIO_OK) rc = lattio_volume_out_written(o, at, ls * site);
    if (rc == LATTIO_OK && d->verify) rc = reread(o, at, site, mine, ls, sum);
    rc = lattio_agree(comm, rc);
    if (rc == LATTIO_OK) rc = lattio_agree(comm, lattio_field_xor_sum(comm, &sum));
    fi->stored = sum;
    if (rc == LATTIO_OK && master) rc = lattio_volume_out_payload(o, fi, LATTIO_REC_CHECKSUM, 0, 1);
    *total = sum;
    return lattio_agree(comm, rc);
}

/* One chunk of the rank's sites: packed, converted, summed (sites
 * [first, first + n) of its box, increasing rank). */
static int chunk_bytes(const lattio_field_desc *d, const lattio_layout *l, const void *local, const uint64_t *mine,
                       uint64_t first, uint64_t n, unsigned char *packed, unsigned char *bytes, lattio_scidac_sum *sum)
{
    const size_t site = (size_t)d->elements * lattio_real_size(d->disk_format);
    if (n == 0) return LATTIO_OK;
    RETURN_IF_ERROR(lattio_layout_pack(l, local, first, n, packed));
    RETURN_IF_ERROR(lattio_convert_reals(bytes, d->disk_format, packed, d->mem_format, (size_t)(n * d->elements)));
    return lattio_scidac_sum_ranked(sum, bytes, site, site, n, mine + first);
}

/* Writer: a round's sites (member q's sites k0[q] .. k0[q] + cnt[q] of
 * the group's in member order, packed after each other in buf) written
 * at their places in the volume, runs of consecutive places at once. */
static int place_round(lattio_volume_out *o, const writers *w, uint64_t at, size_t site, const unsigned char *buf,
                       const int *cnt, const uint64_t *k0, lattio_scidac_sum *want)
{
    uint64_t off = 0;
    for (int q = 0; q < w->gsize; q++) {
        const uint64_t base = (uint64_t)w->displs[q] + k0[q];
        for (uint64_t i = 0; i < (uint64_t)cnt[q];) {
            const uint64_t pos = w->order[base + i];
            uint64_t run = 1;
            while (i + run < (uint64_t)cnt[q] && w->order[base + i + run] == pos + run) run++;
            const unsigned char *src = buf + (off + i) * site;
            RETURN_IF_ERROR(lattio_scidac_sum_ranked(want, src, site, site, run, w->ranks + pos));
            RETURN_IF_ERROR(lattio_volume_out_pwrite(o, src, (size_t)(run * site), at + pos * site));
            i += run;
        }
        off += (uint64_t)cnt[q];
    }
    return LATTIO_OK;
}

/* The buffers of the gathering rounds of one field. */
typedef struct rounds {
    size_t site;    /* bytes of a site on disk */
    uint64_t per;   /* sites per member and round */
    unsigned char *packed, *bytes, *buf;
    int *cnt, *dsp;
    uint64_t *k0;
    MPI_Datatype t;
} rounds;

static void rounds_free(rounds *g)
{
    if (g->t != MPI_DATATYPE_NULL) MPI_Type_free(&g->t);
    lattio_free(g->packed);
    lattio_free(g->bytes);
    lattio_free(g->buf);
    lattio_free(g->cnt);
    lattio_free(g->dsp);
    lattio_free(g->k0);
}

static int rounds_init(rounds *g, const lattio_field_desc *d, const lattio_layout *l, const writers *w)
{
    memset(g, 0, sizeof *g);
    g->t = MPI_DATATYPE_NULL;
    g->site = (size_t)d->elements * lattio_real_size(d->disk_format);
    g->per = g->site >= CHUNK_BYTES ? 1 : CHUNK_BYTES / g->site;
    const size_t gs = (size_t)w->gsize;
    g->packed = lattio_malloc((size_t)(g->per * l->site_bytes));
    g->bytes = lattio_malloc((size_t)(g->per * g->site));
    g->buf = w->grank == 0 ? lattio_malloc(gs * (size_t)(g->per * g->site)) : NULL;
    g->cnt = lattio_calloc(gs, sizeof *g->cnt);
    g->dsp = lattio_calloc(gs, sizeof *g->dsp);
    g->k0 = lattio_calloc(gs, sizeof *g->k0);
    RETURN_IF(!g->packed || !g->bytes || (!w->grank && !g->buf) || !g->cnt || !g->dsp || !g->k0, LATTIO_ERR_NOMEM);
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Type_contiguous((int)g->site, MPI_BYTE, &g->t), "MPI_Type_contiguous"));
    return lattio_xfer_mpi(MPI_Type_commit(&g->t), "MPI_Type_commit");
}

/* Collective over the group: the writer learns every member's count for
 * the round (-1: that member failed) and tells them whether it goes on. */
static int round_counts(const writers *w, rounds *g, int mine_n, int rc)
{
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Gather(&mine_n, 1, MPI_INT, g->cnt, 1, MPI_INT, 0, w->group), "MPI_Gather"));
    int bad = 0;
    for (int q = 0; w->grank == 0 && q < w->gsize; q++) {
        bad |= g->cnt[q] < 0;
        g->dsp[q] = q ? g->dsp[q - 1] + g->cnt[q - 1] : 0;
    }
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Bcast(&bad, 1, MPI_INT, 0, w->group), "MPI_Bcast"));
    if (bad) return rc != LATTIO_OK ? rc : LATTIO_FAIL(LATTIO_ERR_OTHER_RANK, "a rank of the node failed");
    return LATTIO_OK;
}

/* Collective over the group: every member's sites to the writer in rounds
 * of about CHUNK_BYTES per member, each round written at its places. */
static int gather_rounds(const lattio_field_desc *d, const lattio_layout *l, const void *local, const uint64_t *mine,
                         uint64_t ls, const writers *w, lattio_volume_out *o, uint64_t at, lattio_scidac_sum *sum,
                         lattio_scidac_sum *want)
{
    rounds g;
    int rc = rounds_init(&g, d, l, w);
    uint64_t nr = (ls + g.per - 1) / g.per, all_rounds = 0;
    const int ar = lattio_xfer_mpi(MPI_Allreduce(&nr, &all_rounds, 1, MPI_UINT64_T, MPI_MAX, w->group), "MPI_Allreduce");
    if (rc == LATTIO_OK) rc = ar;
    for (uint64_t r = 0; ar == LATTIO_OK && r < all_rounds; r++) {
        const uint64_t first = r * g.per, n = first >= ls ? 0 : ls - first < g.per ? ls - first : g.per;
        if (rc == LATTIO_OK) rc = chunk_bytes(d, l, local, mine, first, n, g.packed, g.bytes, sum);
        const int mine_n = rc == LATTIO_OK ? (int)n : -1; /* -1: this member failed */
        rc = round_counts(w, &g, mine_n, rc);
        if (rc != LATTIO_OK) break;
        rc = lattio_xfer_mpi(MPI_Gatherv(g.bytes, mine_n, g.t, g.buf, g.cnt, g.dsp, g.t, 0, w->group), "MPI_Gatherv");
        if (rc == LATTIO_OK && w->grank == 0) rc = place_round(o, w, at, g.site, g.buf, g.cnt, g.k0, want);
        for (int q = 0; w->grank == 0 && q < w->gsize; q++) g.k0[q] += (uint64_t)g.cnt[q];
    }
    rounds_free(&g);
    return rc;
}

/* Collective: one field, each volume written by its node's writer from
 * the members' sites gathered in bounded rounds; the checksum record once
 * the ranks' sums are combined. */
static int write_field(MPI_Comm comm, const lattio_field_desc *d, const lattio_layout *l, const void *local,
                       const uint64_t *mine, uint64_t ls, const writers *w, lattio_field_info *fi, int master,
                       lattio_volume_out *o, lattio_scidac_sum *total)
{
    int own = w->gsize == 1, all_own = 0;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Allreduce(&own, &all_own, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce"));
    if (all_own) return write_own(comm, d, l, local, mine, ls, fi, master, o, total);
    const size_t site = (size_t)d->elements * lattio_real_size(d->disk_format);
    lattio_scidac_sum sum = {0, 0}, want = {0, 0};
    uint64_t at = 0;
    int rc = w->grank == 0 ? write_head(o, fi, master, w->total * site, &at) : LATTIO_OK;
    rc = lattio_agree(comm, rc);
    if (rc == LATTIO_OK) rc = gather_rounds(d, l, local, mine, ls, w, o, at, &sum, &want);
    if (rc == LATTIO_OK && w->grank == 0) rc = lattio_volume_out_written(o, at, w->total * site);
    if (rc == LATTIO_OK && w->grank == 0 && d->verify) rc = reread(o, at, site, w->ranks, w->total, want);
    rc = lattio_agree(comm, rc);
    if (rc == LATTIO_OK) rc = lattio_agree(comm, lattio_field_xor_sum(comm, &sum));
    fi->stored = sum;
    if (rc == LATTIO_OK && master) rc = lattio_volume_out_payload(o, fi, LATTIO_REC_CHECKSUM, 0, 1);
    *total = sum;
    return lattio_agree(comm, rc);
}

/* Local: the argument checks of a write. */
static int check_write(const char *base, int volfmt, const lattio_field_desc *d, const lattio_layout *l, int n,
                       const void *const *locals)
{
    RETURN_IF(!base || !d || !l || n < 1 || !locals, LATTIO_ERR_ARG);
    RETURN_IF(volfmt < LATTIO_VOLFMT_MULTI || volfmt > LATTIO_VOLFMT_PART_DIR, LATTIO_ERR_ARG);
    RETURN_IF(d->disk_format != LATTIO_REAL_F32_BE && d->disk_format != LATTIO_REAL_F64_BE, LATTIO_ERR_ARG);
    RETURN_IF(d->datacount == 0 || d->elements % d->datacount, LATTIO_ERR_ARG);
    for (int k = 0; k < n; k++) RETURN_IF_ERROR(lattio_field_check_memory(d, l, locals[k]));
    RETURN_IF_ERROR(lattio_field_check_metadata(d));
    return lattio_field_desc_type_check(d, l);
}

/* Rank 0: the gathered volumes (all[2r] the number of rank r's volume or
 * -1, its temporary's name at names + displs[r]) published. */
static int publish_gathered(const char *base, int volfmt, int size, const int *all, char *names, const int *displs)
{
    int n = 0;
    int *numbers = lattio_malloc((size_t)size * sizeof *numbers);
    char **tmps = lattio_malloc((size_t)size * sizeof *tmps);
    int rc = numbers && tmps ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "publish");
    for (int r = 0; rc == LATTIO_OK && r < size; r++)
        if (all[2 * r] >= 0) numbers[n] = all[2 * r], tmps[n++] = names + displs[r];
    if (rc == LATTIO_OK) rc = lattio_volumes_publish(base, volfmt, n, numbers, tmps);
    lattio_free(numbers);
    lattio_free(tmps);
    return rc;
}

/* What rank 0 gathers for the publication: each rank's volume number (or
 * -1) and temporary name's length (all[2r], all[2r + 1]), the names. */
typedef struct gathered {
    int *all, *displs, *lens;
    char *names;
} gathered;

static void gathered_free(gathered *g)
{
    lattio_free(g->all);
    lattio_free(g->displs);
    lattio_free(g->lens);
    lattio_free(g->names);
}

/* Collective: every rank's volume number and temporary name to rank 0. */
static int gather_names(MPI_Comm comm, int rank, int size, const int mine[2], const char *tmp, gathered *g)
{
    memset(g, 0, sizeof *g);
    const int root = rank == 0;
    if (root) {
        g->all = lattio_malloc((size_t)size * 2 * sizeof *g->all);
        g->displs = lattio_malloc((size_t)size * sizeof *g->displs);
        g->lens = lattio_malloc((size_t)size * sizeof *g->lens);
    }
    int rc = lattio_agree(comm, root && (!g->all || !g->displs || !g->lens) ? LATTIO_ERR_NOMEM : LATTIO_OK);
    if (rc == LATTIO_OK)
        rc = lattio_xfer_mpi(MPI_Gather(mine, 2, MPI_INT, g->all, 2, MPI_INT, 0, comm), "MPI_Gather");
    uint64_t total = 0;
    for (int r = 0; root && rc == LATTIO_OK && r < size; r++) {
        g->displs[r] = (int)total, g->lens[r] = g->all[2 * r + 1];
        total += (uint64_t)g->lens[r];
    }
    if (root && rc == LATTIO_OK) g->names = total <= INT32_MAX ? lattio_malloc(total ? total : 1) : NULL;
    if (rc == LATTIO_OK) rc = lattio_agree(comm, root && !g->names ? LATTIO_ERR_NOMEM : LATTIO_OK);
    if (rc == LATTIO_OK)
        rc = lattio_xfer_mpi(MPI_Gatherv(tmp ? tmp : "", mine[1], MPI_CHAR, g->names, g->lens, g->displs, MPI_CHAR,
                                         0, comm),
                             "MPI_Gatherv");
    return rc;
}

/* Collective: rank 0 publishes the set as one unit from every writer's
 * volume number and temporary name (lattio_volumes_publish; on its
 * failure it removes every temporary).  `rc`: the writing's agreed
 * status; on failure there is nothing to publish (the writers removed
 * theirs). */
static int publish_set(MPI_Comm comm, const char *base, int volfmt, const writers *w, const char *tmp, int rc)
{
    int rank, size;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_rank(comm, &rank), "rank"));
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_size(comm, &size), "size"));
    if (rc != LATTIO_OK) return rc;
    const int mine[2] = {w->grank == 0 && tmp ? w->number : -1, tmp ? (int)strlen(tmp) + 1 : 0};
    gathered g;
    rc = gather_names(comm, rank, size, mine, tmp, &g);
    int handed = rc == LATTIO_OK; /* rank 0 publishes: the temporaries are its to remove or keep */
    if (rc == LATTIO_OK && rank == 0) rc = publish_gathered(base, volfmt, size, g.all, g.names, g.displs);
    if (lattio_xfer_mpi(MPI_Bcast(&handed, 1, MPI_INT, 0, comm), "MPI_Bcast") != LATTIO_OK) handed = 0;
    if (!handed && tmp) unlink(tmp);
    gathered_free(&g);
    return lattio_agree(comm, rc);
}

static int write_set(MPI_Comm comm, const char *base, int volfmt, const lattio_field_desc *d, const lattio_layout *l,
                     int n, const void *const *locals, lattio_field_write_info *out)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    geometry g;
    geometry_of(l, &g);
    uint64_t *boxes = NULL;
    int tile = 0;
    RETURN_IF_ERROR(share_boxes(comm, &g, &boxes, &tile));
    lattio_free(boxes);
    RETURN_IF_ERROR(lattio_agree(comm, tile ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_LAYOUT, "boxes do not cover the lattice")));
    const uint64_t ls = lattio_layout_local_sites(l);
    uint64_t *mine = lattio_malloc((size_t)(ls ? ls : 1) * 8);
    RETURN_IF_ERROR(lattio_agree(comm, mine ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "ranks")));
    for (uint64_t i = 0; i < ls; i++) mine[i] = rank_of(&g, i);
    writers w;
    int rc = lattio_agree(comm, make_writers(comm, volfmt, mine, ls, &w));
    lattio_field_info fi;
    lattio_field_describe(&fi, d, l);
    fi.volfmt = volfmt;
    lattio_volume_out o;
    memset(&o, 0, sizeof o);
    o.fd = -1;
    const int master = rank == 0;
    char made[4096] = "";
    if (rc == LATTIO_OK)
        rc = lattio_agree(comm, w.grank == 0 ? open_volume(base, volfmt, &w, &fi, master, &o, made) : LATTIO_OK);
    lattio_scidac_sum sum = {0, 0};
    for (int k = 0; rc == LATTIO_OK && k < n; k++) {
        fi.index = k;
        rc = write_field(comm, d, l, locals[k], mine, ls, &w, &fi, master, &o, &sum);
    }
    /* every volume complete: the set published as one unit; otherwise
     * every volume and directory made removed */
    rc = lattio_agree(comm, rc);
    char *tmp = NULL;
    const int kept = w.grank == 0 ? lattio_volume_out_keep(&o, rc == LATTIO_OK, &tmp) : LATTIO_OK;
    rc = publish_set(comm, base, volfmt, &w, tmp, lattio_agree(comm, rc < 0 ? rc : kept));
    lattio_free(tmp);
    if (rc != LATTIO_OK && made[0]) (void)rmdir(made); /* kept when something else is in it */
    if (rc == LATTIO_OK && out) {
        out->sum = sum;
        out->rounds = 1;
    }
    writers_free(&w);
    lattio_free(mine);
    return rc;
}

int lattio_volumes_write(MPI_Comm comm, const char *base, int volfmt, const lattio_field_desc *d,
                         const lattio_layout *l, int n, const void *const *locals, lattio_field_write_info *out)
{
    if (out) memset(out, 0, sizeof *out);
    lattio_detail_clear();
    RETURN_IF_ERROR(lattio_agree(comm, check_write(base, volfmt, d, l, n, locals)));
    int rank = 0;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_rank(comm, &rank), "rank"));
    lattio_args a = {0};
    lattio_args_str(&a, "base", base);
    lattio_args_int(&a, "volfmt", volfmt);
    lattio_args_int(&a, "fields", n);
    lattio_args_int(&a, "dimensions", l->ndims);
    lattio_args_desc(&a, d, 1);
    RETURN_IF_ERROR(lattio_args_agree(comm, &a));
    RETURN_IF_ERROR(lattio_agree(comm, rank == 0 ? lattio_volumes_output_allowed(base, NULL, 0) : LATTIO_OK));
    return write_set(comm, base, volfmt, d, l, n, locals, out);
}
