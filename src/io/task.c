/* task.c -- one function run on a second thread while the calling thread
 * goes on (the field writer's conversion helper).  The function must not
 * call MPI: the library asks for no thread level beyond what the program
 * initialised.  When no thread can be created the function runs at once,
 * on the calling thread, so a task always runs exactly once. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "io_internal.h"

#include <sched.h>
#include <unistd.h>

static void *task_main(void *arg)
{
    lattio_task *t = arg;
    t->rc = t->fn(t->arg);
    return NULL;
}

void lattio_task_start(lattio_task *t, int (*fn)(void *), void *arg)
{
    t->fn = fn;
    t->arg = arg;
    t->rc = LATTIO_OK;
    t->threaded = pthread_create(&t->thread, NULL, task_main, t) == 0;
    if (!t->threaded) t->rc = fn(arg);
}

int lattio_task_join(lattio_task *t)
{
    if (t->threaded && pthread_join(t->thread, NULL) != 0)
        return LATTIO_FAIL(LATTIO_ERR_STATE, "pthread_join");
    t->threaded = 0;
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
