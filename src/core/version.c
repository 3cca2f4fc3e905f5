/* version.c -- what this build of the library holds, as CMake found it
 * (generated/lattio_build_info.h). */
#include "lattio.h"
#include "lattio_build_info.h"

const char *lattio_build_info(void) { return LATTIO_BUILD_INFO; }
