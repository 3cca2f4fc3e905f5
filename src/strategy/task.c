/* task.c -- the helper thread: one thread kept for a whole transfer
 * (lattio_helper_open at its start, _close at its end), which runs one
 * function at a time while the calling thread goes on (the conversion
 * helper's share of each slab).  Functions must not call MPI: the library
 * asks for no thread level beyond what the program initialised.  Starting
 * a thread per slab cost about 0.1 ms each on the development VM (576
 * slabs of a 1.2 GB field: 0.06 s per write, most of the helper's slack),
 * so the thread stays and waits: it spins briefly for the next function,
 * then sleeps on a condition variable; the caller waits for the result
 * the same way.  Without a helper (none could be started) a task runs at
 * once on the calling thread, so a task always runs exactly once. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "io/io_internal.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* How long a waiter spins before it sleeps, where the process may run on
 * two CPUs or more: longer than the gap between two slabs of a transfer,
 * short next to any real work.  Confined to one CPU (mpirun binds a rank
 * to a core by default) the two threads share it, a spinning waiter only
 * holds up the thread it waits for, and the waiter sleeps at once. */
#define SPIN_NS 500000L

struct lattio_helper {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    _Atomic unsigned posted; /* functions handed over */
    _Atomic unsigned done;   /* functions finished */
    _Atomic int quit;
    long spin_ns; /* SPIN_NS, or 0 on one CPU */
    int (*fn)(void *); /* the current function, set before `posted` moves */
    void *arg;
    int rc; /* its status, set before `done` moves */
};

static void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static long elapsed_ns(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)(t.tv_sec - t0->tv_sec) * 1000000000L + (t.tv_nsec - t0->tv_nsec);
}

/* Wait until *v differs from `old` (or quit is set): spin, then sleep. */
static void await_change(lattio_helper *h, _Atomic unsigned *v, unsigned old)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned i = 1; h->spin_ns > 0; i++) {
        if (atomic_load_explicit(v, memory_order_acquire) != old || atomic_load(&h->quit)) return;
        relax();
        if (i % 256 != 0) continue;
        if (elapsed_ns(&t0) > h->spin_ns) break;
        sched_yield(); /* more threads than CPUs: let the one waited for run */
    }
    pthread_mutex_lock(&h->mu);
    while (atomic_load_explicit(v, memory_order_acquire) == old && !atomic_load(&h->quit))
        pthread_cond_wait(&h->cv, &h->mu);
    pthread_mutex_unlock(&h->mu);
}

/* Wake whoever sleeps in await_change after a change was published (the
 * lock orders the change before a sleeper's last check, so no wake-up is
 * lost). */
static void wake(lattio_helper *h)
{
    pthread_mutex_lock(&h->mu);
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

/* Move *v on and wake whoever sleeps on it. */
static void announce(lattio_helper *h, _Atomic unsigned *v)
{
    atomic_fetch_add_explicit(v, 1, memory_order_release);
    wake(h);
}

static void *helper_main(void *arg)
{
    lattio_helper *h = arg;
    unsigned seen = 0;
    for (;;) {
        await_change(h, &h->posted, seen);
        if (atomic_load_explicit(&h->posted, memory_order_acquire) == seen) return NULL; /* quit */
        seen++;
        h->rc = h->fn(h->arg);
        announce(h, &h->done);
    }
}

lattio_helper *lattio_helper_open(void)
{
    lattio_helper *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    atomic_init(&h->posted, 0);
    atomic_init(&h->done, 0);
    atomic_init(&h->quit, 0);
    h->spin_ns = lattio_cpus_allowed() >= 2 ? SPIN_NS : 0;
    int ok = pthread_mutex_init(&h->mu, NULL) == 0;
    if (ok && pthread_cond_init(&h->cv, NULL) != 0) {
        pthread_mutex_destroy(&h->mu);
        ok = 0;
    }
    if (ok && pthread_create(&h->thread, NULL, helper_main, h) != 0) {
        pthread_cond_destroy(&h->cv);
        pthread_mutex_destroy(&h->mu);
        ok = 0;
    }
    if (!ok) {
        free(h);
        return NULL;
    }
    return h;
}

void lattio_helper_close(lattio_helper *h)
{
    if (!h) return;
    atomic_store(&h->quit, 1);
    wake(h);
    pthread_join(h->thread, NULL);
    pthread_cond_destroy(&h->cv);
    pthread_mutex_destroy(&h->mu);
    free(h);
}

void lattio_task_start(lattio_task *t, lattio_helper *h, int (*fn)(void *), void *arg)
{
    t->h = h;
    t->rc = LATTIO_OK;
    if (!h) {
        t->rc = fn(arg);
        return;
    }
    h->fn = fn; /* the helper is idle: its last function was joined */
    h->arg = arg;
    announce(h, &h->posted);
}

int lattio_task_join(lattio_task *t)
{
    lattio_helper *h = t->h;
    if (!h) return t->rc;
    const unsigned target = atomic_load_explicit(&h->posted, memory_order_relaxed);
    if (atomic_load_explicit(&h->done, memory_order_acquire) != target) await_change(h, &h->done, target - 1);
    t->h = NULL;
    t->rc = h->rc;
    return t->rc;
}

int lattio_cpus_online(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 && n < 1 << 20 ? (int)n : 1;
}

int lattio_cpus_allowed(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
#endif
    return lattio_cpus_online();
}
