/* container.c -- collective open and close of an MPI task-local container:
 * argument agreement, the split into physical files (one sub-communicator
 * each), the temporary names and the renames, the headers and footers (the
 * first rank of each file).  Reading is opened in container_read.c.
 *
 * A single file under its temporary name is opened (created) by every rank
 * at once; otherwise (in place, several files) the first rank of each file
 * creates it with O_EXCL and the others open it once it exists.  Every
 * rank then writes its chunks with pwrite on its own descriptor.  One file
 * costs two collective calls to open (arguments with rank 0's id and name;
 * the statuses with rank 0's alignment) and two to close (final trailers
 * and sizes; the rename's outcome); in place, one more to open; each
 * further file adds a communicator split and two agreements. */
#include "container_mpi.h"
#include "testhooks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
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
    if (c->fd >= 0) close(c->fd);
    for (uint32_t k = 0; k < c->nread; k++) {
        if (c->fds && c->fds[k] >= 0) close(c->fds[k]);
        if (c->m) lattio_cont_member_release(&c->m[k]);
    }
    lattio_cont_cache_release(&c->cache);
    free_comm(&c->gcomm);
    if (c->fcomm != c->comm) free_comm(&c->fcomm);
    free_comm(&c->comm);
    lattio_free(c->fds);
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
    c->fd = -1;
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

/* What the first collective call settles: the largest chunk hint and rank
 * 0's container id. */
typedef struct open_args {
    uint64_t chunk, id;
} open_args;

/* One Allreduce (MIN) decides the argument checks (`bad`: this rank's),
 * that every rank gave the same path, mode and options (their hash's
 * minimum and maximum agree), the largest chunk hint, and carries rank
 * 0's id (the other ranks give the largest value). */
