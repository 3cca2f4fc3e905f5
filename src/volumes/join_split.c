/* join_split.c -- QIO's volume sets written serially: a set joined into
 * one file (QIO_part_to_single's bytes) and a single file split into a set
 * (QIO_single_to_part's bytes), every lattice field's checksum verified on
 * the way; and the pieces the parallel writer shares: the site list, the
 * private file XML, a volume's directory.  Every byte goes through the
 * core's LIME writer (a file under a temporary name; a volume is kept
 * there for the set's publication, lattio_volumes_publish). */
#include "volumes_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* --- pieces the parallel writer shares ------------------------------------ */

int lattio_volume_sitelist(const uint64_t *ranks, uint64_t n, unsigned char **out, uint64_t *len)
{
    uint64_t max = 0;
    for (uint64_t i = 0; i < n; i++) max = ranks[i] > max ? ranks[i] : max;
    const size_t w = max <= UINT32_MAX ? 4 : 8;
    RETURN_IF(n > SIZE_MAX / 8, LATTIO_ERR_OVERFLOW);
    unsigned char *b = lattio_malloc((size_t)(n ? n * w : 1));
    RETURN_IF(!b, LATTIO_ERR_NOMEM);
    for (uint64_t i = 0; i < n; i++)
        for (size_t k = 0; k < w; k++) b[i * w + k] = (unsigned char)(ranks[i] >> (8 * (w - 1 - k)));
    *out = b;
    *len = n * w;
    return LATTIO_OK;
}

int lattio_volume_private_file(int nd, const uint64_t *dims, int volfmt, char **out, size_t *len)
{
    lattio_field_info fi;
    memset(&fi, 0, sizeof fi);
    fi.nd = nd;
    memcpy(fi.dims, dims, sizeof fi.dims);
    fi.volfmt = volfmt;
    size_t n = 0;
    RETURN_IF_ERROR(lattio_field_payload(&fi, LATTIO_REC_PRIVATE_FILE_XML, NULL, 0, &n));
    *out = lattio_malloc(n);
    RETURN_IF(!*out, LATTIO_ERR_NOMEM);
    *len = n;
    return lattio_field_payload(&fi, LATTIO_REC_PRIVATE_FILE_XML, *out, n, len);
}

/* Copy the current record of r (its payload in chunks) to w with flags. */
static int copy_record(lattio_lime_reader *r, const lattio_record_info *info, lattio_lime_writer *w, int mb, int me)
{
    RETURN_IF_ERROR(lattio_lime_writer_begin(w, info->type, info->length, mb, me));
    const size_t chunk = (size_t)1 << 22;
    unsigned char *buf = lattio_malloc(chunk);
    RETURN_IF(!buf, LATTIO_ERR_NOMEM);
    int rc = LATTIO_OK;
    for (uint64_t at = 0; rc == LATTIO_OK && at < info->length; at += chunk) {
        const size_t n = info->length - at < chunk ? (size_t)(info->length - at) : chunk;
        rc = lattio_lime_reader_read_at(r, at, buf, n);
        if (rc == LATTIO_OK) rc = lattio_lime_writer_write(w, buf, n);
    }
    lattio_free(buf);
    return rc == LATTIO_OK ? lattio_lime_writer_end(w) : rc;
}

/* --- join ---------------------------------------------------------------------- */

typedef struct join_ctx {
    const lattio_field_info *fi;
    lattio_lime_writer *w;
    uint64_t site;
    lattio_scidac_sum sum;
} join_ctx;

/* A volume's chunk into the single file, runs of consecutive ranks at once. */
static int join_sink(void *vctx, const unsigned char *buf, const uint64_t *ranks, uint64_t n)
{
    join_ctx *c = vctx;
    RETURN_IF_ERROR(lattio_scidac_sum_ranked(&c->sum, buf, (size_t)c->site, (size_t)c->site, n, ranks));
    for (uint64_t i = 0; i < n;) {
        const uint64_t at = lattio_field_site_pos(c->fi, ranks[i]);
        uint64_t k = 1;
        while (i + k < n && lattio_field_site_pos(c->fi, ranks[i + k]) == at + k) k++;
        RETURN_IF_ERROR(lattio_lime_writer_write_at(c->w, at * c->site, buf + i * c->site, (size_t)(k * c->site)));
        i += k;
    }
    return LATTIO_OK;
}

