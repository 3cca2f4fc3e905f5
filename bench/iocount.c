/* iocount.c -- a preload library that counts what a parallel write or read
 * costs at scale, for any MPI program (lattio, Lemon's approach, ROMIO's
 * collective buffering, plain parallel HDF5), phase by phase:
 *   - collective MPI calls (communication, communicator and window
 *     creation, collective MPI-IO) and the bytes each rank receives through
 *     them (the agreement payload);
 *   - point-to-point messages and bytes, and those sent to a rank on
 *     another node (MPI_COMM_TYPE_SHARED decides what a node is), plus
 *     all-to-all payloads to other nodes;
 *   - POSIX write calls on the measured files, their bytes, those not
 *     covering whole blocks (IOCOUNT_BLOCK, the stripe), those shorter than
 *     a block, the blocks written by two or more ranks (a lock domain
 *     shared), read calls and the bytes they returned, and opens/syncs/truncates (metadata work);
 *   - each rank's extra heap (peak live malloc bytes in the phase minus
 *     those at its start) and the MPI memory it allocates (shared windows,
 *     MPI_Alloc_mem).
 * A program brackets a phase with MPI_Pcontrol(1, "label") and
 * MPI_Pcontrol(0): MPI's profiling control, a no-op without this library.
 * At MPI_Finalize rank 0 appends one JSON object per phase (one line each)
 * to $IOCOUNT_OUT.  Environment: IOCOUNT_OUT (no report without it),
 * IOCOUNT_MATCH (substring of the paths whose calls are counted; default
 * every regular file), IOCOUNT_BLOCK (default 4096), IOCOUNT_TAG (copied
 * into every line).  Use: mpirun -x LD_PRELOAD=.../libiocount.so ...
 *
 * Blind spot: an MPI-IO component that talks below the MPI interface is
 * not seen (Open MPI's ompio uses its coll/pml modules directly; ROMIO
 * calls MPI_* and is seen).  Every phase must be entered by all ranks in
 * the same order. */
#undef _FILE_OFFSET_BITS /* pwrite and pwrite64 are both defined here */
#define _GNU_SOURCE
#include <mpi.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <errno.h>
#include <unistd.h>

#define MAXPHASES 128
#define MAXSPANS 16384 /* write calls kept per phase and rank for the shared-block count */
#define MAXBLOCKS (1LL << 24)

enum { COLL, CBYTES, MSGS, BYTES, XMSGS, XBYTES, WRITES, WBYTES, UNALIGNED, SMALL, READS, RBYTES, FSOPS, HEAP,
       MPIMEM, NCOUNTS };
static const char *const count_name[NCOUNTS] = {"coll", "cbytes", "msgs", "bytes", "xmsgs", "xbytes",
                                                "writes", "wbytes", "unaligned", "small", "reads", "rbytes",
                                                "fsops", "heap", "mpimem"};

typedef struct phase {
    char label[48];
    long long c[NCOUNTS];
    double cpu, wall;
    int nspans, lost;            /* spans kept; write calls not kept */
    int nnames;                  /* collective calls by function (IOCOUNT_DETAIL) */
    const char *name[32];
    long long ncalls[32];
    long long (*span)[2];        /* offset, bytes of each write (the first MAXSPANS) */
} phase;

static phase *phases;
static int nphases, active, *node_of, world_size, my_rank = -1, in_tool;
static long long block = 4096, heap_at_start;
static const char *match;
static double cpu0, wall0;
static _Atomic long long live_heap, peak_heap;

/* ---- heap ---------------------------------------------------------------- */

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static void *track(void *p)
{
    if (!p) return p;
    long long now = atomic_fetch_add(&live_heap, (long long)malloc_usable_size(p)) +
                    (long long)malloc_usable_size(p);
    long long peak = atomic_load(&peak_heap);
    while (now > peak && !atomic_compare_exchange_weak(&peak_heap, &peak, now)) {}
    return p;
}

static void untrack(void *p)
{
    if (p) atomic_fetch_sub(&live_heap, (long long)malloc_usable_size(p));
}

void *malloc(size_t n) { return track(__libc_malloc(n)); }
void *calloc(size_t n, size_t s) { return track(__libc_calloc(n, s)); }
void free(void *p)
{
    untrack(p);
    __libc_free(p);
}
void *realloc(void *p, size_t n)
{
    size_t old = p ? malloc_usable_size(p) : 0;
    void *q = __libc_realloc(p, n);
    if (!q && n) return q; /* p untouched */
    atomic_fetch_sub(&live_heap, (long long)old);
    return n ? track(q) : q;
}
void *memalign(size_t a, size_t n) { return track(__libc_memalign(a, n)); }
void *aligned_alloc(size_t a, size_t n) { return track(__libc_memalign(a, n)); }
void *valloc(size_t n) { return track(__libc_memalign((size_t)sysconf(_SC_PAGESIZE), n)); }
int posix_memalign(void **out, size_t a, size_t n)
{
    if (a < sizeof(void *) || (a & (a - 1))) return 22; /* EINVAL */
    void *p = track(__libc_memalign(a, n));
    if (!p) return 12; /* ENOMEM */
    *out = p;
    return 0;
}

