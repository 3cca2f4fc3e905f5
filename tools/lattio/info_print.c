/* info_print.c -- `lattio info` of a LIME file or a QIO volume set: the
 * library's listing (lattio_info_file) printed in the format of C-LIME's
 * lime_contents, as the fields with their metadata and shapes, or as the
 * library's JSON. */
#include "gauge_tool.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void print_record(const lattio_info_record *e)
{
    const lattio_record_info *r = &e->rec;
    printf("\n\n");
    printf("Message:        %d\n", e->message);
    printf("Record:         %d\n", e->record);
    fputs("Type:           ", stdout);
    tool_print_escaped(stdout, r->type);
    fputc('\n', stdout);
    printf("Data Length:    %" PRIu64 "\n", r->length);
    printf("Padding Length: %lu\n", (unsigned long)r->padding);
    printf("MB flag:        %d\n", r->mb);
    printf("ME flag:        %d\n", r->me);
    if (e->text) {
        fputs("Data:           \"", stdout);
        tool_print_text(stdout, e->text); /* control bytes escaped; newlines and tabs kept */
        fputs("\" \n", stdout);
    } else if (r->length < LATTIO_INFO_TEXT_LIMIT) {
        printf("Data:           [Binary data]\n");
    } else {
        printf("Data:           [Long record skipped]\n");
    }
}

/* "4 2 2 4 4 3 (t z y x spin color)": the array a reader gives it. */
static void print_shape(const lattio_info_field *f)
{
    for (int i = 0; i < f->rank; i++) printf("%s%" PRIu64, i ? " " : "", f->shape[i]);
    printf(" (%s)", f->axes);
}

static void print_field(const lattio_info_field *f)
{
    printf("field %d: record %d (", f->index, f->record);
    tool_print_escaped(stdout, f->binary.type);
    printf(" at offset %" PRIu64 ", %" PRIu64 " bytes)\n  type      %s, ", f->binary.offset, f->binary.length,
           f->site.type ? f->site.type : "untyped");
    tool_print_escaped(stdout, f->datatype[0] ? f->datatype : "(no datatype)");
    printf(", %d-bit %s\n  record    colors %d, spins %d, typesize %" PRIu64 ", datacount %" PRIu64 "\n  shape     ",
           f->precision, f->site.is_complex ? "complex" : "real", f->colors, f->spins, f->typesize, f->datacount);
    print_shape(f);
    if (f->etmc_record) printf("\n  from      tmLQCD's etmc format record %d (flavours %d)", f->etmc_record, f->etmc_flavours);
    if (f->etmc_lz_written) printf(", which gives lz %" PRIu64 " (its lx): lz from the length", f->etmc_lz_written);
    if (f->has_checksum) printf("\n  checksum  %08x %08x (stored)\n", f->stored.suma, f->stored.sumb);
    else fputs("\n  checksum  none stored\n", stdout);
}

static void print_set(const lattio_info_report *rep)
{
    tool_print_escaped(stdout, rep->path);
    printf(": QIO %s set (volfmt %d) of %d volume%s, %d field%s\n", lattio_volfmt_name(rep->volfmt), rep->volfmt,
           rep->nvolumes, rep->nvolumes == 1 ? "" : "s", rep->nfields, rep->nfields == 1 ? "" : "s");
    for (int i = 0; i < rep->nvolumes; i++) {
        printf("  volume %04d  %8" PRIu64 " sites  ", rep->volumes[i].number, rep->volumes[i].sites);
        tool_print_escaped(stdout, rep->volumes[i].path);
        fputc('\n', stdout);
    }
}

static void print_text(const lattio_info_report *rep, int fields)
{
    if (rep->volfmt) print_set(rep);
    if (fields && !rep->volfmt) {
        tool_print_escaped(stdout, rep->path);
        printf(": %d lattice field%s\n", rep->fields_cap, rep->fields_cap == 1 ? "" : "s");
    }
    for (size_t i = 0; !fields && i < rep->nrecords; i++) print_record(&rep->records[i]);
    for (int i = 0; (fields || rep->volfmt) && i < rep->nfields; i++) print_field(&rep->fields[i]);
}

int info_print(const char *path, int fields, int json)
{
    lattio_info_report rep;
    lattio_info_report_init(&rep);
    const int flags = (fields ? LATTIO_INFO_FIELDS : 0) | (json || !fields ? LATTIO_INFO_TEXT : 0);
    lattio_info_file(path, flags, &rep);
    if (!rep.volfmt) tool_note_temporaries("info", path);
    int ret = TOOL_OK;
    if (json) {
        char *js = NULL;
        if (lattio_info_report_json(&rep, &js) == LATTIO_OK) printf("%s\n", js);
        else ret = tool_status_error("info", path, LATTIO_ERR_NOMEM, "%s", "");
        free(js);
    } else {
        print_text(&rep, fields);
    }
    fflush(stdout);
    if (rep.status != LATTIO_OK)
        ret = tool_status_error("info", path, rep.status, "%s%s", rep.problem[0] && rep.problem[0] != ':' ? " " : "",
                                rep.problem);
    lattio_info_report_free(&rep);
    return ret;
}
