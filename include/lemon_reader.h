/* lemon_reader.h -- compatibility shim: the Lemon header of this name.  Everything
 * it declared is in lemon.h. */
#ifndef LATTIO_LEMON_READER_H
#define LATTIO_LEMON_READER_H
#include "lemon.h"
#endif
