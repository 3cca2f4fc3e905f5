/* volumes.c -- QIO's volume sets (multifile and partfile, docs/format.md
 * "QIO volumes"), read: the volumes of a base name found, each volume's
 * records and site list checked against volume 0's metadata, a field's
 * pieces put together in lexicographic order with their checksum. */
#include "volumes_internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#define CHUNK_BYTES (UINT64_C(4) << 20)
#define MAX_VOLUME_RECORDS 100000

/* --- names ------------------------------------------------------------------ */

/* dir and name of base ("." and base when it has no slash). */
static int split_base(const char *base, char *dir, size_t dsize, const char **name)
{
    const char *slash = strrchr(base, '/');
    *name = slash ? slash + 1 : base;
    RETURN_IF(!**name, LATTIO_ERR_ARG);
    const size_t n = slash ? (size_t)(slash - base) : 1;
    RETURN_IF(n + 1 > dsize, LATTIO_ERR_OVERFLOW);
    if (!slash) memcpy(dir, ".", 2);
    else if (n == 0) memcpy(dir, "/", 2);
    else {
        memcpy(dir, base, n);
        dir[n] = '\0';
    }
    return LATTIO_OK;
}

int lattio_volumes_name(const char *base, int volfmt, int number, char *out, size_t size)
{
    RETURN_IF(!base || !out || number < 0 || volfmt < LATTIO_VOLFMT_MULTI || volfmt > LATTIO_VOLFMT_PART_DIR,
              LATTIO_ERR_ARG);
    int n;
    if (volfmt != LATTIO_VOLFMT_PART_DIR) n = snprintf(out, size, "%s.vol%04d", base, number);
    else {
        const char *slash = strrchr(base, '/');
        const int dlen = slash ? (int)(slash - base) + 1 : 0;
        n = snprintf(out, size, "%.*svol%04d/%s", dlen, base, number, base + dlen);
    }
    RETURN_IF(n < 0 || (size_t)n >= size, LATTIO_ERR_OVERFLOW);
    return LATTIO_OK;
}

/* The number of a volume's name part "volNNNN" (canonical: at least four
 * digits, zero-padded to four only); -1 otherwise. */
static int volume_number(const char *s)
{
    const size_t n = strlen(s);
    if (n < 4 || n > 9 || strspn(s, "0123456789") != n) return -1;
    const long v = strtol(s, NULL, 10);
    char again[16];
    snprintf(again, sizeof again, "%04ld", v);
    return strcmp(again, s) == 0 ? (int)v : -1;
}

