/* container.c -- collective open and close of an MPI task-local container:
 * argument agreement, the split into physical files (one sub-communicator
 * each), the temporary names and the renames, the headers and footers (the
 * first rank of each file).  Reading is opened in container_read.c. */
#include "container_mpi.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void lattio_container_options_default(lattio_container_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->file_comm = MPI_COMM_NULL;
}

/* A communicator in the options: neither MPI_COMM_NULL nor all-zero bytes
 * (a zero-initialised options struct). */
static int comm_given(MPI_Comm comm)
{
    static const unsigned char zero[sizeof(MPI_Comm)];
    return comm != MPI_COMM_NULL && memcmp(&comm, zero, sizeof comm) != 0;
}

static void free_comm(MPI_Comm *comm)
{
    if (*comm != MPI_COMM_NULL) MPI_Comm_free(comm);
}

static void free_container(lattio_container *c)
{
    if (c->fh != MPI_FILE_NULL) MPI_File_close(&c->fh);
    for (uint32_t k = 0; k < c->nread; k++) {
        if (c->fhs && c->fhs[k] != MPI_FILE_NULL) MPI_File_close(&c->fhs[k]);
        if (c->m) lattio_cont_member_release(&c->m[k]);
    }
    free_comm(&c->gcomm);
    free_comm(&c->fcomm);
    free_comm(&c->comm);
    lattio_free(c->fhs);
    lattio_free(c->m);
    lattio_free(c->cbuf);
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
    c->comm = c->fcomm = c->gcomm = MPI_COMM_NULL;
    c->mode = mode;
    lattio_container_options_default(&c->opt);
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
    RETURN_IF(opt && opt->coalesce < 0, LATTIO_ERR_ARG);
    return LATTIO_OK;
}

/* Every rank must give rank 0's path, mode and options. */
static int same_arguments(lattio_container *c)
{
    uint64_t h = 1469598103934665603ULL, h0;
    for (const char *p = c->path; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    const uint64_t v[9] = {(uint64_t)c->mode, c->opt.align, (uint64_t)c->opt.in_place,
                           (uint64_t)c->opt.durable, (uint64_t)c->opt.recover,
                           (uint64_t)c->opt.no_verify, c->opt.nfiles, (uint64_t)c->opt.coalesce,
                           (uint64_t)comm_given(c->opt.file_comm)};
    for (int i = 0; i < 9; i++) h = (h ^ v[i]) * 1099511628211ULL;
    h0 = h;
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(&h0, 1, MPI_UINT64_T, 0, c->comm), LATTIO_ERR_MPI));
    RETURN_IF(h0 != h, LATTIO_ERR_RANK_ARG);
    return LATTIO_OK;
}

/* File index and count from opt.file_comm: each colour's ranks must be
 * consecutive ranks of comm in order; files are ordered by first rank. */
static int files_from_comm(lattio_container *c, uint32_t *index)
{
    int first = c->rank, frank = 0, ok = 1;
    MPI_Comm fc = c->opt.file_comm;
    RETURN_IF_ERROR(MPI_CHECK(MPI_Allreduce(&c->rank, &first, 1, MPI_INT, MPI_MIN, fc), LATTIO_ERR_MPI));
    RETURN_IF_ERROR(MPI_CHECK(MPI_Comm_rank(fc, &frank), LATTIO_ERR_MPI));
    ok = frank == c->rank - first;
    int *firsts = lattio_malloc((size_t)c->size * sizeof *firsts);
    RETURN_IF(!firsts, LATTIO_ERR_NOMEM);
    int rc = MPI_CHECK(MPI_Allgather(&first, 1, MPI_INT, firsts, 1, MPI_INT, c->comm), LATTIO_ERR_MPI);
    uint32_t n = 0, mine = 0;
    for (int r = 0; rc == LATTIO_OK && r < c->size; r++) {
        if (firsts[r] != r) continue; /* r starts a file */
        if (r < first) mine++;
        n++;
    }
    lattio_free(firsts);
    RETURN_IF_ERROR(rc);
    RETURN_IF(!ok, LATTIO_ERR_ARG);
    *index = mine;
    c->nfiles = n;
    return LATTIO_OK;
}

/* This rank's file (opt.file_comm, or opt.nfiles even ranges) and the
 * sub-communicators of its file and, coalescing, of its group. */
