/* member.c -- reading the physical files of a container (one or several:
 * PATH, PATH.000001, ...; docs/format.md section 8.5) and reading a task's
 * stream with its chunk and stream CRCs verified (section 8.6). */
#include "container_internal.h"
#include "fsinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int lattio_cont_open_member(const char *path, uint32_t k, int *fd)
{
    *fd = -1;
    char *name = lattio_cont_member_name(path, k);
    RETURN_IF(!name, LATTIO_ERR_NOMEM);
    const int d = lattio_fs_open(name, O_RDONLY | O_CLOEXEC, 0); /* another node's new file, looked up afresh */
    const int missing = d < 0 && errno == ENOENT;
    lattio_free(name);
    RETURN_IF(d < 0 && k > 0 && missing, LATTIO_ERR_CONTAINER_MEMBER);
    RETURN_IF_ERRNO(d < 0, LATTIO_ERR_OPEN);
    *fd = d;
    return LATTIO_OK;
}

/* File `index` of the set whose file 0 has header h0 (NULL: this is file 0). */
static int check_member(const lattio_cont_header *h, const lattio_cont_header *h0, uint32_t index,
                        uint32_t first)
{
    if (!h0) {
        RETURN_IF(h->file_index != 0 || h->first_task != 0, LATTIO_ERR_CONTAINER_FILES);
    } else {
        RETURN_IF(h->id != h0->id || h->ntasks != h0->ntasks || h->nfiles != h0->nfiles ||
                  h->flags != h0->flags, LATTIO_ERR_CONTAINER_FILES);
        RETURN_IF(h->file_index != index || h->first_task != first, LATTIO_ERR_CONTAINER_FILES);
    }
    RETURN_IF(h->file_index == h->nfiles - 1 && h->first_task + h->file_tasks != h->ntasks,
              LATTIO_ERR_CONTAINER_FILES);
    RETURN_IF(h->file_index < h->nfiles - 1 && h->ntasks - h->first_task - h->file_tasks <
              h->nfiles - 1 - h->file_index, LATTIO_ERR_CONTAINER_FILES);
    return LATTIO_OK;
}

int lattio_cont_member_meta(lattio_cont_member *m, int recover, const lattio_cont_header *h0,
                            uint32_t index, uint32_t first)
{
    RETURN_IF_ERROR(lattio_cont_read_meta(&m->src, recover, &m->h, &m->f, &m->closed));
    RETURN_IF_ERROR(check_member(&m->h, h0, index, first));
    m->nblocks = m->closed && !recover ? m->f.nblocks : 0;
    m->nscanned = lattio_cont_tasks_in_file(&m->h, m->src.size);
    if (!recover) RETURN_IF(m->nscanned < m->h.file_tasks, LATTIO_ERR_CONTAINER);
    m->tasks = lattio_calloc(m->nscanned ? m->nscanned : 1, sizeof *m->tasks);
    RETURN_IF(!m->tasks, LATTIO_ERR_NOMEM);
    return LATTIO_OK;
}

int lattio_cont_member_scan(lattio_cont_member *m, int recover, uint32_t from, uint32_t step)
{
    RETURN_IF(step == 0, LATTIO_ERR_ARG);
    for (uint64_t i = from; i < m->nscanned; i += step) {
        lattio_cont_task_info *t = &m->tasks[i];
        RETURN_IF_ERROR(lattio_cont_scan_task(&m->src, &m->h, (uint32_t)i, recover, m->nblocks, t));
        if (recover && t->chunks > m->nblocks) m->nblocks = t->chunks;
    }
    return LATTIO_OK;
}

int lattio_cont_member_check_total(const lattio_cont_member *m, int recover)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < m->nscanned; i++) sum += m->tasks[i].bytes;
    RETURN_IF(!recover && sum != m->f.total_bytes, LATTIO_ERR_CONTAINER);
    return LATTIO_OK;
}

void lattio_cont_task_infos_release(lattio_cont_task_info *t, uint32_t n)
{
    for (uint32_t i = 0; t && i < n; i++) {
        lattio_free(t[i].checked);
        t[i].checked = NULL;
    }
}

void lattio_cont_member_release(lattio_cont_member *m)
{
    if (!m) return;
    lattio_cont_task_infos_release(m->tasks, m->nscanned);
    lattio_free(m->tasks);
    m->tasks = NULL;
    m->nscanned = 0;
}

