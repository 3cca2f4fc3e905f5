/* nersc.c -- the NERSC archive format (formats.md): an ASCII header of
 * KEY = value lines, then links in ILDG order with 2 or 3 rows stored,
 * IEEE32/64 big or little endian; the header checksum is the sum mod 2^32
 * of the stored 32-bit words in host order. */
#include "gauge_internal.h"
#include "xml.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NERSC_HEADER_MAX 65536
#define VALUE_MAX 128

typedef struct nersc_header {
    uint64_t dims[4];
    int have_dims[4];
    int rows;          /* 0 until DATATYPE is read */
    int colors;        /* N of 4D_SU<N>_GAUGE... */
    int precision, little_endian;
    int has_checksum, has_plaquette, has_link_trace;
    uint32_t checksum;
    double plaquette, link_trace;
    uint64_t data_offset;
} nersc_header;

#define PROBLEM(info, ...) snprintf((info)->problem, sizeof (info)->problem, __VA_ARGS__)

/* Trim white space (and a CR) from both ends of [*s, *s + *n). */
static void trim(const char **s, size_t *n)
{
    while (*n && (**s == ' ' || **s == '\t')) (*s)++, (*n)--;
    while (*n && strchr(" \t\r", (*s)[*n - 1])) (*n)--;
}

static int parse_u64(const char *v, uint64_t *out)
{
    char *end;
    if (v[0] < '0' || v[0] > '9') return -1;
    const unsigned long long x = strtoull(v, &end, 10);
    if (*end || x > GAUGE_MAX_EXTENT || x == 0) return -1;
    *out = x;
    return 0;
}

static int parse_double(const char *v, double *out)
{
    char *end;
    const double x = strtod(v, &end);
    if (end == v || *end || !isfinite(x)) return -1;
    *out = x;
    return 0;
}

static int parse_hex(const char *v, uint32_t *out)
{
    size_t n = strlen(v);
    if (n > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) v += 2, n -= 2;
    if (n == 0 || n > 8 || strspn(v, "0123456789abcdefABCDEF") != n) return -1;
    *out = (uint32_t)strtoul(v, NULL, 16);
    return 0;
}

static int parse_float_kind(nersc_header *h, const char *v)
{
    static const struct { const char *name; int prec, little; } kinds[] = {
        {"IEEE32BIG", 32, 0}, {"IEEE32", 32, 1}, {"IEEE32LITTLE", 32, 1},
        {"IEEE64BIG", 64, 0}, {"IEEE64", 64, 1}, {"IEEE64LITTLE", 64, 1}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(v, kinds[i].name) == 0) {
            h->precision = kinds[i].prec;
            h->little_endian = kinds[i].little;
            return 0;
        }
    return -1;
}

/* 4D_SU<N>_GAUGE_<N>x<N> (Grid's and GLU's for any N; N rows), or
 * 4D_SU3_GAUGE (two rows of SU(3)). */
static int parse_datatype(nersc_header *h, const char *v)
{
    int n = 0, r = 0, c = 0, used = 0;
    h->rows = h->colors = 0;
    if (strcmp(v, "4D_SU3_GAUGE") == 0) {
        h->rows = 2, h->colors = 3;
        return 0;
    }
    if (sscanf(v, "4D_SU%2d_GAUGE_%2dx%2d%n", &n, &r, &c, &used) != 3 || v[used] || n != r || n != c ||
        n < 2 || n > LATTIO_GAUGE_MAX_COLORS)
        return -1;
    h->rows = h->colors = n;
    return 0;
}