static int is_regular(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int cmp_int(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The volume numbers of the set in directory dir: entries NAME.volNNNN
 * (flat) or volNNNN/NAME (in directories), sorted. */
static int scan_dir(const char *dir, const char *name, int in_dirs, int **numbers, int *count)
{
    DIR *d = opendir(dir);
    RETURN_IF(!d, LATTIO_FAIL_ERRNO(LATTIO_ERR_OPEN, "opendir"));
    const size_t nl = strlen(name);
    int cap = 0, rc = LATTIO_OK;
    *numbers = NULL;
    *count = 0;
    for (struct dirent *e; rc == LATTIO_OK && (e = readdir(d));) {
        int k = -1;
        if (!in_dirs && strncmp(e->d_name, name, nl) == 0 && strncmp(e->d_name + nl, ".vol", 4) == 0)
            k = volume_number(e->d_name + nl + 4);
        if (in_dirs && strncmp(e->d_name, "vol", 3) == 0) {
            k = volume_number(e->d_name + 3);
            char path[4096];
            if (k >= 0 && (snprintf(path, sizeof path, "%s/%s/%s", dir, e->d_name, name) >= (int)sizeof path ||
                           !is_regular(path)))
                k = -1;
        }
        if (k < 0) continue;
        if (*count == LATTIO_VOLUMES_MAX) {
            lattio_detail_set("more than %d volumes of %s in %s", LATTIO_VOLUMES_MAX, name, dir);
            rc = LATTIO_FAIL(LATTIO_ERR_UNSUPPORTED, "too many volumes");
            break;
        }
        if (*count == cap) {
            cap = cap ? 2 * cap : 64;
            int *p = lattio_realloc(*numbers, (size_t)cap * sizeof *p);
            if (!p) {
                rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "volume list");
                break;
            }
            *numbers = p;
        }
        (*numbers)[(*count)++] = k;
    }
    closedir(d);
    if (rc == LATTIO_OK && *count) qsort(*numbers, (size_t)*count, sizeof **numbers, cmp_int);
    return rc;
}

int lattio_volumes_list_as(const char *base, int in_dirs, int **numbers, int *count)
{
    char dir[4096];
    const char *name;
    RETURN_IF_ERROR(split_base(base, dir, sizeof dir, &name));
    return scan_dir(dir, name, in_dirs, numbers, count);
}

int lattio_volumes_list(const char *base, int *in_dirs, int **numbers, int *count)
{
    RETURN_IF(!base || !in_dirs || !numbers || !count, LATTIO_ERR_ARG);
    *numbers = NULL;
    *count = 0;
    char dir[4096], flat[4096], nested[4096];
    const char *name;
    RETURN_IF_ERROR(split_base(base, dir, sizeof dir, &name));
    RETURN_IF_ERROR(lattio_volumes_name(base, LATTIO_VOLFMT_PART, 0, flat, sizeof flat));
    RETURN_IF_ERROR(lattio_volumes_name(base, LATTIO_VOLFMT_PART_DIR, 0, nested, sizeof nested));
    if (is_regular(flat)) *in_dirs = 0;
    else if (is_regular(nested)) *in_dirs = 1;
    else {
        lattio_detail_set("no QIO volume set %s: neither %s nor %s is a file", base, flat, nested);
        return LATTIO_FAIL(LATTIO_ERR_OPEN, "volume 0");
    }
    return scan_dir(dir, name, *in_dirs, numbers, count);
}

int lattio_volumes_journal_name(const char *base, char *out, size_t size)
{
    RETURN_IF(!base || !out, LATTIO_ERR_ARG);
    const int n = snprintf(out, size, "%s" LATTIO_VOLUMES_JOURNAL, base);
    RETURN_IF(n < 0 || (size_t)n >= size, LATTIO_ERR_OVERFLOW);
    return LATTIO_OK;
}

int lattio_volumes_interrupted(const char *base)
{
    char j[4096];
    struct stat st;
    return base && lattio_volumes_journal_name(base, j, sizeof j) == LATTIO_OK && lstat(j, &st) == 0;
}

const char *lattio_volfmt_name(int volfmt)
{
    return volfmt == LATTIO_VOLFMT_MULTI ? "multifile" : volfmt == LATTIO_VOLFMT_PART ? "partfile" : "partfile-dir";
}

int lattio_volumes_probe(const char *base)
{
    if (lattio_volumes_interrupted(base)) return 1; /* a publication to finish: nothing at base is current */
    if (!base || is_regular(base)) return 0;
    char name[4096];
    return (lattio_volumes_name(base, LATTIO_VOLFMT_PART, 0, name, sizeof name) == LATTIO_OK && is_regular(name)) ||
           (lattio_volumes_name(base, LATTIO_VOLFMT_PART_DIR, 0, name, sizeof name) == LATTIO_OK &&
            is_regular(name));
}

/* --- one volume ---------------------------------------------------------------- */

void lattio_volume_free(lattio_volume *vo)
{
    if (!vo) return;
    lattio_free(vo->path);
    lattio_free(vo->data);
    memset(vo, 0, sizeof *vo);
}

/* A failure in volume vo: the detail prefixed with its name. */
static int in_volume(const lattio_volume *vo, int rc)
{
    if (rc >= 0) return rc;
    char what[LATTIO_DETAIL_MAX];
    snprintf(what, sizeof what, "%s", lattio_detail_peek());
    lattio_detail_set("volume %s: %s", vo->path, what[0] ? what : lattio_strerror(rc));
    return rc;
}

/* The records of the volume: its site list and its binary records (on
 * volume 0 only those of lattice fields, is_lattice[k] for its k-th). */
static int index_records(lattio_lime_reader *r, lattio_volume *vo, const int *is_lattice, int nbinary)
{
    lattio_record_info info;
    int cap = 0, seen_binary = 0, seen_list = 0, rc;
    while ((rc = lattio_lime_reader_next(r, &info)) == LATTIO_OK) {
        if (strcmp(info.type, LATTIO_SITELIST_TYPE) == 0 && !seen_list++) vo->sitelist = info;
        if (!lattio_field_is_binary_type(info.type)) continue;
        const int k = seen_binary++;
        if (is_lattice && (k >= nbinary || !is_lattice[k])) continue;
        RETURN_IF(vo->ndata >= MAX_VOLUME_RECORDS, LATTIO_ERR_BAD_METADATA);
        if (vo->ndata == cap) {
            cap = cap ? 2 * cap : 16;
            lattio_record_info *d = lattio_realloc(vo->data, (size_t)cap * sizeof *d);
            RETURN_IF(!d, LATTIO_ERR_NOMEM);
            vo->data = d;
        }
        vo->data[vo->ndata++] = info;
    }
    RETURN_IF(rc != LATTIO_ERR_EOF, rc);
    if (!seen_list) {
        lattio_detail_set("no %s record", LATTIO_SITELIST_TYPE);
        return LATTIO_FAIL(LATTIO_ERR_VOLUME_MISSING, "site list");
    }
    return LATTIO_OK;
}

/* The site list and field `first`'s record disagree: when the record
 * holds the listed sites at half or twice the bytes volume 0 gives a site
 * (site_bytes), the volume was written at another precision: said so. */
static int other_precision(const lattio_volume *vo, uint64_t site_bytes, int first, uint64_t volume)
{
    const uint64_t len = vo->sitelist.length, data = vo->data[first].length;
    for (uint64_t w = 4; w <= 8; w += 4) {
        const uint64_t n = len % w ? 0 : len / w;
        if (!n || n > volume) continue;
        if (data == n * site_bytes / 2 || data == n * site_bytes * 2) {
            lattio_detail_set("%s record %d holds %llu bytes for the %llu listed sites: %s the %llu bytes a site has in "
                              "volume 0 (the volume was written at another precision)",
                              vo->data[first].type, first + 1, (unsigned long long)data, (unsigned long long)n,
                              data < n * site_bytes ? "half" : "twice", (unsigned long long)site_bytes);
            return LATTIO_FAIL(LATTIO_ERR_FIELD_LENGTH, "volume precision");
        }
    }
    return LATTIO_OK;
}

/* Sites and rank width from the binary records (site_bytes[j] of lattice
 * field j) and the site list's length. */
static int settle_sites(lattio_volume *vo, const uint64_t *site_bytes, const int *whole, int nlattice,
                        uint64_t volume)
{
    if (vo->ndata != nlattice) {
        lattio_detail_set("%d binary records of lattice fields, volume 0 describes %d", vo->ndata, nlattice);
        return LATTIO_FAIL(LATTIO_ERR_VOLUME_MISSING, "binary records");
    }
    const uint64_t len = vo->sitelist.length;
    int first = -1; /* the first field of every site settles the count */
    for (int j = 0; j < nlattice && first < 0; j++) first = whole[j] ? j : -1;
    if (first >= 0) vo->sites = vo->data[first].length / site_bytes[first];
    else vo->sites = volume - 1 <= UINT32_MAX || len % 8 ? len / 4 : len / 8;
    for (int j = 0; j < nlattice; j++)
        if (whole[j] ? vo->data[j].length != vo->sites * site_bytes[j] : vo->data[j].length % site_bytes[j] != 0) {
            lattio_detail_set("%s record %d holds %llu bytes, not %llu sites of %llu bytes", vo->data[j].type,
                              j + 1, (unsigned long long)vo->data[j].length, (unsigned long long)vo->sites,
                              (unsigned long long)site_bytes[j]);
            return LATTIO_FAIL(LATTIO_ERR_FIELD_LENGTH, "volume part");
        }
    vo->width = len == 4 * vo->sites ? 4 : len == 8 * vo->sites ? 8 : 0;
    if (!vo->width && first >= 0) RETURN_IF_ERROR(other_precision(vo, site_bytes[first], first, volume));
    if (vo->width && vo->sites == 0) { /* QIO writes no empty volume */
        lattio_detail_set("%s lists no site", LATTIO_SITELIST_TYPE);
        return LATTIO_FAIL(LATTIO_ERR_VOLUME_SITES, "empty volume");
    }
    if (!vo->width || vo->sites > volume) {
        lattio_detail_set("%s of %llu bytes for %llu sites (4 or 8 bytes each, at most %llu)",
                          LATTIO_SITELIST_TYPE, (unsigned long long)len, (unsigned long long)vo->sites,
                          (unsigned long long)volume);
        return LATTIO_FAIL(LATTIO_ERR_VOLUME_SITES, "site list length");
    }
    return LATTIO_OK;
}

int lattio_volume_scan(lattio_volume *vo, const lattio_volume_meta *m)
{
    lattio_lime_reader *r;
    int rc = lattio_lime_reader_open(vo->path, &r);
    if (rc == LATTIO_OK) {
        rc = index_records(r, vo, vo->number == 0 ? m->is_lattice : NULL, m->nbinary);
        if (rc == LATTIO_OK) rc = settle_sites(vo, m->site_bytes, m->whole, m->nlattice, m->volume);
        lattio_lime_reader_close(r);
    }
    return in_volume(vo, rc);
}

/* Select record `want` (from r's own index) in r. */
static int select_record(lattio_lime_reader *r, const lattio_record_info *want)
{
    return lattio_lime_reader_goto(r, want); /* its header read again at its offset and compared */
}

/* Site i's rank v is beyond the lattice.  A list read as 64-bit ranks
 * whose 32-bit reading holds only ranks inside it is a 32-bit list of
 * twice the sites: the volume's records hold half the bytes per site that
 * volume 0 says (another precision), which is what is wrong. */
static int beyond(const lattio_volume *vo, const unsigned char *buf, uint64_t i, uint64_t v, uint64_t volume)
{
    int as32 = vo->width == 8;
    for (uint64_t k = 0; as32 && k < 2 * vo->sites; k++)
        as32 = ((uint64_t)buf[4 * k] << 24 | (uint64_t)buf[4 * k + 1] << 16 | (uint64_t)buf[4 * k + 2] << 8 |
                buf[4 * k + 3]) < volume;
    if (as32) {
        lattio_detail_set("the binary records hold %llu sites' worth of bytes, the site list %llu sites: the "
                          "volume was written at half the precision volume 0 gives",
                          (unsigned long long)vo->sites, (unsigned long long)(2 * vo->sites));
        return LATTIO_FAIL(LATTIO_ERR_FIELD_LENGTH, "volume precision");
    }
    lattio_detail_set("site %llu of the site list is rank %llu, beyond the volume %llu", (unsigned long long)i,
                      (unsigned long long)v, (unsigned long long)volume);
    return LATTIO_FAIL(LATTIO_ERR_VOLUME_SITES, "rank out of range");
}

int lattio_volume_ranks(lattio_lime_reader *r, const lattio_volume *vo, uint64_t volume, uint64_t *ranks)
{
    RETURN_IF_ERROR(select_record(r, &vo->sitelist));
    const size_t w = (size_t)vo->width;
    unsigned char *buf = lattio_malloc((size_t)vo->sitelist.length ? (size_t)vo->sitelist.length : 1);
    RETURN_IF(!buf, LATTIO_ERR_NOMEM);
    int rc = lattio_lime_reader_read_at(r, 0, buf, (size_t)vo->sitelist.length);
    for (uint64_t i = 0; rc == LATTIO_OK && i < vo->sites; i++) {
        uint64_t v = 0;
        for (size_t b = 0; b < w; b++) v = v << 8 | buf[i * w + b];
        ranks[i] = v;
        if (v >= volume) rc = beyond(vo, buf, i, v, volume);
    }
    lattio_free(buf);
    return rc;
}

uint64_t lattio_field_site_pos(const lattio_field_info *fi, uint64_t rank)
{
    if (fi->recordtype != 2) return rank;
    uint64_t pos = 0, stride = 1;
    for (int d = 0; d < fi->nd; d++) {
        const uint64_t c = rank % fi->dims[d];
        rank /= fi->dims[d];
        if (c < fi->hyper_lower[d] || c > fi->hyper_upper[d]) return UINT64_MAX;
        pos += (c - fi->hyper_lower[d]) * stride;
        stride *= fi->hyper_upper[d] - fi->hyper_lower[d] + 1;
    }
    return pos;
}

uint64_t lattio_field_record_sites(const lattio_field_info *fi)
{
    if (fi->recordtype == 1) return 1;
    if (fi->recordtype == 0) return fi->volume;
    uint64_t n = 1;
    for (int d = 0; d < fi->nd; d++) n *= fi->hyper_upper[d] - fi->hyper_lower[d] + 1;
    return n;
}

/* A subset's sites among the volume's, in list order. */
static int inside(const lattio_field_info *fi, const uint64_t *ranks, uint64_t n, uint64_t **out, uint64_t *count)
{
    uint64_t *in = lattio_malloc((size_t)(n ? n : 1) * sizeof *in);
    RETURN_IF(!in, LATTIO_ERR_NOMEM);
    *count = 0;
    for (uint64_t i = 0; i < n; i++)
        if (lattio_field_site_pos(fi, ranks[i]) != UINT64_MAX) in[(*count)++] = ranks[i];
    *out = in;
    return LATTIO_OK;
}

int lattio_volume_read_part(lattio_lime_reader *r, const lattio_volume *vo, int j, const uint64_t *ranks,
                            const lattio_field_info *fi, lattio_volume_sink sink, void *ctx)
{
    RETURN_IF_ERROR(select_record(r, &vo->data[j]));
    const uint64_t site = fi->typesize * fi->datacount;
    uint64_t *sub = NULL, nsites = vo->sites;
    if (fi->recordtype == 2) RETURN_IF_ERROR(inside(fi, ranks, vo->sites, &sub, &nsites));
    if (sub) ranks = sub;
    int rc = LATTIO_OK;
    if (vo->data[j].length != nsites * site) {
        lattio_detail_set("%s record %d holds %llu bytes, not %llu sites of %llu bytes", vo->data[j].type, j + 1,
                          (unsigned long long)vo->data[j].length, (unsigned long long)nsites,
                          (unsigned long long)site);
        rc = LATTIO_FAIL(LATTIO_ERR_FIELD_LENGTH, "volume part");
    }
    const uint64_t per = site >= CHUNK_BYTES ? 1 : CHUNK_BYTES / site;
    const uint64_t n0 = nsites < per ? nsites : per;
    unsigned char *buf = rc == LATTIO_OK ? lattio_malloc((size_t)(n0 ? n0 * site : 1)) : NULL;
    if (rc == LATTIO_OK && !buf) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "chunk");
    for (uint64_t first = 0; rc == LATTIO_OK && first < nsites; first += per) {
        const uint64_t n = nsites - first < per ? nsites - first : per;
        rc = lattio_lime_reader_read_at(r, first * site, buf, (size_t)(n * site));
        if (rc == LATTIO_OK) rc = sink(ctx, buf, ranks + first, n);
    }
    lattio_free(buf);
    lattio_free(sub);
    return rc;
}