static int agree_arguments(lattio_container *c, int bad, uint64_t chunk_hint, open_args *a)
{
    uint64_t h = 1469598103934665603ULL;
    for (const char *p = c->path; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    const uint64_t v[9] = {(uint64_t)c->mode, c->opt.align, (uint64_t)c->opt.in_place,
                           (uint64_t)c->opt.durable, (uint64_t)c->opt.recover,
                           (uint64_t)c->opt.no_verify, c->opt.nfiles, (uint64_t)c->opt.coalesce,
                           (uint64_t)comm_given(c->opt.file_comm)};
    for (int i = 0; i < 9; i++) h = (h ^ v[i]) * 1099511628211ULL;
    uint64_t mine[5] = {(uint64_t)((int64_t)bad - INT32_MIN), h, ~h, ~chunk_hint, UINT64_MAX}, all[5];
    if (c->rank == 0) mine[4] = lattio_cont_new_id();
    RETURN_IF_ERROR(lattio_allreduce_u64(mine, all, 5, MPI_MIN, c->comm));
    const int status = (int)((int64_t)all[0] + INT32_MIN);
    RETURN_IF(status < 0, status);
    RETURN_IF(all[1] != ~all[2], LATTIO_ERR_RANK_ARG);
    open_args r = {~all[3], all[4]};
    *a = r;
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
 * sub-communicators of its file (comm itself for a single file) and,
 * coalescing, of its group. */
static int split_files(lattio_container *c)
{
    uint32_t index = 0;
    int rc = LATTIO_OK;
    if (comm_given(c->opt.file_comm)) {
        rc = lattio_agree(c->comm, files_from_comm(c, &index));
    } else { /* nfiles is the same on every rank: no agreement needed */
        c->nfiles = c->opt.nfiles ? c->opt.nfiles : 1;
        RETURN_IF(c->nfiles > (uint32_t)c->size, LATTIO_ERR_ARG);
        index = (uint32_t)((uint64_t)c->rank * c->nfiles / (uint64_t)c->size);
    }
    RETURN_IF_ERROR(rc);
    c->findex = index;
    if (c->nfiles == 1) {
        c->fcomm = c->comm;
    } else {
        rc = MPI_CHECK(MPI_Comm_split(c->comm, (int)index, c->rank, &c->fcomm), LATTIO_ERR_MPI);
        if (rc < 0) c->fcomm = MPI_COMM_NULL;
    }
    if (rc == LATTIO_OK) {
        MPI_Comm_rank(c->fcomm, &c->frank);
        MPI_Comm_size(c->fcomm, &c->fsize);
    }
    if (rc == LATTIO_OK && c->opt.coalesce > 1)
        rc = MPI_CHECK(MPI_Comm_split(c->fcomm, c->frank / c->opt.coalesce, c->frank, &c->gcomm),
                       LATTIO_ERR_MPI);
    if (c->nfiles == 1 && c->opt.coalesce <= 1) return rc; /* no call that could fail */
    return lattio_agree(c->comm, rc);
}

/* How a rank opens its file. */
enum { OPEN_EXISTING, CREATE_EXCL, CREATE_SHARED };

/* Create or open this rank's file: CREATE_EXCL (the first rank of a file;
 * in place, an old file of the name is removed first), CREATE_SHARED
 * (every rank of a single file under its unique temporary name: whoever
 * comes first creates it), OPEN_EXISTING (once it exists). */
static int open_own_file(lattio_container *c, int how)
{
    char *name = lattio_cont_member_name(c->tmp ? c->tmp : c->path, c->findex);
    RETURN_IF(!name, LATTIO_ERR_NOMEM);
    if (how == CREATE_EXCL && !c->tmp) unlink(name);
    int flags = O_RDWR | O_CLOEXEC;
    if (how != OPEN_EXISTING) flags |= O_CREAT | (how == CREATE_EXCL ? O_EXCL : 0);
    c->fd = lattio_fs_open(name, flags, 0666); /* another node's new file: its name looked up afresh */
    lattio_free(name);
    RETURN_IF_ERRNO(c->fd < 0, LATTIO_ERR_OPEN);
    return LATTIO_OK;
}

/* This rank's header fields (stream, file range) from the shared values. */
static int init_header(lattio_container *c, uint64_t chunk, uint64_t align, uint64_t id)
{
    c->s.task = (uint32_t)c->rank;
    c->s.local = (uint32_t)c->frank;
    RETURN_IF_ERROR(lattio_cont_header_init(&c->h, (uint32_t)c->size, chunk, align, id));
    uint32_t first = (uint32_t)(c->rank - c->frank);
    RETURN_IF_ERROR(lattio_cont_header_set_file(&c->h, c->nfiles, c->findex, first, (uint32_t)c->fsize));
    /* coalescing pays only while a group's chunks fit one write */
    c->coalescing = c->opt.coalesce > 1 &&
                    (uint64_t)c->opt.coalesce * c->h.stride <= ((uint64_t)1 << 30);
    return LATTIO_OK;
}

/* The first rank of each file writes its header. */
static int write_header(lattio_container *c)
{
    unsigned char buf[LATTIO_CONT_HEADER_SIZE];
    lattio_cont_header_encode(buf, &c->h);
    return lattio_container_sink_write(c, 0, buf, sizeof buf);
}

/* One Allreduce (MIN): the ranks' statuses and rank 0's alignment (the
 * others give the largest value). */
static int agree_with_align(lattio_container *c, int rc, uint64_t *align)
{
    uint64_t mine[2] = {(uint64_t)((int64_t)rc - INT32_MIN), c->rank == 0 ? *align : UINT64_MAX};
    uint64_t all[2];
    RETURN_IF_ERROR(lattio_allreduce_u64(mine, all, 2, MPI_MIN, c->comm));
    *align = all[1];
    return (int)((int64_t)all[0] + INT32_MIN);
}

/* Alignment: the option, or the file system's as seen on fd. */
static uint64_t alignment(const lattio_container *c)
{
    return c->opt.align ? c->opt.align : lattio_cont_detect_align(c->fd);
}

/* Local.  Whether the file system holding `path` is shared over a network
 * (lattio_fs_is_network; the same answer on every rank). */
static int on_network(const char *path)
{
    lattio_fsinfo fs;
    return lattio_fsinfo_path(path, &fs) != LATTIO_OK || lattio_fs_is_network(fs.kind);
}

/* One file under a temporary name: every rank opens (creating) it, rank 0
 * writes the header; one agreement.  Two collective calls in all.  On a
 * network file system clients creating one name at once may fail
 * (GlusterFS: ERR_OPEN on some ranks of cluster.container.mpi_roundtrip at
 * 2 nodes x 2 ranks, now and then), so there rank 0 creates it first and
 * the others open it after the agreement: one collective call more. */
static int start_shared(lattio_container *c, const open_args *a)
{
    uint64_t align = 0;
    const int first = c->tmp && c->size > 1 && on_network(c->tmp);
    int rc = c->tmp ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "name");
    if (rc == LATTIO_OK && (c->rank == 0 || !first)) rc = open_own_file(c, CREATE_SHARED);
    if (rc == LATTIO_OK && c->rank == 0) {
        align = alignment(c);
        rc = init_header(c, a->chunk, align, a->id);
        if (rc == LATTIO_OK) rc = write_header(c);
    }
    RETURN_IF_ERROR(agree_with_align(c, rc, &align));
    if (first) RETURN_IF_ERROR(lattio_agree(c->comm, c->rank == 0 ? LATTIO_OK : open_own_file(c, OPEN_EXISTING)));
    /* the values rank 0 used, and a single file's range: the same outcome */
    return c->rank == 0 ? LATTIO_OK : init_header(c, a->chunk, align, a->id);
}

/* In place, or several files: rank 0 creates file 0 (O_EXCL) and shares
 * its outcome and alignment; the first rank of every other file creates
 * it; an agreement; the others open theirs; an agreement. */
static int start_ordered(lattio_container *c, const open_args *a)
{
    uint64_t align = 0;
    int rc = !c->opt.in_place && !c->tmp ? LATTIO_FAIL(LATTIO_ERR_NOMEM, "name") : LATTIO_OK;
    if (rc == LATTIO_OK && c->rank == 0) rc = open_own_file(c, CREATE_EXCL);
    if (c->rank == 0) align = alignment(c);
    RETURN_IF_ERROR(agree_with_align(c, rc, &align));
    rc = init_header(c, a->chunk, align, a->id);
    if (rc == LATTIO_OK && c->frank == 0 && c->findex > 0) rc = open_own_file(c, CREATE_EXCL);
    if (c->nfiles > 1) rc = lattio_agree(c->comm, rc); /* the members exist */
    if (rc == LATTIO_OK && c->frank != 0) rc = open_own_file(c, OPEN_EXISTING);
    if (rc == LATTIO_OK && c->frank == 0) rc = write_header(c);
    return lattio_agree(c->comm, rc);
}

/* Collective: every file created and opened by its ranks, headers written,
 * geometry (largest chunk hint, rank 0's alignment) and id shared. */
static int start_writing(lattio_container *c, const open_args *a)
{
    if (!c->opt.in_place) RETURN_IF_ERROR(lattio_bcast_temp_name(c->comm, c->rank, c->path, &c->tmp));
    return c->nfiles == 1 && !c->opt.in_place ? start_shared(c, a) : start_ordered(c, a);
}

/* Remove this rank's temporary member after a failed open (its first rank:
 * the one that created it, or, a single file created by any rank, rank 0;
 * the temporary name is this open's own). */
static void remove_partial(const lattio_container *c)
{
    if (!c->tmp || c->frank != 0 || (c->fd < 0 && c->nfiles != 1)) return;
    char *name = lattio_cont_member_name(c->tmp, c->findex);
    if (name) unlink(name);
    lattio_free(name);
}

int lattio_container_open(MPI_Comm comm, const char *path, int mode, uint64_t chunk_hint,
                          MPI_Info info, const lattio_container_options *opt,
                          lattio_container **out)
{
    (void)info; /* the data path is POSIX: no MPI-IO hints apply */
    RETURN_IF(!out, LATTIO_ERR_ARG);
    *out = NULL;
    int bad = check_arguments(path, mode, opt);
    lattio_container *c = NULL;
    open_args a = {0, 0};
    int rc = new_container(comm, bad ? "" : path, mode, opt, &c);
    if (rc < 0) return rc;
    rc = agree_arguments(c, bad, chunk_hint, &a);
    if (rc == LATTIO_OK && mode == LATTIO_MODE_CREATE) rc = split_files(c);
    if (rc == LATTIO_OK && mode == LATTIO_MODE_CREATE) rc = start_writing(c, &a);
    if (rc == LATTIO_OK && mode == LATTIO_MODE_READ) rc = lattio_container_start_reading(c);
    if (rc < 0) {
        remove_partial(c);
        free_container(c);
        return rc;
    }
    *out = c;
    return LATTIO_OK;
}

/* Close fd; a failing close (or, durable, fsync) is an error. */
static int close_own_file(lattio_container *c, int status)
{
    if (status == LATTIO_OK && c->opt.durable && fsync(c->fd) != 0)
        status = LATTIO_FAIL_ERRNO(LATTIO_ERR_SYNC, "fsync");
    if (close(c->fd) != 0 && status == LATTIO_OK) status = LATTIO_FAIL_ERRNO(LATTIO_ERR_CLOSE, "close");
    c->fd = -1;
    return status;
}

/* What the ranks of a file combine at close: the worst status, the most
 * blocks, the sum of the stream sizes. */
typedef struct file_sums {
    int64_t status;
    uint64_t nblocks, bytes;
} file_sums;

static void combine_sums(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const file_sums *a = in;
    file_sums *b = inout;
    for (int i = 0; i < *len; i++) {
        if (a[i].status < b[i].status) b[i].status = a[i].status;
        if (a[i].nblocks > b[i].nblocks) b[i].nblocks = a[i].nblocks;
        b[i].bytes += a[i].bytes;
    }
}

/* One Allreduce over the file's ranks with combine_sums. */
static int reduce_file(const lattio_container *c, const file_sums *mine, file_sums *all)
{
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Op op = MPI_OP_NULL;
    int rc = MPI_Type_contiguous(3, MPI_UINT64_T, &type);
    if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&type);
    if (rc == MPI_SUCCESS) rc = MPI_Op_create(combine_sums, 1, &op);
    if (rc == MPI_SUCCESS) rc = MPI_Allreduce(mine, all, 1, type, op, c->fcomm);
    if (op != MPI_OP_NULL) MPI_Op_free(&op);
    if (type != MPI_DATATYPE_NULL) MPI_Type_free(&type);
    return MPI_CHECK(rc, LATTIO_ERR_MPI);
}