/* One KEY = value line.  Unknown keys are ignored. */
static int parse_line(nersc_header *h, const char *key, const char *v, lattio_gauge_info *info)
{
    int bad = 0;
    if (strncmp(key, "DIMENSION_", 10) == 0 && key[10] >= '1' && key[10] <= '4' && !key[11]) {
        bad = parse_u64(v, &h->dims[key[10] - '1']);
        h->have_dims[key[10] - '1'] = !bad;
    } else if (strncmp(key, "DIMENSION_", 10) == 0) { /* a fifth dimension, or DIMENSION_0: not a 4-D field */
        PROBLEM(info, "NERSC header: %.40s: a NERSC gauge field has DIMENSION_1 to DIMENSION_4 only", key);
        return LATTIO_FAIL(LATTIO_ERR_BAD_HEADER, "NERSC dimension");
    } else if (strcmp(key, "DATATYPE") == 0) {
        bad = parse_datatype(h, v);
    } else if (strcmp(key, "FLOATING_POINT") == 0) {
        bad = parse_float_kind(h, v);
    } else if (strcmp(key, "CHECKSUM") == 0) {
        bad = parse_hex(v, &h->checksum);
        h->has_checksum = !bad;
    } else if (strcmp(key, "PLAQUETTE") == 0) {
        bad = parse_double(v, &h->plaquette);
        h->has_plaquette = !bad;
    } else if (strcmp(key, "LINK_TRACE") == 0) {
        bad = parse_double(v, &h->link_trace);
        h->has_link_trace = !bad;
    }
    if (bad) {
        PROBLEM(info, "NERSC header: bad value '%.60s' for %.40s", v, key);
        return LATTIO_FAIL(LATTIO_ERR_BAD_HEADER, "NERSC header value");
    }
    return LATTIO_OK;
}

/* Split a header line into key and value and parse it. */
static int header_line(nersc_header *h, const char *line, size_t n, lattio_gauge_info *info)
{
    trim(&line, &n);
    if (n == 0) return LATTIO_OK;
    const char *eq = memchr(line, '=', n);
    if (!eq) {
        PROBLEM(info, "NERSC header: line without '=': '%.*s'", (int)(n < 60 ? n : 60), line);
        return LATTIO_FAIL(LATTIO_ERR_BAD_HEADER, "NERSC line without =");
    }
    const char *k = line, *v = eq + 1;
    size_t kn = (size_t)(eq - line), vn = n - kn - 1;
    trim(&k, &kn);
    trim(&v, &vn);
    char key[VALUE_MAX], val[VALUE_MAX];
    if (kn >= VALUE_MAX) return LATTIO_OK; /* not a key we know */
    if (vn >= VALUE_MAX) vn = VALUE_MAX - 1; /* free text: cut */
    memcpy(key, k, kn), key[kn] = '\0';
    memcpy(val, v, vn), val[vn] = '\0';
    return parse_line(h, key, val, info);
}

/* Visit the lines after the first (BEGIN_HEADER) up to END_HEADER:
 * fn(ctx, line, n) for each (its error returned as is); *end receives the
 * offset after END_HEADER's line.  1 when text holds no END_HEADER line. */
typedef int (*header_line_fn)(void *ctx, const char *line, size_t n);
static int walk_header(const char *text, size_t len, header_line_fn fn, void *ctx, uint64_t *end)
{
    const char *first = memchr(text, '\n', len);
    for (size_t pos = first ? (size_t)(first - text) + 1 : len; pos < len;) {
        const char *line = text + pos, *eol = memchr(line, '\n', len - pos);
        if (!eol) break;
        const size_t n = (size_t)(eol - line);
        pos += n + 1;
        if (n >= 10 && memcmp(line, "END_HEADER", 10) == 0) {
            *end = pos;
            return LATTIO_OK;
        }
        RETURN_IF_ERROR(fn(ctx, line, n));
    }
    return 1;
}

typedef struct header_parse {
    nersc_header *h;
    lattio_gauge_info *info;
} header_parse;

static int parse_one(void *ctx, const char *line, size_t n)
{
    header_parse *p = ctx;
    return header_line(p->h, line, n, p->info);
}

/* The header's lines parsed into *h, the data offset after END_HEADER. */
static int parse_header(const char *text, size_t len, nersc_header *h, lattio_gauge_info *info)
{
    header_parse p = {h, info};
    const int rc = walk_header(text, len, parse_one, &p, &h->data_offset);
    if (rc != 1) return rc;
    PROBLEM(info, "NERSC header: no END_HEADER line in the first %d bytes", NERSC_HEADER_MAX);
    return LATTIO_FAIL(LATTIO_ERR_BAD_HEADER, "no END_HEADER");
}