int lattio_cont_member_find(const lattio_cont_member *m, uint32_t n, uint32_t task)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) { /* last member whose first task <= task */
        uint32_t mid = lo + (hi - lo) / 2;
        if (m[mid].h.first_task <= task) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return -1;
    const lattio_cont_header *h = &m[lo - 1].h;
    return task - h->first_task < h->file_tasks ? (int)(lo - 1) : -1;
}

/* Extend *crc over bytes [from, to) at file offset base + from. */
static int crc_range(const lattio_source *src, uint64_t base, uint64_t from, uint64_t to,
                     uint32_t *crc)
{
    unsigned char *buf = lattio_malloc(LATTIO_CONT_PIECE);
    RETURN_IF(!buf, LATTIO_ERR_NOMEM);
    int rc = LATTIO_OK;
    for (uint64_t done = from; rc == LATTIO_OK && done < to;) {
        size_t k = to - done < LATTIO_CONT_PIECE ? (size_t)(to - done) : LATTIO_CONT_PIECE;
        rc = lattio_source_read_exact(src, base + done, buf, k, LATTIO_ERR_CONTAINER_TRUNCATED);
        *crc = lattio_cont_crc32(*crc, buf, k);
        done += k;
    }
    lattio_free(buf);
    return rc;
}

int lattio_cont_verify_chunk(const lattio_source *src, const lattio_cont_header *h, uint32_t i,
                             uint64_t block)
{
    lattio_cont_trailer t;
    uint64_t off = 0;
    uint32_t crc = 0;
    RETURN_IF_ERROR(lattio_cont_trailer_at(src, h, i, block, &t));
    RETURN_IF_ERROR(lattio_cont_chunk_offset(h, i, block, &off));
    RETURN_IF_ERROR(crc_range(src, off, 0, t.used, &crc));
    RETURN_IF(crc != t.data_crc, LATTIO_ERR_CONTAINER_CHECKSUM);
    return LATTIO_OK;
}

int lattio_cont_finish_pending(const lattio_source *src, const lattio_cont_header *h, uint32_t i,
                               lattio_cont_task_info *t)
{
    lattio_cont_trailer tr;
    uint64_t off = 0;
    if (!t || !t->pending) return LATTIO_OK;
    t->pending = 0;
    RETURN_IF_ERROR(lattio_cont_trailer_at(src, h, i, t->pend_block, &tr));
    RETURN_IF_ERROR(lattio_cont_chunk_offset(h, i, t->pend_block, &off));
    RETURN_IF(tr.used < t->pend_len, LATTIO_ERR_CONTAINER_CHUNK);
    RETURN_IF_ERROR(crc_range(src, off, t->pend_len, tr.used, &t->pend_crc));
    RETURN_IF(t->pend_crc != tr.data_crc, LATTIO_ERR_CONTAINER_CHECKSUM);
    t->checked[t->pend_block] = 1;
    return LATTIO_OK;
}

/* The whole used part of chunk b was just read into p: check its CRC. */
static int check_read_chunk(const lattio_source *src, const lattio_cont_header *h, uint32_t i,
                            uint64_t b, const void *p, size_t k)
{
    lattio_cont_trailer t;
    RETURN_IF_ERROR(lattio_cont_trailer_at(src, h, i, b, &t));
    RETURN_IF(t.used != k, LATTIO_ERR_CONTAINER_CHUNK);
    RETURN_IF(lattio_cont_crc32(0, p, k) != t.data_crc, LATTIO_ERR_CONTAINER_CHECKSUM);
    return LATTIO_OK;
}

void lattio_cont_cache_release(lattio_cont_cache *c)
{
    if (!c) return;
    lattio_free(c->buf);
    memset(c, 0, sizeof *c);
}

/* Serve [off, off + k) of src from the cache: 1 when it holds them. */
static int cache_copy(const lattio_cont_cache *c, const lattio_source *src, uint64_t off, void *p,
                      size_t k)
{
    if (!c || c->src != src || off < c->off || off - c->off > c->len || k > c->len - (off - c->off))
        return 0;
    memcpy(p, c->buf + (off - c->off), k);
    return 1;
}

