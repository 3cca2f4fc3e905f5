/* h5_mpi.c -- HDF5 on a communicator: the arguments every rank must
 * pass alike, MPI-IO file access and collective transfers. */
#include "h5_mpi.h"

int lattio_h5_args_agree(MPI_Comm comm, const char *target, const lattio_field_desc *d, const lattio_layout *l,
                         const lattio_h5_options *o, int writing)
{
    lattio_args a = {0};
    lattio_args_str(&a, "target", target);
    lattio_args_int(&a, "layout given", l != NULL);
    lattio_args_desc(&a, d, writing);
    lattio_args_int(&a, "HDF5 layout", o->layout);
    lattio_args_int(&a, "HDF5 transport", o->transport);
    if (writing) {
        lattio_args_int(&a, "append", o->append);
        lattio_args_int(&a, "chunked", o->chunked);
        lattio_args_int(&a, "alignment", (int64_t)o->alignment);
    }
    return lattio_args_agree(comm, &a);
}

hid_t lattio_h5_fapl(MPI_Comm comm, MPI_Info hints, uint64_t alignment)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0) return fapl;
    if (H5Pset_fapl_mpio(fapl, comm, hints) < 0 || H5Pset_all_coll_metadata_ops(fapl, 1) < 0 ||
        H5Pset_coll_metadata_write(fapl, 1) < 0 ||
        (alignment > 1 && H5Pset_alignment(fapl, 65536, (hsize_t)alignment) < 0)) {
        H5Pclose(fapl);
        return -1;
    }
    return fapl;
}

hid_t lattio_h5_dxpl(void)
{
    hid_t x = H5Pcreate(H5P_DATASET_XFER);
    if (x >= 0 && H5Pset_dxpl_mpio(x, H5FD_MPIO_COLLECTIVE) < 0) {
        H5Pclose(x);
        return -1;
    }
    return x;
}
