/* file.c -- the parallel file handle: collective open and close, the
 * temporary name and the rename, the record index of a file being read. */
#include "io_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void lattio_options_default(lattio_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->strategy = LATTIO_STRATEGY_AUTO;
    opt->stripe_count = 0; /* hints: 0 = not set (the MPI library's or file system's default) */
    opt->stripe_size = 0;
    opt->aggregators = 0;
    opt->cb_buffer_size = 0;
}

/* --- hints and the file system -------------------------------------------- */

#define HINT_MAX_BUFFER ((uint64_t)1 << 30) /* the aggregate strategy's limit too */

/* Local.  The hint fields are usable: non-negative, and the sizes fit the
 * int the MPI libraries parse them into. */
static int hints_valid(const lattio_options *o)
{
    return o->stripe_count >= 0 && o->aggregators >= 0 && o->stripe_size <= (uint64_t)INT_MAX &&
           o->cb_buffer_size <= HINT_MAX_BUFFER;
}

/* Set `key` to decimal `v` in *info (created when MPI_INFO_NULL). */
static int set_hint(MPI_Info *info, const char *key, uint64_t v)
{
    char val[24];
    snprintf(val, sizeof val, "%llu", (unsigned long long)v);
    if (*info == MPI_INFO_NULL) RETURN_IF_ERROR(MPI_CHECK(MPI_Info_create(info), LATTIO_ERR_MPI));
    return MPI_CHECK(MPI_Info_set(*info, key, val), LATTIO_ERR_MPI);
}

/* Local.  f->info: a duplicate of the caller's hints with the options' hint
 * fields under every spelling.  ROMIO reads striping_factor, striping_unit,
 * cb_nodes and cb_buffer_size.  Open MPI 4.1's OMPIO reads striping_factor
 * and striping_unit in fs/lustre (before its older keys stripe_size and
 * stripe_width, which earlier releases read alone: stripe_size in bytes,
 * stripe_width the count), cb_buffer_size when it opens the file
 * (common_ompio) and cb_nodes when it picks aggregators (fcoll). */
static int make_hints(lattio_file *f, MPI_Info info)
{
    const lattio_options *o = &f->opt;
    const struct {
        const char *key;
        uint64_t v;
    } keys[] = {{"striping_factor", (uint64_t)o->stripe_count}, {"stripe_width", (uint64_t)o->stripe_count},
                {"striping_unit", o->stripe_size},              {"stripe_size", o->stripe_size},
                {"cb_nodes", (uint64_t)o->aggregators},         {"cb_buffer_size", o->cb_buffer_size}};
    if (info != MPI_INFO_NULL) RETURN_IF_ERROR(MPI_CHECK(MPI_Info_dup(info, &f->place.info), LATTIO_ERR_MPI));
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (keys[i].v) RETURN_IF_ERROR(set_hint(&f->place.info, keys[i].key, keys[i].v));
    return LATTIO_OK;
}

uint64_t lattio_file_alignment(const lattio_file *f, uint64_t striping_unit)
{
    lattio_fsinfo fs = {.kind = f->place.fs_kind, .block = f->place.fs_block};
    return lattio_fs_alignment(&fs, striping_unit);
}

/* Independent write calls on a local file system: the size of a call sets
 * the order of the page-cache folios it allocates (Linux >= 6.x, ext4/xfs
 * large folios), and on the development VM folios of 512 KiB and more,
 * taken from memory the host reclaimed, copied 2-4x more slowly than
 * 256 KiB ones (bench/results/floor-2026-11-24d.md). */
#define WRITE_PIECE_PAGE_CACHE ((uint64_t)256 << 10)

/* Local.  Bytes per independent write call on f: LATTIO_WRITE_PIECE when
 * set (f->cfg), else on Lustre, GPFS and NFS the file system's
 * unit (lattio_file_alignment: the stripe size, the block), as on every
 * known network file system, elsewhere (local page-cache file systems and
 * unknown ones) WRITE_PIECE_PAGE_CACHE. */
