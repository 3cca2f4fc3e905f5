/* lemon_binheader.h -- compatibility shim: the Lemon header of this name.
 * Only the header size; Lemon's static header buffer is not provided (it was
 * shared, unsynchronised state in a public header). */
#ifndef LATTIO_LEMON_BINHEADER_H
#define LATTIO_LEMON_BINHEADER_H
#include "lemon.h"
#endif