/* ---- phases ---------------------------------------------------------------- */

static phase *cur(void) { return active && !in_tool ? &phases[nphases - 1] : NULL; }

static void add(int which, long long n)
{
    phase *p = cur();
    if (p) p->c[which] += n;
}

/* One more collective call of function `name` (a static string). */
static void by_name(const char *name)
{
    phase *p = cur();
    if (!p) return;
    int i = 0;
    while (i < p->nnames && strcmp(p->name[i], name)) i++;
    if (i == p->nnames && i < 32) p->name[p->nnames++] = name;
    if (i < 32) p->ncalls[i]++;
}

static double now_cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void begin_phase(const char *label)
{
    if (active || nphases == MAXPHASES) return;
    if (!phases) phases = calloc(MAXPHASES, sizeof *phases);
    if (!phases) return;
    phase *p = &phases[nphases++];
    memset(p, 0, sizeof *p);
    p->span = malloc(MAXSPANS * sizeof *p->span); /* before the heap's starting point */
    snprintf(p->label, sizeof p->label, "%s", label ? label : "phase");
    heap_at_start = atomic_load(&live_heap);
    atomic_store(&peak_heap, heap_at_start);
    cpu0 = now_cpu();
    wall0 = PMPI_Wtime();
    active = 1;
}

static void end_phase(void)
{
    if (!active) return;
    phase *p = &phases[nphases - 1];
    p->c[HEAP] = atomic_load(&peak_heap) - heap_at_start;
    p->cpu = now_cpu() - cpu0;
    p->wall = PMPI_Wtime() - wall0;
    active = 0;
}

int MPI_Pcontrol(const int level, ...)
{
    const char *label = NULL;
    if (level) {
        va_list ap;
        va_start(ap, level);
        label = va_arg(ap, const char *);
        va_end(ap);
        begin_phase(label);
    } else {
        end_phase();
    }
    return MPI_SUCCESS;
}

/* ---- nodes ------------------------------------------------------------------ */

static void map_nodes(void)
{
    MPI_Comm node;
    int leader;
    in_tool = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
    PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    PMPI_Allreduce(&my_rank, &leader, 1, MPI_INT, MPI_MIN, node);
    PMPI_Comm_free(&node);
    node_of = calloc((size_t)world_size, sizeof *node_of);
    if (node_of) PMPI_Allgather(&leader, 1, MPI_INT, node_of, 1, MPI_INT, MPI_COMM_WORLD);
    const char *b = getenv("IOCOUNT_BLOCK");
    if (b && atoll(b) > 0) block = atoll(b);
    match = getenv("IOCOUNT_MATCH");
    in_tool = 0;
}

/* The nodes of ranks 0..n-1 of c (intracommunicators; NULL otherwise). */
static int *nodes_of(MPI_Comm c, int *n)
{
    int inter = 0, *ranks, *world, *out = NULL;
    MPI_Group g, w;
    if (!node_of || c == MPI_COMM_NULL || PMPI_Comm_test_inter(c, &inter) || inter) return NULL;
    PMPI_Comm_size(c, n);
    ranks = malloc(2 * (size_t)*n * sizeof *ranks);
    out = malloc((size_t)*n * sizeof *out);
    if (!ranks || !out) {
        free(ranks);
        free(out);
        return NULL;
    }
    world = ranks + *n;
    for (int i = 0; i < *n; i++) ranks[i] = i;
    PMPI_Comm_group(c, &g);
    PMPI_Comm_group(MPI_COMM_WORLD, &w);
    PMPI_Group_translate_ranks(g, *n, ranks, w, world);
    PMPI_Group_free(&g);
    PMPI_Group_free(&w);
    for (int i = 0; i < *n; i++) out[i] = world[i] >= 0 ? node_of[world[i]] : -1;
    free(ranks);
    return out;
}

static long long type_bytes(int count, MPI_Datatype t)
{
    int s = 0;
    if (t != MPI_DATATYPE_NULL) PMPI_Type_size(t, &s);
    return (long long)count * s;
}