static int join_field(lattio_volumes *v, const lattio_field_info *fi, const lattio_record_info *info, int me,
                      lattio_lime_writer *w)
{
    join_ctx c = {fi, w, fi->typesize * fi->datacount, {0, 0}};
    RETURN_IF_ERROR(lattio_lime_writer_begin(w, info->type, c.site * lattio_field_record_sites(fi), info->mb, me));
    RETURN_IF_ERROR(lattio_volumes_visit(v, fi->index, join_sink, &c));
    RETURN_IF_ERROR(lattio_lime_writer_end(w)); /* ERR_RECORD_SHORT: a site no volume held */
    if (fi->has_checksum && (c.sum.suma != fi->stored.suma || c.sum.sumb != fi->stored.sumb))
        return lattio_field_sum_mismatch(fi, c.sum);
    return LATTIO_OK;
}

/* The single file's header record from volume 0's private file XML. */
static int join_private_file(const lattio_field_info *f0, const lattio_record_info *info, int me,
                             lattio_lime_writer *w)
{
    char *x;
    size_t n;
    RETURN_IF_ERROR(lattio_volume_private_file(f0->nd, f0->dims, LATTIO_VOLFMT_SINGLE, &x, &n));
    const int rc = lattio_lime_writer_record(w, info->type, x, n, info->mb, me);
    lattio_free(x);
    return rc;
}

/* Record i of volume 0 (recs[0..n)) into w: a lattice field joined, the
 * private file XML the single file's, anything else copied; the message
 * a dropped site list ended (recs[i + 1]) ends with it. */
static int join_record(lattio_volumes *v, lattio_lime_reader *r, const lattio_record_info *recs, int n, int i,
                       int *binary, const lattio_field_info *f0, lattio_lime_writer *w)
{
    const lattio_record_info *info = &recs[i];
    const int me = info->me || (i + 1 < n && recs[i + 1].me && !strcmp(recs[i + 1].type, LATTIO_SITELIST_TYPE));
    RETURN_IF_ERROR(lattio_field_select_record(r, recs, i));
    lattio_field_info fi = {0};
    int rc = LATTIO_OK;
    const int is_binary = lattio_field_is_binary_type(info->type);
    if (is_binary) rc = lattio_volumes_field_info(v, (*binary)++, &fi);
    if (rc == LATTIO_OK && is_binary && fi.recordtype != 1) rc = join_field(v, &fi, info, me, w);
    else if (rc == LATTIO_OK && !strcmp(info->type, "scidac-private-file-xml")) rc = join_private_file(f0, info, me, w);
    else if (rc == LATTIO_OK) rc = copy_record(r, info, w, info->mb, me);
    lattio_field_info_free(&fi);
    return rc;
}

/* Volume 0's records in order into w, its site list dropped. */
static int join_records(lattio_volumes *v, lattio_lime_reader *r, lattio_lime_writer *w)
{
    lattio_field_info f0;
    RETURN_IF_ERROR(lattio_volumes_field_info(v, 0, &f0));
    lattio_record_info *recs = NULL;
    int n = 0, binary = 0;
    int rc = lattio_field_read_index(r, &recs, &n);
    for (int i = 0; rc == LATTIO_OK && i < n; i++)
        if (strcmp(recs[i].type, LATTIO_SITELIST_TYPE) != 0) rc = join_record(v, r, recs, n, i, &binary, &f0, w);
    lattio_free(recs);
    lattio_field_info_free(&f0);
    return rc;
}

/* The joined file replaces none of the set's volumes. */
static int join_output_allowed(const lattio_volumes *v, const char *out)
{
    lattio_volumes_info vi;
    RETURN_IF_ERROR(lattio_volumes_describe(v, &vi));
    for (int i = 0; i < vi.volumes; i++) {
        const char *in = lattio_volumes_path(v, i);
        RETURN_IF_ERROR(lattio_output_allowed(out, &in, 1));
    }
    return LATTIO_OK;
}

