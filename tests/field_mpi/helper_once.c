/* helper_once.c -- the helper thread is started once per field call and
 * kept for all its rounds (src/strategy/task.c), not once per round: with the
 * helper forced on and a staging bound of 7 sites (dozens of rounds), a
 * field write and a field read each create exactly one thread on every
 * rank, under the independent, mapped and collective strategies, and the
 * read gives every site back with its checksum verified.  Where no thread
 * can be started (pthread_create refused) the calls still succeed on the
 * calling thread alone, with every site right.  Threads are counted (and
 * refused) by a pthread_create defined here, which the library's calls
 * reach before the C library's. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "fmtest.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

static int counting, created, refuse;

int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
    typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
    static create_fn real;
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
    if (!real) return EAGAIN; /* the library then runs the helper's share itself */
    if (counting && refuse) return EAGAIN;
    if (counting) created++;
    return real(t, a, fn, arg);
}

static void one_strategy(const char *strategy)
{
    setenv("LATTIO_STRATEGY", strategy, 1);
    lattio_layout l;
    CHECK_OK(fm_decomposed(&l, 1, 0));
    double *local = fm_fill(&l, 72);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    d.staging_bytes = 576 * 7;
    lattio_field_write_info wi;
    memset(&wi, 0, sizeof wi);
    created = 0;
    counting = 1;
    const int rc = fm_write(MPI_COMM_WORLD, "once.lime", &d, &l, local, &wi);
    counting = 0;
    CHECK_OK(rc);
    CHECK_INT(wi.threaded, 1);
    CHECK(wi.rounds > 10);
    const int want = refuse ? 0 : 1;
    if (created != want) fprintf(stderr, "%s write: %d threads in %llu rounds\n", strategy, created,
                              (unsigned long long)wi.rounds);
    CHECK_INT(created, want);

    double *back = fm_buffer(&l), *all = fm_whole();
    lattio_field_read_info ri;
    created = 0;
    counting = 1;
    CHECK_OK(fm_read(MPI_COMM_WORLD, "once.lime", &d, &l, back, &ri));
    counting = 0;
    CHECK_INT(ri.threaded, 1);
    CHECK_INT(ri.checksum, LATTIO_CHECKSUM_VERIFIED);
    CHECK_U64(fm_mismatches(&l, back, all, 72), 0);
    if (created != want) fprintf(stderr, "%s read: %d threads\n", strategy, created);
    CHECK_INT(created, want);
    free(local);
    free(back);
    free(all);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    setenv("LATTIO_FIELD_THREADS", "1", 1);
    one_strategy("independent");
    one_strategy("mapped");
    one_strategy("collective");
    refuse = 1; /* no thread can be started: the calling thread does it all */
    one_strategy("independent");
    one_strategy("mapped");
    one_strategy("collective");
    return mpitest_finish();
}