/* A message of count t to rank `to` of c. */
static void sent(int count, MPI_Datatype t, int to, MPI_Comm c)
{
    if (!cur() || to == MPI_PROC_NULL) return;
    in_tool = 1;
    long long b = type_bytes(count, t);
    int n = 0, *nodes = nodes_of(c, &n);
    in_tool = 0;
    add(MSGS, 1);
    add(BYTES, b);
    if (nodes && to >= 0 && to < n && nodes[to] != node_of[my_rank]) add(XMSGS, 1), add(XBYTES, b);
    free(nodes);
}

/* All-to-all payloads (bytes[i] to rank i of c) sent to other nodes. */
static void sent_all(const long long *bytes, MPI_Comm c)
{
    in_tool = 1;
    int n = 0, *nodes = nodes_of(c, &n);
    in_tool = 0;
    for (int i = 0; nodes && i < n; i++)
        if (nodes[i] != node_of[my_rank] && bytes[i]) add(XMSGS, 1), add(XBYTES, bytes[i]);
    free(nodes);
}

/* ---- MPI ---------------------------------------------------------------------- */

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) map_nodes();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int req, int *prov)
{
    int rc = PMPI_Init_thread(argc, argv, req, prov);
    if (rc == MPI_SUCCESS) map_nodes();
    return rc;
}

/* Each call is defined twice: MPI_X for the program, PMPI_X for the MPI
 * library's own components (ROMIO calls PMPI_*); both count, then call
 * the MPI library's PMPI_X (real_). */
#define REAL(fn) \
    static __typeof__(&P##fn) real_; \
    if (!real_) real_ = (__typeof__(&P##fn))dlsym(RTLD_NEXT, "P" #fn)

#define COLLECTIVE(call) (add(COLL, 1), by_name(__func__ + 1), (call))

int PMPI_Barrier(MPI_Comm c)
{
    REAL(MPI_Barrier);
    return COLLECTIVE(real_(c));
}
int MPI_Barrier(MPI_Comm c) { return PMPI_Barrier(c); }
int PMPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c)
{
    REAL(MPI_Bcast);
    add(CBYTES, type_bytes(n, t));
    return COLLECTIVE(real_(b, n, t, root, c));
}
int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c) { return PMPI_Bcast(b, n, t, root, c); }
int PMPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    REAL(MPI_Allreduce);
    add(CBYTES, type_bytes(n, t));
    return COLLECTIVE(real_(s, r, n, t, op, c));
}
int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) { return PMPI_Allreduce(s, r, n, t, op, c); }
int PMPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c)
{
    REAL(MPI_Reduce);
    add(CBYTES, type_bytes(n, t));
    return COLLECTIVE(real_(s, r, n, t, op, root, c));
}
int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c) { return PMPI_Reduce(s, r, n, t, op, root, c); }
int PMPI_Scan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    REAL(MPI_Scan);
    add(CBYTES, type_bytes(n, t));
    return COLLECTIVE(real_(s, r, n, t, op, c));
}
int MPI_Scan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) { return PMPI_Scan(s, r, n, t, op, c); }
int PMPI_Exscan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    REAL(MPI_Exscan);
    add(CBYTES, type_bytes(n, t));
    return COLLECTIVE(real_(s, r, n, t, op, c));
}
int MPI_Exscan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) { return PMPI_Exscan(s, r, n, t, op, c); }
int PMPI_Allgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm c)
{
    REAL(MPI_Allgather);
    int n = 0;
    PMPI_Comm_size(c, &n);
    add(CBYTES, type_bytes(rn, rt) * n);
    return COLLECTIVE(real_(s, sn, st, r, rn, rt, c));
}
int MPI_Allgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm c) { return PMPI_Allgather(s, sn, st, r, rn, rt, c); }
int PMPI_Allgatherv(const void *s, int sn, MPI_Datatype st, void *r, const int *rn, const int *d,
                   MPI_Datatype rt, MPI_Comm c)
{
    REAL(MPI_Allgatherv);
    int n = 0;
    PMPI_Comm_size(c, &n);
    for (int i = 0; i < n; i++) add(CBYTES, type_bytes(rn[i], rt));
    return COLLECTIVE(real_(s, sn, st, r, rn, d, rt, c));
}
int MPI_Allgatherv(const void *s, int sn, MPI_Datatype st, void *r, const int *rn, const int *d,
                   MPI_Datatype rt, MPI_Comm c) { return PMPI_Allgatherv(s, sn, st, r, rn, d, rt, c); }
