/* container.c -- collective open and close of an MPI task-local container:
 * argument agreement, the temporary name and the rename, the header and
 * footer (rank 0), the trailer scan shared out between ranks. */
#include "container_mpi.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void lattio_container_options_default(lattio_container_options *opt)
{
    if (opt) memset(opt, 0, sizeof *opt);
}

static void free_container(lattio_container *c)
{
    if (c->fh != MPI_FILE_NULL) MPI_File_close(&c->fh);
    if (c->comm != MPI_COMM_NULL) MPI_Comm_free(&c->comm);
    lattio_free(c->sizes);
    lattio_free(c->tmp);
    lattio_free(c->path);
    lattio_free(c);
}

static int new_container(MPI_Comm comm, const char *path, int mode,
                         const lattio_container_options *opt, lattio_container **out)
{
    lattio_container *c = lattio_calloc(1, sizeof *c);
    RETURN_IF(!c, LATTIO_ERR_NOMEM);
    c->fh = MPI_FILE_NULL;
    c->comm = MPI_COMM_NULL;
    c->mode = mode;
    if (opt) c->opt = *opt;
    c->sink.write_at = lattio_container_sink_write;
    c->sink.ctx = c;
    c->path = lattio_strdup(path);
    int rc = MPI_CHECK(MPI_Comm_dup(comm, &c->comm), LATTIO_ERR_MPI);
    if (rc == LATTIO_OK) {
        MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN);
        MPI_Comm_rank(c->comm, &c->rank);
        MPI_Comm_size(c->comm, &c->size);
    }
    if (rc == LATTIO_OK && !c->path) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "path");
    if (rc < 0) {
        free_container(c);
        return rc;
    }
    *out = c;
    return LATTIO_OK;
}

/* Local argument checks. */
static int check_arguments(const char *path, int mode, const lattio_container_options *opt)
{
    RETURN_IF(!path || !*path, LATTIO_ERR_ARG);
    RETURN_IF(mode == LATTIO_MODE_APPEND, LATTIO_ERR_UNSUPPORTED);
    RETURN_IF(mode != LATTIO_MODE_READ && mode != LATTIO_MODE_CREATE, LATTIO_ERR_ARG);
    uint64_t a = opt ? opt->align : 0;
    RETURN_IF(a && (a < LATTIO_CONT_MIN_ALIGN || a > LATTIO_CONT_MAX_ALIGN || (a & (a - 1))),
              LATTIO_ERR_ARG);
    return LATTIO_OK;
}

/* Every rank must give rank 0's path, mode and options. */
static int same_arguments(lattio_container *c)
{
    uint64_t h = 1469598103934665603ULL, h0;
    for (const char *p = c->path; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    const uint64_t v[5] = {(uint64_t)c->mode, c->opt.align, (uint64_t)c->opt.in_place,
                           (uint64_t)c->opt.durable, (uint64_t)c->opt.recover};
    for (int i = 0; i < 5; i++) h = (h ^ v[i]) * 1099511628211ULL;
    h0 = h;
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(&h0, 1, MPI_UINT64_T, 0, c->comm), LATTIO_ERR_MPI));
    RETURN_IF(h0 != h, LATTIO_ERR_RANK_ARG);
    return LATTIO_OK;
}

/* Rank 0 names the temporary file and tells the others. */
static int choose_temporary(lattio_container *c)
{
    size_t n = strlen(c->path) + 64;
    int len = 0;
    c->tmp = lattio_malloc(n);
    RETURN_IF(!c->tmp, LATTIO_ERR_NOMEM);
    if (c->rank == 0) {
        snprintf(c->tmp, n, "%s.lattio-tmp.%ld.%llx", c->path, (long)getpid(),
                 (unsigned long long)(lattio_cont_new_id() & 0xffffffULL));
        len = (int)strlen(c->tmp) + 1;
    }
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(&len, 1, MPI_INT, 0, c->comm), LATTIO_ERR_MPI));
    RETURN_IF(len <= 0 || (size_t)len > n, LATTIO_ERR_MPI);
    return MPI_CHECK(MPI_Bcast(c->tmp, len, MPI_CHAR, 0, c->comm), LATTIO_ERR_MPI);
}

