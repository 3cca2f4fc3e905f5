/* sharedfp_guard.c -- lattio_open never enters the MPI_File_open that
 * hangs: with ranks on several nodes, the file on NFS, FUSE or GlusterFS,
 * Open MPI's OMPIO and its lockedfile shared-file-pointer component
 * selectable (this test clears OMPI_MCA_sharedfp before MPI_Init, so the
 * default selection applies), every rank gets ERR_MPI_SHAREDFP at once;
 * anywhere else (one node, a local disk, ROMIO, MPICH) the same open
 * succeeds and writes a record. */
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

/* Whether this run meets the conditions under which lattio refuses. */
static int hazard_expected(void)
{
    char kind[16] = "";
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    const char *io = getenv("OMPI_MCA_io");
    CHECK_OK(lattio_fs_describe(".", kind, sizeof kind, NULL, 0, NULL, NULL));
    MPI_Get_library_version(lib, &len);
    const int caching = !strcmp(kind, "nfs") || !strcmp(kind, "fuse") || !strcmp(kind, "glusterfs");
    const int ompio = strstr(lib, "Open MPI") && !(io && strstr(io, "romio"));
    return !mpitest_one_node() && caching && ompio;
}

int main(int argc, char **argv)
{
    unsetenv("OMPI_MCA_sharedfp"); /* Open MPI's default selection */
    mpitest_init(&argc, &argv);
    const int refuse = hazard_expected();
    lattio_file *f = NULL;
    int rc = lattio_open(MPI_COMM_WORLD, "guard.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f);
    if (refuse) {
        CHECK_STATUS(rc, LATTIO_ERR_MPI_SHAREDFP);
        CHECK(f == NULL);
    } else {
        CHECK_OK(rc);
        if (f) CHECK_OK(lattio_record_write(f, "guard", "ok", 2, 1, 1));
        if (f) CHECK_OK(lattio_close(f));
    }
    if (mpitest_rank == 0) printf("lockedfile hazard %s\n", refuse ? "refused" : "absent: open succeeded");
    return mpitest_finish();
}