int lattio_volumes_join(const char *base, const char *out)
{
    RETURN_IF(!base || !out, LATTIO_ERR_ARG);
    lattio_volumes *v;
    RETURN_IF_ERROR(lattio_volumes_open(base, &v));
    lattio_lime_reader *r = NULL;
    lattio_lime_writer *w = NULL;
    int rc = join_output_allowed(v, out);
    if (rc == LATTIO_OK) rc = lattio_lime_reader_open(lattio_volumes_path(v, 0), &r);
    if (rc == LATTIO_OK) rc = lattio_lime_writer_open(out, LATTIO_LIME_CREATE, &w);
    if (rc == LATTIO_OK) rc = join_records(v, r, w);
    if (w) {
        char *kept = NULL;
        const int closed = rc == LATTIO_OK ? lattio_lime_writer_close(w) : lattio_lime_writer_keep(w, 0, &kept);
        if (rc == LATTIO_OK) rc = closed;
    }
    lattio_lime_reader_close(r);
    lattio_volumes_close(v);
    return rc;
}

/* --- split ---------------------------------------------------------------------- */

/* One partition of a split: a box of the lattice and its volume. */
typedef struct part {
    int number;
    uint64_t lo[LATTIO_MAX_DIMS], n[LATTIO_MAX_DIMS], sites;
    lattio_lime_writer *w;
} part;

typedef struct split_job {
    const lattio_volumes_plan *p;
    int nd;
    uint64_t dims[LATTIO_MAX_DIMS];
    part *parts;
    int nparts;
    char **made; /* directories this split made (partfile in directories), removed on failure */
    int nmade;
} split_job;

static int bad_plan(const char *what, int d, long long v)
{
    lattio_detail_set("volume plan: %s in dimension %d (%lld)", what, d, v);
    return LATTIO_FAIL(LATTIO_ERR_ARG, "plan");
}

/* The plan against the dims: nodes divide the lattice, partitions the nodes. */
static int check_plan(const split_job *j, int *io)
{
    const lattio_volumes_plan *p = j->p;
    RETURN_IF(p->volfmt < LATTIO_VOLFMT_MULTI || p->volfmt > LATTIO_VOLFMT_PART_DIR, LATTIO_ERR_ARG);
    if (p->nd != j->nd) return bad_plan("number of dimensions differs from the field's", 0, p->nd);
    int any_io = 0;
    for (int d = 0; d < j->nd; d++) any_io |= p->io_grid[d] != 0;
    long long total = 1;
    for (int d = 0; d < j->nd; d++) {
        io[d] = any_io ? p->io_grid[d] : p->grid[d];
        if (p->grid[d] < 1 || j->dims[d] % (uint64_t)p->grid[d]) return bad_plan("nodes do not divide the extent", d, p->grid[d]);
        if (io[d] < 1 || p->grid[d] % io[d]) return bad_plan("partitions do not divide the nodes", d, io[d]);
        if (p->volfmt == LATTIO_VOLFMT_MULTI && io[d] != p->grid[d])
            return bad_plan("multifile has one volume per node, not partitions", d, io[d]);
        total *= io[d];
        if (total > LATTIO_VOLUMES_MAX) return bad_plan("more volumes than lattio writes", d, total);
    }
    return LATTIO_OK;
}

static int plan_parts(split_job *j)
{
    int io[LATTIO_MAX_DIMS];
    RETURN_IF_ERROR(check_plan(j, io));
    int np = 1;
    for (int d = 0; d < j->nd; d++) np *= io[d];
    j->parts = lattio_calloc((size_t)np, sizeof *j->parts);
    RETURN_IF(!j->parts, LATTIO_ERR_NOMEM);
    j->nparts = np;
    for (int k = 0; k < np; k++) {
        part *q = &j->parts[k];
        long long number = 0, stride = 1;
        int rest = k;
        q->sites = 1;
        for (int d = 0; d < j->nd; d++) {
            const int c = rest % io[d], per = j->p->grid[d] / io[d]; /* io coordinate, nodes per partition */
            rest /= io[d];
            number += (long long)c * per * stride;
            stride *= j->p->grid[d];
            q->n[d] = j->dims[d] / (uint64_t)io[d];
            q->lo[d] = (uint64_t)c * q->n[d];
            q->sites *= q->n[d];
        }
        if (number > 999999999) return bad_plan("node numbers beyond nine digits", 0, number);
        q->number = (int)number;
    }
    return LATTIO_OK;
}

/* A box of sites: lower corner and extents, x first. */
typedef struct box {
    uint64_t lo[LATTIO_MAX_DIMS], n[LATTIO_MAX_DIMS], sites;
} box;

static box part_box(const part *q, int nd)
{
    box b;
    memcpy(b.lo, q->lo, sizeof b.lo);
    memcpy(b.n, q->n, sizeof b.n);
    b.sites = q->sites;
    for (int d = nd; d < LATTIO_MAX_DIMS; d++) b.n[d] = 1;
    return b;
}

