/* member.c -- reading the physical files of a container (one or several:
 * PATH, PATH.000001, ...; docs/format.md section 8.5) and reading a task's
 * stream with its chunk and stream CRCs verified (section 8.6). */
#include "container_internal.h"

#include <string.h>

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

int lattio_cont_verify_chunk(const lattio_source *src, const lattio_cont_header *h, uint32_t i,
                             uint64_t block)
{
    lattio_cont_trailer t;
    uint64_t off = 0;
    uint32_t crc = 0;
    RETURN_IF_ERROR(lattio_cont_trailer_at(src, h, i, block, &t));
    RETURN_IF_ERROR(lattio_cont_chunk_offset(h, i, block, &off));
    unsigned char *buf = lattio_malloc(LATTIO_CONT_PIECE);
    RETURN_IF(!buf, LATTIO_ERR_NOMEM);
    int rc = LATTIO_OK;
    for (uint64_t done = 0; rc == LATTIO_OK && done < t.used;) {
        size_t k = t.used - done < LATTIO_CONT_PIECE ? (size_t)(t.used - done) : LATTIO_CONT_PIECE;
        rc = lattio_source_read_exact(src, off + done, buf, k, LATTIO_ERR_CONTAINER_TRUNCATED);
        crc = lattio_cont_crc32(crc, buf, k);
        done += k;
    }
    lattio_free(buf);
    RETURN_IF_ERROR(rc);
    RETURN_IF(crc != t.data_crc, LATTIO_ERR_CONTAINER_CHECKSUM);
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

/* Extend the in-order CRC over bytes [pos, pos + k) and, at the stream's
 * end, compare it with the recorded stream CRC. */
static int follow_stream(lattio_cont_task_info *t, int verify, uint64_t pos, const void *p, size_t k)
{
    if (pos != t->seq_pos || k == 0) return LATTIO_OK;
    t->seq_crc = lattio_cont_crc32(t->seq_crc, p, k);
    t->seq_pos += k;
    RETURN_IF(verify && t->has_crc && t->seq_pos == t->bytes && t->seq_crc != t->crc,
              LATTIO_ERR_CONTAINER_CHECKSUM);
    return LATTIO_OK;
}

int lattio_cont_read_stream(const lattio_source *src, const lattio_cont_header *h, uint32_t i,
                            lattio_cont_task_info *t, int verify, uint64_t pos, void *buf,
                            size_t n)
{
    const uint64_t cap = lattio_cont_capacity(h);
    unsigned char *p = buf;
    RETURN_IF(pos > t->bytes || n > t->bytes - pos, LATTIO_ERR_RECORD_OVERRUN);
    if (verify && n && !t->checked && t->chunks) {
        t->checked = lattio_calloc((size_t)t->chunks, 1);
        RETURN_IF(!t->checked, LATTIO_ERR_NOMEM);
    }
    while (n > 0) {
        uint64_t b = pos / cap, off = 0, avail = 0, rest = t->bytes - b * cap;
        RETURN_IF_ERROR(lattio_cont_locate(h, i, pos, &off, &avail));
        size_t k = avail < n ? (size_t)avail : n;
        int check = verify && b < t->chunks && !t->checked[b];
        int whole = check && pos % cap == 0 && k == (rest < cap ? rest : cap);
        if (check && !whole) RETURN_IF_ERROR(lattio_cont_verify_chunk(src, h, i, b));
        RETURN_IF_ERROR(lattio_source_read_exact(src, off, p, k, LATTIO_ERR_CONTAINER_TRUNCATED));
        if (whole) RETURN_IF_ERROR(check_read_chunk(src, h, i, b, p, k));
        if (check) t->checked[b] = 1;
        RETURN_IF_ERROR(follow_stream(t, verify, pos, p, k));
        p += k;
        pos += k;
        n -= k;
    }
    return LATTIO_OK;
}
