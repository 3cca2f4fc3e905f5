/* collective_count.c -- the field pipeline plans once per call: the number
 * of collective MPI calls of a field write or read does not depend on the
 * number of rounds.  The test intercepts every collective MPI call lattio
 * makes (PMPI) and counts them during lattio_field_write / _read alone,
 * for each strategy, once with a staging bound (or aggregate window) that
 * gives a few rounds and once with one that gives many.  Agreement calls
 * (reductions, broadcasts, gathers, barriers) must be equal in both; so
 * must the collective MPI-IO calls, except under the collective strategy,
 * whose rounds ARE collective MPI-IO calls (a view and a write_all per
 * round, plus the barrier of its read-back guard under OMPIO). */
#include "fmtest.h"
#include "io/io_internal.h"

#include <stdlib.h>

static int counting;
static long agreements, file_calls;

#define AGREE(call) (counting ? agreements++ : 0, call)
#define FILECALL(call) (counting ? file_calls++ : 0, call)

int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    return AGREE(PMPI_Allreduce(s, r, n, t, op, c));
}
int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c)
{
    return AGREE(PMPI_Reduce(s, r, n, t, op, root, c));
}
int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c) { return AGREE(PMPI_Bcast(b, n, t, root, c)); }
int MPI_Barrier(MPI_Comm c) { return AGREE(PMPI_Barrier(c)); }
int MPI_Allgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm c)
{
    return AGREE(PMPI_Allgather(s, sn, st, r, rn, rt, c));
}
int MPI_Gather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root, MPI_Comm c)
{
    return AGREE(PMPI_Gather(s, sn, st, r, rn, rt, root, c));
}
int MPI_Scatter(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root, MPI_Comm c)
{
    return AGREE(PMPI_Scatter(s, sn, st, r, rn, rt, root, c));
}
int MPI_Alltoall(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm c)
{
    return AGREE(PMPI_Alltoall(s, sn, st, r, rn, rt, c));
}
int MPI_Exscan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    return AGREE(PMPI_Exscan(s, r, n, t, op, c));
}
int MPI_Scan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    return AGREE(PMPI_Scan(s, r, n, t, op, c));
}
int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype e, MPI_Datatype ft, const char *rep, MPI_Info i)
{
    return FILECALL(PMPI_File_set_view(fh, disp, e, ft, rep, i));
}
int MPI_File_write_all(MPI_File fh, const void *b, int n, MPI_Datatype t, MPI_Status *st)
{
    return FILECALL(PMPI_File_write_all(fh, b, n, t, st));
}
int MPI_File_read_all(MPI_File fh, void *b, int n, MPI_Datatype t, MPI_Status *st)
{
    return FILECALL(PMPI_File_read_all(fh, b, n, t, st));
}
int MPI_File_write_at_all(MPI_File fh, MPI_Offset o, const void *b, int n, MPI_Datatype t, MPI_Status *st)
{
    return FILECALL(PMPI_File_write_at_all(fh, o, b, n, t, st));
}
int MPI_File_read_at_all(MPI_File fh, MPI_Offset o, void *b, int n, MPI_Datatype t, MPI_Status *st)
{
    return FILECALL(PMPI_File_read_at_all(fh, o, b, n, t, st));
}
int MPI_File_sync(MPI_File fh) { return FILECALL(PMPI_File_sync(fh)); }
int MPI_File_set_size(MPI_File fh, MPI_Offset s) { return FILECALL(PMPI_File_set_size(fh, s)); }

typedef struct tally {
    long agreements, file_calls;
    uint64_t rounds;
} tally;

/* Write (and read back) the field in decomposition v with staging `staging`
 * bytes and aggregate window `window` bytes; the counts of the field calls. */
static void run(int v, uint64_t staging, const char *window, int verify, tally *w, tally *r)
{
    setenv("LATTIO_CB_BUFFER_SIZE", window, 1);
    lattio_layout l;
    CHECK_OK(fm_decomposed(&l, v, 1));
    double *local = fm_fill(&l, 72);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    d.staging_bytes = staging;
    d.verify = verify;
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "c.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    lattio_field_write_info wi;
    agreements = file_calls = 0;
    counting = 1;
    CHECK_OK(lattio_field_write(f, &d, &l, local, &wi));
    counting = 0;
    *w = (tally){agreements, file_calls, wi.rounds};
    CHECK_OK(lattio_close(f));
    lattio_field_read_info ri;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "c.lime", LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    agreements = file_calls = 0;
    counting = 1;
    CHECK_OK(lattio_field_read(f, 0, &d, &l, local, &ri));
    counting = 0;
    *r = (tally){agreements, file_calls, ri.rounds};
    CHECK_INT(ri.checksum, LATTIO_CHECKSUM_VERIFIED);
    lattio_field_info_free(&ri.field);
    CHECK_OK(lattio_close(f));
    free(local);
}

/* The two runs' counts: agreements equal; MPI-IO collectives equal unless
 * the strategy is collective (then `per_round` per extra round). */
static void compare(const char *what, const tally *few, const tally *many, int collective, int writing,
                    int verify)
{
    if (mpitest_rank == 0)
        printf("%s: %llu rounds: %ld agreements, %ld MPI-IO collectives; %llu rounds: %ld, %ld\n", what,
               (unsigned long long)few->rounds, few->agreements, few->file_calls,
               (unsigned long long)many->rounds, many->agreements, many->file_calls);
    CHECK(many->rounds > few->rounds + 2);
    const long extra = (long)(many->rounds - few->rounds);
    const int guard = collective && writing && lattio_collective_untrusted(NULL);
    CHECK_INT(many->agreements, few->agreements + (guard ? extra : 0));
    if (!collective) CHECK_INT(many->file_calls, few->file_calls);
    /* the verification's collective read has rounds of its own */
    else if (!verify) CHECK_INT(many->file_calls, few->file_calls + 3 * extra);
    /* a fixed number, not a count of rounds: the set's metadata records go
     * out in two batched writes of rank 0 (no MPI-IO collective); the
     * arguments' agreement adds two per call (its verification a read) */
    CHECK(few->agreements < (writing ? 72 : 44));
    if (writing && !collective && !verify) CHECK_INT(few->file_calls, 0);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    static const char *const strategies[] = {"independent", "collective", "aggregate", "serial", "mapped"};
    for (int s = 0; s < 5; s++) {
        setenv("LATTIO_STRATEGY", strategies[s], 1);
        for (int v = 0; v < 5; v += 2) { /* t slabs, x split, y split */
            for (int verify = 0; verify < 2; verify++) {
                tally w1, r1, w2, r2;
                /* slab strategies: staging 100 sites vs 7; two-phase: window 256 KiB vs 8 KiB */
                run(v, 576 * 100, "262144", verify, &w1, &r1);
                run(v, 576 * 7, "8192", verify, &w2, &r2);
                char what[96];
                snprintf(what, sizeof what, "%s decomposition %d%s write", strategies[s], v,
                         verify ? " +verify" : "");
                compare(what, &w1, &w2, s == 1, 1, verify);
                snprintf(what, sizeof what, "%s decomposition %d%s read", strategies[s], v,
                         verify ? " +verify" : "");
                compare(what, &r1, &r2, s == 1, 0, 0); /* reads: partial, so never two-phase */
            }
        }
    }
    unsetenv("LATTIO_STRATEGY");
    unsetenv("LATTIO_CB_BUFFER_SIZE");
    return mpitest_finish();
}