/* This rank's final trailer (or its group's, coalescing: agreed first, as
 * the group's ranks gather). */
static int finish_stream(lattio_container *c)
{
    int rc = c->failed; /* a failed write's status: nothing is published */
    if (!c->coalescing) return rc < 0 ? rc : lattio_cont_stream_finish(&c->h, &c->s, &c->sink);
    RETURN_IF_ERROR(lattio_agree(c->comm, rc));
    return lattio_container_coalesce_close(c);
}

/* Final trailers (synced and closed by all but the file's first rank), one
 * reduction per file, then its first rank writes the footer after the last
 * block of any of its tasks, syncs (durable) and closes.  Returns this
 * rank's view: the file's agreed status, and the first rank's own. */
static int finish_writing(lattio_container *c)
{
    int rc = finish_stream(c);
    if (c->frank != 0) rc = close_own_file(c, rc);
    file_sums mine = {rc, lattio_cont_stream_blocks(&c->s), lattio_container_written(c)}, all;
    int mrc = reduce_file(c, &mine, &all);
    rc = mrc < 0 ? mrc : (int)all.status;
    if (c->frank != 0) return rc;
    if (rc == LATTIO_OK) {
        lattio_cont_footer f = {c->h.id, all.nblocks, all.bytes};
        unsigned char buf[LATTIO_CONT_FOOTER_SIZE];
        uint64_t off = 0;
        lattio_cont_footer_encode(buf, &f);
        rc = lattio_cont_footer_offset(&c->h, f.nblocks, &off);
        if (rc == LATTIO_OK) rc = lattio_container_sink_write(c, off, buf, sizeof buf);
    }
    return close_own_file(c, rc);
}