static int split_files(lattio_container *c)
{
    uint32_t index = 0;
    int rc = LATTIO_OK;
    if (comm_given(c->opt.file_comm)) {
        rc = lattio_agree(c->comm, files_from_comm(c, &index));
    } else {
        c->nfiles = c->opt.nfiles ? c->opt.nfiles : 1;
        rc = c->nfiles > (uint32_t)c->size ? LATTIO_FAIL(LATTIO_ERR_ARG, "nfiles > tasks") : LATTIO_OK;
        index = (uint32_t)((uint64_t)c->rank * c->nfiles / (uint64_t)c->size);
    }
    RETURN_IF_ERROR(rc);
    c->findex = index;
    rc = MPI_CHECK(MPI_Comm_split(c->comm, (int)index, c->rank, &c->fcomm), LATTIO_ERR_MPI);
    if (rc == LATTIO_OK) {
        MPI_Comm_rank(c->fcomm, &c->frank);
        MPI_Comm_size(c->fcomm, &c->fsize);
    }
    if (rc == LATTIO_OK && c->opt.coalesce > 1)
        rc = MPI_CHECK(MPI_Comm_split(c->fcomm, c->frank / c->opt.coalesce, c->frank, &c->gcomm),
                       LATTIO_ERR_MPI);
    return lattio_agree(c->comm, rc);
}

/* Rank 0 names the temporary base and tells the others. */
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

/* Collective over c->comm: each file's ranks create their file. */
static int create_file(lattio_container *c, MPI_Info info)
{
    int rc = LATTIO_OK;
    char *name = NULL;
    if (!c->opt.in_place) rc = choose_temporary(c);
    if (rc == LATTIO_OK) {
        name = lattio_cont_member_name(c->tmp ? c->tmp : c->path, c->findex);
        if (!name) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "name");
    }
    if (rc == LATTIO_OK && c->opt.in_place && c->frank == 0) unlink(name);
    rc = lattio_agree(c->comm, rc);
    if (rc == LATTIO_OK) {
        int amode = MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_EXCL;
        int mrc = MPI_File_open(c->fcomm, name, amode, info, &c->fh);
        if (mrc != MPI_SUCCESS) c->fh = MPI_FILE_NULL;
        rc = MPI_CHECK(mrc, LATTIO_ERR_OPEN);
        if (rc == LATTIO_OK)
            rc = MPI_CHECK(MPI_File_set_errhandler(c->fh, MPI_ERRORS_RETURN), LATTIO_ERR_MPI);
        rc = lattio_agree(c->comm, rc);
    }
    lattio_free(name);
    return rc;
}

/* Alignment (option or rank 0's file system), id and chunk size shared by
 * all files; each file's first rank writes its header. */
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
    uint32_t first = (uint32_t)(c->rank - c->frank);
    if (rc == LATTIO_OK)
        rc = lattio_cont_header_set_file(&c->h, c->nfiles, c->findex, first, (uint32_t)c->fsize);
    c->s.task = (uint32_t)c->rank;
    c->s.local = (uint32_t)c->frank;
    if (rc == LATTIO_OK && c->frank == 0) {
        unsigned char buf[LATTIO_CONT_HEADER_SIZE];
        lattio_cont_header_encode(buf, &c->h);
        rc = lattio_container_sink_write(c, 0, buf, sizeof buf);
    }
    /* coalescing pays only while a group's chunks fit one write */
    c->coalescing = c->opt.coalesce > 1 &&
                    (uint64_t)c->opt.coalesce * c->h.stride <= ((uint64_t)1 << 30);
    return lattio_agree(c->comm, rc);
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
    if (rc == LATTIO_OK && mode == LATTIO_MODE_CREATE) rc = split_files(c);
    if (rc == LATTIO_OK && mode == LATTIO_MODE_CREATE) rc = create_file(c, info);
    if (rc == LATTIO_OK && mode == LATTIO_MODE_CREATE) rc = start_writing(c, chunk_hint);
    if (rc == LATTIO_OK && mode == LATTIO_MODE_READ) rc = lattio_container_start_reading(c, info);
    if (rc < 0) {
        if (c->fh != MPI_FILE_NULL) MPI_File_close(&c->fh);
        if (c->tmp && c->fcomm != MPI_COMM_NULL && c->frank == 0) {
            char *name = lattio_cont_member_name(c->tmp, c->findex);
            if (name) unlink(name);
            lattio_free(name);
        }
        free_container(c);
        return rc;
    }
    *out = c;
    return LATTIO_OK;
}

