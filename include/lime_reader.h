/* lime_reader.h -- compatibility shim: the C-LIME header of this name.  LimeReader is defined
 * in lime.h. */
#ifndef LATTIO_LIME_READER_H
#define LATTIO_LIME_READER_H
#include "lime.h"

#endif
