/* index.c -- the record index of an existing file: rank 0 reads every
 * header (and nothing else), all ranks receive the list. */
#include "io_internal.h"

#include <string.h>

static int mpi_read_at(const lattio_source *src, uint64_t off, void *buf, size_t n, size_t *got)
{
    lattio_file *f = src->ctx;
    uint64_t avail = off < src->size ? src->size - off : 0;
    size_t k = (uint64_t)n < avail ? n : (size_t)avail;
    *got = 0;
    RETURN_IF_ERROR(lattio_read_at(f, off, buf, k));
    *got = k;
    return LATTIO_OK;
}

/* Rank 0: scan the headers from f->base into f->index.  A file attached at
 * an offset where no LIME header starts is "not a LIME file" (BAD_MAGIC)
 * rather than trailing bytes. */
static int scan(lattio_file *f)
{
    MPI_Offset size = 0;
    RETURN_IF_ERROR(MPI_CHECK(MPI_File_get_size(f->fh, &size), LATTIO_ERR_STAT));
    lattio_source src = {mpi_read_at, f, NULL, -1, (uint64_t)size};
    int cap = 0;
    uint64_t off = f->place.base;
    for (;;) {
        lattio_record_info info;
        int rc = lattio_lime_header_at(&src, off, &info);
        if (rc == LATTIO_ERR_TRAILING_BYTES && f->in.nindex == 0) rc = LATTIO_ERR_BAD_MAGIC;
        if (rc < 0) {
            f->in.index_status = rc;
            return rc == LATTIO_ERR_READ ? rc : LATTIO_OK;
        }
        if (f->in.nindex == cap) {
            cap = cap ? 2 * cap : 16;
            void *p = lattio_realloc(f->in.index, (size_t)cap * sizeof *f->in.index);
            RETURN_IF(!p, LATTIO_ERR_NOMEM);
            f->in.index = p;
        }
        f->in.index[f->in.nindex++] = info;
        off = lattio_lime_next_offset(&info);
    }
}

/* Broadcast rank 0's index (a plain array of structs: same program on every rank). */
static int broadcast(lattio_file *f)
{
    int head[2] = {f->in.nindex, f->in.index_status};
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(head, 2, MPI_INT, 0, f->comm), LATTIO_ERR_MPI));
    if (f->rank != 0) {
        f->in.nindex = head[0];
        f->in.index_status = head[1];
    }
    if (f->rank != 0 || !f->in.index) /* rank 0 has none for a file without records */
        f->in.index = lattio_malloc((size_t)(head[0] ? head[0] : 1) * sizeof *f->in.index);
    RETURN_IF_ERROR(lattio_agree(f->comm, f->in.index ? LATTIO_OK : LATTIO_ERR_NOMEM));
    RETURN_IF(f->in.nindex > INT32_MAX / (int)sizeof *f->in.index, LATTIO_ERR_OVERFLOW);
    int bytes = f->in.nindex * (int)sizeof *f->in.index;
    return MPI_CHECK(MPI_Bcast(f->in.index, bytes, MPI_BYTE, 0, f->comm), LATTIO_ERR_MPI);
}

int lattio_index_load(lattio_file *f)
{
    lattio_prof_phase(f, LATTIO_PHASE_META);
    int rc = f->rank == 0 ? scan(f) : LATTIO_OK;
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    RETURN_IF_ERROR(lattio_agree(f->comm, broadcast(f)));
    if (f->mode != LATTIO_MODE_APPEND) return LATTIO_OK;
    RETURN_IF(f->in.index_status != LATTIO_ERR_EOF, f->in.index_status);
    f->out.offset = f->in.nindex ? lattio_lime_next_offset(&f->in.index[f->in.nindex - 1]) : f->place.base;
    return LATTIO_OK;
}