/* This rank's final trailer (or the group's, coalescing), agreed. */
static int finish_streams(lattio_container *c)
{
    int rc = c->failed ? LATTIO_FAIL(LATTIO_ERR_STATE, "earlier failure") : LATTIO_OK;
    RETURN_IF_ERROR(lattio_agree(c->comm, rc));
    if (c->coalescing) rc = lattio_container_coalesce_close(c);
    else rc = lattio_cont_stream_finish(&c->h, &c->s, &c->sink);
    return lattio_agree(c->comm, rc);
}

/* Collective.  Final trailers, then each file's first rank writes its
 * footer after the last block of any of its tasks. */
static int finish_writing(lattio_container *c)
{
    RETURN_IF_ERROR(finish_streams(c));
    uint64_t mine[2] = {lattio_cont_stream_blocks(&c->s), lattio_container_written(c)};
    uint64_t all[2] = {0, 0};
    int rc = MPI_CHECK(MPI_Allreduce(&mine[0], &all[0], 1, MPI_UINT64_T, MPI_MAX, c->fcomm), LATTIO_ERR_MPI);
    if (rc == LATTIO_OK)
        rc = MPI_CHECK(MPI_Allreduce(&mine[1], &all[1], 1, MPI_UINT64_T, MPI_SUM, c->fcomm), LATTIO_ERR_MPI);
    RETURN_IF_ERROR(lattio_agree(c->comm, rc));
    if (c->frank == 0) {
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

/* The first rank of file `findex` renames its temporary member (or, on
 * failure, removes it). */
static int rename_member(const lattio_container *c, int status)
{
    char *from = lattio_cont_member_name(c->tmp, c->findex);
    char *to = lattio_cont_member_name(c->path, c->findex);
    int rc = from && to ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "name");
    if (rc == LATTIO_OK && status == LATTIO_OK && rename(from, to) != 0)
        rc = LATTIO_FAIL(LATTIO_ERR_RENAME, "rename");
    if (from && (status != LATTIO_OK || rc != LATTIO_OK)) unlink(from);
    if (rc == LATTIO_OK && status == LATTIO_OK && c->opt.durable) rc = lattio_sync_directory(to);
    lattio_free(from);
    lattio_free(to);
    return rc;
}

/* Rename every file when every file succeeded: members 1.. first, then
 * file 0 once they all are in place; otherwise remove the temporaries. */
static int publish(lattio_container *c, int status)
{
    int rc = LATTIO_OK;
    if (!c->tmp) { /* in place: only the directory entries to make durable */
        if (status == LATTIO_OK && c->opt.durable && c->frank == 0) {
            char *name = lattio_cont_member_name(c->path, c->findex);
            rc = name ? lattio_sync_directory(name) : LATTIO_FAIL(LATTIO_ERR_NOMEM, "name");
            lattio_free(name);
        }
        return lattio_agree(c->comm, status != LATTIO_OK ? status : rc);
    }
    if (c->frank == 0 && c->findex > 0) rc = rename_member(c, status);
    rc = lattio_agree(c->comm, status != LATTIO_OK ? status : rc);
    int r0 = c->rank == 0 ? rename_member(c, rc) : LATTIO_OK;
    return lattio_agree(c->comm, rc != LATTIO_OK ? rc : r0);
}

int lattio_container_close(lattio_container *c)
{
    if (!c) return LATTIO_OK;
    int writing = c->mode == LATTIO_MODE_CREATE;
    int rc = writing ? finish_writing(c) : LATTIO_OK;
    int crc = LATTIO_OK;
    if (c->fh != MPI_FILE_NULL) crc = MPI_CHECK(MPI_File_close(&c->fh), LATTIO_ERR_CLOSE);
    c->fh = MPI_FILE_NULL;
    for (uint32_t k = 0; k < c->nread; k++) {
        int r = MPI_CHECK(MPI_File_close(&c->fhs[k]), LATTIO_ERR_CLOSE);
        c->fhs[k] = MPI_FILE_NULL;
        if (crc == LATTIO_OK) crc = r;
    }
    rc = lattio_agree(c->comm, rc < 0 ? rc : crc);
    if (writing) rc = publish(c, rc);
    free_container(c);
    return rc;
}

void lattio_container_test_abandon(lattio_container *c)
{
    if (c) free_container(c);
}
