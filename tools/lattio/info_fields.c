/* info_fields.c -- `lattio info --fields`: the lattice fields of a LIME
 * file, each with its SciDAC metadata, its type of the field-type table and
 * the shape and axis names a reader gives it (lattio_field_site_of, the
 * rule Python's load and lattio.open follow). */
#include "gauge_tool.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The 1-based record number of the record whose header is at `offset`
 * (0 when the walk does not reach it). */
static uint64_t record_number(const char *path, uint64_t offset)
{
    tool_walk w;
    uint64_t found = 0;
    if (tool_walk_open(&w, path) != LATTIO_OK) return 0;
    while (!found && tool_walk_next(&w) == LATTIO_OK)
        if (w.info.offset == offset) found = w.index;
    tool_walk_close(&w);
    return found;
}

static const char *const LATTICE_AXES[] = {"x", "y", "z", "t"};

/* "t z y x spin color" and "4 2 2 4 4 3": the lattice slowest first, then the site. */
static void print_shape(const lattio_field_info *fi, const lattio_field_site *s, int json)
{
    if (json) fputs(", \"shape\": [", stdout);
    for (int i = fi->nd - 1; i >= 0; i--) printf("%s%" PRIu64, json && i < fi->nd - 1 ? ", " : i < fi->nd - 1 ? " " : "", fi->dims[i]);
    for (int i = 0; i < s->rank; i++) printf("%s%" PRIu64, json ? ", " : " ", s->shape[i]);
    fputs(json ? "], \"axes\": [" : " (", stdout);
    for (int i = fi->nd - 1; i >= 0; i--) {
        char name[16];
        if (fi->nd == 4) snprintf(name, sizeof name, "%s", LATTICE_AXES[i]);
        else snprintf(name, sizeof name, "d%d", i);
        printf(json ? "%s\"%s\"" : "%s%s", i < fi->nd - 1 ? (json ? ", " : " ") : "", name);
    }
    char axes[sizeof s->axes];
    snprintf(axes, sizeof axes, "%s", s->axes);
    for (char *save = NULL, *a = strtok_r(axes, " ", &save); a; a = strtok_r(NULL, " ", &save))
        printf(json ? ", \"%s\"" : " %s", a);
    fputs(json ? "]" : ")", stdout);
}

static void print_field(const lattio_field_info *fi, const lattio_field_site *s, uint64_t record, int json)
{
    const char *type = s->type ? s->type : "untyped";
    if (json) {
        printf("%s\n  {\"index\": %d, \"record\": %" PRIu64 ", \"offset\": %" PRIu64 ", \"length\": %" PRIu64
               ", \"type\": \"%s\", \"datatype\": ",
               fi->index ? "," : "", fi->index, record, fi->binary.offset, fi->binary.length, type);
        tool_json_string(stdout, fi->datatype);
        printf(", \"precision\": %d, \"colors\": %d, \"spins\": %d, \"typesize\": %" PRIu64
               ", \"datacount\": %" PRIu64 ", \"complex\": %s",
               fi->precision, fi->colors, fi->spins, fi->typesize, fi->datacount, s->is_complex ? "true" : "false");
        print_shape(fi, s, 1);
        if (fi->has_checksum) printf(", \"checksum\": [\"%08x\", \"%08x\"]}", fi->stored.suma, fi->stored.sumb);
        else fputs(", \"checksum\": null}", stdout);
        return;
    }
    printf("field %d: record %" PRIu64 " (%s at offset %" PRIu64 ", %" PRIu64 " bytes)\n  type      %s, ",
           fi->index, record, fi->binary.type, fi->binary.offset, fi->binary.length, type);
    tool_print_escaped(stdout, fi->datatype[0] ? fi->datatype : "(no datatype)");
    printf(", %d-bit %s\n  record    colors %d, spins %d, typesize %" PRIu64 ", datacount %" PRIu64 "\n  shape     ",
           fi->precision, s->is_complex ? "complex" : "real", fi->colors, fi->spins, fi->typesize, fi->datacount);
    print_shape(fi, s, 0);
    if (fi->has_checksum) printf("\n  checksum  %08x %08x (stored)\n", fi->stored.suma, fi->stored.sumb);
    else fputs("\n  checksum  none stored\n", stdout);
}

/* One field: its description, or its error (the field's metadata
 * disagree with its bytes: ERR_FIELD_LENGTH, ERR_FIELD_TYPESIZE, ...). */