/* The partition's sites a record of fi holds: all, or those in its hypercube. */
static box record_box(const part *q, int nd, const lattio_field_info *fi)
{
    box b = part_box(q, nd);
    if (fi->recordtype != 2) return b;
    b.sites = 1;
    for (int d = 0; d < nd; d++) {
        const uint64_t lo = b.lo[d] > fi->hyper_lower[d] ? b.lo[d] : fi->hyper_lower[d];
        const uint64_t end = b.lo[d] + b.n[d] < fi->hyper_upper[d] + 1 ? b.lo[d] + b.n[d] : fi->hyper_upper[d] + 1;
        b.lo[d] = lo;
        b.n[d] = end > lo ? end - lo : 0;
        b.sites *= b.n[d];
    }
    return b;
}

/* Lexicographic rank of the first site of row `row` of box b (x fastest). */
static uint64_t row_rank(const split_job *j, const box *b, uint64_t row)
{
    uint64_t rank = 0, stride = 1;
    for (int d = 0; d < j->nd; d++) {
        uint64_t c = b->lo[d];
        if (d > 0) {
            c += row % b->n[d];
            row /= b->n[d];
        }
        rank += c * stride;
        stride *= j->dims[d];
    }
    return rank;
}

static int part_sitelist(const split_job *j, const part *q, unsigned char **list, uint64_t *len)
{
    RETURN_IF(q->sites > SIZE_MAX / 8, LATTIO_ERR_OVERFLOW);
    uint64_t *ranks = lattio_malloc((size_t)(q->sites ? q->sites : 1) * sizeof *ranks);
    RETURN_IF(!ranks, LATTIO_ERR_NOMEM);
    const box b = part_box(q, j->nd);
    for (uint64_t row = 0, i = 0; i < q->sites; row++)
        for (uint64_t x = 0, first = row_rank(j, &b, row); x < q->n[0]; x++) ranks[i++] = first + x;
    const int rc = lattio_volume_sitelist(ranks, q->sites, list, len);
    lattio_free(ranks);
    return rc;
}

int lattio_volume_make_parent(const char *path, int *made)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    *made = 0;
    RETURN_IF(!slash || (size_t)(slash - path) >= sizeof dir, LATTIO_ERR_ARG);
    memcpy(dir, path, (size_t)(slash - path));
    dir[slash - path] = '\0';
    if ((*made = mkdir(dir, 0777) == 0) || errno == EEXIST) {
        struct stat st;
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return LATTIO_OK;
        lattio_detail_set("%s exists and is not a directory", dir);
        return LATTIO_FAIL(LATTIO_ERR_NOT_REGULAR, "volume directory");
    }
    return LATTIO_FAIL_ERRNO(LATTIO_ERR_OPEN, "mkdir");
}

/* The directory of a volume, made when missing (and noted, to be removed
 * again when the split fails). */
static int make_parent(split_job *j, const char *path)
{
    int made;
    RETURN_IF_ERROR(lattio_volume_make_parent(path, &made));
    if (!made) return LATTIO_OK;
    char **more = lattio_realloc(j->made, (size_t)(j->nmade + 1) * sizeof *more);
    RETURN_IF(!more, LATTIO_ERR_NOMEM);
    j->made = more;
    const char *slash = strrchr(path, '/');
    RETURN_IF(!(more[j->nmade] = lattio_malloc((size_t)(slash - path) + 1)), LATTIO_ERR_NOMEM);
    memcpy(more[j->nmade], path, (size_t)(slash - path));
    more[j->nmade++][slash - path] = '\0';
    return LATTIO_OK;
}

/* The volumes' headers: volume 0 the private file XML, its site list and
 * the file XML (file_xml: the single file's record or NULL), the others
 * their site list alone. */