static uint64_t write_piece(const lattio_file *f)
{
    if (f->cfg.write_piece) return f->cfg.write_piece;
    if (lattio_fs_is_network(f->place.fs_kind) && f->place.fs_kind != LATTIO_FS_UNKNOWN)
        return lattio_file_alignment(f, f->opt.stripe_size);
    return WRITE_PIECE_PAGE_CACHE;
}

/* Collective.  Rank 0 reads the configuration from its environment;
 * everyone takes it, so ranks on nodes with different environments make
 * the same choices. */
static int share_config(lattio_file *f)
{
    char set[256];
    if (f->rank == 0) lattio_config_read(&f->cfg);
    for (unsigned i = 0; f->rank == 0 && lattio_trace_enabled() && lattio_config_name(i, NULL, NULL); i++)
        if (lattio_config_setting(&f->cfg, i, set, sizeof set)) LATTIO_TRACE("%s", set);
    return MPI_CHECK(MPI_Bcast(&f->cfg, (int)sizeof f->cfg, MPI_BYTE, 0, f->comm), LATTIO_ERR_MPI);
}

/* Collective.  Rank 0 detects the file system of the path (of its
 * directory when the file does not exist yet), before the file is opened;
 * everyone learns it (unknown when it cannot be queried: not an error). */
static int detect_fs(lattio_file *f)
{
    uint64_t v[2] = {LATTIO_FS_UNKNOWN, 0};
    lattio_fsinfo fs;
    const char *name = f->place.path;
    if (f->rank == 0 && name && *name && lattio_fsinfo_path(name, &fs) == LATTIO_OK) {
        v[0] = (uint64_t)fs.kind;
        v[1] = fs.block;
        LATTIO_TRACE("file system %s (f_type 0x%llx, mount type %s), block %llu bytes",
                     lattio_fs_name(fs.kind), (unsigned long long)fs.magic, fs.type[0] ? fs.type : "?",
                     (unsigned long long)fs.block);
    }
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(v, 2, MPI_UINT64_T, 0, f->comm), LATTIO_ERR_MPI));
    f->place.fs_kind = (int)v[0];
    f->place.fs_block = v[1];
    f->out.write_piece = write_piece(f);
    return LATTIO_OK;
}

/* Collective.  The number of shared-memory nodes of f's communicator (for
 * the default's one aggregator per node); 1 when MPI cannot tell. */
static int count_nodes(lattio_file *f)
{
    MPI_Comm node = MPI_COMM_NULL;
    int me = 0;
    f->place.nnodes = f->place.node_ranks = f->place.node_leader = 1;
    int rc = MPI_CHECK(MPI_Comm_split_type(f->comm, MPI_COMM_TYPE_SHARED, f->rank, MPI_INFO_NULL, &node),
                       LATTIO_ERR_MPI);
    RETURN_IF_ERROR(rc); /* equal on every rank */
    MPI_Comm_rank(node, &me);
    MPI_Comm_size(node, &f->place.node_ranks);
    MPI_Comm_free(&node);
    f->place.node_leader = me == 0;
    RETURN_IF_ERROR(MPI_CHECK(MPI_Allreduce(&f->place.node_leader, &f->place.nnodes, 1, MPI_INT, MPI_SUM, f->comm), LATTIO_ERR_MPI));
    if (f->place.nnodes < 1) f->place.nnodes = 1;
    return LATTIO_OK;
}

/* Local (rank 0, under LATTIO_TRACE).  Every hint MPI reports for the open
 * file, after open. */
static void trace_hints(const lattio_file *f)
{
    MPI_Info used = MPI_INFO_NULL;
    int n = 0;
    if (f->rank != 0 || !lattio_trace_enabled() || MPI_File_get_info(f->fh, &used) != MPI_SUCCESS) return;
    MPI_Info_get_nkeys(used, &n);
    LATTIO_TRACE("%d hints applied", n);
    for (int i = 0; i < n; i++) {
        char key[MPI_MAX_INFO_KEY + 1] = "", val[MPI_MAX_INFO_VAL + 1] = "";
        int flag = 0;
        if (MPI_Info_get_nthkey(used, i, key) != MPI_SUCCESS) continue;
        if (MPI_Info_get(used, key, MPI_MAX_INFO_VAL, val, &flag) == MPI_SUCCESS && flag)
            LATTIO_TRACE("hint %s = %s", key, val);
    }
    MPI_Info_free(&used);
}