static int read_header(const lattio_source *src, nersc_header *h, lattio_gauge_info *info)
{
    memset(h, 0, sizeof *h);
    h->precision = 32; /* IEEE32BIG when absent */
    char *text = lattio_malloc(NERSC_HEADER_MAX);
    RETURN_IF(!text, LATTIO_ERR_NOMEM);
    size_t got = 0;
    int rc = lattio_source_read_at(src, 0, text, NERSC_HEADER_MAX, &got);
    if (rc == LATTIO_OK) rc = parse_header(text, got, h, info);
    lattio_free(text);
    RETURN_IF_ERROR(rc);
    for (int d = 0; d < 4; d++)
        if (!h->have_dims[d]) {
            PROBLEM(info, "NERSC header: DIMENSION_%d missing", d + 1);
            return LATTIO_FAIL(LATTIO_ERR_BAD_HEADER, "NERSC dimension missing");
        }
    if (h->rows == 0) {
        PROBLEM(info, "NERSC header: DATATYPE missing");
        return LATTIO_FAIL(LATTIO_ERR_BAD_HEADER, "NERSC DATATYPE missing");
    }
    return LATTIO_OK;
}

/* The data size the header implies must be what follows it. */
static int check_size(const lattio_source *src, const nersc_header *h, lattio_gauge_info *info)
{
    uint64_t volume, bytes;
    RETURN_IF_ERROR(gauge_volume(h->dims, (uint64_t)4 * h->rows * 2 * (uint64_t)h->colors * (h->precision / 8),
                                 &volume, &bytes));
    info->volume = volume;
    info->data_offset = h->data_offset;
    info->data_length = bytes;
    const uint64_t have = src->size - h->data_offset;
    if (have < bytes) {
        PROBLEM(info, "NERSC: %llu bytes of link data, the header implies %llu (file truncated)",
                (unsigned long long)have, (unsigned long long)bytes);
        return LATTIO_FAIL(LATTIO_ERR_TRUNCATED_PAYLOAD, "NERSC data short");
    }
    if (have > bytes) {
        PROBLEM(info, "NERSC: %llu bytes of link data, the header implies %llu (extra bytes)",
                (unsigned long long)have, (unsigned long long)bytes);
        return LATTIO_FAIL(LATTIO_ERR_FIELD_LENGTH, "NERSC data long");
    }
    return LATTIO_OK;
}

int gauge_nersc_read(const lattio_source *src, lattio_gauge_info *info, double **u)
{
    nersc_header h;
    RETURN_IF_ERROR(read_header(src, &h, info));
    memcpy(info->dims, h.dims, sizeof h.dims);
    info->precision = h.precision;
    info->little_endian = h.little_endian;
    info->rows = h.rows;
    info->colors = h.colors;
    info->checksum_kind = LATTIO_GSUM_NERSC;
    info->has_checksum = h.has_checksum;
    info->stored[0] = h.checksum;
    info->has_plaquette = h.has_plaquette;
    info->plaquette = h.plaquette;
    info->has_link_trace = h.has_link_trace;
    info->link_trace = h.link_trace;
    RETURN_IF_ERROR(check_size(src, &h, info));
    RETURN_IF_ERROR(gauge_alloc(info->volume, h.colors, u));
    gauge_sum sum = {LATTIO_GSUM_NERSC, 0, 0, 0};
    RETURN_IF_ERROR(gauge_read_links(src, h.data_offset, info->volume,
                                     gauge_file_fmt(h.precision, h.little_endian), h.rows, h.colors, *u,
                                     &sum));
    info->computed[0] = sum.a;
    return LATTIO_OK;
}

/* --- the header's lines, for a writer to take back -------------------------- */

static int extra_line(const char *line, size_t n, const char **key, size_t *kn, const char **val, size_t *vn);