static int split_headers(split_job *j, const char *base, lattio_lime_reader *r, const lattio_record_info *file_xml)
{
    char *pfx;
    size_t pfx_len;
    RETURN_IF_ERROR(lattio_volume_private_file(j->nd, j->dims, j->p->volfmt, &pfx, &pfx_len));
    int rc = LATTIO_OK;
    for (int k = 0; rc == LATTIO_OK && k < j->nparts; k++) {
        part *q = &j->parts[k];
        char path[4096];
        unsigned char *list = NULL;
        uint64_t len = 0;
        rc = lattio_volumes_name(base, j->p->volfmt, q->number, path, sizeof path);
        if (rc == LATTIO_OK && j->p->volfmt == LATTIO_VOLFMT_PART_DIR) rc = make_parent(j, path);
        if (rc == LATTIO_OK) rc = lattio_lime_writer_open(path, LATTIO_LIME_CREATE, &q->w);
        if (rc == LATTIO_OK) rc = part_sitelist(j, q, &list, &len);
        const int master = k == 0;
        if (rc == LATTIO_OK && master)
            rc = lattio_lime_writer_record(q->w, "scidac-private-file-xml", pfx, pfx_len, 1, 0);
        if (rc == LATTIO_OK)
            rc = lattio_lime_writer_record(q->w, LATTIO_SITELIST_TYPE, list, len, !master, !master || !file_xml);
        if (rc == LATTIO_OK && master && file_xml) {
            lattio_record_info got;
            rc = lattio_lime_reader_find(r, file_xml->type, 0, &got);
            if (rc == LATTIO_OK) rc = copy_record(r, &got, q->w, 0, 1);
        }
        lattio_free(list);
    }
    lattio_free(pfx);
    return rc;
}

/* Lattice field fi (the current record of r) cut into the partitions:
 * each partition's sites (of a subset: those in its hypercube) in
 * lexicographic order, read row by row from their place in the record. */
static int split_field(split_job *j, lattio_lime_reader *r, const lattio_field_info *fi, const lattio_record_info *info)
{
    const uint64_t site = fi->typesize * fi->datacount;
    RETURN_IF(site * j->parts[0].n[0] > SIZE_MAX / 2, LATTIO_ERR_OVERFLOW);
    unsigned char *row = lattio_malloc((size_t)(site * j->parts[0].n[0]));
    RETURN_IF(!row, LATTIO_ERR_NOMEM);
    lattio_scidac_sum sum = {0, 0};
    int rc = LATTIO_OK;
    for (int k = 0; rc == LATTIO_OK && k < j->nparts; k++) {
        part *q = &j->parts[k];
        const box b = record_box(q, j->nd, fi);
        const size_t bytes = (size_t)(site * b.n[0]);
        rc = lattio_lime_writer_begin(q->w, info->type, b.sites * site, k ? 1 : info->mb, k ? 1 : info->me);
        for (uint64_t rw = 0, i = 0; rc == LATTIO_OK && i < b.sites; rw++, i += b.n[0]) {
            const uint64_t first = row_rank(j, &b, rw);
            rc = lattio_lime_reader_read_at(r, lattio_field_site_pos(fi, first) * site, row, bytes);
            if (rc == LATTIO_OK) rc = lattio_scidac_sum_sites(&sum, row, (size_t)site, b.n[0], first);
            if (rc == LATTIO_OK) rc = lattio_lime_writer_write(q->w, row, bytes);
        }
        if (rc == LATTIO_OK) rc = lattio_lime_writer_end(q->w);
    }
    lattio_free(row);
    RETURN_IF_ERROR(rc);
    if (fi->has_checksum && (sum.suma != fi->stored.suma || sum.sumb != fi->stored.sumb))
        return lattio_field_sum_mismatch(fi, sum);
    return LATTIO_OK;
}

/* The single file's records after its header into the volumes: lattice
 * fields cut, everything else to volume 0 as it is. */
static int split_records(split_job *j, lattio_lime_reader *r, const lattio_record_info *recs, int n,
                         const lattio_field_info *fields)
{
    int binary = 0, seen_pfx = 0, seen_fx = 0;
    for (int i = 0; i < n; i++) {
        if (!strcmp(recs[i].type, "scidac-private-file-xml") && !seen_pfx++) continue;
        if (!strcmp(recs[i].type, "scidac-file-xml") && !seen_fx++) continue;
        RETURN_IF_ERROR(lattio_field_select_record(r, recs, i));
        const lattio_field_info *fi = lattio_field_is_binary_type(recs[i].type) ? &fields[binary++] : NULL;
        if (fi && fi->recordtype != 1) RETURN_IF_ERROR(split_field(j, r, fi, &recs[i]));
        else RETURN_IF_ERROR(copy_record(r, &recs[i], j->parts[0].w, recs[i].mb, recs[i].me));
    }
    return LATTIO_OK;
}