MPI_Comm lattio_file_comm(const lattio_file *f) { return f ? f->comm : MPI_COMM_NULL; }

/* Every rank must name the same path and mode: compare with rank 0's. */
static int same_arguments(lattio_file *f, const char *path, int mode)
{
    unsigned long long h = 1469598103934665603ULL, h0;
    for (const char *c = path; *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211ULL;
    h ^= (unsigned long long)mode;
    h0 = h;
    int rc = MPI_CHECK(MPI_Bcast(&h0, 1, MPI_UNSIGNED_LONG_LONG, 0, f->comm), LATTIO_ERR_MPI);
    RETURN_IF_ERROR(rc);
    RETURN_IF(h0 != h, LATTIO_ERR_RANK_ARG);
    return LATTIO_OK;
}

/* Collective.  Rank 0 picks a temporary name beside `path` (who made it:
 * host, process, time) and tells the others: *tmp on every rank. */
int lattio_bcast_temp_name(MPI_Comm comm, int rank, const char *path, char **tmp)
{
    int len = 0;
    const int allowed = rank == 0 ? lattio_output_check(path) : LATTIO_OK;
    *tmp = rank == 0 && allowed == LATTIO_OK ? lattio_temp_name(path) : NULL;
    if (rank == 0) len = allowed < 0 ? allowed : *tmp ? (int)strlen(*tmp) + 1 : 0;
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(&len, 1, MPI_INT, 0, comm), LATTIO_ERR_MPI));
    RETURN_IF(len < 0, len); /* ERR_NOT_REGULAR: every rank */
    RETURN_IF(len == 0, LATTIO_ERR_NOMEM);
    if (rank != 0) *tmp = lattio_malloc((size_t)len);
    RETURN_IF_ERROR(lattio_agree(comm, *tmp ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "name")));
    return MPI_CHECK(MPI_Bcast(*tmp, len, MPI_CHAR, 0, comm), LATTIO_ERR_MPI);
}

static int choose_temporary(lattio_file *f) { return lattio_bcast_temp_name(f->comm, f->rank, f->place.path, &f->place.tmp); }

/* Local, equal on every rank.  ERR_MPI_SHAREDFP where MPI_File_open would
 * risk the hang of Open MPI's lockedfile component (mpi_env.c): ranks on
 * several nodes, a file system whose clients cache directory entries. */
static int refuse_hang(const lattio_file *f)
{
    const int k = f->place.fs_kind;
    if (f->place.nnodes < 2 || !(k == LATTIO_FS_NFS || k == LATTIO_FS_FUSE || k == LATTIO_FS_GLUSTER)) return LATTIO_OK;
    if (!lattio_mpi_sharedfp_hazard()) return LATTIO_OK;
    lattio_detail_set("Open MPI's sharedfp component lockedfile on %s across %d nodes: set "
                      "OMPI_MCA_sharedfp=^lockedfile (or mpirun --mca sharedfp ^lockedfile)",
                      lattio_fs_name(k), f->place.nnodes);
    return LATTIO_FAIL(LATTIO_ERR_MPI_SHAREDFP, "lockedfile hazard");
}

int lattio_file_refresh(const lattio_file *f)
{
    const char *name = f->place.tmp ? f->place.tmp : f->place.path;
    if (!lattio_fs_caches_metadata(f->place.fs_kind) || f->place.borrowed || !name || !*name) return LATTIO_OK;
    return lattio_fs_refresh(name, NULL);
}

/* The file exists before MPI_File_open (claim_name), which creates
 * nothing: no MPI_MODE_EXCL (the claim was exclusive for CREATE). */
static int amode_of(int mode)
{
    if (mode == LATTIO_MODE_READ) return MPI_MODE_RDONLY;
    return MPI_MODE_RDWR | MPI_MODE_CREATE;
}

