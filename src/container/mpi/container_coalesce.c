/* container_coalesce.c -- closing a container written with coalescing:
 * streams that fit their first chunk were kept in memory; the first rank of
 * each group of k consecutive ranks gathers them and writes the group's
 * adjacent chunks 0 (data, zeros, FINAL trailer: the bytes the direct
 * writer leaves) in one contiguous write per run of buffered ranks. */
#include "container_mpi.h"

#include <string.h>

/* Chunk 0 of local task `local` holding `used` bytes, into p (stride bytes,
 * zeroed). */
static void fill_chunk(const lattio_cont_header *h, uint32_t local, const unsigned char *data,
                       uint64_t used, unsigned char *p)
{
    uint32_t crc = lattio_cont_crc32(0, data, (size_t)used);
    lattio_cont_trailer t = {h->id, h->first_task + local, LATTIO_CONT_FINAL, 0, used, 0, crc, 0};
    if (h->flags & LATTIO_CONT_HDR_STREAM_CRC) t.stream_crc = crc;
    if (used) memcpy(p, data, (size_t)used);
    lattio_cont_trailer_encode(p + h->stride - LATTIO_CONT_TRAILER_SIZE, &t);
}

/* Root: write the runs of buffered members [a, b) of the group. */
static int write_runs(lattio_container *c, const int64_t *lens, const int *displs, int gsize,
                      const unsigned char *data)
{
    const uint64_t stride = c->h.stride;
    for (int a = 0; a < gsize;) {
        if (lens[a] < 0) {
            a++;
            continue;
        }
        int b = a;
        while (b < gsize && lens[b] >= 0) b++;
        uint64_t off = 0;
        unsigned char *run = lattio_calloc((size_t)(b - a), (size_t)stride);
        RETURN_IF(!run, LATTIO_ERR_NOMEM);
        for (int j = a; j < b; j++)
            fill_chunk(&c->h, (uint32_t)(c->frank + j), data + displs[j], (uint64_t)lens[j],
                       run + (size_t)(j - a) * stride);
        int rc = lattio_cont_chunk_offset(&c->h, (uint32_t)(c->frank + a), 0, &off);
        if (rc == LATTIO_OK) rc = lattio_container_sink_write(c, off, run, (size_t)(b - a) * stride);
        lattio_free(run);
        RETURN_IF_ERROR(rc);
        a = b;
    }
    return LATTIO_OK;
}

/* Root: receive counts and displacements from the members' lengths. */
static int layout(const int64_t *lens, int gsize, int *counts, int *displs, size_t *total)
{
    *total = 0;
    for (int j = 0; j < gsize; j++) {
        counts[j] = lens[j] > 0 ? (int)lens[j] : 0;
        displs[j] = (int)*total;
        *total += (size_t)counts[j];
    }
    RETURN_IF(*total > ((size_t)1 << 30), LATTIO_ERR_OVERFLOW);
    return LATTIO_OK;
}

int lattio_container_coalesce_close(lattio_container *c)
{
    int gsize = 0, grank = 0, ok = 1;
    MPI_Comm_size(c->gcomm, &gsize);
    MPI_Comm_rank(c->gcomm, &grank);
    int rc = c->spilled ? lattio_cont_stream_finish(&c->h, &c->s, &c->sink) : LATTIO_OK;
    int64_t mine = c->spilled ? -1 : (int64_t)c->cbuf_len;
    int64_t *lens = lattio_calloc((size_t)gsize, sizeof *lens);
    int *counts = lattio_calloc((size_t)gsize, sizeof *counts);
    int *displs = lattio_calloc((size_t)gsize, sizeof *displs);
    unsigned char *data = NULL;
    size_t total = 0;
    ok = lens && counts && displs;
    int mrc = MPI_Gather(&mine, 1, MPI_INT64_T, lens, 1, MPI_INT64_T, 0, c->gcomm);
    if (grank == 0) {
        ok = ok && mrc == MPI_SUCCESS && layout(lens, gsize, counts, displs, &total) == LATTIO_OK;
        data = ok ? lattio_malloc(total + 1) : NULL;
        ok = ok && data;
    }
    if (mrc == MPI_SUCCESS) mrc = MPI_Bcast(&ok, 1, MPI_INT, 0, c->gcomm);
    if (mrc == MPI_SUCCESS && ok)
        mrc = MPI_Gatherv(c->cbuf, c->spilled ? 0 : (int)c->cbuf_len, MPI_BYTE, data, counts, displs,
                          MPI_BYTE, 0, c->gcomm);
    if (rc == LATTIO_OK) rc = MPI_CHECK(mrc, LATTIO_ERR_MPI);
    if (rc == LATTIO_OK && !ok) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "coalescing buffers");
    if (rc == LATTIO_OK && grank == 0) rc = write_runs(c, lens, displs, gsize, data);
    lattio_free(data);
    lattio_free(lens);
    lattio_free(counts);
    lattio_free(displs);
    return rc;
}