/* Read chunk b's `used` bytes at file offset `base` into the cache and
 * check them; the cache holds them only when they matched. */
static int cache_fill(lattio_cont_cache *c, const lattio_source *src, const lattio_cont_header *h,
                      uint32_t i, uint64_t b, uint64_t base, size_t used)
{
    c->src = NULL;
    if (used > c->cap) {
        lattio_free(c->buf);
        c->cap = 0;
        c->buf = lattio_malloc(used);
        RETURN_IF(!c->buf, LATTIO_ERR_NOMEM);
        c->cap = used;
    }
    RETURN_IF_ERROR(lattio_source_read_exact(src, base, c->buf, used, LATTIO_ERR_CONTAINER_TRUNCATED));
    RETURN_IF_ERROR(check_read_chunk(src, h, i, b, c->buf, used));
    c->src = src;
    c->off = base;
    c->len = used;
    return LATTIO_OK;
}

/* In-order reading of chunk b: k bytes straight into p, the chunk's CRC
 * extended; checked when the chunk's `used` bytes are through. */
static int read_in_order(const lattio_cont_view *s, uint64_t b, uint64_t used, uint64_t off, unsigned char *p,
                         size_t k)
{
    lattio_cont_task_info *t = s->t;
    RETURN_IF_ERROR(lattio_source_read_exact(s->src, off, p, k, LATTIO_ERR_CONTAINER_TRUNCATED));
    if (!t->pending) {
        t->pending = 1;
        t->pend_block = b;
        t->pend_len = 0;
        t->pend_crc = 0;
    }
    t->pend_crc = lattio_cont_crc32(t->pend_crc, p, k);
    t->pend_len += k;
    if (t->pend_len < used) return LATTIO_OK;
    lattio_cont_trailer tr;
    t->pending = 0;
    RETURN_IF_ERROR(lattio_cont_trailer_at(s->src, s->h, s->i, b, &tr));
    RETURN_IF(tr.used != used, LATTIO_ERR_CONTAINER_CHUNK);
    RETURN_IF(t->pend_crc != tr.data_crc, LATTIO_ERR_CONTAINER_CHECKSUM);
    t->checked[b] = 1;
    return LATTIO_OK;
}

/* An unchecked chunk b (`used` bytes) read in part, out of order: its used
 * part read once into the cache and checked, the k bytes at data offset
 * `in` (file offset off) copied from there; a chunk too large for the cache
 * is checked by a separate pass and then read. */
static int read_through_cache(const lattio_cont_view *s, lattio_cont_cache *cache, uint64_t b, uint64_t in,
                              uint64_t off, unsigned char *p, size_t k)
{
    const uint64_t cap = lattio_cont_capacity(s->h), rest = s->t->bytes - b * cap;
    const uint64_t used = rest < cap ? rest : cap;
    if (cache && used <= LATTIO_CONT_CACHE_MAX) {
        RETURN_IF_ERROR(cache_fill(cache, s->src, s->h, s->i, b, off - in, (size_t)used));
        s->t->checked[b] = 1;
        if (cache_copy(cache, s->src, off, p, k)) return LATTIO_OK;
        return LATTIO_FAIL(LATTIO_ERR_CONTAINER_CHUNK, "read beyond the chunk");
    }
    RETURN_IF_ERROR(lattio_cont_verify_chunk(s->src, s->h, s->i, b));
    s->t->checked[b] = 1;
    return lattio_source_read_exact(s->src, off, p, k, LATTIO_ERR_CONTAINER_TRUNCATED);
}

/* One read within one chunk: k bytes at stream position pos (file offset
 * off) into p, verified as lattio_cont_read_stream says. */
