/* h5_none.c -- the collective HDF5 calls of a build without parallel HDF5:
 * each says so with ERR_HDF5_UNAVAILABLE. */
#include "field/mpi/field_mpi.h"


int lattio_h5_write(MPI_Comm comm, const char *target, const lattio_field_desc *d, const lattio_layout *l,
                    const void *local, const lattio_h5_options *o, lattio_field_write_info *out,
                    lattio_h5_info *h5)
{
    return LATTIO_FAIL(LATTIO_ERR_HDF5_UNAVAILABLE, "built without parallel HDF5");
}

int lattio_h5_write_fields(MPI_Comm comm, const char *target, const lattio_field_desc *d, const lattio_layout *l,
                           int n, const void *const *locals, const lattio_h5_options *o,
                           lattio_field_write_info *out, lattio_h5_info *h5)
{
    return LATTIO_FAIL(LATTIO_ERR_HDF5_UNAVAILABLE, "built without parallel HDF5");
}

int lattio_h5_writer_open(MPI_Comm comm, const char *file, int nd, const lattio_h5_options *o,
                          lattio_h5_writer **w)
{
    if (w) *w = NULL;
    return LATTIO_FAIL(LATTIO_ERR_HDF5_UNAVAILABLE, "built without parallel HDF5");
}

int lattio_h5_writer_add(lattio_h5_writer *w, const char *object, const lattio_field_desc *d,
                         const lattio_layout *l, const void *local, lattio_field_write_info *out,
                         lattio_h5_info *h5)
{
    return LATTIO_FAIL(LATTIO_ERR_HDF5_UNAVAILABLE, "built without parallel HDF5");
}

int lattio_h5_writer_close(lattio_h5_writer *w) { return LATTIO_OK; }

int lattio_h5_read(MPI_Comm comm, const char *target, const lattio_field_desc *d, const lattio_layout *l,
                   void *local, const lattio_h5_options *o, lattio_field_read_info *info, lattio_h5_info *h5)
{
    return LATTIO_FAIL(LATTIO_ERR_HDF5_UNAVAILABLE, "built without parallel HDF5");
}

int lattio_h5_list(MPI_Comm comm, const char *path, int nd, lattio_h5_entry *out, int max, int *count)
{
    if (count) *count = 0;
    return LATTIO_FAIL(LATTIO_ERR_HDF5_UNAVAILABLE, "built without parallel HDF5");
}

int lattio_h5_find(MPI_Comm comm, const char *target, int nd, lattio_h5_entry *e)
{
    return LATTIO_FAIL(LATTIO_ERR_HDF5_UNAVAILABLE, "built without parallel HDF5");
}

int lattio_h5_fields(MPI_Comm comm, const char *target, int nd, char *file, size_t file_size,
                     lattio_h5_entry **list, int *count)
{
    if (list) *list = NULL;
    if (count) *count = 0;
    return LATTIO_FAIL(LATTIO_ERR_HDF5_UNAVAILABLE, "built without parallel HDF5");
}
