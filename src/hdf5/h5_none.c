/* h5_none.c -- HDF5 reading without MPI in a library that has no HDF5 of
 * its own to read with (no HDF5 found, or liblattio-serial beside a
 * parallel HDF5): every call says so. */
#include "internal.h"

#include <string.h>

int lattio_h5_serial_available(void) { return 0; }

int lattio_h5_list_serial(const char *path, int nd, lattio_h5_entry *out, int max, int *count)
{
    (void)path, (void)nd, (void)out, (void)max;
    if (count) *count = 0;
    return LATTIO_FAIL(LATTIO_ERR_HDF5_UNAVAILABLE, "no HDF5 in this library");
}

int lattio_h5_find_serial(const char *target, int nd, lattio_h5_entry *e)
{
    (void)target, (void)nd;
    if (e) memset(e, 0, sizeof *e);
    return LATTIO_FAIL(LATTIO_ERR_HDF5_UNAVAILABLE, "no HDF5 in this library");
}

int lattio_h5_fields_serial(const char *target, int nd, char *file, size_t file_size, lattio_h5_entry **list,
                            int *count)
{
    (void)target, (void)nd;
    if (file && file_size) file[0] = '\0';
    if (list) *list = NULL;
    if (count) *count = 0;
    return LATTIO_FAIL(LATTIO_ERR_HDF5_UNAVAILABLE, "no HDF5 in this library");
}

int lattio_h5_read_serial(const char *target, const lattio_field_desc *d, const lattio_layout *l, void *values,
                          lattio_field_read_info *info)
{
    (void)target, (void)d, (void)l, (void)values;
    if (info) memset(info, 0, sizeof *info);
    return LATTIO_FAIL(LATTIO_ERR_HDF5_UNAVAILABLE, "no HDF5 in this library");
}
