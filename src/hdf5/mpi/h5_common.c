/* h5_common.c -- the HDF5 calls that need no HDF5 library: options (built
 * with and without HDF5; the file signature is src/field/detect.c's). */
#include "field/mpi/field_mpi.h"

#include <string.h>

void lattio_h5_options_default(lattio_h5_options *o)
{
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->layout = LATTIO_H5_QDP;
}
