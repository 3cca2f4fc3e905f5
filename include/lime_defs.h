/* lime_defs.h -- compatibility shim: the C-LIME header of this name.  The magic number,
 * version and status codes are defined in lime.h. */
#ifndef LATTIO_LIME_DEFS_H
#define LATTIO_LIME_DEFS_H
#include "lime.h"

#endif
