/* profile.c -- the time breakdown of a file's calls (OPAL-style
 * profiling): lattio_profile_get reduces the phase clocks (clock.c) of every
 * rank to minimum, mean and maximum; lattio_profile_reset starts them over. */
#include "io_internal.h"

#include <string.h>

void lattio_profile_reset(lattio_file *f)
{
    if (!f) return;
    lattio_prof *p = &f->prof;
    p->calls = p->bytes = 0;
    p->total = 0;
    memset(p->phase, 0, sizeof p->phase);
    p->fallbacks = 0;
    p->fallback[0] = '\0';
}

/* Collective.  min, sum and max over the ranks of the total and the phases. */
static int reduce_times(const lattio_file *f, double mn[], double sum[], double mx[])
{
    enum { N = 1 + LATTIO_NPHASES };
    double mine[N];
    mine[0] = f->prof.total;
    for (int i = 0; i < LATTIO_NPHASES; i++) mine[1 + i] = f->prof.phase[i];
    RETURN_IF_ERROR(MPI_CHECK(MPI_Allreduce(mine, mn, N, MPI_DOUBLE, MPI_MIN, f->comm), LATTIO_ERR_MPI));
    RETURN_IF_ERROR(MPI_CHECK(MPI_Allreduce(mine, sum, N, MPI_DOUBLE, MPI_SUM, f->comm), LATTIO_ERR_MPI));
    return MPI_CHECK(MPI_Allreduce(mine, mx, N, MPI_DOUBLE, MPI_MAX, f->comm), LATTIO_ERR_MPI);
}

int lattio_profile_get(lattio_file *f, lattio_profile *p)
{
    RETURN_IF(!f, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lattio_agree(f->comm, p ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_ARG, "profile")));
    double mn[1 + LATTIO_NPHASES], sum[1 + LATTIO_NPHASES], mx[1 + LATTIO_NPHASES];
    uint64_t calls = f->prof.calls, bytes = 0;
    int rc = reduce_times(f, mn, sum, mx);
    if (rc == LATTIO_OK)
        rc = MPI_CHECK(MPI_Allreduce(&f->prof.bytes, &bytes, 1, MPI_UINT64_T, MPI_SUM, f->comm),
                       LATTIO_ERR_MPI);
    if (rc == LATTIO_OK) rc = MPI_CHECK(MPI_Bcast(&calls, 1, MPI_UINT64_T, 0, f->comm), LATTIO_ERR_MPI);
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    memset(p, 0, sizeof *p);
    p->calls = calls;
    p->bytes = bytes;
    p->strategy = f->prof.strategy; /* the same on every rank: chosen once per call */
    p->fallbacks = f->prof.fallbacks;
    memcpy(p->fallback, f->prof.fallback, sizeof p->fallback);
    for (int i = 0; i < 1 + LATTIO_NPHASES; i++) {
        double *out = i == 0 ? p->total : p->phase[i - 1];
        out[0] = mn[i];
        out[1] = sum[i] / f->size;
        out[2] = mx[i];
        if (out[1] < out[0]) out[1] = out[0]; /* rounding of the sum */
        if (out[1] > out[2]) out[1] = out[2];
    }
    return LATTIO_OK;
}
