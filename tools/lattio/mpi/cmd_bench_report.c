/* cmd_bench_report.c -- `lattio bench`: statistics, the table, the profile
 * breakdown and the JSON document (rank 0). */
#define _DEFAULT_SOURCE /* gethostname */
#include "cmd_bench.h"

#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

typedef struct stats {
    double tmin, tmed, tmax; /* seconds */
} stats;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static stats stats_of(const bench_result *r, int op)
{
    double s[BENCH_MAX_REPS];
    int n = r->nrep[op];
    stats st = {0, 0, 0};
    if (n == 0) return st;
    memcpy(s, r->t[op], (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    st.tmin = s[0];
    st.tmax = s[n - 1];
    st.tmed = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    return st;
}

static double mib_s(const bench *b, double t) { return t > 0 ? (double)b->global_bytes / 1048576.0 / t : 0; }

/* Median bandwidth of case c over that of baseline `base`; 0 if either is missing. */
static double ratio(const bench *b, int c, int base, int op)
{
    if (b->r[c].state[op] != BS_OK || b->r[base].state[op] != BS_OK) return 0;
    if (b->r[c].nrep[op] == 0 || b->r[base].nrep[op] == 0) return 0;
    double tc = stats_of(&b->r[c], op).tmed, tb = stats_of(&b->r[base], op).tmed;
    return tc > 0 && tb > 0 ? tb / tc : 0;
}

static const char *state_name(int s)
{
    static const char *const names[] = {"ok", "unsupported", "corrupt", "error", "skipped"};
    return s >= 0 && s <= BS_SKIPPED ? names[s] : "?";
}

static const char *io_component(void)
{
    const char *s = getenv("OMPI_MCA_io");
    return s && *s ? s : "default";
}

static void print_list(FILE *out, const uint64_t *v, int n, const char *sep)
{
    for (int d = 0; d < n; d++) fprintf(out, "%s%llu", d ? sep : "", (unsigned long long)v[d]);
}

static void grid_of(const bench *b, uint64_t *g)
{
    int dims[LATTIO_MAX_DIMS], periods[LATTIO_MAX_DIMS], coords[LATTIO_MAX_DIMS];
    MPI_Cart_get(b->comm, b->o.ndims, dims, periods, coords);
    for (int d = 0; d < b->o.ndims; d++) g[d] = (uint64_t)dims[d];
}

static void print_heading(const bench *b, FILE *out)
{
    uint64_t g[LATTIO_MAX_DIMS];
    grid_of(b, g);
    fprintf(out, "# lattio bench%s%s: lattice ", *b->o.label ? " " : "", b->o.label);
    print_list(out, b->lay.global, b->o.ndims, "x");
    fprintf(out, " (%s scaling), %zu B/site, %.1f MiB; %d ranks, grid ", b->o.weak ? "weak" : "strong",
            b->o.site, (double)b->global_bytes / 1048576.0, b->size);
    print_list(out, g, b->o.ndims, ",");
    fprintf(out, "; io %s; %d reps (+%d warm-up); fsync %s\n", io_component(), b->o.reps, b->o.warmup,
            b->o.fsync ? "yes" : "no");
    if (b->o.drop)
        fprintf(out, "# %s\n", b->dropped > 0 ? "page cache dropped before every read" : b->drop_msg);
}

static void print_row(const bench *b, FILE *out, int c, int op)
{
    const bench_result *r = &b->r[c];
    fprintf(out, "%-14s %-5s ", bench_case_name(c), op == BENCH_WRITE ? "write" : "read");
    if (r->state[op] != BS_OK || r->nrep[op] == 0) { /* no figures (or failed in the warm-up) */
        fprintf(out, "%10s %10s %10s %10s %10s  %s\n", "-", "-", "-", "-", "-",
                r->state[op] != BS_OK ? state_name(r->state[op]) : "no timed reps");
        return;
    }
    stats s = stats_of(r, op);
    fprintf(out, "%10.1f %10.1f %10.1f %10.2f %10.2f  ok\n", mib_s(b, s.tmax), mib_s(b, s.tmed),
            mib_s(b, s.tmin), ratio(b, c, BC_POSIX_ALL, op), ratio(b, c, BC_POSIX_ONE, op));
}

/* A profile averaged over the repetitions. */
static lattio_profile mean_profile(const bench_result *r, int op)
{
    lattio_profile m;
    memset(&m, 0, sizeof m);
    int n = r->nprof[op];
    for (int k = 0; k < n; k++)
        for (int j = 0; j < 3; j++) {
            m.total[j] += r->prof[op][k].total[j] / n;
            for (int p = 0; p < LATTIO_NPHASES; p++) m.phase[p][j] += r->prof[op][k].phase[p][j] / n;
        }
    if (n) m.calls = r->prof[op][0].calls;
    return m;
}

static void print_profile_rows(FILE *out, int c, int op, const lattio_profile *m)
{
    static const char *const stat[3] = {"min", "mean", "max"};
    for (int j = 0; j < 3; j++) {
        fprintf(out, "%-14s %-5s %-4s %9.3f", j ? "" : bench_case_name(c),
                j ? "" : op == BENCH_WRITE ? "write" : "read", stat[j], 1e3 * m->total[j]);
        for (int p = 0; p < LATTIO_NPHASES; p++) fprintf(out, " %9.3f", 1e3 * m->phase[p][j]);
        fputc('\n', out);
    }
}

static void print_profile(const bench *b, FILE *out)
{
    fputs("\n# lattio profile: milliseconds per operation (mean over reps) of the lattice and record\n"
          "# calls, min/mean/max over ranks\n",
          out);
    fprintf(out, "%-14s %-5s %-4s %9s", "strategy", "op", "", "total");
    for (int p = 0; p < LATTIO_NPHASES; p++) fprintf(out, " %9s", lattio_phase_name(p));
    fputc('\n', out);
    for (int c = BC_INDEPENDENT; c < BC_NCASES; c++)
        for (int op = 0; op < 2; op++) {
            if (!b->o.want[c] || b->r[c].nprof[op] == 0) continue;
            lattio_profile m = mean_profile(&b->r[c], op);
            print_profile_rows(out, c, op, &m);
        }
}

/* Cases whose strategy could not run here (the mapped strategy across
 * nodes or off a local disk): which ran instead, and why. */
static void print_fallbacks(const bench *b, FILE *out)
{
    static const char *const names[] = {"auto", "independent", "collective", "aggregate", "serial", "mapped"};
    for (int c = BC_INDEPENDENT; c < BC_NCASES; c++)
        for (int op = 0; op < 2; op++) {
            const bench_result *r = &b->r[c];
            if (!b->o.want[c] || r->nprof[op] == 0) continue;
            const lattio_profile *p = &r->prof[op][r->nprof[op] - 1];
            const int s = p->strategy >= 0 && p->strategy <= 5 ? p->strategy : 0;
            if (p->fallbacks)
                fprintf(out, "# note: %s %s: %s; %s ran instead\n", bench_case_name(c), op == BENCH_WRITE ? "write" : "read",
                        p->fallback, names[s]);
        }
}

void bench_print_table(const bench *b, FILE *out)
{
    print_heading(b, out);
    fprintf(out, "%-14s %-5s %10s %10s %10s %10s %10s  %s\n", "case", "op", "MiB/s min", "median", "max",
            "x per-rank", "x rank0", "status");
    for (int op = 0; op < 2; op++)
        for (int c = 0; c < BC_NCASES; c++)
            if (c <= BC_POSIX_ONE || b->o.want[c]) print_row(b, out, c, op);
    fputs("# x per-rank / x rank0: median bandwidth over that of plain write()/read() of the same\n"
          "# bytes by every rank into its own file / by rank 0 alone (the whole volume)\n",
          out);
    fprintf(out, "# load average (1 min) before %.2f, after %.2f\n", b->load[0], b->load[1]);
    print_fallbacks(b, out);
    if (b->o.profile) print_profile(b, out);
}

/* ---- JSON ------------------------------------------------------------------ */

static void json_machine(const bench *b, FILE *out)
{
    char host[256] = "?", lib[MPI_MAX_LIBRARY_VERSION_STRING] = "?";
    int len = 0;
    char kind[16] = "unknown", type[32] = "";
    uint64_t magic = 0; /* the library's detection, as the strategies see it */
    (void)lattio_fs_describe(b->o.dir, kind, sizeof kind, type, sizeof type, &magic, NULL);
    gethostname(host, sizeof host - 1);
    MPI_Get_library_version(lib, &len);
    fputs("  \"machine\": {\"hostname\": ", out);
    tool_json_string(out, host);
    fprintf(out, ", \"nprocs\": %d, \"cores\": %ld, \"mpi_library\": ", b->size, sysconf(_SC_NPROCESSORS_ONLN));
    tool_json_string(out, lib);
    fputs(", \"mpi_io\": ", out);
    tool_json_string(out, io_component());
    fprintf(out, ", \"fs_type\": \"%s\", \"fs_mount_type\": ", kind);
    tool_json_string(out, type);
    fprintf(out, ", \"fs_magic\": \"0x%llx\", \"loadavg\": [%.2f, %.2f]},\n", (unsigned long long)magic,
            b->load[0], b->load[1]);
}

static void json_u64s(FILE *out, const char *name, const uint64_t *v, int n)
{
    fprintf(out, "\"%s\": [", name);
    print_list(out, v, n, ", ");
    fputs("], ", out);
}

static void json_parameters(const bench *b, FILE *out)
{
    uint64_t g[LATTIO_MAX_DIMS];
    grid_of(b, g);
    fputs("  \"parameters\": {\"label\": ", out);
    tool_json_string(out, b->o.label);
    fputs(", ", out);
    json_u64s(out, "dims", b->o.dims, b->o.ndims);
    json_u64s(out, "global", b->lay.global, b->o.ndims);
    json_u64s(out, "grid", g, b->o.ndims);
    fprintf(out, "\"scaling\": \"%s\", \"site_bytes\": %zu, \"bytes\": %llu, \"reps\": %d, \"warmup\": %d, "
                 "\"fsync\": %s, \"drop_caches\": {\"requested\": %s, \"done\": %s, \"message\": ",
            b->o.weak ? "weak" : "strong", b->o.site, (unsigned long long)b->global_bytes, b->o.reps,
            b->o.warmup, b->o.fsync ? "true" : "false", b->o.drop ? "true" : "false", b->dropped > 0 ? "true" : "false");
    tool_json_string(out, b->drop_msg);
    fputs("}, \"dir\": ", out);
    tool_json_string(out, b->o.dir);
    fputs(", \"record_type\": \"" BENCH_RECORD_TYPE "\", \"file_order\": \"last dimension slowest\"},\n", out);
}

static void json_triple(FILE *out, const char *name, const double *v)
{
    fprintf(out, "\"%s\": [", name);
    for (int i = 0; i < 3; i++) {
        if (i) fputs(", ", out);
        tool_json_number(out, v[i]);
    }
    fputc(']', out);
}

static void json_profiles(const bench_result *r, int op, FILE *out)
{
    fputs(", \"profile\": [", out);
    for (int k = 0; k < r->nprof[op]; k++) {
        const lattio_profile *p = &r->prof[op][k];
        fprintf(out, "%s{\"calls\": %llu, \"bytes\": %llu, ", k ? ", " : "", (unsigned long long)p->calls,
                (unsigned long long)p->bytes);
        json_triple(out, "total", p->total);
        for (int ph = 0; ph < LATTIO_NPHASES; ph++) {
            fputs(", ", out);
            json_triple(out, lattio_phase_name(ph), p->phase[ph]);
        }
        fputc('}', out);
    }
    fputc(']', out);
}

static void json_result(const bench *b, int c, int op, FILE *out, int first)
{
    const bench_result *r = &b->r[c];
    stats s = stats_of(r, op);
    int ok = r->state[op] == BS_OK;
    fprintf(out, "%s    {\"case\": \"%s\", \"kind\": \"%s\", \"op\": \"%s\", \"status\": \"%s\", "
                 "\"verified\": %s, \"bytes\": %llu, \"times\": [",
            first ? "" : ",\n", bench_case_name(c), c <= BC_POSIX_ONE ? "baseline" : "strategy",
            op == BENCH_WRITE ? "write" : "read", state_name(r->state[op]), ok ? "true" : "false",
            (unsigned long long)b->global_bytes);
    for (int k = 0; ok && k < r->nrep[op]; k++) {
        if (k) fputs(", ", out);
        tool_json_number(out, r->t[op][k]);
    }
    /* a time of 0 makes a rate or ratio infinite: null (strict JSON) */
    const char *keys[5] = {"], \"mib_s\": {\"min\": ", ", \"median\": ", ", \"max\": ",
                           "}, \"vs_posix_per_rank\": ", ", \"vs_posix_rank0\": "};
    const double vals[5] = {ok ? mib_s(b, s.tmax) : 0, ok ? mib_s(b, s.tmed) : 0, ok ? mib_s(b, s.tmin) : 0,
                            ratio(b, c, BC_POSIX_ALL, op), ratio(b, c, BC_POSIX_ONE, op)};
    for (int i = 0; i < 5; i++) {
        fputs(keys[i], out);
        tool_json_number(out, vals[i]);
    }
    if (r->state[op] != BS_OK && r->status[op]) {
        fputs(", \"error\": ", out);
        tool_json_string(out, bench_status_text(r->status[op]));
    }
    if (c > BC_POSIX_ONE) json_profiles(r, op, out);
    fputc('}', out);
}

void bench_write_json(const bench *b, FILE *out)
{
    fprintf(out, "{\n  \"tool\": \"lattio bench\", \"version\": \"%s\",\n", lattio_version());
    json_machine(b, out);
    json_parameters(b, out);
    fputs("  \"results\": [\n", out);
    int first = 1, ok = 1;
    for (int c = 0; c < BC_NCASES; c++)
        for (int op = 0; op < 2 && (c <= BC_POSIX_ONE || b->o.want[c]); op++) {
            json_result(b, c, op, out, first);
            first = 0;
            ok &= b->r[c].state[op] < BS_CORRUPT;
        }
    fprintf(out, "\n  ],\n  \"ok\": %s\n}\n", ok ? "true" : "false");
}