static int one_field(const char *path, lattio_lime_reader *r, int i, int json)
{
    lattio_field_info fi;
    lattio_field_site s;
    int rc = lattio_field_info_read(r, i, &fi); /* on error fi is freed */
    if (rc == LATTIO_OK) {
        rc = lattio_field_site_of(&fi, &s);
        if (rc == LATTIO_OK) print_field(&fi, &s, record_number(path, fi.binary.offset), json);
        lattio_field_info_free(&fi);
    }
    if (rc == LATTIO_OK) return TOOL_OK;
    char detail[512];
    const int n = lattio_last_detail(detail, sizeof detail);
    if (json) fputs("\n]}\n", stdout);
    fflush(stdout);
    return tool_status_error("info", path, rc, " (field %d%s%s)", i, n ? ": " : "", n ? detail : "");
}

int info_fields(const char *path, int json)
{
    lattio_lime_reader *r;
    int count = 0, rc = lattio_lime_reader_open(path, &r);
    if (rc == LATTIO_OK) rc = lattio_field_count(r, &count);
    if (rc != LATTIO_OK) {
        lattio_lime_reader_close(r);
        return tool_status_error("info", path, rc, "%s", "");
    }
    if (json) {
        fputs("{\"file\": ", stdout);
        tool_json_string(stdout, path);
        fputs(", \"fields\": [", stdout);
    } else {
        tool_print_escaped(stdout, path);
        printf(": %d lattice field%s\n", count, count == 1 ? "" : "s");
    }
    int ret = TOOL_OK;
    for (int i = 0; ret == TOOL_OK && i < count; i++) ret = one_field(path, r, i, json);
    if (json && ret == TOOL_OK) fputs("\n]}\n", stdout);
    lattio_lime_reader_close(r);
    return ret;
}

static const char *volfmt_name(int volfmt)
{
    return volfmt == LATTIO_VOLFMT_MULTI ? "multifile" : volfmt == LATTIO_VOLFMT_PART ? "partfile" : "partfile-dir";
}

/* The volumes of a set, one line (or object) each. */
static void print_volumes(const lattio_volumes *v, const lattio_volumes_info *vi, int json)
{
    for (int i = 0; i < vi->volumes; i++) {
        int number;
        uint64_t sites;
        const char *path;
        lattio_volumes_volume(v, i, &number, &sites, &path);
        if (json) {
            printf("%s{\"number\": %d, \"sites\": %" PRIu64 ", \"path\": ", i ? ", " : "", number, sites);
            tool_json_string(stdout, path);
            fputc('}', stdout);
        } else {
            printf("  volume %04d  %8" PRIu64 " sites  ", number, sites);
            tool_print_escaped(stdout, path);
            fputc('\n', stdout);
        }
    }
}

int info_volumes(const char *base, int json)
{
    lattio_volumes *v;
    lattio_volumes_info vi;
    int rc = lattio_volumes_open(base, &v);
    if (rc == LATTIO_OK) rc = lattio_volumes_describe(v, &vi);
    if (rc != LATTIO_OK) {
        char detail[512];
        const int n = lattio_last_detail(detail, sizeof detail);
        return tool_status_error("info", base, rc, "%s%s", n ? ": " : "", n ? detail : "");
    }
    if (json) {
        fputs("{\"set\": ", stdout);
        tool_json_string(stdout, base);
        printf(", \"volfmt\": %d, \"format\": \"%s\", \"volumes\": [", vi.volfmt, volfmt_name(vi.volfmt));
    } else {
        tool_print_escaped(stdout, base);
        printf(": QIO %s set (volfmt %d) of %d volume%s, %d field%s\n", volfmt_name(vi.volfmt), vi.volfmt,
               vi.volumes, vi.volumes == 1 ? "" : "s", vi.fields, vi.fields == 1 ? "" : "s");
    }
    print_volumes(v, &vi, json);
    if (json) fputs("], \"fields\": [", stdout);
    for (int i = 0; rc == LATTIO_OK && i < vi.fields; i++) {
        lattio_field_info fi;
        lattio_field_site s;
        rc = lattio_volumes_field_info(v, i, &fi);
        if (rc != LATTIO_OK) break;
        fi.binary.length = fi.typesize * fi.datacount * lattio_field_record_sites(&fi);
        rc = lattio_field_site_of(&fi, &s);
        if (rc == LATTIO_OK) print_field(&fi, &s, 0, json);
        lattio_field_info_free(&fi);
    }
    lattio_volumes_close(v);
    if (json) fputs("\n]}\n", stdout);
    return rc == LATTIO_OK ? TOOL_OK : tool_status_error("info", base, rc, "%s", "");
}
