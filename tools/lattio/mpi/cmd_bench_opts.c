/* cmd_bench_opts.c -- `lattio bench`: help text and option parsing. */
#include "cmd_bench.h"

#include <stdlib.h>
#include <string.h>

const char bench_help[] =
    "usage: lattio bench [OPTIONS]   (in parallel: mpirun -np P lattio bench [OPTIONS])\n"
    "\n"
    "Write and read a distributed lattice with each lattio strategy, like\n"
    "Lemon's benchmark and benchio: one LIME record (" BENCH_RECORD_TYPE ") holding\n"
    "the lattice, written with lattio_lattice_write and read back with\n"
    "lattio_lattice_read.  Every written file is checked on disk and every read\n"
    "against a site-dependent pattern; a failed check is an error (exit 1),\n"
    "never a figure.  Baselines of the same bytes in the same run: plain\n"
    "write()/read() by every rank into its own file (all ranks at once) and by\n"
    "rank 0 alone (the whole volume).  Started without an MPI launcher it runs\n"
    "on one rank.\n"
    "\n"
    "Options:\n"
    "  --dims X,Y,Z,T      lattice extents, any number (1-8) of dimensions; the\n"
    "                      last is slowest in the file (ILDG order t,z,y,x)\n"
    "                      (default 16,16,16,32)\n"
    "  --site BYTES        bytes per site (default 576: an SU(3) gauge field in\n"
    "                      double precision)\n"
    "  --grid A,B,C,D|auto ranks per dimension (product = P); auto: MPI_Dims_create,\n"
    "                      largest factors to the slowest dimensions (default)\n"
    "  --scaling strong|weak  strong: --dims is the global lattice (default);\n"
    "                      weak: --dims is each rank's local box, global = dims*grid\n"
    "  --strategies LIST   comma-separated: independent,collective,aggregate,\n"
    "                      serial,mapped,auto (default: all)\n"
    "  --reps N            repetitions (default 3); min/median/max are reported\n"
    "  --warmup N          untimed (but verified) repetitions first (default 1)\n"
    "  --fsync             durable writes (lattio's durable option, fsync for POSIX)\n"
    "  --drop-caches       drop the page cache before every read (needs root;\n"
    "                      otherwise the output says it could not)\n"
    "  --dir DIR           where the files go (default .); nothing is left there\n"
    "  --json FILE         results as JSON (FILE '-': standard output, and the\n"
    "                      table goes to standard error)\n"
    "  --label TEXT        a name for this run in the JSON (for bench/plot.py)\n"
    "  --profile           print lattio's time breakdown per strategy and phase\n"
    "                      (also with LATTIO_PROFILE=1 in the environment)\n"
    "\n"
    "Output (rank 0): progress on standard error; a table per case and operation:\n"
    "MiB/s min/median/max over the repetitions (payload bytes over the time from\n"
    "open to close, the slowest rank's) and the median's ratio to the two POSIX\n"
    "baselines.  A strategy the library rejects (ERR_ARG) is listed unsupported.\n"
    "\n"
    "Exit status: 0 success, 1 an I/O error or a failed verification,\n"
    "2 unusable arguments.\n";

static const char *const case_names[BC_NCASES] = {
    "posix-per-rank", "posix-rank0", "independent", "collective", "aggregate", "serial", "mapped", "auto"};
static const int case_strategy[BC_NCASES] = {
    -1, -1, LATTIO_STRATEGY_INDEPENDENT, LATTIO_STRATEGY_COLLECTIVE, LATTIO_STRATEGY_AGGREGATE,
    LATTIO_STRATEGY_SERIAL, LATTIO_STRATEGY_MAPPED, LATTIO_STRATEGY_AUTO};

const char *bench_case_name(int c) { return c >= 0 && c < BC_NCASES ? case_names[c] : "?"; }
int bench_strategy_of(int c) { return c >= 0 && c < BC_NCASES ? case_strategy[c] : -1; }

/* "a,b,c" into out[0..max); *n receives the count.  0 or -1. */
static int parse_list(const char *s, uint64_t min, uint64_t *out, int max, int *n)
{
    char buf[256];
    size_t len = strlen(s);
    if (len == 0 || len >= sizeof buf || strstr(s, ",,") || s[0] == ',' || s[len - 1] == ',')
        return -1;
    strcpy(buf, s);
    *n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n >= max || tool_parse_u64(tok, min, &out[*n]) != 0) return -1;
        ++*n;
    }
    return *n > 0 ? 0 : -1;
}

static int parse_strategies(const char *s, bench_opts *o)
{
    char buf[256];
    if (strlen(s) >= sizeof buf) return -1;
    strcpy(buf, s);
    memset(o->want, 0, sizeof o->want);
    int any = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (int c = BC_INDEPENDENT; c < BC_NCASES; c++)
            if (strcmp(tok, case_names[c]) == 0) found = o->want[c] = 1;
        if (!found) return tool_usage("bench", "unknown strategy '%s' in --strategies", tok);
        any = 1;
    }
    return any ? TOOL_OK : tool_usage("bench", "--strategies: empty list");
}