/* The first rank of file `findex` renames its temporary member (or, on
 * failure, removes it). */
static int rename_member(const lattio_container *c, int status)
{
    char *from = lattio_cont_member_name(c->tmp, c->findex);
    char *to = lattio_cont_member_name(c->path, c->findex);
    int rc = from && to ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "name");
    if (rc == LATTIO_OK && status == LATTIO_OK) rc = lattio_temp_publish(from, to);
    if (from && (status != LATTIO_OK || rc != LATTIO_OK)) unlink(from);
    if (rc == LATTIO_OK && status == LATTIO_OK && c->opt.durable) rc = lattio_sync_directory(to);
    lattio_free(from);
    lattio_free(to);
    return rc;
}

/* In place: only the directory entries to make durable. */
static int sync_in_place(const lattio_container *c, int status)
{
    if (status != LATTIO_OK || !c->opt.durable || c->frank != 0) return status;
    char *name = lattio_cont_member_name(c->path, c->findex);
    int rc = name ? lattio_sync_directory(name) : LATTIO_FAIL(LATTIO_ERR_NOMEM, "name");
    lattio_free(name);
    return rc;
}

/* Rename every file when every file succeeded: members 1.. first, then
 * file 0 once they all are in place; otherwise remove the temporaries.
 * status: this rank's view of its file's outcome (finish_writing). */