/* Every binary record described; the lattice fields' dims (all equal). */
static int split_fields(lattio_lime_reader *r, split_job *j, lattio_field_info **fields, int *n)
{
    RETURN_IF_ERROR(lattio_field_count(r, n));
    *fields = lattio_calloc((size_t)(*n ? *n : 1), sizeof **fields);
    RETURN_IF(!*fields, LATTIO_ERR_NOMEM);
    for (int k = 0; k < *n; k++) {
        lattio_field_info *fi = &(*fields)[k];
        RETURN_IF_ERROR(lattio_field_info_read(r, k, fi));
        if (fi->recordtype == 1) continue;
        if (j->nd == 0) {
            j->nd = fi->nd;
            memcpy(j->dims, fi->dims, sizeof j->dims);
        }
        RETURN_IF(fi->nd != j->nd || memcmp(fi->dims, j->dims, sizeof j->dims), LATTIO_ERR_FIELD_DIMS);
    }
    if (j->nd == 0) {
        lattio_detail_set("no lattice field to split");
        return LATTIO_FAIL(LATTIO_ERR_NOT_FOUND, "lattice field");
    }
    return LATTIO_OK;
}

/* All volumes or none: every part complete is published as the set, one
 * unit (lattio_volumes_publish); otherwise every temporary and directory
 * made is removed. */
static int publish_parts(split_job *j, const char *base, int rc)
{
    char **tmps = lattio_calloc((size_t)(j->nparts ? j->nparts : 1), sizeof *tmps);
    int *numbers = lattio_malloc((size_t)(j->nparts ? j->nparts : 1) * sizeof *numbers);
    if (rc == LATTIO_OK && (!tmps || !numbers)) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "volumes");
    for (int k = 0; k < j->nparts; k++) {
        char *tmp = NULL;
        const int kept = j->parts[k].w ? lattio_lime_writer_keep(j->parts[k].w, rc == LATTIO_OK && tmps, &tmp) : LATTIO_OK;
        j->parts[k].w = NULL;
        if (tmps) tmps[k] = tmp;
        else lattio_free(tmp);
        if (rc == LATTIO_OK) rc = kept;
        if (numbers) numbers[k] = j->parts[k].number;
    }
    if (rc == LATTIO_OK) rc = lattio_volumes_publish(base, j->p->volfmt, j->nparts, numbers, tmps);
    for (int k = 0; tmps && k < j->nparts; k++) lattio_free(tmps[k]); /* published, removed, or in its journal */
    for (int k = j->nmade - 1; k >= 0; k--) {
        if (rc != LATTIO_OK) (void)rmdir(j->made[k]); /* kept when something else is in it */
        lattio_free(j->made[k]);
    }
    lattio_free(j->made);
    lattio_free(tmps);
    lattio_free(numbers);
    return rc;
}

static int split_into(split_job *j, lattio_lime_reader *r, const char *base)
{
    lattio_field_info *fields = NULL;
    lattio_record_info *recs = NULL;
    int nf = 0, n = 0;
    int rc = split_fields(r, j, &fields, &nf);
    if (rc == LATTIO_OK) rc = plan_parts(j);
    if (rc == LATTIO_OK) rc = lattio_field_read_index(r, &recs, &n);
    int fx = -1;
    for (int i = 0; rc == LATTIO_OK && i < n && fx < 0; i++) fx = strcmp(recs[i].type, "scidac-file-xml") ? -1 : i;
    if (rc == LATTIO_OK) rc = split_headers(j, base, r, fx >= 0 ? &recs[fx] : NULL);
    if (rc == LATTIO_OK) rc = split_records(j, r, recs, n, fields);
    for (int k = 0; fields && k < nf; k++) lattio_field_info_free(&fields[k]);
    lattio_free(fields);
    lattio_free(recs);
    return publish_parts(j, base, rc);
}

int lattio_volumes_split(const char *in, const char *base, const lattio_volumes_plan *p)
{
    RETURN_IF(!in || !base || !p, LATTIO_ERR_ARG);
    lattio_detail_clear();
    RETURN_IF_ERROR(lattio_volumes_output_allowed(base, &in, 1));
    lattio_lime_reader *r;
    RETURN_IF_ERROR(lattio_lime_reader_open(in, &r));
    split_job j;
    memset(&j, 0, sizeof j);
    j.p = p;
    const int rc = split_into(&j, r, base);
    lattio_free(j.parts);
    lattio_lime_reader_close(r);
    return rc;
}