typedef struct header_take {
    lattio_strbuf out;
    int *left;
} header_take;

/* Append the line [line, line + n) to the text as "KEY = VALUE" when the
 * writer takes it, else count it (blank lines aside). */
static int take_line(void *ctx, const char *line, size_t n)
{
    header_take *t = ctx;
    const char *key, *val;
    size_t kn, vn;
    trim(&line, &n);
    if (n == 0) return LATTIO_OK;
    if (extra_line(line, n, &key, &kn, &val, &vn) != LATTIO_OK) {
        ++*t->left;
        return LATTIO_OK;
    }
    if (t->out.len) lattio_strbuf_puts(&t->out, "\n");
    lattio_strbuf_printf(&t->out, "%.*s = %.*s", (int)kn, key, (int)vn, val);
    return t->out.status;
}

/* The lines a writer takes of the header text[0, len) into t. */
static int take_lines(const char *text, size_t len, header_take *t)
{
    RETURN_IF(len < 12 || memcmp(text, "BEGIN_HEADER", 12) != 0, LATTIO_FAIL(LATTIO_ERR_BAD_HEADER, "not NERSC"));
    uint64_t end = 0;
    const int rc = walk_header(text, len, take_line, t, &end);
    return rc == 1 ? LATTIO_FAIL(LATTIO_ERR_BAD_HEADER, "no END_HEADER") : rc;
}

int lattio_gauge_nersc_header(const char *path, char **text, int *left)
{
    RETURN_IF(!path || !text || !left, LATTIO_ERR_ARG);
    *text = NULL, *left = 0;
    int fd;
    RETURN_IF_ERROR(lattio_open_regular(path, &fd));
    lattio_source src;
    char *head = lattio_malloc(NERSC_HEADER_MAX);
    size_t got = 0;
    int rc = head ? lattio_source_fd(fd, &src) : LATTIO_ERR_NOMEM;
    if (rc == LATTIO_OK) rc = lattio_source_read_at(&src, 0, head, NERSC_HEADER_MAX, &got);
    close(fd);
    header_take t = {.left = left};
    lattio_strbuf_init(&t.out);
    if (rc == LATTIO_OK) rc = take_lines(head, got, &t);
    lattio_free(head);
    if (rc == LATTIO_OK && t.out.len) *text = strdup(t.out.data);
    if (rc == LATTIO_OK && t.out.len && !*text) rc = LATTIO_ERR_NOMEM;
    lattio_strbuf_free(&t.out);
    return rc;
}

/* --- writing ------------------------------------------------------------ */

