/* fault.c -- the interposed MPI-IO and POSIX calls of fault.h. */
#define _GNU_SOURCE
#include "fault.h"

#include <dlfcn.h>
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int armed, fail_mode, fired, in_mpi;
static long target, calls;
static char what[64];

void fault_arm(int rank, long n, int mode)
{
    int me = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    armed = me == rank;
    target = n;
    fail_mode = mode;
    calls = 0;
    fired = 0;
    what[0] = '\0';
}

int fault_disarm(void)
{
    armed = 0;
    return fired;
}

const char *fault_what(void) { return what; }

enum { K_WRITE, K_READ, K_PREAD, K_OTHER };

#ifdef FAULT_PRELOAD
/* Arm from the environment once (fault.h). */
static void arm_from_env(void)
{
    static int done;
    if (done) return;
    done = 1;
    const char *r = getenv("FAULT_RANK"), *n = getenv("FAULT_CALL"), *m = getenv("FAULT_MODE");
    const char *me = getenv("OMPI_COMM_WORLD_RANK") ? getenv("OMPI_COMM_WORLD_RANK") : getenv("PMI_RANK");
    if (!r || !n || !me || atoi(r) != atoi(me)) return;
    static const char *const modes[] = {"", "error", "short", "nospace", "mpiread"};
    fail_mode = FAULT_ERROR;
    for (int i = 1; m && i < 5; i++)
        if (strcmp(m, modes[i]) == 0) fail_mode = i;
    target = atol(n);
    armed = 1;
}
#else
static void arm_from_env(void) {}
#endif

/* Whether this call (of kind k) is the one to fail. */
static int hit(const char *name, int k)
{
    arm_from_env();
    if (!armed || fired || in_mpi) return 0;
    if (fail_mode == FAULT_MPI_READ && k != K_READ) return 0;
    if (fail_mode == FAULT_SHORT && k != K_READ && k != K_PREAD) return 0;
    if (fail_mode == FAULT_NOSPACE && k != K_WRITE) return 0;
    if (++calls != target) return 0;
    fired = 1;
    snprintf(what, sizeof what, "%s (call %ld)", name, calls);
    return 1;
}

static int mpi_err(void) { return fail_mode == FAULT_NOSPACE ? MPI_ERR_NO_SPACE : MPI_ERR_IO; }

/* A read made short: the status says half the bytes arrived. */
static int made_short(int rc, MPI_Status *st)
{
    MPI_Count got = 0;
    if (rc != MPI_SUCCESS || st == MPI_STATUS_IGNORE) return rc;
    PMPI_Get_elements_x(st, MPI_BYTE, &got);
    PMPI_Status_set_elements_x(st, MPI_BYTE, got / 2);
    return MPI_SUCCESS;
}

/* --- MPI-IO --------------------------------------------------------------- */

#define ENTER in_mpi++
#define LEAVE in_mpi--

/* Independent transfers: a failed one does nothing. */
#define INDEPENDENT(name, kind, call)                                                    \
    do {                                                                                 \
        int h_ = hit(name, kind);                                                        \
        if (h_ && fail_mode != FAULT_SHORT) return mpi_err();                            \
        ENTER;                                                                           \
        int rc_ = call;                                                                  \
        LEAVE;                                                                           \
        return h_ ? made_short(rc_, st) : rc_;                                           \
    } while (0)

/* Collective calls: the real call is made, then its result replaced. */
#define COLLECTIVE(name, kind, call, st_)                                                \
    do {                                                                                 \
        int h_ = hit(name, kind);                                                        \
        ENTER;                                                                           \
        int rc_ = call;                                                                  \
        LEAVE;                                                                           \
        if (!h_) return rc_;                                                             \
        return fail_mode == FAULT_SHORT ? made_short(rc_, st_) : mpi_err();              \
    } while (0)

int MPI_File_write_at(MPI_File fh, MPI_Offset off, const void *buf, int count, MPI_Datatype dt,
                      MPI_Status *st)
{
    INDEPENDENT("MPI_File_write_at", K_WRITE, PMPI_File_write_at(fh, off, buf, count, dt, st));
}

int MPI_File_read_at(MPI_File fh, MPI_Offset off, void *buf, int count, MPI_Datatype dt,
                     MPI_Status *st)
{
    INDEPENDENT("MPI_File_read_at", K_READ, PMPI_File_read_at(fh, off, buf, count, dt, st));
}

int MPI_File_write_at_all(MPI_File fh, MPI_Offset off, const void *buf, int count,
                          MPI_Datatype dt, MPI_Status *st)
{
    COLLECTIVE("MPI_File_write_at_all", K_WRITE, PMPI_File_write_at_all(fh, off, buf, count, dt, st), st);
}

