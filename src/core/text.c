/* text.c -- text from files made safe to show: bytes outside printable
 * ASCII escaped for a terminal, and strings quoted for JSON.  The one
 * implementation the library's reports and the command use. */
#include "support.h"

#include <stdio.h>

static int printable(unsigned char c) { return c >= 0x20 && c < 0x7f && c != '\\'; }

void lattio_text_escape(char *dst, size_t size, const char *src)
{
    size_t n = 0;
    if (!size) return;
    for (const unsigned char *p = (const unsigned char *)src; *p && n + 5 < size; p++) {
        if (printable(*p)) dst[n++] = (char)*p;
        else n += (size_t)snprintf(dst + n, size - n, "\\x%02x", *p);
    }
    dst[n < size ? n : size - 1] = '\0';
}

void lattio_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20 || *p >= 0x7f) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}