/* Collective, writing.  Rank 0 makes the file (O_EXCL for CREATE: the
 * name must be new) and, across nodes on a file system whose clients cache
 * lookups, one rank per node looks the name up afresh (lattio_fs_refresh
 * reads the directory when the lookup finds nothing).  ROMIO's open probes
 * the name on every rank before rank 0 creates it, and a client that caches
 * a lookup that found nothing (MooseFS's mfsnegentrycacheto, NFS's
 * lookupcache) then failed its open: cluster.io.records at 4x1 on
 * moosefs-nfs under ROMIO, ENOENT on ranks 1-3, EIO on rank 0. */
static int claim_name(lattio_file *f, const char *name)
{
    int rc = LATTIO_OK;
    if (f->rank == 0) {
        const int excl = f->mode == LATTIO_MODE_CREATE ? O_EXCL : 0;
        int fd = open(name, O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK | excl, 0666); /* a FIFO never blocks */
        if (fd < 0) rc = LATTIO_FAIL_ERRNO(LATTIO_ERR_OPEN, "create");
        else close(fd);
    }
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    if (f->place.nnodes < 2 || !lattio_fs_caches_metadata(f->place.fs_kind)) return LATTIO_OK;
    return lattio_agree(f->comm, f->place.node_leader && f->rank != 0 ? lattio_fs_refresh(name, NULL) : LATTIO_OK);
}

/* Collective, after a failed MPI_File_open: when some rank's MPI found no
 * file of the name (MPI_ERR_NO_SUCH_FILE) though it is there (rank 0's
 * view), every rank says so and names the cache, not MPI's collective
 * "input/output error" on the others. */
static int explain_open(lattio_file *f, int mrc, const char *name, int rc)
{
    int cls = MPI_SUCCESS, mine = INT_MAX, first = INT_MAX;
    if (mrc != MPI_SUCCESS) MPI_Error_class(mrc, &cls);
    if (cls == MPI_ERR_NO_SUCH_FILE) mine = f->rank;
    if (MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, f->comm) != MPI_SUCCESS || first == INT_MAX) return rc;
    lattio_detail_set("rank %d does not find %s, which rank 0 made: its node's client caches lookups that "
                      "found nothing (MooseFS: mount with mfsnegentrycacheto=0; NFS: lookupcache=positive)",
                      first, name);
    return lattio_fail_errno(__FILE__, __LINE__, "no such file on a rank", LATTIO_ERR_OPEN, ENOENT);
}

/* Open the MPI file: the temporary name for CREATE, the path otherwise. */
static int open_mpi_file(lattio_file *f, MPI_Info info)
{
    int rc = LATTIO_OK;
    if (f->mode == LATTIO_MODE_CREATE && !f->opt.in_place) rc = choose_temporary(f);
    if (f->mode == LATTIO_MODE_CREATE && f->opt.in_place && f->rank == 0) unlink(f->place.path);
    rc = lattio_agree(f->comm, rc);
    RETURN_IF_ERROR(rc);
    const char *name = f->place.tmp ? f->place.tmp : f->place.path;
    if (f->mode != LATTIO_MODE_READ) RETURN_IF_ERROR(claim_name(f, name));
    int mrc = MPI_File_open(f->comm, name, amode_of(f->mode), info, &f->fh);
    if (mrc != MPI_SUCCESS) f->fh = MPI_FILE_NULL;
    rc = MPI_CHECK(mrc, LATTIO_ERR_OPEN);
    if (rc == LATTIO_OK)
        rc = MPI_CHECK(MPI_File_set_errhandler(f->fh, MPI_ERRORS_RETURN), LATTIO_ERR_MPI);
    if (rc == LATTIO_OK) lattio_writeback_open(f);
    rc = lattio_agree(f->comm, rc);
    return rc < 0 && f->mode != LATTIO_MODE_READ ? explain_open(f, mrc, name, rc) : rc;
}

static void free_handle(lattio_file *f)
{
    lattio_prof_release(f); /* ends lattio_close's call */
    lattio_writeback_close(f);
    if (f->strategy_release) f->strategy_release(f); /* collective: a strategy's cache */
    if (f->comm != MPI_COMM_NULL) MPI_Comm_free(&f->comm);
    if (f->place.info != MPI_INFO_NULL) MPI_Info_free(&f->place.info);
    lattio_free(f->in.index);
    for (int i = 0; i < f->out.ntypes; i++) lattio_free(f->out.types[i]);
    lattio_free(f->out.types);
    lattio_free(f->place.tmp);
    lattio_free(f->place.path);
    lattio_free(f);
}