static int open_file(lattio_container *c, MPI_Info info)
{
    int rc = LATTIO_OK, amode = MPI_MODE_RDONLY;
    if (c->mode == LATTIO_MODE_CREATE) {
        amode = MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_EXCL;
        if (!c->opt.in_place) rc = choose_temporary(c);
        else if (c->rank == 0) unlink(c->path);
    }
    RETURN_IF_ERROR(lattio_agree(c->comm, rc));
    int mrc = MPI_File_open(c->comm, c->tmp ? c->tmp : c->path, amode, info, &c->fh);
    if (mrc != MPI_SUCCESS) c->fh = MPI_FILE_NULL;
    rc = MPI_CHECK(mrc, LATTIO_ERR_OPEN);
    if (rc == LATTIO_OK)
        rc = MPI_CHECK(MPI_File_set_errhandler(c->fh, MPI_ERRORS_RETURN), LATTIO_ERR_MPI);
    return lattio_agree(c->comm, rc);
}

/* Alignment (option or rank 0's file system), id and chunk size, shared. */
static int start_writing(lattio_container *c, uint64_t chunk_hint)
{
    uint64_t v[2] = {c->opt.align, 0}, chunk = 0;
    if (c->rank == 0 && v[0] == 0) {
        int fd = open(c->tmp ? c->tmp : c->path, O_RDONLY | O_CLOEXEC);
        v[0] = lattio_cont_detect_align(fd);
        if (fd >= 0) close(fd);
    }
    v[1] = lattio_cont_new_id();
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(v, 2, MPI_UINT64_T, 0, c->comm), LATTIO_ERR_MPI));
    RETURN_IF_ERROR(MPI_CHECK(MPI_Allreduce(&chunk_hint, &chunk, 1, MPI_UINT64_T, MPI_MAX, c->comm),
                              LATTIO_ERR_MPI));
    int rc = lattio_cont_header_init(&c->h, (uint32_t)c->size, chunk, v[0], v[1]);
    c->s.task = c->s.local = (uint32_t)c->rank;
    if (rc == LATTIO_OK && c->rank == 0) {
        unsigned char buf[LATTIO_CONT_HEADER_SIZE];
        lattio_cont_header_encode(buf, &c->h);
        rc = lattio_container_sink_write(c, 0, buf, sizeof buf);
    }
    return lattio_agree(c->comm, rc);
}

/* This rank's share of the scan: tasks rank, rank + size, ... */
static int scan_share(lattio_container *c, const lattio_source *src, uint64_t *sizes)
{
    int recover = c->opt.recover != 0;
    for (uint64_t i = (uint64_t)c->rank; i < c->nknown; i += (uint64_t)c->size) {
        lattio_cont_task_info t;
        RETURN_IF_ERROR(lattio_cont_scan_task(src, &c->h, (uint32_t)i, recover, c->footer.nblocks, &t));
        sizes[i] = t.bytes;
    }
    return LATTIO_OK;
}

/* Header and footer on every rank, trailers shared out, sizes summed. */
static int start_reading(lattio_container *c)
{
    lattio_source src;
    uint64_t *mine = NULL, sum = 0;
    int rc = lattio_container_source(c, &src);
    if (rc == LATTIO_OK) rc = lattio_cont_read_meta(&src, c->opt.recover != 0, &c->h, &c->footer, &c->closed);
    c->nknown = rc == LATTIO_OK ? lattio_cont_tasks_in_file(&c->h, src.size) : 0;
    if (rc == LATTIO_OK && !c->opt.recover && c->nknown < c->h.ntasks) rc = LATTIO_FAIL(LATTIO_ERR_CONTAINER, "tasks beyond file");
    if (rc == LATTIO_OK) {
        mine = lattio_calloc(c->nknown + 1, sizeof *mine);
        c->sizes = lattio_calloc(c->nknown + 1, sizeof *c->sizes);
        if (!mine || !c->sizes) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "sizes");
    }
    if (rc == LATTIO_OK) rc = scan_share(c, &src, mine);
    rc = lattio_agree(c->comm, rc);
    if (rc == LATTIO_OK)
        rc = lattio_agree(c->comm, MPI_CHECK(MPI_Allreduce(mine, c->sizes, (int)c->nknown, MPI_UINT64_T,
                                                           MPI_SUM, c->comm), LATTIO_ERR_MPI));
    lattio_free(mine);
    for (uint32_t i = 0; rc == LATTIO_OK && i < c->nknown; i++) sum += c->sizes[i];
    if (rc == LATTIO_OK && !c->opt.recover && sum != c->footer.total_bytes) rc = LATTIO_ERR_CONTAINER;
    c->has_task = rc == LATTIO_OK && (uint64_t)c->rank < c->h.ntasks;
    c->task = (uint32_t)c->rank;
    return rc;
}