static int publish(lattio_container *c, int status)
{
    int rc = status;
    if (!c->tmp) return lattio_agree(c->comm, sync_in_place(c, status));
    if (c->nfiles > 1) { /* every file's outcome, then the members */
        rc = lattio_agree(c->comm, status);
        int r = c->frank == 0 && c->findex > 0 ? rename_member(c, rc) : LATTIO_OK;
        rc = lattio_agree(c->comm, rc != LATTIO_OK ? rc : r);
    }
    int r0 = c->rank == 0 ? rename_member(c, rc) : LATTIO_OK;
    return lattio_agree(c->comm, rc != LATTIO_OK ? rc : r0);
}

/* Reading: the rest of a chunk left part-read in order checked, the
 * descriptors closed (errors agreed). */
static int finish_reading(lattio_container *c)
{
    int rc = lattio_container_leave_chunk(c, UINT32_MAX, 0);
    for (uint32_t k = 0; k < c->nread; k++) {
        if (c->fds[k] >= 0 && close(c->fds[k]) != 0 && rc == LATTIO_OK)
            rc = LATTIO_FAIL_ERRNO(LATTIO_ERR_CLOSE, "close");
        c->fds[k] = -1;
    }
    return lattio_agree(c->comm, rc);
}

int lattio_container_close(lattio_container *c)
{
    if (!c) return LATTIO_OK;
    int rc = c->mode == LATTIO_MODE_CREATE ? publish(c, finish_writing(c)) : finish_reading(c);
    free_container(c);
    return rc;
}

#ifdef LATTIO_TEST_HOOKS
void lattio_container_test_abandon(lattio_container *c)
{
    if (c) free_container(c);
}
#endif
