/* cmd_bench_setup.c -- `lattio bench`: process grid, layout, buffers, the
 * scratch-file prefix, and agreed errors. */
#include "cmd_bench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int bench_agree(const bench *b, int status)
{
    int all = status;
    (void)b;
    MPI_Allreduce(&status, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

int bench_errno_status(int e) { return -(BENCH_ERRNO_BASE + (e > 0 ? e : EIO)); }

const char *bench_status_text(int status)
{
    if (status <= -BENCH_ERRNO_BASE) return strerror(-status - BENCH_ERRNO_BASE);
    return lattio_strerror(status);
}

/* Ranks per dimension: the user's grid, or MPI_Dims_create's factors with
 * the largest on the slowest (last) dimension. */
static int make_grid(bench *b, int *grid)
{
    int nd = b->o.ndims, f[LATTIO_MAX_DIMS] = {0};
    if (b->o.grid[0] > 0) {
        memcpy(grid, b->o.grid, sizeof(int) * (size_t)nd);
        return LATTIO_OK;
    }
    if (MPI_Dims_create(b->size, nd, f) != MPI_SUCCESS) return LATTIO_ERR_MPI;
    for (int d = 0; d < nd; d++) grid[d] = f[nd - 1 - d];
    return LATTIO_OK;
}

/* The Cartesian communicator and this rank's layout (file and memory order:
 * the last dimension slowest). */
static int make_layout(bench *b)
{
    int nd = b->o.ndims, grid[LATTIO_MAX_DIMS], periods[LATTIO_MAX_DIMS] = {0};
    uint64_t global[LATTIO_MAX_DIMS];
    int rc = make_grid(b, grid);
    if (rc != LATTIO_OK) return rc;
    if (MPI_Cart_create(MPI_COMM_WORLD, nd, grid, periods, 0, &b->comm) != MPI_SUCCESS)
        return LATTIO_ERR_MPI;
    for (int d = 0; d < nd; d++) {
        global[d] = b->o.dims[d] * (b->o.weak ? (uint64_t)grid[d] : 1);
        if (global[d] / (b->o.weak ? (uint64_t)grid[d] : 1) != b->o.dims[d]) return LATTIO_ERR_OVERFLOW;
    }
    rc = lattio_layout_from_cart(b->comm, global, b->o.site, &b->lay);
    for (int i = 0; i < nd; i++) b->lay.file_order[i] = b->lay.mem_order[i] = nd - 1 - i;
    if (rc == LATTIO_OK) rc = lattio_layout_check(&b->lay);
    if (rc != LATTIO_OK) return rc;
    b->local_sites = lattio_layout_local_sites(&b->lay);
    uint64_t gsites = lattio_layout_global_sites(&b->lay);
    if (gsites > UINT64_MAX / b->o.site) return LATTIO_ERR_OVERFLOW;
    b->local_bytes = b->local_sites * b->o.site;
    b->global_bytes = gsites * b->o.site;
    return b->local_bytes > (uint64_t)SIZE_MAX / 2 ? LATTIO_ERR_NOMEM : LATTIO_OK;
}

static int make_buffers(bench *b)
{
    size_t n = b->local_bytes ? (size_t)b->local_bytes : 1;
    b->src = malloc(n);
    b->dst = malloc(n);
    if (!b->src || !b->dst) return LATTIO_ERR_NOMEM;
    memset(b->dst, 0xA5, n);
    if (b->rank == 0 && b->local_bytes == 0) { /* rank 0 owns nothing: a buffer for posix-rank0 */
        size_t k = b->global_bytes < TOOL_BLOCK_SIZE ? (size_t)b->global_bytes : TOOL_BLOCK_SIZE;
        b->scratch = calloc(k ? k : 1, 1);
        if (!b->scratch) return LATTIO_ERR_NOMEM;
    }
    bench_fill(b);
    return LATTIO_OK;
}

/* Every rank can create (and remove) a file under the prefix. */
static int probe_dir(bench *b)
{
    long pid = (long)getpid();
    MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    int n = snprintf(b->prefix, sizeof b->prefix, "%s/lattio-bench.%ld", b->o.dir, pid);
    if (n < 0 || (size_t)n + 64 >= sizeof b->prefix) return bench_errno_status(ENAMETOOLONG);
    char path[sizeof b->prefix + 64];
    snprintf(path, sizeof path, "%s.probe.%d", b->prefix, b->rank);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) return bench_errno_status(errno);
    close(fd);
    return unlink(path) == 0 ? LATTIO_OK : bench_errno_status(errno);
}

static int open_json(bench *b)
{
    if (b->rank != 0 || !b->o.json) return LATTIO_OK;
    if (strcmp(b->o.json, "-") == 0) {
        b->json = stdout;
        return LATTIO_OK;
    }
    b->json = fopen(b->o.json, "w");
    return b->json ? LATTIO_OK : bench_errno_status(errno);
}

static int setup_failed(const bench *b, const char *what, const char *file, int rc)
{
    tool_error("bench", file, "%s: %s", what, bench_status_text(rc));
    (void)b;
    return TOOL_FAIL;
}

int bench_setup(bench *b)
{
    b->comm = MPI_COMM_NULL;
    int rc = bench_agree(b, make_layout(b));
    if (rc) return setup_failed(b, "cannot lay out the lattice", NULL, rc);
    rc = bench_agree(b, make_buffers(b));
    if (rc) return setup_failed(b, "cannot allocate the lattice", NULL, rc);
    rc = bench_agree(b, probe_dir(b));
    if (rc) return setup_failed(b, "cannot create files in the directory", b->o.dir, rc);
    rc = bench_agree(b, open_json(b));
    if (rc) return setup_failed(b, "cannot write the JSON file", b->o.json, rc);
    return TOOL_OK;
}

/* Free the buffers and the communicator (the JSON file is the caller's). */
void bench_teardown(bench *b)
{
    free(b->src);
    free(b->dst);
    free(b->scratch);
    b->src = b->dst = b->scratch = NULL;
    if (b->comm != MPI_COMM_NULL) MPI_Comm_free(&b->comm);
}
