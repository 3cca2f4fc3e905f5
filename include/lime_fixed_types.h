/* lime_fixed_types.h -- compatibility shim: the C-LIME header of this name.  n_uint16_t,
 * n_uint32_t and n_uint64_t are defined in lime.h. */
#ifndef LATTIO_LIME_FIXED_TYPES_H
#define LATTIO_LIME_FIXED_TYPES_H
#include "lime.h"

#endif
