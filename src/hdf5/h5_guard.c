/* h5_guard.c -- a file's structure first read by HDF5 in a child process.
 *
 * HDF5 1.10 (Debian's, which lattio builds on) crashes or loops on some
 * damaged files inside its own calls: one changed byte of an attribute
 * message makes H5Aopen_by_idx free a bad pointer, a damaged link heap
 * sends H5Ovisit2 into unbounded recursion.  No check in lattio can come
 * before those calls, so the first pass over a file's metadata -- the same
 * walk and examination the caller is about to make -- runs in a forked
 * child on HDF5's serial driver.  The child reports the status and detail
 * through a pipe and leaves with _exit (no atexit handler, no MPI); a child
 * killed by a signal, or still busy after LATTIO_H5_GUARD_SECONDS, is the
 * file's damage (ERR_HDF5_DAMAGED), and the caller's process never makes
 * the call that would have crashed or hung it.  LATTIO_H5_GUARD=0 turns
 * the child off (where an MPI library forbids fork). */
#define _GNU_SOURCE
#include "config.h"
#include "h5_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LATTIO_H5_GUARD_SECONDS 120

typedef struct verdict {
    int status;
    char detail[1024];
} verdict;

static int in_child; /* this process is a guard's child */

int lattio_h5_guard_checks(void) { return in_child || !lattio_process_config_get()->h5_guard; }

int lattio_h5_guard_in_child(void) { return in_child; }

/* In the child: open, examine, report, leave. */
static void child(int fd, const char *path, lattio_h5_file_fn fn, void *data)
{
    static const int fatal[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) signal(fatal[i], SIG_DFL); /* no MPI backtrace */
    in_child = 1;
    mallopt(M_PERTURB, 0xa5); /* malloc'd and freed bytes: a pattern, never a pointer that happens to work */
    verdict v;
    memset(&v, 0, sizeof v);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t fid = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    v.status = fid < 0 ? lattio_h5_open_fail() : fn(fid, data);
    snprintf(v.detail, sizeof v.detail, "%s", lattio_detail_peek());
    size_t done = 0;
    while (done < sizeof v) {
        const ssize_t k = write(fd, (const char *)&v + done, sizeof v - done);
        if (k <= 0 && errno != EINTR) break;
        if (k > 0) done += (size_t)k;
    }
    _exit(0); /* no H5Fclose: nothing of the child's HDF5 state matters now */
}

/* Read the verdict until it is whole, the child is gone or time is up. */
static int await(int fd, verdict *v, int seconds)
{
    size_t have = 0;
    const time_t end = time(NULL) + seconds;
    while (have < sizeof *v) {
        const long left = (long)(end - time(NULL));
        if (left <= 0) return 0;
        struct pollfd p = {fd, POLLIN, 0};
        const int r = poll(&p, 1, (int)(left > 1000 ? 1000000 : left * 1000));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return 0;
        const ssize_t k = read(fd, (char *)v + have, sizeof *v - have);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1; /* the child ended without its verdict */
        have += (size_t)k;
    }
    return 1;
}

int lattio_h5_guarded(const char *path, lattio_h5_file_fn fn, void *data)
{
    if (!lattio_process_config_get()->h5_guard) return LATTIO_OK; /* LATTIO_H5_GUARD=0 */
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return LATTIO_FAIL_ERRNO(LATTIO_ERR_HDF5, "pipe for the HDF5 guard");
    fflush(NULL);
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return LATTIO_FAIL_ERRNO(LATTIO_ERR_HDF5, "fork for the HDF5 guard");
    }
    if (pid == 0) {
        close(fds[0]);
        child(fds[1], path, fn, data);
    }
    close(fds[1]);
    verdict v;
    memset(&v, 0, sizeof v);
    const int got = await(fds[0], &v, LATTIO_H5_GUARD_SECONDS);
    close(fds[0]);
    if (got != 1) kill(pid, SIGKILL);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    if (got == 1) {
        v.detail[sizeof v.detail - 1] = '\0';
        if (v.status != LATTIO_OK && v.detail[0]) lattio_detail_set("%s", v.detail);
        return v.status == LATTIO_OK ? LATTIO_OK : LATTIO_FAIL(v.status, "HDF5 guard");
    }
    if (got == 0) {
        lattio_detail_set("%s: HDF5 did not finish reading the file's structure within %d s", path,
                          LATTIO_H5_GUARD_SECONDS);
    } else {
        lattio_detail_set("%s: the HDF5 library crashed reading the file's structure (%s %d)", path,
                          WIFSIGNALED(st) ? "signal" : "exit status", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
    }
    return LATTIO_FAIL(LATTIO_ERR_HDF5_DAMAGED, "HDF5 guard");
}
