/* xml.c -- tolerant scanning of metadata XML and a strict, escaping writer.
 *
 * The scanner does not parse the document: it looks at every '<', skips
 * comments, CDATA sections, processing instructions and declarations, and
 * compares the element name with the tag asked for.  So damage elsewhere in
 * the document (an unterminated attribute quote, a missing element) does not
 * hide the elements that are there.  Every access is bounded by the length;
 * the text ends at the first NUL. */
#include "internal.h"
#include "xml.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Characters that end an element name. */
static int ends_name(char c)
{
    return is_space(c) || c == '>' || c == '/' || c == '<';
}

/* Offset of the first occurrence of `pat` at or after `from`, or len. */
static size_t find_str(const char *s, size_t len, size_t from, const char *pat)
{
    const size_t m = strlen(pat);
    for (size_t i = from; i + m <= len; i++)
        if (memcmp(s + i, pat, m) == 0) return i;
    return len;
}

/* The name starting at s[i] ends before s[*end]. Does it match `tag`? */
static int name_matches(const char *s, size_t i, size_t end, const char *tag)
{
    const size_t tl = strlen(tag);
    const int tag_has_prefix = strchr(tag, ':') != NULL;
    size_t start = i;
    if (!tag_has_prefix)
        for (size_t k = i; k < end; k++)
            if (s[k] == ':') start = k + 1;
    return end - start == tl && memcmp(s + start, tag, tl) == 0;
}

/* Skip the markup starting with "<!" or "<?" at i; returns the offset after it. */
static size_t skip_special(const char *s, size_t len, size_t i)
{
    const char *close = ">";
    if (len - i >= 4 && memcmp(s + i, "<!--", 4) == 0) close = "-->";
    else if (len - i >= 9 && memcmp(s + i, "<![CDATA[", 9) == 0) close = "]]>";
    else if (s[i + 1] == '?') close = "?>";
    const size_t e = find_str(s, len, i + 2, close);
    return e == len ? len : e + strlen(close);
}

/* End of the start tag whose name ends at i: the offset of its '>' (quotes
 * honoured while they close; an unterminated quote falls back to the first
 * '>'), or len. */
static size_t start_tag_end(const char *s, size_t len, size_t i)
{
    char quote = 0;
    for (size_t k = i; k < len; k++) {
        if (quote) {
            if (s[k] == quote) quote = 0;
            else if (s[k] == '<') break; /* '<' cannot be in a value: unterminated */
        } else if (s[k] == '"' || s[k] == '\'') {
            quote = s[k];
        } else if (s[k] == '>') {
            return k;
        }
    }
    const size_t e = find_str(s, len, i, ">");
    return e;
}

/* Offset of the end tag </[prefix:]tag> at or after `from`; len if none. */
static size_t find_end_tag(const char *s, size_t len, size_t from, const char *tag)
{
    for (size_t i = find_str(s, len, from, "</"); i < len; i = find_str(s, len, i + 2, "</")) {
        size_t e = i + 2;
        while (e < len && !ends_name(s[e])) e++;
        if (!name_matches(s, i + 2, e, tag)) continue;
        while (e < len && is_space(s[e])) e++;
        if (e < len && s[e] == '>') return i;
    }
    return len;
}

int lattio_xml_find(const char *xml, size_t len, const char *tag, size_t *text_offset,
                    size_t *text_len)
{
    RETURN_IF(!xml || !tag || !*tag || !text_offset || !text_len, LATTIO_ERR_ARG);
    const void *nul = memchr(xml, '\0', len);
    if (nul) len = (size_t)((const char *)nul - xml);
    size_t i = 0;
    while ((i = find_str(xml, len, i, "<")) + 1 < len) {
        if (xml[i + 1] == '!' || xml[i + 1] == '?') {
            i = skip_special(xml, len, i);
            continue;
        }
        size_t e = i + 1;
        while (e < len && !ends_name(xml[e])) e++;
        if (e == i + 1 || !name_matches(xml, i + 1, e, tag)) {
            i = e;
            continue;
        }
        const size_t gt = start_tag_end(xml, len, e);
        RETURN_IF(gt == len, LATTIO_ERR_BAD_XML);
        *text_offset = gt + 1;
        *text_len = 0;
        if (xml[gt - 1] == '/') return LATTIO_OK; /* <tag/> */
        const size_t end = find_end_tag(xml, len, gt + 1, tag);
        RETURN_IF(end == len, LATTIO_ERR_BAD_XML);
        *text_len = end - (gt + 1);
        return LATTIO_OK;
    }
    return LATTIO_ERR_NOT_FOUND; /* a normal outcome: not traced */
}

