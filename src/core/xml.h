/* xml.h -- lattio-internal XML writing helpers (src/core/xml.c).  The
 * scanning calls are public (lattio.h). */
#ifndef LATTIO_XML_H
#define LATTIO_XML_H

#include "internal.h"

/* A growing NUL-terminated string.  The first failure sticks in `status`
 * (ERR_NOMEM / ERR_OVERFLOW) and makes every later call a no-op returning
 * it, so a sequence of appends needs one check at the end. */
typedef struct lattio_strbuf {
    char *data; /* lattio_malloc'ed, NUL-terminated; NULL while empty */
    size_t len;
    size_t cap;
    int status;
} lattio_strbuf;

void lattio_strbuf_init(lattio_strbuf *sb);
void lattio_strbuf_free(lattio_strbuf *sb);
int lattio_strbuf_append(lattio_strbuf *sb, const char *s, size_t n);
int lattio_strbuf_puts(lattio_strbuf *sb, const char *s);
/* At most 255 characters per call. */
int lattio_strbuf_printf(lattio_strbuf *sb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Escaped character data; <tag>escaped text</tag>; <tag>decimal</tag>. */
int lattio_xml_put_escaped(lattio_strbuf *sb, const char *text);
int lattio_xml_put_element(lattio_strbuf *sb, const char *tag, const char *text);
int lattio_xml_put_int(lattio_strbuf *sb, const char *tag, int64_t value);

#endif
