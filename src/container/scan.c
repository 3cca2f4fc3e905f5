/* scan.c -- reading a container's metadata: header, footer and, task by
 * task, the chunk trailers that give each stream's size.  A closed
 * container is checked strictly; RECOVER accepts a container whose writer
 * died and ends each stream before its first incomplete chunk. */
#include "container_internal.h"

#include <string.h>

/* Header at byte 0: its magic decides before its length does. */
static int read_header(const lattio_source *src, lattio_cont_header *h)
{
    unsigned char buf[LATTIO_CONT_HEADER_SIZE];
    size_t got = 0;
    memset(buf, 0, sizeof buf);
    RETURN_IF_ERROR(lattio_source_read_at(src, 0, buf, sizeof buf, &got));
    RETURN_IF(got < 8, LATTIO_ERR_CONTAINER_TRUNCATED);
    if (got < sizeof buf) {
        int rc = lattio_cont_header_decode(buf, h); /* magic or version first */
        RETURN_IF(rc == LATTIO_ERR_CONTAINER_MAGIC || rc == LATTIO_ERR_CONTAINER_VERSION, rc);
        RETURN_IF(1, LATTIO_ERR_CONTAINER_TRUNCATED);
    }
    return lattio_cont_header_decode(buf, h);
}

/* The footer in the last 64 bytes: LATTIO_OK, ERR_CONTAINER_TRUNCATED when
 * there is none, ERR_CONTAINER when it contradicts the header or the size. */
static int read_footer(const lattio_source *src, const lattio_cont_header *h, lattio_cont_footer *f)
{
    unsigned char buf[LATTIO_CONT_FOOTER_SIZE];
    uint64_t expect = 0;
    RETURN_IF(src->size < h->data_start + LATTIO_CONT_FOOTER_SIZE, LATTIO_ERR_CONTAINER_TRUNCATED);
    RETURN_IF_ERROR(lattio_source_read_exact(src, src->size - sizeof buf, buf, sizeof buf,
                                             LATTIO_ERR_CONTAINER_TRUNCATED));
    int rc = lattio_cont_footer_decode(buf, f);
    RETURN_IF(rc == LATTIO_ERR_CONTAINER_MAGIC, LATTIO_ERR_CONTAINER_TRUNCATED);
    RETURN_IF_ERROR(rc);
    RETURN_IF(f->id != h->id || f->nblocks == 0, LATTIO_ERR_CONTAINER);
    RETURN_IF(lattio_cont_footer_offset(h, f->nblocks, &expect) < 0, LATTIO_ERR_CONTAINER);
    RETURN_IF(expect != src->size - sizeof buf, LATTIO_ERR_CONTAINER);
    return LATTIO_OK;
}

int lattio_cont_read_meta(const lattio_source *src, int recover, lattio_cont_header *h,
                          lattio_cont_footer *f, int *closed)
{
    *closed = 0;
    memset(f, 0, sizeof *f);
    RETURN_IF_ERROR(read_header(src, h));
    int rc = read_footer(src, h, f);
    if (rc == LATTIO_OK) *closed = 1;
    if (recover && rc != LATTIO_ERR_READ) return LATTIO_OK;
    return rc;
}

int lattio_cont_trailer_at(const lattio_source *src, const lattio_cont_header *h, uint32_t i,
                      uint64_t block, lattio_cont_trailer *t)
{
    unsigned char buf[LATTIO_CONT_TRAILER_SIZE];
    uint64_t off = 0, cap = lattio_cont_capacity(h);
    RETURN_IF(lattio_cont_chunk_offset(h, i, block, &off) < 0, LATTIO_ERR_CONTAINER_CHUNK);
    off += h->stride - LATTIO_CONT_TRAILER_SIZE;
    RETURN_IF(off + sizeof buf > src->size, LATTIO_ERR_CONTAINER_TRUNCATED);
    RETURN_IF_ERROR(lattio_source_read_exact(src, off, buf, sizeof buf, LATTIO_ERR_CONTAINER_TRUNCATED));
    int rc = lattio_cont_trailer_decode(buf, t);
    RETURN_IF(rc == LATTIO_ERR_CONTAINER_MAGIC, LATTIO_ERR_CONTAINER_CHUNK);
    RETURN_IF_ERROR(rc);
    RETURN_IF(t->id != h->id || t->task != h->first_task + i || t->block != block,
              LATTIO_ERR_CONTAINER_CHUNK);
    RETURN_IF(t->used > cap || t->stream_offset != block * cap, LATTIO_ERR_CONTAINER_CHUNK);
    RETURN_IF(!(t->flags & LATTIO_CONT_FINAL) && t->used != cap, LATTIO_ERR_CONTAINER_CHUNK);
    return LATTIO_OK;
}

int lattio_cont_scan_task(const lattio_source *src, const lattio_cont_header *h, uint32_t i,
                          int recover, uint64_t nblocks, lattio_cont_task_info *out)
{
    memset(out, 0, sizeof *out);
    RETURN_IF(i >= h->file_tasks, LATTIO_ERR_CONTAINER_TASK);
    for (uint64_t b = 0;; b++) {
        lattio_cont_trailer t;
        RETURN_IF(!recover && b >= nblocks, LATTIO_ERR_CONTAINER_CHUNK);
        int rc = lattio_cont_trailer_at(src, h, i, b, &t);
        if (rc == LATTIO_ERR_READ) return rc;
        if (rc < 0 && recover) return LATTIO_OK; /* the stream ends before this chunk */
        RETURN_IF_ERROR(rc);
        out->bytes += t.used;
        out->chunks++;
        if (t.flags & LATTIO_CONT_FINAL) {
            out->complete = 1;
            out->has_crc = (h->flags & LATTIO_CONT_HDR_STREAM_CRC) != 0;
            out->crc = out->has_crc ? t.stream_crc : 0;
            return LATTIO_OK;
        }
    }
}