/* --- the set ------------------------------------------------------------------- */

struct lattio_volumes {
    int volfmt, in_dirs, nvol;
    lattio_volume *vol;  /* vol[0]: volume 0 */
    lattio_volume_meta m;
    lattio_field_info *fields; /* volume 0's, per binary record */
};

void lattio_volume_meta_free(lattio_volume_meta *m)
{
    lattio_free(m->is_lattice);
    lattio_free(m->site_bytes);
    lattio_free(m->lattice_of);
    lattio_free(m->whole);
    memset(m, 0, sizeof *m);
}

static void free_fields(lattio_field_info *f, int n)
{
    for (int k = 0; f && k < n; k++) lattio_field_info_free(&f[k]);
    lattio_free(f);
}

/* Volume 0's binary records described, its volume format and the lattice
 * fields' site sizes. */
/* Binary record k of volume 0 described into *fk and counted in m. */
static int meta_field(lattio_lime_reader *r, int k, lattio_volume_meta *m, lattio_field_info *fk)
{
    RETURN_IF_ERROR(lattio_field_info_read_part(r, k, 1, fk));
    if (fk->volfmt == LATTIO_VOLFMT_SINGLE) {
        lattio_detail_set("scidac-private-file-xml says volfmt 0 (or is missing): a single file, not volume 0");
        return LATTIO_FAIL(LATTIO_ERR_BAD_METADATA, "volfmt");
    }
    m->lattice_of[k] = fk->recordtype != 1 ? m->nlattice : -1;
    if (fk->recordtype != 1) {
        m->is_lattice[k] = 1;
        m->whole[m->nlattice] = fk->recordtype == 0;
        m->site_bytes[m->nlattice++] = fk->typesize * fk->datacount;
    }
    m->volfmt = fk->volfmt;
    m->nd = fk->nd;
    memcpy(m->dims, fk->dims, sizeof m->dims);
    m->volume = fk->volume;
    return LATTIO_OK;
}