/* A fresh handle on a duplicate of comm; NULL on failure. */
static int new_handle(MPI_Comm comm, const char *path, int mode, const lattio_options *opt,
                      lattio_file **out)
{
    lattio_file *f = lattio_calloc(1, sizeof *f);
    RETURN_IF(!f, LATTIO_ERR_NOMEM);
    lattio_prof_begin(f, LATTIO_PHASE_META); /* lattio_open / lattio_attach: a call */
    f->fh = MPI_FILE_NULL;
    f->comm = MPI_COMM_NULL;
    f->place.info = MPI_INFO_NULL;
    f->in.cur = -1;
    f->place.nnodes = f->place.node_ranks = f->place.node_leader = 1;
    f->out.wb_fd = -1;
    f->mode = mode;
    if (opt) f->opt = *opt;
    f->place.path = lattio_strdup(path);
    int rc = MPI_CHECK(MPI_Comm_dup(comm, &f->comm), LATTIO_ERR_MPI);
    if (rc == LATTIO_OK) {
        MPI_Comm_set_errhandler(f->comm, MPI_ERRORS_RETURN);
        MPI_Comm_rank(f->comm, &f->rank);
        MPI_Comm_size(f->comm, &f->size);
        lattio_trace_set_rank(f->rank);
    }
    if (rc == LATTIO_OK && !f->place.path) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "path");
    if (rc < 0) {
        free_handle(f);
        return rc;
    }
    *out = f;
    return LATTIO_OK;
}

/* Collective.  The arguments checked and agreed: path and mode valid and
 * the same on every rank (`bad`: not valid here), the hints made. */
static int open_arguments(lattio_file *f, const char *path, int mode, MPI_Info info, int bad)
{
    RETURN_IF_ERROR(lattio_agree(f->comm, bad                     ? LATTIO_FAIL(LATTIO_ERR_ARG, "path/mode")
                                          : !hints_valid(&f->opt) ? LATTIO_FAIL(LATTIO_ERR_ARG, "hint fields")
                                                                  : LATTIO_OK));
    RETURN_IF_ERROR(lattio_agree(f->comm, same_arguments(f, path, mode)));
    return lattio_agree(f->comm, make_hints(f, info));
}

/* Collective.  What the file's place decides: the configuration, the file
 * system, the nodes; an open that would hang there is refused. */
static int open_surroundings(lattio_file *f)
{
    RETURN_IF_ERROR(share_config(f));
    RETURN_IF_ERROR(detect_fs(f));
    RETURN_IF_ERROR(count_nodes(f));
    return lattio_agree(f->comm, refuse_hang(f));
}

/* Collective.  The MPI file opened; an existing file's record index loaded. */
static int open_file(lattio_file *f, int mode)
{
    if (mode != LATTIO_MODE_CREATE) (void)lattio_file_refresh(f);
    RETURN_IF_ERROR(open_mpi_file(f, f->place.info));
    trace_hints(f);
    return mode != LATTIO_MODE_CREATE ? lattio_index_load(f) : LATTIO_OK;
}

int lattio_open(MPI_Comm comm, const char *path, int mode, MPI_Info info,
                const lattio_options *opt, lattio_file **out)
{
    RETURN_IF(!out, LATTIO_ERR_ARG);
    *out = NULL;
    int bad = !path || !*path || mode < LATTIO_MODE_READ || mode > LATTIO_MODE_APPEND;
    lattio_file *f = NULL;
    int rc = new_handle(comm, bad ? "" : path, mode, opt, &f);
    if (rc < 0) return rc; /* the communicator itself is unusable */
    rc = open_arguments(f, path, mode, info, bad);
    if (rc == LATTIO_OK) rc = open_surroundings(f);
    if (rc == LATTIO_OK) rc = open_file(f, mode);
    if (rc < 0) {
        if (f->fh != MPI_FILE_NULL) MPI_File_close(&f->fh);
        if (f->place.tmp && f->rank == 0) unlink(f->place.tmp);
        free_handle(f);
        return rc;
    }
    lattio_prof_end(f, LATTIO_OK, 0);
    *out = f;
    return LATTIO_OK;
}

