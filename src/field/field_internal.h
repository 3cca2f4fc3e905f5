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

#endif
