/* lime_fseeko.h -- compatibility shim: the C-LIME header of this name.  fseeko and ftello come
 * from the C library. */
#ifndef LATTIO_LIME_FSEEKO_H
#define LATTIO_LIME_FSEEKO_H
#include "lime.h"
#include "lime_config.h"
#endif