static int put(gauge_out *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int put(gauge_out *o, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    RETURN_IF(n < 0 || (size_t)n >= sizeof line, LATTIO_ERR_OVERFLOW);
    return gauge_out_write(o, line, (size_t)n);
}

/* A header value without newlines or leading/trailing blanks. */
static void clean_text(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (; in && *in && n + 1 < size; in++) out[n++] = (*in == '\n' || *in == '\r') ? ' ' : *in;
    out[n] = '\0';
}

/* The header keys lattio computes from the data and the options: never
 * taken from opt->nersc_header. */
static int computed_key(const char *key, size_t n)
{
    static const char *const keys[] = {"HDR_VERSION", "DATATYPE", "STORAGE_FORMAT", "DIMENSION_1", "DIMENSION_2",
                                       "DIMENSION_3", "DIMENSION_4", "LINK_TRACE", "PLAQUETTE", "CHECKSUM",
                                       "FLOATING_POINT", "BEGIN_HEADER", "END_HEADER"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strlen(keys[i]) == n && strncmp(keys[i], key, n) == 0) return 1;
    return 0;
}

/* One line of opt->nersc_header: KEY = VALUE, the key of letters, digits
 * and _, the line shorter than VALUE_MAX; the key and the value trimmed. */
static int extra_line(const char *line, size_t n, const char **key, size_t *kn, const char **val, size_t *vn)
{
    const char *eq = memchr(line, '=', n);
    RETURN_IF(!eq || n >= VALUE_MAX, LATTIO_FAIL(LATTIO_ERR_ARG, "nersc_header line"));
    *key = line, *kn = (size_t)(eq - line), *val = eq + 1, *vn = n - *kn - 1;
    trim(key, kn);
    trim(val, vn);
    for (size_t i = 0; i < *kn; i++)
        RETURN_IF(!isalnum((unsigned char)(*key)[i]) && (*key)[i] != '_', LATTIO_FAIL(LATTIO_ERR_ARG, "nersc_header key"));
    RETURN_IF(*kn == 0, LATTIO_FAIL(LATTIO_ERR_ARG, "nersc_header key"));
    return LATTIO_OK;
}

/* Visit the lines of text (fn(ctx, key, kn, val, vn)); ERR_ARG at the first
 * malformed one, with it named in the detail. */
typedef int (*extra_fn)(void *ctx, const char *key, size_t kn, const char *val, size_t vn);
static int each_extra(const char *text, extra_fn fn, void *ctx)
{
    for (const char *p = text; p && *p;) {
        const char *end = strchr(p, '\n');
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *key, *val;
        size_t kn, vn;
        if (n > 0) {
            const int rc = extra_line(p, n, &key, &kn, &val, &vn);
            if (rc != LATTIO_OK) {
                lattio_detail_set("NERSC header line \"%.*s\" is not KEY = VALUE (a key of letters, digits and _, "
                                  "under %d bytes)", (int)(n < 80 ? n : 80), p, VALUE_MAX);
                return rc;
            }
            RETURN_IF_ERROR(fn(ctx, key, kn, val, vn));
        }
        p = end ? end + 1 : p + n;
    }
    return LATTIO_OK;
}

typedef struct extra_find {
    const char *key;
    char *out;
    size_t size;
    int found;
} extra_find;

static int find_one(void *ctx, const char *key, size_t kn, const char *val, size_t vn)
{
    extra_find *f = ctx;
    if (strlen(f->key) == kn && strncmp(f->key, key, kn) == 0) {
        snprintf(f->out, f->size, "%.*s", (int)vn, val);
        f->found = 1;
    }
    return LATTIO_OK;
}

/* The value opt->nersc_header gives `key`, else dflt, into out. */
static const char *value_of(const lattio_gauge_write_options *opt, const char *key, const char *dflt, char *out,
                            size_t size)
{
    extra_find f = {key, out, size, 0};
    (void)each_extra(opt->nersc_header, find_one, &f); /* checked whole before the header is written */
    if (!f.found) snprintf(out, size, "%s", dflt);
    return out;
}

/* The keys lattio writes itself with a default (after the computed ones). */
static const char *const own_keys[] = {"BOUNDARY_1", "BOUNDARY_2", "BOUNDARY_3", "BOUNDARY_4", "ENSEMBLE_ID",
                                       "ENSEMBLE_LABEL", "SEQUENCE_NUMBER", "CREATOR", "CREATOR_HARDWARE",
                                       "CREATION_DATE", "ARCHIVE_DATE"};

static int own_key(const char *key, size_t n)
{
    for (size_t i = 0; i < sizeof own_keys / sizeof own_keys[0]; i++)
        if (strlen(own_keys[i]) == n && strncmp(own_keys[i], key, n) == 0) return 1;
    return 0;
}

/* Lines of opt->nersc_header with keys lattio neither computes nor writes itself. */
static int put_other(void *ctx, const char *key, size_t kn, const char *val, size_t vn)
{
    if (computed_key(key, kn) || own_key(key, kn)) return LATTIO_OK;
    return put(ctx, "%.*s = %.*s\n", (int)kn, key, (int)vn, val);
}

static int check_extra(void *ctx, const char *key, size_t kn, const char *val, size_t vn)
{
    (void)ctx, (void)key, (void)kn, (void)val, (void)vn;
    return LATTIO_OK;
}

/* The defaults of lattio's own keys: label, version, now. */
static void own_defaults(const lattio_gauge_write_options *opt, char dflt[][VALUE_MAX])
{
    char date[64];
    const time_t now = time(NULL);
    struct tm tm;
    if (!gmtime_r(&now, &tm) || !strftime(date, sizeof date, "%a %b %e %H:%M:%S %Y UTC", &tm)) date[0] = '\0';
    for (int d = 0; d < 4; d++) snprintf(dflt[d], VALUE_MAX, "PERIODIC");
    snprintf(dflt[4], VALUE_MAX, "lattio");
    clean_text(opt->label ? opt->label : "lattio", dflt[5], VALUE_MAX);
    snprintf(dflt[6], VALUE_MAX, "0");
    snprintf(dflt[7], VALUE_MAX, "lattio %s", lattio_version());
    snprintf(dflt[8], VALUE_MAX, "unknown");
    snprintf(dflt[9], VALUE_MAX, "%s", date);
    snprintf(dflt[10], VALUE_MAX, "%s", date);
}

static int write_header(gauge_out *o, const lattio_gauge_write_options *opt,
                        const uint64_t dims[4], const lattio_gauge_stats *st, uint32_t checksum)
{
    enum { NOWN = sizeof own_keys / sizeof own_keys[0] };
    char datatype[40], dflt[NOWN][VALUE_MAX], v[VALUE_MAX];
    RETURN_IF_ERROR(each_extra(opt->nersc_header, check_extra, NULL));
    const int nc = opt->colors ? opt->colors : 3;
    if (opt->nersc_rows == 2) snprintf(datatype, sizeof datatype, "4D_SU3_GAUGE");
    else snprintf(datatype, sizeof datatype, "4D_SU%d_GAUGE_%dx%d", nc, nc, nc);
    own_defaults(opt, dflt);
    put(o, "BEGIN_HEADER\nHDR_VERSION = 1.0\nDATATYPE = %s\nSTORAGE_FORMAT = 1.0\n", datatype);
    for (int d = 0; d < 4; d++) put(o, "DIMENSION_%d = %llu\n", d + 1, (unsigned long long)dims[d]);
    put(o, "LINK_TRACE = %.12f\nPLAQUETTE = %.12f\n", st->link_trace, st->plaquette);
    for (size_t i = 0; i < NOWN; i++) { /* the boundaries, the checksum, the rest (lattio's order) */
        if (i == 4) put(o, "CHECKSUM = %08lx\n", (unsigned long)checksum);
        put(o, "%s = %s\n", own_keys[i], value_of(opt, own_keys[i], dflt[i], v, sizeof v));
    }
    RETURN_IF_ERROR(each_extra(opt->nersc_header, put_other, o));
    put(o, "FLOATING_POINT = IEEE%d%s\nEND_HEADER\n", opt->precision, opt->little_endian ? "LITTLE" : "BIG");
    return o->status;
}

int gauge_nersc_write(gauge_out *o, const lattio_gauge_write_options *opt, const uint64_t dims[4],
                      const double *u)
{
    const int nc = opt->colors ? opt->colors : 3;
    RETURN_IF(opt->nersc_rows == 2 && nc != 3,
              LATTIO_FAIL(LATTIO_ERR_UNSUPPORTED, "NERSC two-row storage is SU(3)'s"));
    const int rows = opt->nersc_rows == 2 ? 2 : nc;
    lattio_gauge_stats st;
    RETURN_IF_ERROR(gauge_header_stats("NERSC", u, dims, nc, &st));
    const uint64_t volume = dims[0] * dims[1] * dims[2] * dims[3];
    const int fmt = gauge_file_fmt(opt->precision, opt->little_endian);
    gauge_sum sum = {LATTIO_GSUM_NERSC, 0, 0, 0};
    RETURN_IF_ERROR(gauge_write_links(NULL, u, volume, fmt, rows, nc, &sum));
    RETURN_IF_ERROR(write_header(o, opt, dims, &st, sum.a));
    return gauge_write_links(o, u, volume, fmt, rows, nc, NULL);
}
