/* read.c -- a QIO volume set read in parallel.  Rank 0 finds the set and
 * reads volume 0's metadata and broadcasts it; the ranks share the volumes
 * (volume i to rank i mod P), each reads its volumes whole with the serial
 * LIME reader (records checked, site list, the field's part), checksums the
 * sites with their ranks and hands each site to the rank whose box holds it
 * (lattio_xfer_route, the MPI layer's door); receivers place and convert
 * them and check that no site came twice and, when the boxes tile the
 * lattice, none is missing.  The checksum covers every site of the set
 * whatever the boxes. */
#include "volumes_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    int rank = 0;
    memset(s, 0, sizeof *s);
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank"));
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
    const lattio_vbox *g;
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
    const uint64_t idx = lattio_vbox_index(o->g, o->g->lo, o->g->n, r);
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
    const int per = LATTIO_VBOX_VALUES;
    for (int t = 0; t < o->size; t++) {
        const int q = (o->last + t) % o->size;
        const uint64_t *b = o->boxes + (size_t)q * per;
        if (lattio_vbox_index(o->g, b, b + LATTIO_MAX_DIMS, r) != UINT64_MAX) return o->last = q;
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
    int rank = 0, size = 1;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank"));
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size"));
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

/* Collective: the posted sites to their ranks. */
static int exchange(MPI_Comm comm, outbox *o, unsigned char **in, uint64_t *nin)
{
    return lattio_xfer_route(comm, (size_t)o->elem, o->buf, o->len, in, nin);
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
                       const lattio_vbox *g, const uint64_t *boxes, outbox *o)
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
    lattio_vbox g;
    lattio_vbox_of(l, &g);
    uint64_t *boxes = NULL;
    int tile = 0;
    int rc = lattio_vbox_share(comm, &g, &boxes, &tile);
    outbox o;
    memset(&o, 0, sizeof o);
    if (rc == LATTIO_OK) rc = outbox_init(comm, s, d, l, &g, boxes, &o);
    if (rc == LATTIO_OK) rc = read_my_volumes(comm, base, s, &o);
    rc = lattio_agree(comm, rc);
    if (rc == LATTIO_OK) rc = lattio_agree(comm, count_read(comm, s, &o)); /* its reduction may fail on one rank */
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