/* Rank 0 renames (or removes) the temporary file; everyone learns the result. */
static int publish(lattio_file *f, int status)
{
    int rc = LATTIO_OK;
    if (f->rank == 0 && f->place.tmp) {
        if (status == LATTIO_OK) rc = lattio_temp_publish(f->place.tmp, f->place.path);
        if (status != LATTIO_OK || rc != LATTIO_OK) unlink(f->place.tmp);
    }
    lattio_prof_phase(f, LATTIO_PHASE_SYNC);
    if (f->rank == 0 && status == LATTIO_OK && rc == LATTIO_OK && f->opt.durable)
        rc = lattio_sync_directory(f->place.path);
    return lattio_agree(f->comm, status != LATTIO_OK ? status : rc);
}

/* Collective.  After a write across nodes on a file system whose clients
 * cache attributes, one rank per node makes its node's view of the
 * published file current, so that any reader on the job's nodes finds the
 * final size once lattio_close has returned (on GlusterFS, node1's client
 * kept the size its own aggregator's writes had made while node2's
 * aggregator wrote the tail: bench/results/scale-2026-11-27.md).  A node
 * that cannot see the file fails the close on every rank. */
static int refresh_published(lattio_file *f)
{
    if (f->place.nnodes < 2 || !lattio_fs_caches_metadata(f->place.fs_kind)) return LATTIO_OK;
    return lattio_agree(f->comm, f->place.node_leader ? lattio_fs_refresh(f->place.path, NULL) : LATTIO_OK);
}

int lattio_file_outcome(lattio_file *f, int rc)
{
    if (!f || rc >= 0 || f->mode == LATTIO_MODE_READ || f->out.failed) return rc;
    lattio_note_full_disk(f, rc);
    if (f->place.borrowed && (rc == LATTIO_ERR_ARG || rc == LATTIO_ERR_RANK_ARG || rc == LATTIO_ERR_RECORD_OVERRUN ||
                        rc == LATTIO_ERR_TYPE_TOO_LONG || rc == LATTIO_ERR_LENGTH_OVERFLOW))
        return rc; /* refused before writing anything: Lemon's handle stays usable */
    f->out.failed = rc;
    return rc;
}

/* Collective.  The end of the write: every rank's view of the file is at
 * least f->min_size bytes long (a short record whose extension was deferred
 * while requests were pending). */
static int extend_deferred(lattio_file *f, int rc)
{
    MPI_Offset size = 0;
    if (rc < 0 || f->out.min_size == 0) return rc;
    if (f->rank == 0) rc = MPI_CHECK(MPI_File_get_size(f->fh, &size), LATTIO_ERR_STAT);
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(&size, 1, MPI_OFFSET, 0, f->comm), LATTIO_ERR_MPI));
    if ((uint64_t)size >= f->out.min_size) return LATTIO_OK;
    rc = MPI_CHECK(MPI_File_set_size(f->fh, (MPI_Offset)f->out.min_size), LATTIO_ERR_WRITE);
    return lattio_agree(f->comm, rc);
}

/* A caller's file (lattio_attach) written from several nodes on a file
 * system whose clients cache metadata: the caller closes it and may read
 * it at once (Lemon's users do), so every node's writes and the length
 * they make reach the servers before lattio_close returns (MooseFS: a
 * plain close left another node's POSIX reader 4632 bytes short for up to
 * a second, cluster.compat_lemon.nonblocking at 4x1; lattio's own files
 * get the same from refresh_published after their rename). */
static int needs_sync_at_close(const lattio_file *f)
{
    return f->opt.durable ||
           (f->place.borrowed && f->place.nnodes > 1 && lattio_fs_caches_metadata(f->place.fs_kind));
}

/* Collective.  Agree on the state at close and sync a durable write (and a
 * caller's file written across nodes, needs_sync_at_close). */
