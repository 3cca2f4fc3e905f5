/* lime_writer.h -- compatibility shim: the C-LIME header of this name.  LimeWriter is defined
 * in lime.h. */
#ifndef LATTIO_LIME_WRITER_H
#define LATTIO_LIME_WRITER_H
#include "lime.h"

#endif