int PMPI_Gather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root, MPI_Comm c)
{
    REAL(MPI_Gather);
    int me = 0, n = 0;
    PMPI_Comm_rank(c, &me);
    PMPI_Comm_size(c, &n);
    if (me == root) add(CBYTES, type_bytes(rn, rt) * n);
    return COLLECTIVE(real_(s, sn, st, r, rn, rt, root, c));
}
int MPI_Gather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root, MPI_Comm c) { return PMPI_Gather(s, sn, st, r, rn, rt, root, c); }
int PMPI_Gatherv(const void *s, int sn, MPI_Datatype st, void *r, const int *rn, const int *d, MPI_Datatype rt,
                int root, MPI_Comm c)
{
    REAL(MPI_Gatherv);
    int me = 0, n = 0;
    PMPI_Comm_rank(c, &me);
    PMPI_Comm_size(c, &n);
    for (int i = 0; me == root && i < n; i++) add(CBYTES, type_bytes(rn[i], rt));
    return COLLECTIVE(real_(s, sn, st, r, rn, d, rt, root, c));
}
int MPI_Gatherv(const void *s, int sn, MPI_Datatype st, void *r, const int *rn, const int *d, MPI_Datatype rt,
                int root, MPI_Comm c) { return PMPI_Gatherv(s, sn, st, r, rn, d, rt, root, c); }
int PMPI_Scatter(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root, MPI_Comm c)
{
    REAL(MPI_Scatter);
    add(CBYTES, type_bytes(rn, rt));
    return COLLECTIVE(real_(s, sn, st, r, rn, rt, root, c));
}
int MPI_Scatter(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root, MPI_Comm c) { return PMPI_Scatter(s, sn, st, r, rn, rt, root, c); }
int PMPI_Alltoall(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm c)
{
    REAL(MPI_Alltoall);
    int n = 0;
    PMPI_Comm_size(c, &n);
    add(CBYTES, type_bytes(rn, rt) * n);
    long long *b = cur() ? calloc((size_t)n, sizeof *b) : NULL;
    for (int i = 0; b && i < n; i++) b[i] = type_bytes(sn, st);
    if (b) sent_all(b, c);
    free(b);
    return COLLECTIVE(real_(s, sn, st, r, rn, rt, c));
}
int MPI_Alltoall(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm c) { return PMPI_Alltoall(s, sn, st, r, rn, rt, c); }
int PMPI_Alltoallv(const void *s, const int *sn, const int *sd, MPI_Datatype st, void *r, const int *rn,
                  const int *rd, MPI_Datatype rt, MPI_Comm c)
{
    REAL(MPI_Alltoallv);
    int n = 0;
    PMPI_Comm_size(c, &n);
    for (int i = 0; i < n; i++) add(CBYTES, type_bytes(rn[i], rt));
    long long *b = cur() ? calloc((size_t)n, sizeof *b) : NULL;
    for (int i = 0; b && i < n; i++) b[i] = type_bytes(sn[i], st);
    if (b) sent_all(b, c);
    free(b);
    return COLLECTIVE(real_(s, sn, sd, st, r, rn, rd, rt, c));
}
int MPI_Alltoallv(const void *s, const int *sn, const int *sd, MPI_Datatype st, void *r, const int *rn,
                  const int *rd, MPI_Datatype rt, MPI_Comm c) { return PMPI_Alltoallv(s, sn, sd, st, r, rn, rd, rt, c); }
int PMPI_Alltoallw(const void *s, const int *sn, const int *sd, const MPI_Datatype *st, void *r, const int *rn,
                  const int *rd, const MPI_Datatype *rt, MPI_Comm c)
{
    REAL(MPI_Alltoallw);
    int n = 0;
    PMPI_Comm_size(c, &n);
    for (int i = 0; i < n; i++) add(CBYTES, type_bytes(rn[i], rt[i]));
    long long *b = cur() ? calloc((size_t)n, sizeof *b) : NULL;
    for (int i = 0; b && i < n; i++) b[i] = type_bytes(sn[i], st[i]);
    if (b) sent_all(b, c);
    free(b);
    return COLLECTIVE(real_(s, sn, sd, st, r, rn, rd, rt, c));
}
int MPI_Alltoallw(const void *s, const int *sn, const int *sd, const MPI_Datatype *st, void *r, const int *rn,
                  const int *rd, const MPI_Datatype *rt, MPI_Comm c) { return PMPI_Alltoallw(s, sn, sd, st, r, rn, rd, rt, c); }