static int finish_writing(lattio_file *f, int rc)
{
    if (f->out.failed && rc == LATTIO_OK) rc = f->out.failed; /* the first error, on every rank */
    if (f->out.in_record && rc == LATTIO_OK) rc = LATTIO_FAIL(LATTIO_ERR_RECORD_SHORT, "record open at close");
    rc = extend_deferred(f, lattio_agree(f->comm, rc));
    lattio_prof_phase(f, LATTIO_PHASE_SYNC);
    if (needs_sync_at_close(f) && rc == LATTIO_OK)
        rc = lattio_agree(f->comm, MPI_CHECK(MPI_File_sync(f->fh), LATTIO_ERR_SYNC));
    return rc;
}

int lattio_close(lattio_file *f)
{
    if (!f) return LATTIO_OK;
    int writing = f->mode != LATTIO_MODE_READ;
    lattio_prof_begin(f, LATTIO_PHASE_META);
    int rc = f->req.finish_pending ? f->req.finish_pending(f) : LATTIO_OK; /* request.c */
    lattio_prof_phase(f, LATTIO_PHASE_META);
    if (writing) rc = finish_writing(f, rc);
    else rc = lattio_agree(f->comm, rc);
    if (f->place.borrowed) {
        MPI_File_set_errhandler(f->fh, f->place.caller_errh);
        MPI_Errhandler_free(&f->place.caller_errh);
        free_handle(f);
        return rc;
    }
    lattio_prof_phase(f, LATTIO_PHASE_META);
    int crc = MPI_CHECK(MPI_File_close(&f->fh), LATTIO_ERR_CLOSE);
    rc = lattio_agree(f->comm, rc < 0 ? rc : crc);
    if (writing) lattio_note_full_disk(f, rc);
    if (writing) rc = publish(f, rc);
    if (writing && rc == LATTIO_OK) rc = refresh_published(f);
    free_handle(f);
    return rc;
}

/* --- a file the caller opened --------------------------------------------- */

/* Local checks of lattio_attach's arguments, including fh's access mode. */
static int attach_arguments(MPI_File fh, int mode, uint64_t offset)
{
    int amode = 0;
    RETURN_IF(fh == MPI_FILE_NULL, LATTIO_ERR_ARG);
    RETURN_IF(mode != LATTIO_MODE_READ && mode != LATTIO_MODE_CREATE, LATTIO_ERR_ARG);
    RETURN_IF(offset > (uint64_t)LATTIO_LIME_MAX_LENGTH, LATTIO_ERR_OVERFLOW);
    RETURN_IF_ERROR(MPI_CHECK(MPI_File_get_amode(fh, &amode), LATTIO_ERR_MPI));
    RETURN_IF(mode == LATTIO_MODE_READ && (amode & MPI_MODE_WRONLY), LATTIO_ERR_ARG);
    RETURN_IF(mode == LATTIO_MODE_CREATE && (amode & MPI_MODE_RDONLY), LATTIO_ERR_ARG);
    return LATTIO_OK;
}

/* Every rank must pass rank 0's mode and offset. */
static int same_offset(lattio_file *f, int mode, uint64_t offset)
{
    uint64_t mine[2] = {(uint64_t)mode, offset}, root[2] = {(uint64_t)mode, offset};
    RETURN_IF_ERROR(MPI_CHECK(MPI_Bcast(root, 2, MPI_UINT64_T, 0, f->comm), LATTIO_ERR_MPI));
    RETURN_IF(root[0] != mine[0] || root[1] != mine[1], LATTIO_ERR_RANK_ARG);
    return LATTIO_OK;
}

/* Borrow fh: remember the caller's error handler, make errors return. */
static int borrow(lattio_file *f, MPI_File fh)
{
    f->fh = fh;
    RETURN_IF_ERROR(MPI_CHECK(MPI_File_get_errhandler(fh, &f->place.caller_errh), LATTIO_ERR_MPI));
    f->place.borrowed = 1;
    return MPI_CHECK(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN), LATTIO_ERR_MPI);
}

/* Collective.  A borrowed file read by ranks on several nodes: lattio does
 * not know its name, so it cannot refresh a node's cached view
 * (lattio_file_refresh), and OMPIO refuses MPI_File_sync on a read-only
 * file.  Every rank's size is compared after a barrier; while they differ
 * (a client caching an older size: GlusterFS's FUSE client keeps
 * attributes about a second) again after a pause, up to SETTLE_ROUNDS
 * times.  Sizes that never agree are left to the reads, which report a
 * short file as such. */