int lattio_volume_meta_read(lattio_lime_reader *r, lattio_volume_meta *m, lattio_field_info **fields)
{
    memset(m, 0, sizeof *m);
    *fields = NULL;
    int n;
    RETURN_IF_ERROR(lattio_field_count(r, &n));
    lattio_field_info *f = lattio_calloc((size_t)(n ? n : 1), sizeof *f);
    m->is_lattice = lattio_calloc((size_t)(n ? n : 1), sizeof *m->is_lattice);
    m->site_bytes = lattio_calloc((size_t)(n ? n : 1), sizeof *m->site_bytes);
    m->lattice_of = lattio_calloc((size_t)(n ? n : 1), sizeof *m->lattice_of);
    m->whole = lattio_calloc((size_t)(n ? n : 1), sizeof *m->whole);
    int rc = f && m->is_lattice && m->site_bytes && m->lattice_of && m->whole ? LATTIO_OK
                                                                            : LATTIO_FAIL(LATTIO_ERR_NOMEM, "meta");
    for (int k = 0; rc == LATTIO_OK && k < n; k++) rc = meta_field(r, k, m, &f[k]);
    m->nbinary = n;
    if (rc == LATTIO_OK && n == 0) {
        lattio_detail_set("volume 0 holds no binary record");
        rc = LATTIO_FAIL(LATTIO_ERR_VOLUME_MISSING, "no field");
    }
    if (rc < 0) {
        free_fields(f, n);
        lattio_volume_meta_free(m);
        return rc;
    }
    *fields = f;
    return LATTIO_OK;
}

