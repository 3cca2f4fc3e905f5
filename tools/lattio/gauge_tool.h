/* gauge_tool.h -- shared by `lattio verify` and `lattio convert`: the
 * verification of one file, collected into a report that prints as text
 * or JSON. */
#ifndef LATTIO_GAUGE_TOOL_H
#define LATTIO_GAUGE_TOOL_H

#include "tool.h"

#define VR_MAX_FIELDS 64
#define VR_MAX_PROBLEMS 32

/* One binary record of a LIME file. */
typedef struct vr_field {
    int record;              /* 1-based record number */
    char type[LATTIO_LIME_TYPE_MAX + 1];
    uint64_t offset, length, site_bytes;
    int has_stored;
    lattio_scidac_sum stored, computed;
    int ok;
} vr_field;

typedef struct verify_report {
    const char *path;
    int format;                  /* enum lattio_gauge_format; 0 for a LIME file without gauge */
    int is_lime;
    size_t nrecords;
    int nfields;
    vr_field fields[VR_MAX_FIELDS];
    int has_gauge;               /* gauge info/stats valid */
    lattio_gauge_info info;
    lattio_gauge_stats stats;
    int nproblems;
    char problems[VR_MAX_PROBLEMS][240];
    int nwarnings;
    char warnings[VR_MAX_PROBLEMS][240];
} verify_report;

/* Verify `path`; fills *rep.  When u != NULL and the file holds a gauge
 * field, *u receives it (free with lattio_gauge_free).  Returns 1 when
 * everything holds, 0 otherwise. */
int verify_file(const char *path, verify_report *rep, double **u);
void verify_print_text(FILE *f, const verify_report *rep);
void verify_print_json(FILE *f, const verify_report *rep);

#endif