int PMPI_Comm_split(MPI_Comm c, int color, int key, MPI_Comm *out)
{
    REAL(MPI_Comm_split);
    return COLLECTIVE(real_(c, color, key, out));
}
int MPI_Comm_split(MPI_Comm c, int color, int key, MPI_Comm *out) { return PMPI_Comm_split(c, color, key, out); }
int PMPI_Comm_split_type(MPI_Comm c, int type, int key, MPI_Info i, MPI_Comm *out)
{
    REAL(MPI_Comm_split_type);
    return COLLECTIVE(real_(c, type, key, i, out));
}
int MPI_Comm_split_type(MPI_Comm c, int type, int key, MPI_Info i, MPI_Comm *out) { return PMPI_Comm_split_type(c, type, key, i, out); }
int PMPI_Comm_dup(MPI_Comm c, MPI_Comm *out)
{
    REAL(MPI_Comm_dup);
    return COLLECTIVE(real_(c, out));
}
int MPI_Comm_dup(MPI_Comm c, MPI_Comm *out) { return PMPI_Comm_dup(c, out); }
int PMPI_Comm_create(MPI_Comm c, MPI_Group g, MPI_Comm *out)
{
    REAL(MPI_Comm_create);
    return COLLECTIVE(real_(c, g, out));
}
int MPI_Comm_create(MPI_Comm c, MPI_Group g, MPI_Comm *out) { return PMPI_Comm_create(c, g, out); }
int PMPI_Win_allocate_shared(MPI_Aint size, int unit, MPI_Info i, MPI_Comm c, void *base, MPI_Win *w)
{
    REAL(MPI_Win_allocate_shared);
    add(MPIMEM, (long long)size);
    return COLLECTIVE(real_(size, unit, i, c, base, w));
}
int MPI_Win_allocate_shared(MPI_Aint size, int unit, MPI_Info i, MPI_Comm c, void *base, MPI_Win *w) { return PMPI_Win_allocate_shared(size, unit, i, c, base, w); }
int PMPI_Win_allocate(MPI_Aint size, int unit, MPI_Info i, MPI_Comm c, void *base, MPI_Win *w)
{
    REAL(MPI_Win_allocate);
    add(MPIMEM, (long long)size);
    return COLLECTIVE(real_(size, unit, i, c, base, w));
}
int MPI_Win_allocate(MPI_Aint size, int unit, MPI_Info i, MPI_Comm c, void *base, MPI_Win *w) { return PMPI_Win_allocate(size, unit, i, c, base, w); }
int PMPI_Win_create(void *b, MPI_Aint size, int unit, MPI_Info i, MPI_Comm c, MPI_Win *w)
{
    REAL(MPI_Win_create);
    return COLLECTIVE(real_(b, size, unit, i, c, w));
}
int MPI_Win_create(void *b, MPI_Aint size, int unit, MPI_Info i, MPI_Comm c, MPI_Win *w) { return PMPI_Win_create(b, size, unit, i, c, w); }
int PMPI_Win_free(MPI_Win *w)
{
    REAL(MPI_Win_free);
    return COLLECTIVE(real_(w));
}
int MPI_Win_free(MPI_Win *w) { return PMPI_Win_free(w); }
int PMPI_Win_fence(int a, MPI_Win w)
{
    REAL(MPI_Win_fence);
    return COLLECTIVE(real_(a, w));
}
int MPI_Win_fence(int a, MPI_Win w) { return PMPI_Win_fence(a, w); }
int PMPI_Alloc_mem(MPI_Aint size, MPI_Info i, void *base)
{
    REAL(MPI_Alloc_mem);
    add(MPIMEM, (long long)size);
    return real_(size, i, base);
}
int MPI_Alloc_mem(MPI_Aint size, MPI_Info i, void *base) { return PMPI_Alloc_mem(size, i, base); }

int PMPI_Send(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c)
{
    REAL(MPI_Send);
    sent(n, t, to, c);
    return real_(b, n, t, to, tag, c);
}
int MPI_Send(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c) { return PMPI_Send(b, n, t, to, tag, c); }
int PMPI_Ssend(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c)
{
    REAL(MPI_Ssend);
    sent(n, t, to, c);
    return real_(b, n, t, to, tag, c);
}
int MPI_Ssend(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c) { return PMPI_Ssend(b, n, t, to, tag, c); }
int PMPI_Isend(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c, MPI_Request *r)
{
    REAL(MPI_Isend);
    sent(n, t, to, c);
    return real_(b, n, t, to, tag, c, r);
}
int MPI_Isend(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c, MPI_Request *r) { return PMPI_Isend(b, n, t, to, tag, c, r); }
int PMPI_Issend(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c, MPI_Request *r)
{
    REAL(MPI_Issend);
    sent(n, t, to, c);
    return real_(b, n, t, to, tag, c, r);
}
int MPI_Issend(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c, MPI_Request *r) { return PMPI_Issend(b, n, t, to, tag, c, r); }
int PMPI_Sendrecv(const void *sb, int sn, MPI_Datatype st, int to, int stag, void *rb, int rn, MPI_Datatype rt,
                 int from, int rtag, MPI_Comm c, MPI_Status *s)
{
    REAL(MPI_Sendrecv);
    sent(sn, st, to, c);
    return real_(sb, sn, st, to, stag, rb, rn, rt, from, rtag, c, s);
}
int MPI_Sendrecv(const void *sb, int sn, MPI_Datatype st, int to, int stag, void *rb, int rn, MPI_Datatype rt,
                 int from, int rtag, MPI_Comm c, MPI_Status *s) { return PMPI_Sendrecv(sb, sn, st, to, stag, rb, rn, rt, from, rtag, c, s); }