int lattio_volume_master_meta(const char *path, lattio_volume_meta *m, lattio_field_info **fields)
{
    lattio_lime_reader *r = NULL;
    int rc = lattio_lime_reader_open(path, &r);
    if (rc == LATTIO_OK) rc = lattio_volume_meta_read(r, m, fields);
    lattio_lime_reader_close(r);
    if (rc < 0) {
        char what[LATTIO_DETAIL_MAX];
        snprintf(what, sizeof what, "%s", lattio_detail_peek());
        lattio_detail_set("volume %s: %s", path, what[0] ? what : lattio_strerror(rc));
    }
    return rc;
}

void lattio_volumes_close(lattio_volumes *v)
{
    if (!v) return;
    for (int i = 0; i < v->nvol; i++) lattio_volume_free(&v->vol[i]);
    lattio_free(v->vol);
    free_fields(v->fields, v->m.nbinary);
    lattio_volume_meta_free(&v->m);
    lattio_free(v);
}

/* Every site in exactly one volume: a bit per site. */
static int check_cover(lattio_volumes *v)
{
    const uint64_t V = v->m.volume;
    uint64_t total = 0;
    for (int i = 0; i < v->nvol; i++) total += v->vol[i].sites;
    if (total != V) {
        lattio_detail_set("the %d volumes' site lists hold %llu sites, the lattice has %llu%s", v->nvol,
                          (unsigned long long)total, (unsigned long long)V,
                          total > V ? " (a volume left from another set?)" : " (a volume missing?)");
        return LATTIO_FAIL(LATTIO_ERR_VOLUME_SITES, "site count");
    }
    unsigned char *seen = lattio_calloc((size_t)(V / 8 + 1), 1);
    RETURN_IF(!seen, LATTIO_ERR_NOMEM);
    int rc = LATTIO_OK;
    for (int i = 0; rc == LATTIO_OK && i < v->nvol; i++) {
        lattio_volume *vo = &v->vol[i];
        uint64_t *ranks = lattio_malloc((size_t)(vo->sites ? vo->sites : 1) * sizeof *ranks);
        lattio_lime_reader *r = NULL;
        rc = ranks ? lattio_lime_reader_open(vo->path, &r) : LATTIO_FAIL(LATTIO_ERR_NOMEM, "ranks");
        if (rc == LATTIO_OK) rc = lattio_volume_ranks(r, vo, V, ranks);
        for (uint64_t s = 0; rc == LATTIO_OK && s < vo->sites; s++) {
            const uint64_t k = ranks[s];
            if (seen[k / 8] & (1u << (k % 8))) {
                lattio_detail_set("site %llu is listed twice (again at position %llu)", (unsigned long long)k,
                                  (unsigned long long)s);
                rc = LATTIO_FAIL(LATTIO_ERR_VOLUME_SITES, "duplicate site");
            }
            seen[k / 8] |= (unsigned char)(1u << (k % 8));
        }
        lattio_lime_reader_close(r);
        lattio_free(ranks);
        rc = in_volume(vo, rc);
    }
    lattio_free(seen);
    return rc;
}

