/* lime_config.h -- compatibility shim: the C-LIME header of this name.  Package
 * identification; no configuration is needed. */
#ifndef LATTIO_LIME_CONFIG_H
#define LATTIO_LIME_CONFIG_H
#include "lime.h"

#ifndef HAVE_FSEEKO
#define HAVE_FSEEKO 1
#endif
#define LIME_PACKAGE "lattio"
#define LIME_PACKAGE_NAME "lattio C-LIME compatibility"
#define LIME_PACKAGE_TARNAME "lattio"
#define LIME_PACKAGE_VERSION "1.3.3"
#define LIME_PACKAGE_STRING "lattio C-LIME compatibility 1.3.3"
#define LIME_PACKAGE_BUGREPORT ""
#endif
