/* h5_tool.c -- HDF5 files in the `lattio` command: which arguments name
 * one and their listing (`info`, `check`: the library's MPI-free
 * lattio_h5_fields_serial); their verification and conversion are the
 * library's (lattio_verify_file, lattio_convert_file; under a launcher
 * lattio_verify, lattio_convert). */
#include "gauge_tool.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int h5_tool_target(const char *arg) { return lattio_h5_is_target(arg); }

/* --- info and check ------------------------------------------------------------ */

static const char *layout_name(int layout) { return layout == LATTIO_H5_QLUA ? "qlua" : "qdp"; }

static const char *checksum_word(int c) { return c == 1 ? "scidac" : c == 2 ? "sha256" : "none"; }

/* This process alone, without MPI: every field ARG names (in *list,
 * malloc'd; ARG's file in `file`); prints the error of `cmd` and returns
 * TOOL_FAIL when it cannot list. */
static int list_file(const char *cmd, const char *arg, char *file, size_t size, lattio_h5_entry **list, int *count)
{
    const int rc = lattio_h5_fields_serial(arg, 4, file, size, list, count);
    return rc == LATTIO_OK ? TOOL_OK : tool_status_error(cmd, arg, rc, "%s", tool_detail());
}

int h5_info(const char *arg, int json)
{
    char file[4096];
    int count = 0;
    lattio_h5_entry *list = NULL;
    if (list_file("info", arg, file, sizeof file, &list, &count) != TOOL_OK) return TOOL_FAIL;
    if (json) {
        fputs("{\"file\": ", stdout);
        tool_json_string(stdout, file);
        fputs(", \"hdf5\": true, \"fields\": [", stdout);
    } else {
        printf("%s: HDF5, %d lattice field%s\n", file, count, count == 1 ? "" : "s");
    }
    for (int i = 0, shown = 0; i < count; i++) {
        const lattio_h5_entry *e = &list[i];
        if (json) {
            fputs(shown++ ? ",\n  {\"path\": " : "\n  {\"path\": ", stdout);
            tool_json_string(stdout, e->path);
            printf(", \"layout\": \"%s\", \"dims\": [", layout_name(e->layout));
            for (int k = 0; k < e->nd; k++) printf(k ? ", %" PRIu64 : "%" PRIu64, e->dims[k]);
            printf("], \"elements\": %" PRIu64 ", \"precision\": %d, \"byte_order\": \"%s\", \"gauge\": %s, "
                   "\"colors\": %d, \"checksum\": \"%s\"}",
                   e->elements, e->precision, e->big_endian ? "big" : "little", e->gauge ? "true" : "false",
                   e->colors, checksum_word(e->checksum));
        } else {
            char esc[600];
            tool_escape(esc, sizeof esc, e->path);
            printf("  %s: %s layout, ", esc, layout_name(e->layout));
            if (e->gauge) printf("SU(%d) gauge field ", e->colors ? e->colors : 3);
            else fputs("field ", stdout);
            for (int k = 0; k < e->nd; k++) printf(k ? "x%" PRIu64 : "%" PRIu64, e->dims[k]);
            printf(" (x fastest), %" PRIu64 " reals per site, %d-bit %s-endian, checksum %s\n", e->elements,
                   e->precision, e->big_endian ? "big" : "little", checksum_word(e->checksum));
        }
    }
    if (json) fputs("\n]}\n", stdout);
    free(list);
    return TOOL_OK;
}

int h5_check(const char *arg)
{
    char file[4096];
    int count = 0;
    lattio_h5_entry *list = NULL;
    if (list_file("check", arg, file, sizeof file, &list, &count) != TOOL_OK) return TOOL_FAIL;
    free(list);
    if (count == 0) return tool_error("check", arg, "no lattice field in the HDF5 file (ERR_HDF5_NOT_FOUND)");
    printf("%s: ok, HDF5, %d lattice field%s\n", arg, count, count == 1 ? "" : "s");
    return TOOL_OK;
}