/* A multifile set has a volume per node, numbered 0 .. N-1 (QIO's node
 * numbers): a gap is a volume missing or one renumbered.  A partfile set's
 * volumes carry their I/O nodes' numbers, which need not follow each other
 * (4 nodes in 2 partitions: vol0000 and vol0002). */
static int check_numbers(const lattio_volumes *v)
{
    for (int i = 0; v->volfmt == LATTIO_VOLFMT_MULTI && i < v->nvol; i++)
        if (v->vol[i].number != i) {
            lattio_detail_set("a multifile set numbers its volumes 0 .. N-1, one per node: volume %04d is missing"
                              " and volume %04d follows (a volume renumbered or from another set?)", i,
                              v->vol[i].number);
            return LATTIO_FAIL(LATTIO_ERR_VOLUME_MISSING, "volume numbers");
        }
    return LATTIO_OK;
}

static int open_set(const char *base, lattio_volumes *v)
{
    int *numbers = NULL;
    int rc = lattio_volumes_list(base, &v->in_dirs, &numbers, &v->nvol);
    v->vol = rc == LATTIO_OK ? lattio_calloc((size_t)v->nvol, sizeof *v->vol) : NULL;
    if (rc == LATTIO_OK && !v->vol) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "volumes");
    const int fmt = v->in_dirs ? LATTIO_VOLFMT_PART_DIR : LATTIO_VOLFMT_PART;
    for (int i = 0; rc == LATTIO_OK && i < v->nvol; i++) {
        char path[4096];
        v->vol[i].number = numbers[i];
        rc = lattio_volumes_name(base, fmt, numbers[i], path, sizeof path);
        if (rc == LATTIO_OK && !(v->vol[i].path = lattio_malloc(strlen(path) + 1)))
            rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "path");
        if (rc == LATTIO_OK) memcpy(v->vol[i].path, path, strlen(path) + 1);
    }
    lattio_free(numbers);
    if (rc == LATTIO_OK) rc = lattio_volume_master_meta(v->vol[0].path, &v->m, &v->fields);
    if (rc == LATTIO_OK) v->volfmt = v->m.volfmt;
    if (rc == LATTIO_OK) rc = check_numbers(v);
    for (int i = 0; rc == LATTIO_OK && i < v->nvol; i++) rc = lattio_volume_scan(&v->vol[i], &v->m);
    if (rc == LATTIO_OK) rc = check_cover(v);
    return rc;
}

