/* extract.c -- finding the record `lattio extract` names and writing its
 * payload, shared by the serial command (cmd_extract.c) and the parallel
 * copy (extract_mpi.c). */
#include "extract.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

/* Does the current record match?  *seen counts matches of --type. */
static int matches(const extract_args *a, const tool_walk *w, uint64_t *seen)
{
    if (a->type) return strcmp(w->info.type, a->type) == 0 && ++*seen == a->nth;
    if (a->message) return (uint64_t)w->message == a->message && (uint64_t)w->record == a->record;
    return w->index == a->record;
}

static int not_found(const extract_args *a, const tool_walk *w, uint64_t seen)
{
    const char *f = a->file;
    if (a->type && seen == 0)
        return tool_error("extract", f, "no record of type '%s' (ERR_NOT_FOUND)", a->type);
    if (a->type)
        return tool_error("extract", f,
                          "only %" PRIu64 " records of type '%s', no number %" PRIu64
                          " (ERR_NOT_FOUND)",
                          seen, a->type, a->nth);
    if (a->message)
        return tool_error("extract", f,
                          "no record %" PRIu64 " in message %" PRIu64 " (the file has %d messages)"
                          " (ERR_NOT_FOUND)",
                          a->record, a->message, w->message);
    return tool_error("extract", f,
                      "no record %" PRIu64 " (the file has %" PRIu64 " records) (ERR_NOT_FOUND)",
                      a->record, w->index);
}

int extract_write_payload(const extract_args *a, tool_walk *w)
{
    if (!a->out || strcmp(a->out, "-") == 0)
        return tool_copy_payload("extract", w, a->file, STDOUT_FILENO, "standard output");
    tool_output o;
    int rc = tool_output_open(&o, "extract", a->out);
    if (rc == TOOL_OK) rc = tool_output_finish(&o, tool_copy_payload("extract", w, a->file, o.fd, a->out));
    return rc;
}

int extract_find(const extract_args *a, tool_walk *w)
{
    int rc = tool_walk_open(w, a->file);
    if (rc < 0) return tool_status_error("extract", a->file, rc, "%s", "");
    uint64_t seen = 0;
    while ((rc = tool_walk_next(w)) == LATTIO_OK)
        if (matches(a, w, &seen)) return TOOL_OK;
    if (rc == LATTIO_ERR_EOF)
        not_found(a, w, seen);
    else
        tool_walk_error("extract", a->file, w, rc);
    tool_walk_close(w);
    return TOOL_FAIL;
}
