/* dcap-overload.h -- compatibility shim: the C-LIME header of this name,
 * which C-LIME's lime.h includes.  DCAP(name) and DCAPL(name) name a stdio
 * or POSIX call: the call itself, or, when the program is built with
 * HAVE_DCAP (dCache's dcap library), its dc_ variant (DCAPL: the 64-bit
 * dc_*64 one when _FILE_OFFSET_BITS is 64).  Programs write DCAP(fopen)(...)
 * so that one source serves both; lattio itself never uses dCache. */
#ifndef LATTIO_DCAP_OVERLOAD_H
#define LATTIO_DCAP_OVERLOAD_H

#ifdef HAVE_DCAP
#include <dcap.h>
#include <stdio.h>
#include <unistd.h>
#define DCAP(name) dc_##name
#if defined(_FILE_OFFSET_BITS) && _FILE_OFFSET_BITS == 64
#define DCAPL(name) dc_##name##64
#else
#define DCAPL(name) dc_##name
#endif
#else
#define DCAP(name) name
#define DCAPL(name) name
#endif

#endif