static int read_piece(const lattio_cont_view *s, lattio_cont_cache *cache, int in_order, uint64_t pos, uint64_t off,
                      unsigned char *p, size_t k)
{
    lattio_cont_task_info *t = s->t;
    const uint64_t cap = lattio_cont_capacity(s->h), b = pos / cap, in = pos % cap, rest = t->bytes - b * cap;
    const uint64_t used = rest < cap ? rest : cap;
    if (cache_copy(cache, s->src, off, p, k)) return LATTIO_OK;
    if (b >= t->chunks || t->checked[b]) return lattio_source_read_exact(s->src, off, p, k, LATTIO_ERR_CONTAINER_TRUNCATED);
    if (in == 0 && k == used) { /* the whole chunk: check what is read */
        RETURN_IF_ERROR(lattio_source_read_exact(s->src, off, p, k, LATTIO_ERR_CONTAINER_TRUNCATED));
        RETURN_IF_ERROR(check_read_chunk(s->src, s->h, s->i, b, p, k));
        t->checked[b] = 1;
        return LATTIO_OK;
    }
    if (in_order && (t->pending ? t->pend_block == b && in == t->pend_len : in == 0))
        return read_in_order(s, b, used, off, p, k);
    return read_through_cache(s, cache, b, in, off, p, k);
}

/* In-order reading from byte 0: fold the (verified) data CRCs of the
 * chunks this read completes into the stream CRC, and at the stream's end
 * compare it with the recorded one.  No byte goes through the CRC twice. */
static int follow_stream(const lattio_cont_view *s, uint64_t pos, size_t k)
{
    lattio_cont_task_info *t = s->t;
    const uint64_t cap = lattio_cont_capacity(s->h), end = pos + k;
    if (pos != t->seq_pos || k == 0 || !t->has_crc) return LATTIO_OK;
    for (uint64_t b = pos / cap; b < t->chunks; b++) {
        uint64_t chunk_end = (b + 1) * cap < t->bytes ? (b + 1) * cap : t->bytes;
        if (chunk_end > end) break; /* not completed by this read */
        lattio_cont_trailer tr;
        RETURN_IF_ERROR(lattio_cont_trailer_at(s->src, s->h, s->i, b, &tr));
        t->seq_crc = lattio_cont_crc32_combine(t->seq_crc, tr.data_crc, tr.used);
    }
    t->seq_pos = end;
    RETURN_IF(t->seq_pos == t->bytes && t->seq_crc != t->crc, LATTIO_ERR_CONTAINER_CHECKSUM);
    return LATTIO_OK;
}

int lattio_cont_read_stream(const lattio_cont_view *s, int verify, lattio_cont_cache *cache, uint64_t pos,
                            void *buf, size_t n)
{
    lattio_cont_task_info *t = s->t;
    const uint64_t cap = lattio_cont_capacity(s->h);
    unsigned char *p = buf;
    RETURN_IF(pos > t->bytes || n > t->bytes - pos, LATTIO_ERR_RECORD_OVERRUN);
    if (verify && n && !t->checked && t->chunks) {
        t->checked = lattio_calloc((size_t)t->chunks, 1);
        RETURN_IF(!t->checked, LATTIO_ERR_NOMEM);
    }
    /* leaving a part-read chunk: check its rest first */
    if (t->pending && n && pos != t->pend_block * cap + t->pend_len)
        RETURN_IF_ERROR(lattio_cont_finish_pending(s->src, s->h, s->i, t));
    while (n > 0) {
        uint64_t off = 0, avail = 0;
        RETURN_IF_ERROR(lattio_cont_locate(s->h, s->i, pos, &off, &avail));
        size_t k = avail < n ? (size_t)avail : n;
        if (verify) {
            RETURN_IF_ERROR(read_piece(s, cache, verify == LATTIO_CONT_VERIFY_IN_ORDER, pos, off, p, k));
            RETURN_IF_ERROR(follow_stream(s, pos, k));
        } else {
            RETURN_IF_ERROR(lattio_source_read_exact(s->src, off, p, k, LATTIO_ERR_CONTAINER_TRUNCATED));
        }
        p += k;
        pos += k;
        n -= k;
    }
    return LATTIO_OK;
}

int lattio_cont_members_grow(int **fds, lattio_cont_member **m, uint32_t *count, uint32_t n)
{
    int *f = lattio_realloc(*fds, (size_t)n * sizeof *f);
    RETURN_IF(!f, LATTIO_ERR_NOMEM);
    *fds = f;
    lattio_cont_member *mm = lattio_realloc(*m, (size_t)n * sizeof *mm);
    RETURN_IF(!mm, LATTIO_ERR_NOMEM);
    *m = mm;
    for (uint32_t k = *count; k < n; k++) {
        f[k] = -1;
        memset(&mm[k], 0, sizeof mm[k]);
    }
    *count = n;
    return LATTIO_OK;
}
