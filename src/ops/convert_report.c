/* convert_report.c -- the conversion's report: its problems (each naming
 * IN or OUT, with its status), the verifications of IN and OUT it
 * carries, and its JSON form. */
#include "ops_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lattio_convert_options_default(lattio_convert_options *o)
{
    memset(o, 0, sizeof *o);
    o->nersc_rows = 3;
}

void lattio_convert_report_init(lattio_convert_report *rep) { memset(rep, 0, sizeof *rep); }

void lattio_convert_report_free(lattio_convert_report *rep)
{
    free(rep->in);
    free(rep->out);
    lattio_verify_report_free(&rep->in_check);
    lattio_verify_report_free(&rep->out_check);
    memset(rep, 0, sizeof *rep);
}

int lattio_ops_convert_reset(lattio_convert_report *rep, const char *in, const char *out)
{
    lattio_convert_report_free(rep);
    rep->in = strdup(in ? in : "");
    rep->out = strdup(out ? out : "");
    return rep->in && rep->out ? LATTIO_OK : LATTIO_ERR_NOMEM;
}

/* A problem of OUT (out) or IN; `text` escaped unless it is already. */
static void add(lattio_convert_report *rep, int out, int status, const char *text, int escaped)
{
    if (rep->status == LATTIO_OK) rep->status = status < 0 ? status : LATTIO_ERR_VERIFY;
    if (rep->nproblems >= LATTIO_VERIFY_MAX_NOTES) {
        rep->dropped++;
        return;
    }
    rep->problem_status[rep->nproblems] = status;
    rep->problem_out[rep->nproblems] = out;
    if (escaped) snprintf(rep->problems[rep->nproblems++], LATTIO_VERIFY_TEXT, "%s", text);
    else lattio_text_escape(rep->problems[rep->nproblems++], LATTIO_VERIFY_TEXT, text);
}

void lattio_ops_convert_problem(lattio_convert_report *rep, int out, int status, const char *fmt, ...)
{
    char raw[LATTIO_VERIFY_TEXT];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    add(rep, out, status, raw, 0);
}

void lattio_ops_convert_failed(lattio_convert_report *rep, int out, int rc, const char *what)
{
    char detail[300], why[160] = "";
    const int e = rc <= -100 && rc > -200 ? lattio_last_errno() : 0; /* an I/O status: the system's reason */
    if (e) snprintf(why, sizeof why, ": %s", strerror(e));
    lattio_ops_convert_problem(rep, out, rc, "%s (%s)%s%s%s%s%s", lattio_strerror(rc), lattio_error_name(rc), why,
                               lattio_ops_detail(detail, sizeof detail), what ? " (" : "", what ? what : "",
                               what ? ")" : "");
}

void lattio_ops_convert_take(lattio_convert_report *rep, int out, const lattio_verify_report *v, int status,
                             const char *what)
{
    for (int i = 0; i < v->nproblems; i++) add(rep, out, v->problem_status[i], v->problems[i], 1);
    rep->dropped += v->dropped;
    if (v->nproblems == 0) lattio_ops_convert_problem(rep, out, status, "%s", what);
}

/* --- JSON ----------------------------------------------------------------- */

static const char *kind_name(int kind)
{
    static const char *const names[] = {"none", "gauge", "fields", "join", "split"};
    return kind >= 0 && kind <= LATTIO_CONVERT_SPLIT ? names[kind] : "none";
}

static void json_check(FILE *f, const char *key, const lattio_verify_report *v)
{
    char *j = NULL;
    fprintf(f, ", \"%s\": ", key);
    if (v->path && lattio_verify_report_json(v, &j) == LATTIO_OK) fputs(j, f);
    else fputs("null", f);
    free(j);
}

/* What the conversion did not carry over (IN's check's warnings: its
 * other writers' records, NERSC header lines), also when IN is no gauge
 * field and has no check of its own. */
static void json_warnings(FILE *f, const lattio_verify_report *in)
{
    fputs(", \"warnings\": [", f);
    for (int i = 0; i < in->nwarnings; i++) {
        fputs(i ? ", " : "", f);
        lattio_json_string(f, in->warnings[i]);
    }
    fputc(']', f);
}

static void json_problems(FILE *f, const lattio_convert_report *rep)
{
    fputs(", \"problems\": [", f);
    for (int i = 0; i < rep->nproblems; i++) {
        fputs(i ? ", {\"path\": " : "{\"path\": ", f);
        lattio_json_string(f, rep->problem_out[i] ? rep->out : rep->in);
        fprintf(f, ", \"status\": \"%s\", \"text\": ", lattio_error_name(rep->problem_status[i]));
        lattio_json_string(f, rep->problems[i]);
        fputc('}', f);
    }
    fputc(']', f);
    if (rep->dropped) fprintf(f, ", \"notes_dropped\": %d", rep->dropped);
}

static void json_map(FILE *f, const lattio_convert_report *rep)
{
    fputs(", \"objects\": [", f);
    for (int i = 0; i < rep->nmap; i++) {
        fputs(i ? ", [" : "[", f);
        lattio_json_string(f, rep->map_in[i]);
        fputs(", ", f);
        lattio_json_string(f, rep->map_out[i]);
        fputc(']', f);
    }
    fputc(']', f);
}

static void json_report(FILE *f, const lattio_convert_report *rep)
{
    fputs("{\"in\": ", f);
    lattio_json_string(f, rep->in ? rep->in : "");
    fputs(", \"out\": ", f);
    lattio_json_string(f, rep->out ? rep->out : "");
    fprintf(f, ", \"ok\": %s, \"status\": \"%s\", \"code\": %d, \"kind\": \"%s\"", rep->status ? "false" : "true",
            rep->status ? lattio_error_name(rep->status) : "OK", rep->status, kind_name(rep->kind));
    if (rep->in_format) fprintf(f, ", \"in_format\": \"%s\"", lattio_gauge_format_name(rep->in_format));
    if (rep->out_format) fprintf(f, ", \"out_format\": \"%s\"", lattio_gauge_format_name(rep->out_format));
    if (rep->out_format == LATTIO_GAUGE_HDF5)
        fprintf(f, ", \"hdf5_layout\": \"%s\"", rep->h5_layout == LATTIO_H5_QLUA ? "qlua" : "qdp");
    if (rep->precision) fprintf(f, ", \"precision\": %d", rep->precision);
    fprintf(f, ", \"fields\": %d, \"max_diff\": ", rep->nfields);
    if (isfinite(rep->max_diff)) fprintf(f, "%.17g", rep->max_diff);
    else fputs("null", f); /* not comparable (dimensions or colors differ) */
    json_map(f, rep);
    json_check(f, "in_check", &rep->in_check);
    json_check(f, "out_check", &rep->out_check);
    json_warnings(f, &rep->in_check);
    json_problems(f, rep);
    fputc('}', f);
}

static void json_write(FILE *f, const void *rep) { json_report(f, rep); }

int lattio_convert_report_json(const lattio_convert_report *rep, char **json)
{
    return lattio_ops_json(json_write, rep, json);
}
