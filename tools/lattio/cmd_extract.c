/* cmd_extract.c -- `lattio extract`: copy one record's payload out. */
#include "extract.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

static const char extract_help[] =
    "usage: lattio extract FILE --record N [-o OUT]\n"
    "       lattio extract FILE --type TYPE [--nth K] [-o OUT]\n"
    "       lattio extract FILE --message M --record R [-o OUT]\n"
    "\n"
    "Write the payload of one record (without padding) to OUT, or to standard\n"
    "output when -o is absent or OUT is '-'.  All numbers count from 1:\n"
    "  --record N            the N-th record of the file\n"
    "  --type TYPE           the first record of type TYPE (like lime_extract_type)\n"
    "  --nth K               with --type: the K-th record of that type\n"
    "  --message M --record R  record R of message M, numbered as `lattio info`\n"
    "                        shows them (like lime_extract_record FILE M R)\n"
    "  -o, --output OUT      write to OUT (created or truncated in place)\n"
    "The payload is streamed in large blocks (in-kernel copy where possible);\n"
    "OUT is only created once the record has been found.\n"
    "\n"
    "Under mpirun/mpiexec/srun every rank copies a slice of the payload into\n"
    "a temporary file OUT.lattio-tmp.* that replaces OUT only when every rank\n"
    "succeeded (an OUT that is not a regular file, and standard output, are\n"
    "written by rank 0 alone); rank 0 prints any message.\n"
    "\n"
    "Exit status: 0 success, 1 no such record or a damaged/unreadable file,\n"
    "2 unusable arguments.\n";

static int extract(const extract_args *a)
{
    const char *inputs[1] = {a->file};
    int ok = !a->out || strcmp(a->out, "-") == 0 ||
             (tool_rank() == 0 ? tool_output_allowed("extract", a->out, inputs, 1) == TOOL_OK : 1);
    if (tool_nranks() > 1) {
        tool_mpi_bcast(&ok, sizeof ok, 0);
        if (!ok) return TOOL_FAIL;
        return extract_parallel(a);
    }
    if (!ok) return TOOL_FAIL;
    tool_walk w;
    if (extract_find(a, &w) != TOOL_OK) return TOOL_FAIL;
    int ret = extract_write_payload(a, &w);
    tool_walk_close(&w);
    return ret;
}

/* Parse one option at argv[*i]; returns 1 if consumed, 0 if not an option
 * we know, TOOL_USAGE (negated) on a bad value. */
static int parse_option(int argc, char **argv, int *i, extract_args *a)
{
    const char *v = NULL;
    int k;
    if ((k = tool_option(argc, argv, i, "--record", &v)) != 0) {
        if (k < 0 || tool_parse_u64(v, 1, &a->record)) return -1;
    } else if ((k = tool_option(argc, argv, i, "--message", &v)) != 0) {
        if (k < 0 || tool_parse_u64(v, 1, &a->message)) return -1;
    } else if ((k = tool_option(argc, argv, i, "--nth", &v)) != 0) {
        if (k < 0 || tool_parse_u64(v, 1, &a->nth)) return -1;
    } else if ((k = tool_option(argc, argv, i, "--type", &v)) != 0) {
        if (k < 0) return -1;
        a->type = v;
    } else if ((k = tool_option(argc, argv, i, "--output", &v)) != 0 ||
               (k = tool_option(argc, argv, i, "-o", &v)) != 0) {
        if (k < 0 || !*v) return -1;
        a->out = v;
    }
    return k;
}

static int validate(const extract_args *a)
{
    if (!a->file) return tool_usage("extract", "missing FILE");
    if (a->type && (a->record || a->message))
        return tool_usage("extract", "--type cannot be combined with --record or --message");
    if (a->nth && !a->type) return tool_usage("extract", "--nth needs --type");
    if (a->message && !a->record) return tool_usage("extract", "--message needs --record");
    if (!a->type && !a->record) return tool_usage("extract", "say which record: --record or --type");
    return TOOL_OK;
}

static int run_extract(int argc, char **argv)
{
    extract_args a = {0};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int k = parse_option(argc, argv, &i, &a);
        if (k < 0) return tool_usage("extract", "bad or missing value for '%s'", arg);
        if (k > 0) continue;
        if (arg[0] == '-' && arg[1] != '\0')
            return tool_usage("extract", "unknown option '%s'", arg);
        if (a.file) return tool_usage("extract", "only one FILE allowed");
        a.file = arg;
    }
    int rc = validate(&a);
    if (rc != TOOL_OK) return rc;
    if (a.type && !a.nth) a.nth = 1;
    return extract(&a);
}

const tool_command tool_cmd_extract = {"extract", "write one record's payload to a file or stdout",
                                       extract_help, run_extract, 1};
