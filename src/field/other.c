/* other.c -- other writers' text records (tmLQCD's xlf-info, Grid's
 * grid-format): found in a file for a conversion to write back, and
 * checked before a writer puts them at the start of a file (the writers:
 * serial_write.c, field/mpi/field_write.c, gauge_lime.c). */
#include "field_internal.h"

#include <stdlib.h>
#include <string.h>

/* A type lattio writes itself: another writer's record cannot take it. */
static int is_own_type(const char *type)
{
    return strncmp(type, "scidac-", 7) == 0 || strncmp(type, "ildg-", 5) == 0 || strncmp(type, "lattio-", 7) == 0;
}

/* What makes `type` one no writer takes (1 to 127 printable characters,
 * no blank): 0 none, 1 its length, 2 the byte at *at. */
static int type_fault(const char *type, size_t *at)
{
    const size_t n = strlen(type);
    if (n == 0 || n >= LATTIO_LIME_TYPE_MAX) return 1;
    for (*at = 0; *at < n; ++*at)
        if (type[*at] <= ' ' || type[*at] > '~') return 2;
    return 0;
}

static int check_type(const char *type)
{
    size_t at = 0;
    const int fault = type ? type_fault(type, &at) : 1;
    if (fault == 1) {
        lattio_detail_set("another writer's record type of %zu bytes (1 to %d)", type ? strlen(type) : 0,
                          LATTIO_LIME_TYPE_MAX - 1);
        return LATTIO_FAIL(LATTIO_ERR_ARG, "record type length");
    }
    if (fault == 2) {
        lattio_detail_set("another writer's record type with byte 0x%02x at %zu", (unsigned char)type[at], at);
        return LATTIO_FAIL(LATTIO_ERR_ARG, "record type character");
    }
    if (is_own_type(type)) {
        lattio_detail_set("record type '%s' is lattio's own: written from the field, not given", type);
        return LATTIO_FAIL(LATTIO_ERR_ARG, "record type taken");
    }
    return LATTIO_OK;
}

int lattio_field_check_other(const lattio_text_record *other, int n)
{
    if (n == 0) return LATTIO_OK;
    if (n < 0 || n > LATTIO_OTHER_RECORDS_MAX || !other) {
        lattio_detail_set("%d other records (0 to %d, with their array)", n, LATTIO_OTHER_RECORDS_MAX);
        return LATTIO_FAIL(LATTIO_ERR_ARG, "other records");
    }
    for (int i = 0; i < n; i++) {
        RETURN_IF_ERROR(check_type(other[i].type));
        RETURN_IF(!other[i].text, LATTIO_FAIL(LATTIO_ERR_ARG, "other record without text"));
        RETURN_IF_ERROR(lattio_field_metadata_fits(other[i].type, other[i].text));
    }
    return LATTIO_OK;
}

void lattio_text_records_free(lattio_text_record *recs, int n)
{
    for (int i = 0; recs && i < n; i++) {
        free((char *)recs[i].type);
        free((char *)recs[i].text);
    }
    free(recs);
}

/* A record another writer wrote: its type is none of lattio's, the binary
 * records' or tmLQCD's format records'. */
static int is_other_type(const char *type)
{
    return type[0] && !is_own_type(type) && !lattio_field_is_binary_type(type) && !lattio_field_is_etmc_format(type);
}

/* A type a writer takes back (check_type's rule, without its detail). */
static int writable_type(const char *type)
{
    size_t at;
    return type_fault(type, &at) == 0;
}

/* recs[i]'s payload as text (trailing NULs dropped) into *text, malloc'd;
 * NULL when it is not text (a NUL inside). */
static int text_of(lattio_lime_reader *r, const lattio_record_info *recs, int i, char **text)
{
    char *t = NULL;
    size_t len = 0;
    *text = NULL;
    const int rc = lattio_field_read_text(r, recs, i, &t, &len);
    if (rc == LATTIO_ERR_BAD_METADATA) return LATTIO_OK; /* too long for metadata */
    RETURN_IF_ERROR(rc);
    while (len > 0 && t[len - 1] == '\0') len--;
    if (memchr(t, '\0', len) == NULL) *text = strdup(t);
    lattio_free(t);
    return LATTIO_OK;
}

static int keep(lattio_text_record *out, int *n, int *left, const char *type, char *text)
{
    if (!text || *n == LATTIO_OTHER_RECORDS_MAX) {
        free(text);
        ++*left;
        return LATTIO_OK;
    }
    out[*n].type = strdup(type);
    out[*n].text = text;
    RETURN_IF(!out[*n].type, (free(text), LATTIO_ERR_NOMEM));
    ++*n;
    return LATTIO_OK;
}

/* The index in recs of the binary record of field `field` (count when none). */
static int binary_at(const lattio_record_info *recs, int count, int field)
{
    for (int i = 0, seen = 0; i < count; i++)
        if (lattio_field_is_binary_type(recs[i].type) && seen++ == field) return i;
    return count;
}

int lattio_field_other_records(lattio_lime_reader *r, int field, lattio_text_record **out, int *n, int *left)
{
    RETURN_IF(!r || !out || !n || !left, LATTIO_ERR_ARG);
    *out = NULL, *n = 0, *left = 0;
    lattio_record_info *recs;
    int count;
    RETURN_IF_ERROR(lattio_field_read_index(r, &recs, &count));
    lattio_text_record *got = calloc(LATTIO_OTHER_RECORDS_MAX, sizeof *got);
    int rc = got ? LATTIO_OK : LATTIO_ERR_NOMEM;
    const int end = field >= 0 ? binary_at(recs, count, field) : count;
    for (int i = 0; rc == LATTIO_OK && i < count; i++) {
        if (!is_other_type(recs[i].type)) continue;
        if (i >= end || !writable_type(recs[i].type)) { /* after the field, or a type no writer takes */
            ++*left;
            continue;
        }
        char *text;
        rc = text_of(r, recs, i, &text);
        if (rc == LATTIO_OK) rc = keep(got, n, left, recs[i].type, text);
    }
    lattio_free(recs);
    if (rc != LATTIO_OK || *n == 0) {
        lattio_text_records_free(got, *n);
        *n = 0;
        return rc;
    }
    *out = got;
    return LATTIO_OK;
}
