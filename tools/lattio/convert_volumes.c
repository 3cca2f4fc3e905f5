/* convert_volumes.c -- `lattio convert` of QIO volume sets: a set joined
 * into one file (the bytes QIO_part_to_single writes) and a single file
 * split into a multifile or partfile set (QIO_single_to_part's bytes for
 * the same cut), each field's checksum verified while the bytes move and
 * the output read back before the command reports success.  Rank 0 alone,
 * as QIO's converters run on one process. */
#include "gauge_tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int convert_volumes_option(const char *opt, const char *v, convert_args *a)
{
    if (strcmp(opt, "--volumes") == 0) {
        a->volfmt = strcmp(v, "multi") == 0     ? LATTIO_VOLFMT_MULTI
                    : strcmp(v, "part") == 0    ? LATTIO_VOLFMT_PART
                    : strcmp(v, "partdir") == 0 ? LATTIO_VOLFMT_PART_DIR
                                                : 0;
        return a->volfmt ? 0 : tool_usage("convert", "unknown volume format '%s' (multi, part, partdir)", v);
    }
    const int io = strcmp(opt, "--io-grid") == 0;
    int *grid = io ? a->io_grid : a->grid, n = 0;
    const char *p = v;
    while (n < LATTIO_MAX_DIMS) {
        char *end;
        const long g = strtol(p, &end, 10);
        if (end == p || g < 1 || g > 1000000 || (*end && *end != ',')) break;
        grid[n++] = (int)g;
        if (!*end) {
            *(io ? &a->io_nd : &a->grid_nd) = n;
            return 0;
        }
        p = end + 1;
    }
    return tool_usage("convert", "%s wants positive extents, x first, separated by commas: '%s'", opt, v);
}

int convert_volumes_wanted(const convert_args *a)
{
    return a->volfmt || (!a->to_given && lattio_volumes_probe(a->in));
}

/* `path` (one file or a set) verified as `lattio verify` would: every
 * field's checksum holds. */
static int read_back(const char *path)
{
    verify_report *rep = calloc(1, sizeof *rep);
    if (!rep) return tool_status_error("convert", path, LATTIO_ERR_NOMEM, "%s", "");
    tool_verify_serial(path, rep, NULL);
    /* the copy's bytes and checksums; links that are not unitary are the
     * input's (QIO's test fields are not), not a fault of the copy */
    int ok = rep->dropped == 0;
    for (int i = 0; i < rep->nproblems; i++) ok &= rep->problem_status[i] == LATTIO_ERR_UNITARITY;
    for (int i = 0; !ok && i < rep->nproblems; i++)
        tool_error("convert", path, "reading back: %s", rep->problems[i]);
    lattio_verify_report_free(rep);
    free(rep);
    return ok ? TOOL_OK : TOOL_FAIL;
}

/* The failure of a join or split, naming the side at fault: the output
 * for what writing it met (its temporaries, renames, what is in its way,
 * an interrupted publication), else the input. */
static int report(const char *what, const convert_args *a, int rc)
{
    static const int output_side[] = {LATTIO_ERR_WRITE,       LATTIO_ERR_CLOSE,       LATTIO_ERR_SYNC,
                                      LATTIO_ERR_RENAME,      LATTIO_ERR_SYNC_DIR,    LATTIO_ERR_NOT_REGULAR,
                                      LATTIO_ERR_OUTPUT_IS_INPUT, LATTIO_ERR_INTERRUPTED};
    const char *path = a->in;
    for (size_t i = 0; i < sizeof output_side / sizeof output_side[0]; i++)
        if (rc == output_side[i]) path = a->out;
    char detail[512];
    const int n = lattio_last_detail(detail, sizeof detail);
    return tool_status_error("convert", path, rc, " (%s%s%s)", what, n ? ": " : "", n ? detail : "");
}

int convert_volumes(const convert_args *a)
{
    if (tool_rank() != 0) return TOOL_OK; /* rank 0 converts; its status is shared */
    if (a->volfmt) {
        if (a->grid_nd == 0) return tool_usage("convert", "--volumes needs --grid X,Y,Z,T (nodes per dimension)");
        if (a->io_nd && a->io_nd != a->grid_nd) return tool_usage("convert", "--io-grid needs as many extents as --grid");
        lattio_volumes_plan p;
        memset(&p, 0, sizeof p);
        p.volfmt = a->volfmt;
        p.nd = a->grid_nd;
        memcpy(p.grid, a->grid, sizeof p.grid);
        memcpy(p.io_grid, a->io_grid, sizeof p.io_grid);
        const int rc = lattio_volumes_split(a->in, a->out, &p);
        if (rc != LATTIO_OK) return report("splitting", a, rc);
    } else {
        const char *inputs[1] = {a->in};
        if (tool_output_allowed("convert", a->out, inputs, 1) != TOOL_OK) return TOOL_FAIL;
        const int rc = lattio_volumes_join(a->in, a->out);
        if (rc != LATTIO_OK) return report("joining", a, rc);
    }
    if (read_back(a->out) != TOOL_OK) return TOOL_FAIL;
    printf("%s -> %s: %s, every checksum verified\n", a->in, a->out,
           a->volfmt ? "split into a QIO volume set" : "QIO volume set joined into one file");
    return TOOL_OK;
}
