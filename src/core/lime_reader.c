/* lime_reader.c -- the serial LIME reader: sequential iteration over the
 * records of a file, lookup by type, payload reads in pieces and at offsets. */
#include "internal.h"
#include "fsinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

struct lattio_lime_reader {
    int fd;
    lattio_source src;
    lattio_record_info cur; /* the current record, valid when has_record */
    int has_record;
    uint64_t pos;  /* sequential position inside the current payload */
    uint64_t next; /* offset of the next header to read */
    lattio_record_info *index; /* every record, once read (lattio_lime_reader_index) */
    int nindex, indexed;
};

int lattio_lime_reader_open(const char *path, lattio_lime_reader **out)
{
    RETURN_IF(!path || !out, LATTIO_ERR_ARG);
    *out = NULL;
    int fd;
    RETURN_IF_ERROR(lattio_open_regular(path, &fd));
    lattio_lime_reader *r = lattio_calloc(1, sizeof *r);
    if (!r) {
        close(fd);
        return LATTIO_FAIL(LATTIO_ERR_NOMEM, "reader");
    }
    r->fd = fd;
    int rc = lattio_source_fd(fd, &r->src);
    if (rc < 0) {
        lattio_lime_reader_close(r);
        return rc;
    }
    *out = r;
    return LATTIO_OK;
}

void lattio_lime_reader_close(lattio_lime_reader *r)
{
    if (!r) return;
    if (r->fd >= 0) close(r->fd);
    lattio_free(r->index);
    lattio_free(r);
}

uint64_t lattio_lime_reader_file_size(const lattio_lime_reader *r)
{
    return r ? r->src.size : 0;
}

int lattio_lime_reader_next(lattio_lime_reader *r, lattio_record_info *info)
{
    RETURN_IF(!r, LATTIO_ERR_ARG);
    lattio_record_info found;
    int rc = lattio_lime_header_at(&r->src, r->next, &found);
    if (info) *info = found;
    if (rc < 0) {
        r->has_record = 0;
        return rc;
    }
    r->cur = found;
    r->has_record = 1;
    r->pos = 0;
    r->next = lattio_lime_next_offset(&found);
    return LATTIO_OK;
}

int lattio_lime_reader_rewind(lattio_lime_reader *r)
{
    RETURN_IF(!r, LATTIO_ERR_ARG);
    r->next = 0;
    r->has_record = 0;
    r->pos = 0;
    return LATTIO_OK;
}

int lattio_lime_reader_find(lattio_lime_reader *r, const char *type, int n,
                            lattio_record_info *info)
{
    RETURN_IF(!r || !type || n < 0, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lattio_lime_reader_rewind(r));
    for (;;) {
        lattio_record_info ri;
        int rc = lattio_lime_reader_next(r, &ri);
        if (rc == LATTIO_ERR_EOF) return LATTIO_FAIL(LATTIO_ERR_NOT_FOUND, type);
        RETURN_IF_ERROR(rc);
        if (strcmp(ri.type, type) == 0 && n-- == 0) {
            if (info) *info = ri;
            return LATTIO_OK;
        }
    }
}

int lattio_lime_reader_current(const lattio_lime_reader *r, lattio_record_info *info)
{
    RETURN_IF(!r || !info, LATTIO_ERR_ARG);
    RETURN_IF(!r->has_record, LATTIO_ERR_STATE);
    *info = r->cur;
    return LATTIO_OK;
}

int lattio_lime_reader_read_at(lattio_lime_reader *r, uint64_t offset, void *buf, size_t n)
{
    RETURN_IF(!r || (!buf && n), LATTIO_ERR_ARG);
    RETURN_IF(!r->has_record, LATTIO_ERR_STATE);
    RETURN_IF(offset > r->cur.length || n > r->cur.length - offset, LATTIO_ERR_RECORD_OVERRUN);
    return lattio_source_read_exact(&r->src, r->cur.data_offset + offset, buf, n,
                                    LATTIO_ERR_TRUNCATED_PAYLOAD);
}

int lattio_lime_reader_read(lattio_lime_reader *r, void *buf, size_t n, size_t *got)
{
    RETURN_IF(!r || !got || (!buf && n), LATTIO_ERR_ARG);
    *got = 0;
    RETURN_IF(!r->has_record, LATTIO_ERR_STATE);
    uint64_t left = r->cur.length - r->pos;
    size_t k = (uint64_t)n < left ? n : (size_t)left;
    RETURN_IF_ERROR(lattio_lime_reader_read_at(r, r->pos, buf, k));
    r->pos += k;
    *got = k;
    return LATTIO_OK;
}

int lattio_lime_reader_seek(lattio_lime_reader *r, uint64_t offset)
{
    RETURN_IF(!r, LATTIO_ERR_ARG);
    RETURN_IF(!r->has_record, LATTIO_ERR_STATE);
    RETURN_IF(offset > r->cur.length, LATTIO_ERR_RECORD_OVERRUN);
    r->pos = offset;
    return LATTIO_OK;
}

int lattio_lime_reader_index(lattio_lime_reader *r, int max, const lattio_record_info **recs, int *n)
{
    RETURN_IF(!r || !recs || !n || max < 1, LATTIO_ERR_ARG);
    *recs = NULL, *n = 0;
    if (!r->indexed) {
        RETURN_IF_ERROR(lattio_lime_reader_rewind(r));
        int cap = 0, rc;
        lattio_record_info info;
        while ((rc = lattio_lime_reader_next(r, &info)) == LATTIO_OK) {
            if (r->nindex == cap) {
                RETURN_IF(cap >= max, LATTIO_ERR_BAD_METADATA);
                cap = cap ? 2 * cap : 32;
                if (cap > max) cap = max;
                lattio_record_info *p = lattio_realloc(r->index, (size_t)cap * sizeof *p);
                RETURN_IF(!p, LATTIO_ERR_NOMEM);
                r->index = p;
            }
            r->index[r->nindex++] = info;
        }
        if (rc != LATTIO_ERR_EOF) {
            r->nindex = 0;
            return rc;
        }
        r->indexed = 1;
    }
    *recs = r->index, *n = r->nindex;
    return LATTIO_OK;
}

int lattio_lime_reader_goto(lattio_lime_reader *r, const lattio_record_info *info)
{
    RETURN_IF(!r || !info, LATTIO_ERR_ARG);
    lattio_record_info found;
    RETURN_IF_ERROR(lattio_lime_header_at(&r->src, info->offset, &found));
    RETURN_IF(found.length != info->length || strcmp(found.type, info->type) != 0, LATTIO_ERR_STATE);
    r->cur = found;
    r->has_record = 1;
    r->pos = 0;
    r->next = lattio_lime_next_offset(&found);
    return LATTIO_OK;
}