int MPI_File_read_at_all(MPI_File fh, MPI_Offset off, void *buf, int count, MPI_Datatype dt,
                         MPI_Status *st)
{
    COLLECTIVE("MPI_File_read_at_all", K_READ, PMPI_File_read_at_all(fh, off, buf, count, dt, st), st);
}

int MPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype dt, MPI_Status *st)
{
    COLLECTIVE("MPI_File_write_all", K_WRITE, PMPI_File_write_all(fh, buf, count, dt, st), st);
}

int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype dt, MPI_Status *st)
{
    COLLECTIVE("MPI_File_read_all", K_READ, PMPI_File_read_all(fh, buf, count, dt, st), st);
}

/* Non-blocking: a failed start completes what it started and returns the
 * error with no request (short reads are not simulated here). */
static int nonblocking(const char *name, int kind, int rc, MPI_Request *req)
{
    if (rc != MPI_SUCCESS || !hit(name, kind)) return rc;
    if (fail_mode == FAULT_SHORT) { /* not simulated: count it as an ordinary call */
        fired = 0;
        what[0] = '\0';
        return rc;
    }
    PMPI_Wait(req, MPI_STATUS_IGNORE);
    *req = MPI_REQUEST_NULL;
    return mpi_err();
}

int MPI_File_iwrite_at(MPI_File fh, MPI_Offset off, const void *buf, int count, MPI_Datatype dt,
                       MPI_Request *req)
{
    ENTER;
    int rc = PMPI_File_iwrite_at(fh, off, buf, count, dt, req);
    LEAVE;
    return nonblocking("MPI_File_iwrite_at", K_WRITE, rc, req);
}

int MPI_File_iread_at(MPI_File fh, MPI_Offset off, void *buf, int count, MPI_Datatype dt,
                      MPI_Request *req)
{
    ENTER;
    int rc = PMPI_File_iread_at(fh, off, buf, count, dt, req);
    LEAVE;
    return nonblocking("MPI_File_iread_at", K_READ, rc, req);
}

int MPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    COLLECTIVE("MPI_File_set_size", K_WRITE, PMPI_File_set_size(fh, size), MPI_STATUS_IGNORE);
}

int MPI_File_sync(MPI_File fh)
{
    COLLECTIVE("MPI_File_sync", K_WRITE, PMPI_File_sync(fh), MPI_STATUS_IGNORE);
}

int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype et, MPI_Datatype ft,
                      const char *rep, MPI_Info info)
{
    COLLECTIVE("MPI_File_set_view", K_OTHER, PMPI_File_set_view(fh, disp, et, ft, rep, info),
               MPI_STATUS_IGNORE);
}

int MPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
    if (hit("MPI_File_get_size", K_OTHER)) return mpi_err();
    ENTER;
    int rc = PMPI_File_get_size(fh, size);
    LEAVE;
    return rc;
}

int MPI_File_close(MPI_File *fh)
{
    COLLECTIVE("MPI_File_close", K_WRITE, PMPI_File_close(fh), MPI_STATUS_IGNORE);
}

/* --- POSIX (lattio's own calls, not MPI's) --------------------------------- */

#define REAL(ret, name, args) ((ret(*) args)dlsym(RTLD_NEXT, name))

static int errno_of_mode(void) { return fail_mode == FAULT_NOSPACE ? ENOSPC : EIO; }

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
    if (hit("pwrite", K_WRITE)) {
        errno = errno_of_mode();
        return -1;
    }
    return REAL(ssize_t, "pwrite64", (int, const void *, size_t, off_t))(fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
    const int h = hit("pread", K_PREAD);
    if (h && fail_mode != FAULT_SHORT) {
        errno = EIO;
        return -1;
    }
    ssize_t k = REAL(ssize_t, "pread64", (int, void *, size_t, off_t))(fd, buf, n, off);
    return h && k > 1 ? k / 2 : k; /* short: as a signal or a network file system may */
}

/* The mapped strategy reserves its range before it maps it: a full disk
 * shows here.  Both names, as the headers may redirect either. */
int fallocate(int fd, int mode, off_t off, off_t len)
{
    if (hit("fallocate", K_WRITE)) {
        errno = errno_of_mode();
        return -1;
    }
    return REAL(int, "fallocate", (int, int, off_t, off_t))(fd, mode, off, len);
}

int fallocate64(int fd, int mode, off_t off, off_t len)
{
    if (hit("fallocate", K_WRITE)) {
        errno = errno_of_mode();
        return -1;
    }
    return REAL(int, "fallocate64", (int, int, off_t, off_t))(fd, mode, off, len);
}

int fsync(int fd)
{
    if (hit("fsync", K_WRITE)) {
        errno = errno_of_mode();
        return -1;
    }
    return REAL(int, "fsync", (int))(fd);
}

int rename(const char *from, const char *to)
{
    if (hit("rename", K_WRITE)) {
        errno = errno_of_mode();
        return -1;
    }
    return REAL(int, "rename", (const char *, const char *))(from, to);
}