/* Collective MPI-IO. */
int PMPI_File_open(MPI_Comm c, const char *name, int mode, MPI_Info i, MPI_File *fh)
{
    REAL(MPI_File_open);
    return COLLECTIVE(real_(c, name, mode, i, fh));
}
int MPI_File_open(MPI_Comm c, const char *name, int mode, MPI_Info i, MPI_File *fh) { return PMPI_File_open(c, name, mode, i, fh); }
int PMPI_File_close(MPI_File *fh)
{
    REAL(MPI_File_close);
    return COLLECTIVE(real_(fh));
}
int MPI_File_close(MPI_File *fh) { return PMPI_File_close(fh); }
int PMPI_File_set_view(MPI_File fh, MPI_Offset d, MPI_Datatype e, MPI_Datatype ft, const char *rep, MPI_Info i)
{
    REAL(MPI_File_set_view);
    return COLLECTIVE(real_(fh, d, e, ft, rep, i));
}
int MPI_File_set_view(MPI_File fh, MPI_Offset d, MPI_Datatype e, MPI_Datatype ft, const char *rep, MPI_Info i) { return PMPI_File_set_view(fh, d, e, ft, rep, i); }
int PMPI_File_set_size(MPI_File fh, MPI_Offset s)
{
    REAL(MPI_File_set_size);
    return COLLECTIVE(real_(fh, s));
}
int MPI_File_set_size(MPI_File fh, MPI_Offset s) { return PMPI_File_set_size(fh, s); }
int PMPI_File_preallocate(MPI_File fh, MPI_Offset s)
{
    REAL(MPI_File_preallocate);
    return COLLECTIVE(real_(fh, s));
}
int MPI_File_preallocate(MPI_File fh, MPI_Offset s) { return PMPI_File_preallocate(fh, s); }
int PMPI_File_sync(MPI_File fh)
{
    REAL(MPI_File_sync);
    return COLLECTIVE(real_(fh));
}
int MPI_File_sync(MPI_File fh) { return PMPI_File_sync(fh); }
int PMPI_File_set_info(MPI_File fh, MPI_Info i)
{
    REAL(MPI_File_set_info);
    return COLLECTIVE(real_(fh, i));
}
int MPI_File_set_info(MPI_File fh, MPI_Info i) { return PMPI_File_set_info(fh, i); }
int PMPI_File_write_all(MPI_File fh, const void *b, int n, MPI_Datatype t, MPI_Status *s)
{
    REAL(MPI_File_write_all);
    return COLLECTIVE(real_(fh, b, n, t, s));
}
int MPI_File_write_all(MPI_File fh, const void *b, int n, MPI_Datatype t, MPI_Status *s) { return PMPI_File_write_all(fh, b, n, t, s); }
int PMPI_File_read_all(MPI_File fh, void *b, int n, MPI_Datatype t, MPI_Status *s)
{
    REAL(MPI_File_read_all);
    return COLLECTIVE(real_(fh, b, n, t, s));
}
int MPI_File_read_all(MPI_File fh, void *b, int n, MPI_Datatype t, MPI_Status *s) { return PMPI_File_read_all(fh, b, n, t, s); }
int PMPI_File_write_at_all(MPI_File fh, MPI_Offset o, const void *b, int n, MPI_Datatype t, MPI_Status *s)
{
    REAL(MPI_File_write_at_all);
    return COLLECTIVE(real_(fh, o, b, n, t, s));
}
int MPI_File_write_at_all(MPI_File fh, MPI_Offset o, const void *b, int n, MPI_Datatype t, MPI_Status *s) { return PMPI_File_write_at_all(fh, o, b, n, t, s); }
int PMPI_File_read_at_all(MPI_File fh, MPI_Offset o, void *b, int n, MPI_Datatype t, MPI_Status *s)
{
    REAL(MPI_File_read_at_all);
    return COLLECTIVE(real_(fh, o, b, n, t, s));
}
int MPI_File_read_at_all(MPI_File fh, MPI_Offset o, void *b, int n, MPI_Datatype t, MPI_Status *s) { return PMPI_File_read_at_all(fh, o, b, n, t, s); }

/* ---- POSIX ---------------------------------------------------------------------- */

