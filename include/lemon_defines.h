/* lemon_defines.h -- compatibility shim: the Lemon header of this name.  Everything
 * it declared is in lemon.h. */
#ifndef LATTIO_LEMON_DEFINES_H
#define LATTIO_LEMON_DEFINES_H
#include "lemon.h"
#endif
