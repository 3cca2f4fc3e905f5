/* clock.c -- the phase clock behind the time breakdown of a file's calls
 * (OPAL-style profiling; profile.c reports it).
 *
 * A phase clock per file: a public call begins (lattio_prof_begin; nested
 * public calls only deepen a counter), every lattio_prof_phase charges the
 * time since the last switch to the current phase and makes another phase
 * current, and the outermost call's end charges the rest and adds its wall
 * time to the total.  The phase times of a call are differences of the same
 * clock readings that bound it, so they add up to its total (up to rounding).
 * A switch costs one MPI_Wtime call: cheap enough to be always on. */
#include "io_internal.h"

#include <string.h>

/* The file whose call runs on this thread: lattio_agree charges to it. */
static _Thread_local lattio_file *active_;
/* The breakdown of the last handle freed on this thread. */
static _Thread_local lattio_prof last_closed_;

static int valid_phase(int phase) { return phase >= 0 && phase < LATTIO_NPHASES; }

const char *lattio_phase_name(int phase)
{
    static const char *const names[LATTIO_NPHASES] = {"setup", "pack",  "checksum", "exchange",
                                                      "io",    "sync", "meta"};
    return valid_phase(phase) ? names[phase] : "?";
}

/* Charge the time since the last switch to the current phase. */
static void charge(lattio_prof *p, double now)
{
    p->phase[p->cur] += now - p->since;
    p->since = now;
}

void lattio_prof_begin(lattio_file *f, int phase)
{
    if (!f || !valid_phase(phase)) return;
    lattio_prof *p = &f->prof;
    double now = MPI_Wtime();
    if (p->depth++ == 0) {
        p->start = p->since = now;
        active_ = f;
    } else {
        charge(p, now);
    }
    p->cur = phase;
}

int lattio_prof_end(lattio_file *f, int rc, uint64_t bytes)
{
    if (!f || f->prof.depth <= 0) return rc;
    lattio_prof *p = &f->prof;
    if (rc == LATTIO_OK) p->bytes += bytes;
    if (--p->depth > 0) return rc;
    double now = MPI_Wtime();
    charge(p, now);
    p->total += now - p->start;
    p->calls++;
    if (active_ == f) active_ = NULL;
    return rc;
}

void lattio_prof_phase(lattio_file *f, int phase)
{
    if (!f || f->prof.depth <= 0 || !valid_phase(phase)) return;
    charge(&f->prof, MPI_Wtime());
    f->prof.cur = phase;
}

int lattio_prof_push(lattio_file *f, int phase)
{
    if (!f || f->prof.depth <= 0 || !valid_phase(phase)) return -1;
    int prev = f->prof.cur;
    lattio_prof_phase(f, phase);
    return prev;
}

void lattio_prof_pop(lattio_file *f, int prev)
{
    if (prev >= 0) lattio_prof_phase(f, prev);
}

lattio_file *lattio_prof_active(void) { return active_; }

void lattio_prof_release(lattio_file *f)
{
    if (!f) return;
    if (f->prof.depth > 0) {
        f->prof.depth = 1;
        lattio_prof_end(f, LATTIO_OK, 0);
    }
    if (active_ == f) active_ = NULL;
    last_closed_ = f->prof;
}

const lattio_prof *lattio_prof_local(const lattio_file *f) { return f ? &f->prof : NULL; }

const lattio_prof *lattio_prof_last_closed(void) { return &last_closed_; }
