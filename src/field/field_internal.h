/* field_internal.h -- shared by the MPI-free field files (src/field). */
#ifndef LATTIO_FIELD_INTERNAL_H
#define LATTIO_FIELD_INTERNAL_H

#include "internal.h"

/* Largest metadata payload read into memory (XML, LFN): 16 MiB. */
#define LATTIO_FIELD_XML_MAX (UINT64_C(16) << 20)

/* Read the whole payload of record recs[i] of the file's index (at most
 * LATTIO_FIELD_XML_MAX bytes, ERR_BAD_METADATA beyond) into a new
 * NUL-terminated buffer that the caller frees with lattio_free; *len
 * receives the payload length. */
int lattio_field_read_text(lattio_lime_reader *r, const lattio_record_info *recs, int i,
                           char **text, size_t *len);

/* su3.c: links are 18 doubles (3x3 complex, row-major, re/im pairs).
 * Re tr(a b (d c)^dagger): the plaquette U_mu(x) U_nu(x+mu) U_mu(x+nu)^+
 * U_nu(x)^+ with a = U_mu(x), b = U_nu(x+mu), c = U_mu(x+nu), d = U_nu(x).
 * Re tr of a link, and max_ij |(U^dagger U - 1)_ij| (infinity for NaN). */
double lattio_su3_plaquette(const double *a, const double *b, const double *c, const double *d);
void lattio_su3_link(const double *u, double *re_tr, double *dev);

#endif