int lattio_container_open(MPI_Comm comm, const char *path, int mode, uint64_t chunk_hint,
                          MPI_Info info, const lattio_container_options *opt,
                          lattio_container **out)
{
    RETURN_IF(!out, LATTIO_ERR_ARG);
    *out = NULL;
    int bad = check_arguments(path, mode, opt);
    lattio_container *c = NULL;
    int rc = new_container(comm, bad ? "" : path, mode, opt, &c);
    if (rc < 0) return rc;
    rc = lattio_agree(c->comm, bad);
    if (rc == LATTIO_OK) rc = lattio_agree(c->comm, same_arguments(c));
    if (rc == LATTIO_OK) rc = open_file(c, info);
    if (rc == LATTIO_OK && mode == LATTIO_MODE_CREATE) rc = start_writing(c, chunk_hint);
    if (rc == LATTIO_OK && mode == LATTIO_MODE_READ) rc = start_reading(c);
    if (rc < 0) {
        if (c->fh != MPI_FILE_NULL) MPI_File_close(&c->fh);
        if (c->tmp && c->rank == 0) unlink(c->tmp);
        free_container(c);
        return rc;
    }
    *out = c;
    return LATTIO_OK;
}

/* Collective.  Final trailers, then rank 0 writes the footer after the
 * last block of any task. */
static int finish_writing(lattio_container *c)
{
    int rc = c->failed ? LATTIO_FAIL(LATTIO_ERR_STATE, "earlier failure") : LATTIO_OK;
    if (rc == LATTIO_OK) rc = lattio_cont_stream_finish(&c->h, &c->s, &c->sink);
    RETURN_IF_ERROR(lattio_agree(c->comm, rc));
    uint64_t mine[2] = {lattio_cont_stream_blocks(&c->s), c->s.total}, all[2] = {0, 0};
    rc = MPI_CHECK(MPI_Allreduce(&mine[0], &all[0], 1, MPI_UINT64_T, MPI_MAX, c->comm), LATTIO_ERR_MPI);
    if (rc == LATTIO_OK)
        rc = MPI_CHECK(MPI_Allreduce(&mine[1], &all[1], 1, MPI_UINT64_T, MPI_SUM, c->comm), LATTIO_ERR_MPI);
    RETURN_IF_ERROR(lattio_agree(c->comm, rc));
    if (c->rank == 0) {
        lattio_cont_footer f = {c->h.id, all[0], all[1]};
        unsigned char buf[LATTIO_CONT_FOOTER_SIZE];
        uint64_t off = 0;
        lattio_cont_footer_encode(buf, &f);
        rc = lattio_cont_footer_offset(&c->h, f.nblocks, &off);
        if (rc == LATTIO_OK) rc = lattio_container_sink_write(c, off, buf, sizeof buf);
    }
    rc = lattio_agree(c->comm, rc);
    if (rc == LATTIO_OK && c->opt.durable)
        rc = lattio_agree(c->comm, MPI_CHECK(MPI_File_sync(c->fh), LATTIO_ERR_SYNC));
    return rc;
}

/* Rank 0 renames (or removes) the temporary; everyone learns the result. */
static int publish(lattio_container *c, int status)
{
    int rc = LATTIO_OK;
    if (c->rank == 0 && c->tmp) {
        if (status == LATTIO_OK && rename(c->tmp, c->path) != 0)
            rc = LATTIO_FAIL(LATTIO_ERR_RENAME, "rename");
        if (status != LATTIO_OK || rc != LATTIO_OK) unlink(c->tmp);
    }
    if (c->rank == 0 && status == LATTIO_OK && rc == LATTIO_OK && c->opt.durable)
        rc = lattio_sync_directory(c->path);
    return lattio_agree(c->comm, status != LATTIO_OK ? status : rc);
}

int lattio_container_close(lattio_container *c)
{
    if (!c) return LATTIO_OK;
    int writing = c->mode == LATTIO_MODE_CREATE;
    int rc = writing ? finish_writing(c) : LATTIO_OK;
    int crc = MPI_CHECK(MPI_File_close(&c->fh), LATTIO_ERR_CLOSE);
    c->fh = MPI_FILE_NULL;
    rc = lattio_agree(c->comm, rc < 0 ? rc : crc);
    if (writing) rc = publish(c, rc);
    free_container(c);
    return rc;
}

void lattio_container_test_abandon(lattio_container *c)
{
    if (c) free_container(c);
}