/* The trimmed raw text of `tag`. */
static int find_trimmed(const char *xml, size_t len, const char *tag, const char **text,
                        size_t *n)
{
    size_t off, tl;
    const int rc = lattio_xml_find(xml, len, tag, &off, &tl);
    if (rc < 0) return rc;
    const char *t = xml + off;
    while (tl > 0 && is_space(*t)) t++, tl--;
    while (tl > 0 && is_space(t[tl - 1])) tl--;
    *text = t;
    *n = tl;
    return LATTIO_OK;
}

static const struct {
    const char *entity;
    char c;
} entities[] = {{"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};

/* Decode the entity at t (n bytes left): its character and length, or 0. */
static size_t decode_entity(const char *t, size_t n, char *c)
{
    for (size_t k = 0; k < sizeof entities / sizeof entities[0]; k++) {
        const size_t m = strlen(entities[k].entity);
        if (n >= m && memcmp(t, entities[k].entity, m) == 0) {
            *c = entities[k].c;
            return m;
        }
    }
    return 0;
}

int lattio_xml_string(const char *xml, size_t len, const char *tag, char *out, size_t size)
{
    RETURN_IF(!out || size == 0, LATTIO_ERR_ARG);
    out[0] = '\0';
    const char *t;
    size_t n, o = 0;
    const int rc = find_trimmed(xml, len, tag, &t, &n);
    if (rc < 0) return rc;
    for (size_t i = 0; i < n;) {
        char c = t[i];
        size_t m = c == '&' ? decode_entity(t + i, n - i, &c) : 0;
        i += m ? m : 1;
        if (o + 1 >= size) {
            out[o] = '\0'; /* out stays a string: the part that fits */
            return LATTIO_FAIL(LATTIO_ERR_OVERFLOW, "XML text longer than the buffer");
        }
        out[o++] = c;
    }
    out[o] = '\0';
    return LATTIO_OK;
}

/* Parse a decimal integer from t[0..n) at *pos, skipping leading space. */
static int parse_int(const char *t, size_t n, size_t *pos, int64_t *value)
{
    size_t i = *pos;
    while (i < n && is_space(t[i])) i++;
    int neg = 0;
    if (i < n && (t[i] == '-' || t[i] == '+')) neg = t[i++] == '-';
    RETURN_IF(i >= n || t[i] < '0' || t[i] > '9', LATTIO_ERR_BAD_XML);
    uint64_t v = 0;
    for (; i < n && t[i] >= '0' && t[i] <= '9'; i++) {
        RETURN_IF(v > (UINT64_C(1) << 62) / 10, LATTIO_ERR_OVERFLOW);
        v = v * 10 + (uint64_t)(t[i] - '0');
    }
    RETURN_IF(i < n && !is_space(t[i]), LATTIO_ERR_BAD_XML);
    *value = neg ? -(int64_t)v : (int64_t)v;
    *pos = i;
    return LATTIO_OK;
}

int lattio_xml_int(const char *xml, size_t len, const char *tag, int64_t *value)
{
    RETURN_IF(!value, LATTIO_ERR_ARG);
    const char *t;
    size_t n, pos = 0;
    const int rc = find_trimmed(xml, len, tag, &t, &n);
    if (rc < 0) return rc;
    int64_t v;
    RETURN_IF_ERROR(parse_int(t, n, &pos, &v));
    RETURN_IF(pos != n, LATTIO_ERR_BAD_XML);
    *value = v;
    return LATTIO_OK;
}

int lattio_xml_ints(const char *xml, size_t len, const char *tag, int64_t *values, int max,
                    int *n_out)
{
    RETURN_IF(!values || max < 0 || !n_out, LATTIO_ERR_ARG);
    *n_out = 0;
    const char *t;
    size_t n, pos = 0;
    const int rc = find_trimmed(xml, len, tag, &t, &n);
    if (rc < 0) return rc;
    int k = 0;
    while (pos < n) {
        int64_t v;
        RETURN_IF_ERROR(parse_int(t, n, &pos, &v));
        RETURN_IF(k >= max, LATTIO_ERR_OVERFLOW);
        values[k++] = v;
        while (pos < n && is_space(t[pos])) pos++;
    }
    *n_out = k;
    return LATTIO_OK;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int lattio_xml_hex32(const char *xml, size_t len, const char *tag, uint32_t *value)
{
    RETURN_IF(!value, LATTIO_ERR_ARG);
    const char *t;
    size_t n;
    const int rc = find_trimmed(xml, len, tag, &t, &n);
    if (rc < 0) return rc;
    if (n > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t += 2, n -= 2;
    RETURN_IF(n == 0, LATTIO_ERR_BAD_XML);
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        const int d = hex_digit(t[i]);
        RETURN_IF(d < 0, LATTIO_ERR_BAD_XML);
        v = (v << 4) | (uint64_t)d;
        RETURN_IF(v > UINT32_MAX, LATTIO_ERR_OVERFLOW);
    }
    *value = (uint32_t)v;
    return LATTIO_OK;
}

/* The entity for c, or NULL when c stays itself. */
static const char *entity_of(char c)
{
    for (size_t k = 0; k < sizeof entities / sizeof entities[0]; k++)
        if (entities[k].c == c) return entities[k].entity;
    return NULL;
}

int lattio_xml_escape(const char *text, char *out, size_t size, size_t *needed)
{
    RETURN_IF(!text || (!out && size), LATTIO_ERR_ARG);
    size_t o = 0;
    for (const char *p = text; *p; p++) {
        const char *e = entity_of(*p);
        const size_t m = e ? strlen(e) : 1;
        if (o + m < size) memcpy(out + o, e ? e : p, m);
        o += m;
    }
    if (needed) *needed = o;
    if (size) out[o < size ? o : size - 1] = '\0';
    RETURN_IF(o >= size, LATTIO_ERR_OVERFLOW);
    return LATTIO_OK;
}

/* --- the string builder -------------------------------------------------- */

void lattio_strbuf_init(lattio_strbuf *sb)
{
    memset(sb, 0, sizeof *sb);
}

void lattio_strbuf_free(lattio_strbuf *sb)
{
    if (!sb) return;
    lattio_free(sb->data);
    lattio_strbuf_init(sb);
}

int lattio_strbuf_append(lattio_strbuf *sb, const char *s, size_t n)
{
    if (sb->status < 0) return sb->status;
    if (n >= sb->cap - sb->len || !sb->data) {
        size_t cap = sb->cap ? sb->cap : 256;
        while (cap - sb->len <= n) {
            if (cap > SIZE_MAX / 2) return sb->status = LATTIO_FAIL(LATTIO_ERR_OVERFLOW, "strbuf");
            cap *= 2;
        }
        char *p = lattio_realloc(sb->data, cap);
        if (!p) return sb->status = LATTIO_FAIL(LATTIO_ERR_NOMEM, "strbuf");
        sb->data = p;
        sb->cap = cap;
    }
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
    return LATTIO_OK;
}

int lattio_strbuf_puts(lattio_strbuf *sb, const char *s)
{
    return lattio_strbuf_append(sb, s, strlen(s));
}

int lattio_strbuf_printf(lattio_strbuf *sb, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp) return sb->status = LATTIO_FAIL(LATTIO_ERR_OVERFLOW, "printf");
    return lattio_strbuf_append(sb, tmp, (size_t)n);
}

int lattio_xml_put_escaped(lattio_strbuf *sb, const char *text)
{
    for (const char *p = text; *p; p++) {
        const char *e = entity_of(*p);
        RETURN_IF_ERROR(e ? lattio_strbuf_puts(sb, e) : lattio_strbuf_append(sb, p, 1));
    }
    return sb->status;
}

int lattio_xml_put_element(lattio_strbuf *sb, const char *tag, const char *text)
{
    lattio_strbuf_printf(sb, "<%s>", tag);
    lattio_xml_put_escaped(sb, text);
    return lattio_strbuf_printf(sb, "</%s>", tag);
}

int lattio_xml_put_int(lattio_strbuf *sb, const char *tag, int64_t value)
{
    return lattio_strbuf_printf(sb, "<%s>%lld</%s>", tag, (long long)value, tag);
}