#define SETTLE_ROUNDS 60
#define SETTLE_PAUSE_NS 50000000L
static int settle_size(lattio_file *f)
{
    for (int round = 0; round < SETTLE_ROUNDS; round++) {
        MPI_Offset size = 0;
        int rc = MPI_CHECK(MPI_Barrier(f->comm), LATTIO_ERR_MPI);
        if (rc == LATTIO_OK) rc = MPI_CHECK(MPI_File_get_size(f->fh, &size), LATTIO_ERR_STAT);
        RETURN_IF_ERROR(lattio_agree(f->comm, rc));
        uint64_t v[2] = {(uint64_t)size, ~(uint64_t)size}, m[2];
        RETURN_IF_ERROR(lattio_allreduce_u64(v, m, 2, MPI_MAX, f->comm));
        if (m[0] == ~m[1]) return LATTIO_OK; /* max == min */
        LATTIO_TRACE("attached file: sizes differ between ranks (%llu..%llu), round %d",
                     (unsigned long long)~m[1], (unsigned long long)m[0], round);
        nanosleep(&(struct timespec){0, SETTLE_PAUSE_NS}, NULL);
    }
    return LATTIO_OK;
}

int lattio_attach(MPI_Comm comm, MPI_File fh, int mode, uint64_t offset,
                  const lattio_options *opt, lattio_file **out)
{
    RETURN_IF(!out, LATTIO_ERR_ARG);
    *out = NULL;
    lattio_file *f = NULL;
    int rc = new_handle(comm, "", mode, opt, &f);
    if (rc < 0) return rc;
    rc = lattio_agree(f->comm, !hints_valid(&f->opt) ? LATTIO_FAIL(LATTIO_ERR_ARG, "hint fields")
                                                     : attach_arguments(fh, mode, offset));
    if (rc == LATTIO_OK) rc = lattio_agree(f->comm, make_hints(f, MPI_INFO_NULL)); /* for lattio's use */
    if (rc == LATTIO_OK) rc = lattio_agree(f->comm, same_offset(f, mode, offset));
    if (rc == LATTIO_OK) rc = lattio_agree(f->comm, borrow(f, fh));
    if (rc == LATTIO_OK) rc = share_config(f);
    if (rc == LATTIO_OK) rc = count_nodes(f);
    f->out.write_piece = write_piece(f);
    f->place.base = f->out.offset = offset;
    if (rc == LATTIO_OK && mode == LATTIO_MODE_READ && f->place.nnodes > 1) rc = settle_size(f);
    if (rc == LATTIO_OK && mode == LATTIO_MODE_READ) rc = lattio_index_load(f);
    if (rc < 0) {
        if (f->place.borrowed) {
            MPI_File_set_errhandler(fh, f->place.caller_errh);
            MPI_Errhandler_free(&f->place.caller_errh);
        }
        free_handle(f);
        return rc;
    }
    lattio_prof_end(f, LATTIO_OK, 0);
    *out = f;
    return LATTIO_OK;
}

int lattio_file_has_type(const lattio_file *f, const char *type)
{
    for (int i = 0; f && i < f->in.nindex; i++)
        if (strcmp(f->in.index[i].type, type) == 0) return 1;
    for (int i = 0; f && i < f->out.ntypes; i++)
        if (strcmp(f->out.types[i], type) == 0) return 1;
    return 0;
}

/* Where the record after the open one (writing) or the current one
 * (reading) starts. */
uint64_t lattio_file_position(const lattio_file *f)
{
    if (!f) return 0;
    if (f->mode != LATTIO_MODE_READ)
        return f->out.in_record ? f->out.rec_data + f->out.rec_len + lattio_lime_padding(f->out.rec_len) : f->out.offset;
    if (f->in.nindex == 0 || f->in.cur < 0) return f->place.base;
    int i = f->in.cur < f->in.nindex ? f->in.cur : f->in.nindex - 1;
    return lattio_lime_next_offset(&f->in.index[i]);
}