static int parse_grid(const char *v, bench_opts *o, int *ngrid)
{
    uint64_t g[LATTIO_MAX_DIMS];
    if (strcmp(v, "auto") == 0) {
        memset(o->grid, 0, sizeof o->grid);
        *ngrid = 0;
        return TOOL_OK;
    }
    if (parse_list(v, 1, g, LATTIO_MAX_DIMS, ngrid) != 0)
        return tool_usage("bench", "--grid: expected 'auto' or ranks per dimension like 1,1,2,2");
    for (int d = 0; d < *ngrid; d++) {
        if (g[d] > 1u << 20) return tool_usage("bench", "--grid: %s too large", v);
        o->grid[d] = (int)g[d];
    }
    return TOOL_OK;
}

/* One option with a value (one of is_value_option's); TOOL_OK or TOOL_USAGE. */
static int value_option(const char *name, const char *v, bench_opts *o, int *ngrid)
{
    uint64_t n = 0, dims[LATTIO_MAX_DIMS];
    if (strcmp(name, "--dims") == 0) {
        if (parse_list(v, 1, dims, LATTIO_MAX_DIMS, &o->ndims) != 0)
            return tool_usage("bench", "--dims: expected 1 to %d positive extents like 8,8,8,16",
                              LATTIO_MAX_DIMS);
        memcpy(o->dims, dims, sizeof dims);
    } else if (strcmp(name, "--site") == 0) {
        if (tool_parse_u64(v, 1, &n) != 0 || n > (1u << 30))
            return tool_usage("bench", "--site: expected bytes per site, 1 to 2^30");
        o->site = (size_t)n;
    } else if (strcmp(name, "--reps") == 0) {
        if (tool_parse_u64(v, 1, &n) != 0 || n > BENCH_MAX_REPS)
            return tool_usage("bench", "--reps: expected 1 to %d", BENCH_MAX_REPS);
        o->reps = (int)n;
    } else if (strcmp(name, "--warmup") == 0) {
        if (tool_parse_u64(v, 0, &n) != 0 || n > BENCH_MAX_REPS)
            return tool_usage("bench", "--warmup: expected 0 to %d", BENCH_MAX_REPS);
        o->warmup = (int)n;
    } else if (strcmp(name, "--scaling") == 0) {
        if (strcmp(v, "weak") && strcmp(v, "strong"))
            return tool_usage("bench", "--scaling: expected 'weak' or 'strong'");
        o->weak = strcmp(v, "weak") == 0;
    } else if (strcmp(name, "--grid") == 0) {
        return parse_grid(v, o, ngrid);
    } else if (strcmp(name, "--strategies") == 0) {
        return parse_strategies(v, o);
    } else { /* --dir, --json, --label */
        if (!*v) return tool_usage("bench", "%s: empty value", name);
        *(name[2] == 'd' ? &o->dir : name[2] == 'j' ? &o->json : &o->label) = v;
    }
    return TOOL_OK;
}

static int is_value_option(const char *name)
{
    static const char *const names[] = {"--dims",  "--site", "--grid", "--strategies", "--scaling",
                                        "--reps",  "--warmup", "--dir", "--json",     "--label"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0) return 1;
    return 0;
}

static int flag_option(const char *a, bench_opts *o)
{
    if (strcmp(a, "--fsync") == 0) return o->fsync = 1;
    if (strcmp(a, "--drop-caches") == 0) return o->drop = 1;
    if (strcmp(a, "--profile") == 0) return o->profile = 1;
    return 0;
}

static void defaults(bench_opts *o)
{
    static const uint64_t d[4] = {16, 16, 16, 32};
    memset(o, 0, sizeof *o);
    o->ndims = 4;
    memcpy(o->dims, d, sizeof d);
    o->site = 576;
    o->reps = 3;
    o->warmup = 1;
    o->dir = ".";
    o->label = "";
    for (int c = BC_INDEPENDENT; c < BC_NCASES; c++) o->want[c] = 1;
    const char *p = getenv("LATTIO_PROFILE"); /* LATTIO_PROFILE=1: as --profile */
    o->profile = p && *p && strcmp(p, "0") != 0;
}

static int check_grid(const bench_opts *o, int ngrid, int nranks)
{
    if (ngrid == 0) return TOOL_OK;
    if (ngrid != o->ndims)
        return tool_usage("bench", "--grid has %d entries but --dims %d", ngrid, o->ndims);
    uint64_t p = 1;
    for (int d = 0; d < ngrid; d++) p *= (uint64_t)o->grid[d];
    if (p != (uint64_t)nranks)
        return tool_usage("bench", "--grid: %llu ranks in the grid but %d running",
                          (unsigned long long)p, nranks);
    return TOOL_OK;
}

int bench_parse(int argc, char **argv, int nranks, bench_opts *o)
{
    int ngrid = 0;
    defaults(o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (flag_option(a, o)) continue;
        char name[32];
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        if (strncmp(a, "--", 2) != 0 || len >= sizeof name)
            return tool_usage("bench", "unexpected argument '%s'", a);
        memcpy(name, a, len);
        name[len] = '\0';
        if (!is_value_option(name)) return tool_usage("bench", "unknown option '%s'", name);
        if (tool_option(argc, argv, &i, name, &v) < 0)
            return tool_usage("bench", "%s needs a value", name);
        int rc = value_option(name, v ? v : "", o, &ngrid);
        if (rc != TOOL_OK) return rc;
    }
    return check_grid(o, ngrid, nranks);
}
