/* h5_list.c -- the collective listing (lattio_h5_list, lattio_h5_find,
 * lattio_h5_fields): rank 0's first pass in the guard's child, then the
 * file opened on the communicator and the same walk (h5_examine.c) on
 * every rank, one status for all. */
#include "h5_mpi.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Collective: the first pass on rank 0, then `path` opened read-only on
 * comm and fn(fid, data) run on every rank; every rank gets the lowest
 * status. */
static int with_file(MPI_Comm comm, const char *path, lattio_h5_file_fn fn, void *data)
{
    lattio_detail_clear();
    lattio_h5_quiet q;
    lattio_h5_quiet_begin(&q);
    int rank = 0, rc = LATTIO_OK;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) rc = lattio_h5_first_pass(path, fn, data);
    if (MPI_Bcast(&rc, 1, MPI_INT, 0, comm) != MPI_SUCCESS) rc = LATTIO_FAIL(LATTIO_ERR_MPI, "first pass");
    hid_t fapl = rc == LATTIO_OK ? lattio_h5_fapl(comm, MPI_INFO_NULL, 0) : -1;
    hid_t fid = fapl >= 0 ? lattio_h5_fopen(path, H5F_ACC_RDONLY, fapl) : -1;
    if (rc == LATTIO_OK && fid < 0) rc = lattio_h5_open_fail();
    if (rc == LATTIO_OK) rc = fn(fid, data);
    if (fid >= 0 && H5Fclose(fid) < 0 && rc == LATTIO_OK) rc = lattio_h5_fail(LATTIO_ERR_HDF5, "close");
    if (fapl >= 0) H5Pclose(fapl);
    H5Eclear2(H5E_DEFAULT);
    lattio_h5_quiet_end(&q);
    return lattio_agree(comm, rc);
}

int lattio_h5_list(MPI_Comm comm, const char *path, int nd, lattio_h5_entry *out, int max, int *count)
{
    RETURN_IF(!path || !count || (max > 0 && !out) || nd < 0 || nd > LATTIO_MAX_DIMS, LATTIO_ERR_ARG);
    *count = 0;
    lattio_h5_listing v = {.nd = nd ? nd : 4, .max = max, .out = out};
    const int rc = with_file(comm, path, lattio_h5_list_fields, &v);
    *count = v.count;
    return rc;
}

int lattio_h5_find(MPI_Comm comm, const char *target, int nd, lattio_h5_entry *e)
{
    RETURN_IF(!target || !e || nd < 0 || nd > LATTIO_MAX_DIMS, LATTIO_ERR_ARG);
    memset(e, 0, sizeof *e);
    char *file = NULL, *object = NULL;
    RETURN_IF_ERROR(lattio_h5_split(target, &file, &object));
    lattio_h5_finding f = {object, nd ? nd : 4, e, 0};
    const int rc = with_file(comm, file, lattio_h5_find_field, &f);
    lattio_free(file);
    lattio_free(object);
    return rc;
}

/* Collective: every lattice field of FILE (counted, then listed); *list is
 * malloc'd, NULL when there is none. */
static int list_all(MPI_Comm comm, const char *file, int nd, lattio_h5_entry **list, int *count)
{
    int rc = lattio_h5_list(comm, file, nd, NULL, 0, count);
    if (rc != LATTIO_OK || *count == 0) return rc;
    *list = malloc((size_t)*count * sizeof **list);
    rc = lattio_agree(comm, *list ? LATTIO_OK : LATTIO_ERR_NOMEM);
    int all = 0;
    if (rc == LATTIO_OK) rc = lattio_h5_list(comm, file, nd, *list, *count, &all);
    if (rc == LATTIO_OK && all != *count) /* the file changed between the calls */
        rc = LATTIO_FAIL(LATTIO_ERR_HDF5, "the file changed while it was listed");
    return rc;
}

int lattio_h5_fields(MPI_Comm comm, const char *target, int nd, char *file, size_t file_size,
                     lattio_h5_entry **list, int *count)
{
    RETURN_IF(!target || !list || !count || !file || !file_size, LATTIO_ERR_ARG);
    *list = NULL, *count = 0, file[0] = '\0';
    /* rank 0 decides whether target names a whole file (another node's
     * view of the name may lag) */
    struct stat st;
    int rank = 0, whole = 0;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_rank(comm, &rank), "rank"));
    if (rank == 0) whole = stat(target, &st) == 0 && S_ISREG(st.st_mode);
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Bcast(&whole, 1, MPI_INT, 0, comm), "bcast"));
    char *f = NULL, *object = NULL;
    int rc = whole ? LATTIO_OK : lattio_h5_split(target, &f, &object);
    const char *name = whole ? target : f;
    if (rc == LATTIO_OK && strlen(name) >= file_size) rc = LATTIO_FAIL(LATTIO_ERR_ARG, "file name too long");
    if (rc == LATTIO_OK) snprintf(file, file_size, "%s", name);
    rc = lattio_agree(comm, rc);
    if (rc == LATTIO_OK && whole) {
        rc = list_all(comm, target, nd, list, count);
    } else if (rc == LATTIO_OK) {
        *list = malloc(sizeof **list);
        rc = lattio_agree(comm, *list ? LATTIO_OK : LATTIO_ERR_NOMEM);
        if (rc == LATTIO_OK) rc = lattio_h5_find(comm, target, nd, *list);
        *count = rc == LATTIO_OK;
    }
    lattio_free(f);
    lattio_free(object);
    if (rc != LATTIO_OK) {
        free(*list);
        *list = NULL, *count = 0;
    }
    return rc;
}