/* Whether fd is a regular file whose path contains IOCOUNT_MATCH. */
static int measured(int fd)
{
    struct stat st;
    char link[64], path[4096];
    if (!cur() || fstat(fd, &st) || !S_ISREG(st.st_mode)) return 0;
    if (!match || !*match) return 1;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return 0;
    path[n] = 0;
    return strstr(path, match) != NULL;
}

static void wrote(int fd, long long off, long long n)
{
    if (n <= 0 || !measured(fd)) return;
    phase *p = cur();
    p->c[WRITES]++;
    p->c[WBYTES] += n;
    if (off % block || (off + n) % block) p->c[UNALIGNED]++;
    if (n < block) p->c[SMALL]++;
    if (p->span && p->nspans < MAXSPANS) p->span[p->nspans][0] = off, p->span[p->nspans++][1] = n;
    else p->lost++;
}

/* A read call on the file and the bytes it returned (r < 0: none). */
static void read_call(int fd, ssize_t r)
{
    const int saved = errno;
    if (measured(fd)) {
        add(READS, 1);
        if (r > 0) add(RBYTES, (long long)r);
    }
    errno = saved;
}

/* The next definition of fn (libc's). */
#define NEXT(fn) \
    static __typeof__(&fn) real; \
    if (!real) real = (__typeof__(&fn))dlsym(RTLD_NEXT, #fn)

ssize_t pwrite(int fd, const void *b, size_t n, off_t off)
{
    NEXT(pwrite);
    ssize_t r = real(fd, b, n, off);
    wrote(fd, (long long)off, (long long)r);
    return r;
}
ssize_t pwrite64(int fd, const void *b, size_t n, off_t off)
{
    NEXT(pwrite64);
    ssize_t r = real(fd, b, n, off);
    wrote(fd, (long long)off, (long long)r);
    return r;
}
ssize_t pwritev(int fd, const struct iovec *v, int cnt, off_t off)
{
    NEXT(pwritev);
    ssize_t r = real(fd, v, cnt, off);
    wrote(fd, (long long)off, (long long)r);
    return r;
}
ssize_t pwritev64(int fd, const struct iovec *v, int cnt, off_t off)
{
    NEXT(pwritev64);
    ssize_t r = real(fd, v, cnt, off);
    wrote(fd, (long long)off, (long long)r);
    return r;
}
ssize_t write(int fd, const void *b, size_t n)
{
    NEXT(write);
    off_t off = cur() ? lseek(fd, 0, SEEK_CUR) : 0;
    ssize_t r = real(fd, b, n);
    wrote(fd, (long long)off, (long long)r);
    return r;
}
ssize_t pread(int fd, void *b, size_t n, off_t off)
{
    NEXT(pread);
    ssize_t r = real(fd, b, n, off);
    read_call(fd, r);
    return r;
}
ssize_t pread64(int fd, void *b, size_t n, off_t off)
{
    NEXT(pread64);
    ssize_t r = real(fd, b, n, off);
    read_call(fd, r);
    return r;
}
ssize_t preadv(int fd, const struct iovec *v, int cnt, off_t off)
{
    NEXT(preadv);
    ssize_t r = real(fd, v, cnt, off);
    read_call(fd, r);
    return r;
}
ssize_t read(int fd, void *b, size_t n)
{
    NEXT(read);
    ssize_t r = real(fd, b, n);
    read_call(fd, r);
    return r;
}
int fsync(int fd)
{
    NEXT(fsync);
    if (measured(fd)) add(FSOPS, 1);
    return real(fd);
}
int fdatasync(int fd)
{
    NEXT(fdatasync);
    if (measured(fd)) add(FSOPS, 1);
    return real(fd);
}
int ftruncate(int fd, off_t n)
{
    NEXT(ftruncate);
    if (measured(fd)) add(FSOPS, 1);
    return real(fd, n);
}
int ftruncate64(int fd, off_t n)
{
    NEXT(ftruncate64);
    if (measured(fd)) add(FSOPS, 1);
    return real(fd, n);
}

static void opened(int fd)
{
    if (fd >= 0 && measured(fd)) add(FSOPS, 1);
}

#define OPEN_LIKE(...) \
    { \
        mode_t mode = 0; \
        if (flags & (O_CREAT | O_TMPFILE)) { \
            va_list ap; \
            va_start(ap, flags); \
            mode = (mode_t)va_arg(ap, int); \
            va_end(ap); \
        } \
        int fd = real(__VA_ARGS__, mode); \
        opened(fd); \
        return fd; \
    }

int open(const char *path, int flags, ...)
{
    NEXT(open);
    OPEN_LIKE(path, flags)
}
int open64(const char *path, int flags, ...)
{
    NEXT(open64);
    OPEN_LIKE(path, flags)
}
int openat(int dir, const char *path, int flags, ...)
{
    NEXT(openat);
    OPEN_LIKE(dir, path, flags)
}

/* ---- report ------------------------------------------------------------------------ */

/* Rank 0: the blocks that write calls of two or more ranks touch (s[i] =
 * offset, bytes, rank); -1 when the file has more than MAXBLOCKS blocks. */
static long long shared_blocks(long long (*s)[3], int n)
{
    long long nb = 0, shared = 0;
    for (int i = 0; i < n; i++)
        if ((s[i][0] + s[i][1] - 1) / block + 1 > nb) nb = (s[i][0] + s[i][1] - 1) / block + 1;
    int *owner = nb <= MAXBLOCKS ? calloc((size_t)(nb ? nb : 1), sizeof *owner) : NULL; /* rank + 1, -1: shared */
    if (!owner) return -1;
    for (int i = 0; i < n; i++)
        for (long long b = s[i][0] / block; b <= (s[i][0] + s[i][1] - 1) / block; b++) {
            const int r = (int)s[i][2] + 1;
            if (!owner[b]) owner[b] = r;
            else if (owner[b] > 0 && owner[b] != r) owner[b] = -1, shared++;
        }
    free(owner);
    return shared;
}

/* Collective over MPI_COMM_WORLD: the spans of phase p on rank 0. */
static long long gather_shared(phase *p)
{
    int n = p->nspans, *counts = NULL, *displs = NULL, total = 0;
    long long (*mine)[3] = malloc((size_t)(n ? n : 1) * sizeof *mine), (*all)[3] = NULL;
    for (int i = 0; mine && i < n; i++) mine[i][0] = p->span[i][0], mine[i][1] = p->span[i][1], mine[i][2] = my_rank;
    if (my_rank == 0) counts = calloc((size_t)world_size, sizeof *counts), displs = calloc((size_t)world_size, sizeof *displs);
    n *= 3;
    PMPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0; my_rank == 0 && r < world_size; r++) displs[r] = total, total += counts[r];
    if (my_rank == 0) all = malloc((size_t)(total ? total : 3) * sizeof(long long));
    PMPI_Gatherv(mine, n, MPI_LONG_LONG, all, counts, displs, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    long long shared = my_rank == 0 ? shared_blocks(all, total / 3) : 0;
    free(mine);
    free(all);
    free(counts);
    free(displs);
    return shared;
}

static void report_phase(FILE *out, phase *p, int index, int nnodes)
{
    long long sum[NCOUNTS], max[NCOUNTS], min[NCOUNTS];
    double t[2] = {p->cpu, p->wall}, tmax[2];
    PMPI_Reduce(p->c, sum, NCOUNTS, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    PMPI_Reduce(p->c, max, NCOUNTS, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    PMPI_Reduce(p->c, min, NCOUNTS, MPI_LONG_LONG, MPI_MIN, 0, MPI_COMM_WORLD);
    PMPI_Reduce(t, tmax, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    long long shared = gather_shared(p), lost = 0, mine = p->lost;
    PMPI_Reduce(&mine, &lost, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (!out) return;
    const char *tag = getenv("IOCOUNT_TAG");
    fprintf(out, "{\"tag\": \"%s\", \"phase\": \"%s\", \"index\": %d, \"ranks\": %d, \"nodes\": %d, \"block\": %lld",
            tag ? tag : "", p->label, index, world_size, nnodes, block);
    for (int k = 0; k < NCOUNTS; k++)
        fprintf(out, ", \"%s\": [%lld, %lld, %lld]", count_name[k], sum[k], min[k], max[k]);
    fprintf(out, ", \"lost_spans\": %lld, \"rank0_calls\": {", lost);
    for (int i = 0; i < p->nnames; i++) fprintf(out, "%s\"%s\": %lld", i ? ", " : "", p->name[i], p->ncalls[i]);
    fprintf(out, "}");
    fprintf(out, ", \"shared_blocks\": %lld, \"cpu_max\": %.6f, \"wall_max\": %.6f}\n", shared, tmax[0], tmax[1]);
}

int MPI_Finalize(void)
{
    end_phase();
    in_tool = 1;
    const char *path = getenv("IOCOUNT_OUT");
    int n = nphases, leaders = 0, lead = node_of && node_of[my_rank] == my_rank;
    PMPI_Allreduce(&lead, &leaders, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    PMPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    FILE *out = my_rank == 0 && path ? fopen(path, "a") : NULL;
    for (int i = 0; path && i < n; i++) report_phase(out, &phases[i], i, leaders);
    if (out) fclose(out);
    return PMPI_Finalize();
}