int lattio_volumes_open(const char *base, lattio_volumes **out)
{
    RETURN_IF(!base || !out, LATTIO_ERR_ARG);
    *out = NULL;
    lattio_detail_clear();
    if (lattio_volumes_interrupted(base)) {
        lattio_detail_set("%s: a writer was stopped while it published a new set (its journal %s" LATTIO_VOLUMES_JOURNAL
                          " is there): 'lattio clean %s' completes it",
                          base, base, base);
        return LATTIO_FAIL(LATTIO_ERR_INTERRUPTED, "publication interrupted");
    }
    lattio_volumes *v = lattio_calloc(1, sizeof *v);
    RETURN_IF(!v, LATTIO_ERR_NOMEM);
    const int rc = open_set(base, v);
    if (rc < 0) {
        lattio_volumes_close(v);
        return rc;
    }
    *out = v;
    return LATTIO_OK;
}

int lattio_volumes_describe(const lattio_volumes *v, lattio_volumes_info *vi)
{
    RETURN_IF(!v || !vi, LATTIO_ERR_ARG);
    memset(vi, 0, sizeof *vi);
    vi->volfmt = v->volfmt;
    vi->volumes = v->nvol;
    vi->fields = v->m.nbinary;
    vi->nd = v->m.nd;
    memcpy(vi->dims, v->m.dims, sizeof vi->dims);
    vi->volume = v->m.volume;
    vi->max_number = v->vol[v->nvol - 1].number;
    return LATTIO_OK;
}

int lattio_volumes_volume(const lattio_volumes *v, int i, int *number, uint64_t *sites, const char **path)
{
    RETURN_IF(!v || i < 0 || i >= v->nvol, LATTIO_ERR_ARG);
    if (number) *number = v->vol[i].number;
    if (sites) *sites = v->vol[i].sites;
    if (path) *path = v->vol[i].path;
    return LATTIO_OK;
}

const char *lattio_volumes_path(const lattio_volumes *v, int i)
{
    return v && i >= 0 && i < v->nvol ? v->vol[i].path : NULL;
}

static int copy_info(const lattio_field_info *from, lattio_field_info *to)
{
    *to = *from;
    to->lfn = to->file_xml = to->record_xml = NULL;
    const char *s[3] = {from->lfn, from->file_xml, from->record_xml};
    char **d[3] = {&to->lfn, &to->file_xml, &to->record_xml};
    for (int i = 0; i < 3; i++) {
        if (!s[i]) continue;
        *d[i] = lattio_malloc(strlen(s[i]) + 1);
        if (!*d[i]) {
            lattio_field_info_free(to);
            return LATTIO_FAIL(LATTIO_ERR_NOMEM, "field text");
        }
        memcpy(*d[i], s[i], strlen(s[i]) + 1);
    }
    return LATTIO_OK;
}

int lattio_volumes_field_info(lattio_volumes *v, int index, lattio_field_info *fi)
{
    RETURN_IF(!v || !fi, LATTIO_ERR_ARG);
    RETURN_IF(index < 0 || index >= v->m.nbinary, LATTIO_ERR_NOT_FOUND);
    return copy_info(&v->fields[index], fi);
}

/* --- reading a field ------------------------------------------------------------ */

/* Where a volume's sites go: file bytes or native reals, at their ranks. */
typedef struct place_ctx {
    const lattio_field_info *fi;
    uint64_t site;          /* file bytes per site */
    unsigned char *bytes;   /* or NULL */
    unsigned char *values;  /* or NULL */
    int mem_format, disk_format;
    size_t real_bytes, disk_real;
    lattio_scidac_sum sum;
} place_ctx;

static int place(void *vctx, const unsigned char *buf, const uint64_t *ranks, uint64_t n)
{
    place_ctx *c = vctx;
    RETURN_IF_ERROR(lattio_scidac_sum_ranked(&c->sum, buf, (size_t)c->site, (size_t)c->site, n, ranks));
    const uint64_t reals = c->site / c->disk_real;
    for (uint64_t i = 0; i < n; i++) {
        const unsigned char *src = buf + i * c->site;
        const uint64_t at = lattio_field_site_pos(c->fi, ranks[i]);
        if (c->bytes) memcpy(c->bytes + at * c->site, src, (size_t)c->site);
        if (c->values)
            RETURN_IF_ERROR(lattio_convert_reals(c->values + at * reals * c->real_bytes, c->mem_format, src,
                                                 c->disk_format, (size_t)reals));
    }
    return LATTIO_OK;
}

