/* lime_header.h -- compatibility shim: the C-LIME header of this name.  LimeRecordHeader is
 * defined in lime.h. */
#ifndef LATTIO_LIME_HEADER_H
#define LATTIO_LIME_HEADER_H
#include "lime.h"

#endif
