/* agree.c -- the one place MPI return codes become lattio statuses, and
 * status agreement between ranks. */
#include "io_internal.h"

#include <errno.h>

/* The errno matching an MPI error class of file operations (EIO else). */
static int errno_of_class(int mpi_rc)
{
    int cls = MPI_ERR_OTHER;
    MPI_Error_class(mpi_rc, &cls);
    static const int map[][2] = {
        {MPI_ERR_NO_SPACE, ENOSPC}, {MPI_ERR_QUOTA, EDQUOT},         {MPI_ERR_ACCESS, EACCES},
        {MPI_ERR_READ_ONLY, EROFS}, {MPI_ERR_NO_SUCH_FILE, ENOENT}, {MPI_ERR_FILE_EXISTS, EEXIST},
        {MPI_ERR_BAD_FILE, ENAMETOOLONG}, {MPI_ERR_FILE_IN_USE, EBUSY}, {MPI_ERR_IO, EIO}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i][0] == cls) return map[i][1];
    return 0;
}

int lattio_mpi_status(int mpi_rc, int status, const char *what)
{
    if (mpi_rc == MPI_SUCCESS) return LATTIO_OK;
    int e = errno_of_class(mpi_rc);
    if (e) lattio_fail_errno(__FILE__, __LINE__, what, status, e);
    if (lattio_trace_enabled()) {
        char msg[MPI_MAX_ERROR_STRING] = "";
        int len = 0;
        MPI_Error_string(mpi_rc, msg, &len);
        lattio_trace(__FILE__, __LINE__, "%s: %s -> %s", what, msg, lattio_error_name(status));
    }
    return status;
}

/* The order of failures for agreement: a failed transfer (I/O, MPI) first,
 * since it explains what other ranks then make of what they read (a
 * format or checksum failure); "another rank failed" last; among equals,
 * the most negative status. */
enum { PRECEDENCE = 100000 };

static int precedence(int status)
{
    if (status >= 0) return status;
    const int io = (status <= -100 && status > -200) || (status <= -400 && status > -500);
    return status - (io ? 2 : status == LATTIO_ERR_OTHER_RANK ? 0 : 1) * PRECEDENCE;
}

static int status_of(int key)
{
    while (key <= -PRECEDENCE) key += PRECEDENCE;
    return key;
}

int lattio_agree(MPI_Comm comm, int status)
{
    int rank = 0;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS) return LATTIO_ERR_MPI;
    struct {
        int value, rank;
    } mine = {precedence(status), rank}, all = {0, 0};
    int prev = lattio_prof_push(lattio_prof_active(), LATTIO_PHASE_SYNC);
    int rc = MPI_Allreduce(&mine, &all, 1, MPI_2INT, MPI_MINLOC, comm);
    lattio_prof_pop(lattio_prof_active(), prev);
    RETURN_IF(rc != MPI_SUCCESS, LATTIO_ERR_MPI);
    all.value = status_of(all.value);
    if (all.value < 0) { /* the failing rank's system reason, for every rank's message */
        int err = lattio_errno_peek();
        RETURN_IF(MPI_Bcast(&err, 1, MPI_INT, all.rank, comm) != MPI_SUCCESS, LATTIO_ERR_MPI);
        if (err) lattio_errno_set(err);
    }
    if (all.value < 0 && status == LATTIO_OK)
        LATTIO_TRACE("rank %d failed with %s", all.rank, lattio_error_name(all.value));
    return all.value;
}

int lattio_allreduce_u64(uint64_t *in, uint64_t *out, int n, MPI_Op op, MPI_Comm comm)
{
    const uint64_t top = (uint64_t)1 << 63;
    for (int i = 0; i < n; i++) in[i] ^= top;
    int rc = MPI_Allreduce(in, out, n, MPI_INT64_T, op, comm);
    for (int i = 0; i < n; i++) in[i] ^= top;
    if (rc != MPI_SUCCESS) return MPI_CHECK(rc, LATTIO_ERR_MPI);
    for (int i = 0; i < n; i++) out[i] ^= top;
    return LATTIO_OK;
}