static int read_global(lattio_volumes *v, const lattio_field_info *fi, place_ctx *c)
{
    lattio_lime_reader *r;
    RETURN_IF_ERROR(lattio_lime_reader_open(v->vol[0].path, &r));
    unsigned char *buf = lattio_malloc((size_t)(fi->binary.length ? fi->binary.length : 1));
    int rc = buf ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "global");
    if (rc == LATTIO_OK) rc = lattio_lime_reader_goto(r, &fi->binary);
    if (rc == LATTIO_OK) rc = lattio_lime_reader_read_at(r, 0, buf, (size_t)fi->binary.length);
    if (rc == LATTIO_OK) rc = lattio_scidac_sum_global(&c->sum, buf, (size_t)fi->binary.length);
    if (rc == LATTIO_OK && c->bytes) memcpy(c->bytes, buf, (size_t)fi->binary.length);
    if (rc == LATTIO_OK && c->values)
        rc = lattio_convert_reals(c->values, c->mem_format, buf, c->disk_format,
                                  (size_t)(fi->binary.length / c->disk_real));
    lattio_free(buf);
    lattio_lime_reader_close(r);
    return rc;
}

static int visit_volume(lattio_volumes *v, int i, int index, lattio_volume_sink sink, void *ctx)
{
    lattio_volume *vo = &v->vol[i];
    uint64_t *ranks = lattio_malloc((size_t)(vo->sites ? vo->sites : 1) * sizeof *ranks);
    RETURN_IF(!ranks, LATTIO_ERR_NOMEM);
    lattio_lime_reader *r = NULL;
    int rc = lattio_lime_reader_open(vo->path, &r);
    if (rc == LATTIO_OK) rc = lattio_volume_ranks(r, vo, v->m.volume, ranks);
    if (rc == LATTIO_OK)
        rc = lattio_volume_read_part(r, vo, v->m.lattice_of[index], ranks, &v->fields[index], sink, ctx);
    lattio_lime_reader_close(r);
    lattio_free(ranks);
    return in_volume(vo, rc);
}

int lattio_volumes_visit(lattio_volumes *v, int index, lattio_volume_sink sink, void *ctx)
{
    RETURN_IF(!v || index < 0 || index >= v->m.nbinary || v->m.lattice_of[index] < 0, LATTIO_ERR_ARG);
    for (int i = 0; i < v->nvol; i++) RETURN_IF_ERROR(visit_volume(v, i, index, sink, ctx));
    return LATTIO_OK;
}

static int read_field(lattio_volumes *v, int index, place_ctx *c, lattio_scidac_sum *computed)
{
    RETURN_IF(!v, LATTIO_ERR_ARG);
    RETURN_IF(index < 0 || index >= v->m.nbinary, LATTIO_ERR_NOT_FOUND);
    const lattio_field_info *fi = &v->fields[index];
    c->fi = fi;
    c->site = fi->typesize * fi->datacount;
    c->disk_real = fi->precision == 32 ? 4 : 8;
    c->disk_format = fi->precision == 32 ? LATTIO_REAL_F32_BE : LATTIO_REAL_F64_BE;
    if (c->values) { /* precision and room checked by lattio_volumes_read_values */
        RETURN_IF(c->mem_format != LATTIO_REAL_F32_NATIVE && c->mem_format != LATTIO_REAL_F64_NATIVE, LATTIO_ERR_ARG);
        c->real_bytes = c->mem_format == LATTIO_REAL_F32_NATIVE ? 4 : 8;
    }
    if (fi->recordtype == 1) RETURN_IF_ERROR(read_global(v, fi, c));
    if (fi->recordtype != 1) RETURN_IF_ERROR(lattio_volumes_visit(v, index, place, c));
    if (computed) *computed = c->sum;
    if (fi->has_checksum && (c->sum.suma != fi->stored.suma || c->sum.sumb != fi->stored.sumb))
        return lattio_field_sum_mismatch(fi, c->sum);
    return LATTIO_OK;
}

int lattio_volumes_read_bytes(lattio_volumes *v, int index, void *out, lattio_scidac_sum *computed)
{
    place_ctx c = {0};
    c.bytes = out;
    return read_field(v, index, &c, computed);
}

int lattio_volumes_read_values(lattio_volumes *v, int index, int mem_format, void *values, uint64_t n_out,
                               lattio_scidac_sum *computed)
{
    RETURN_IF(!v || index < 0 || index >= v->m.nbinary, v ? LATTIO_ERR_NOT_FOUND : LATTIO_ERR_ARG);
    const lattio_field_info *fi = &v->fields[index];
    if (values) {
        RETURN_IF(fi->precision != 32 && fi->precision != 64, LATTIO_ERR_UNSUPPORTED);
        const uint64_t sites = lattio_field_record_sites(fi);
        RETURN_IF(n_out < sites * fi->typesize * fi->datacount / (uint64_t)(fi->precision / 8), LATTIO_ERR_ARG);
    }
    place_ctx c = {0};
    c.values = values;
    c.mem_format = mem_format;
    return read_field(v, index, &c, computed);
}
