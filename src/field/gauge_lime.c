/* gauge_lime.c -- gauge fields in LIME files: read through the ILDG/SciDAC
 * record-set reader (src/field/recordset.c, serial.c); written as the strict
 * QIO record set through the core LIME writer. */
#include "gauge_internal.h"

#include <stdio.h>
#include <string.h>

#define PROBLEM(info, ...) snprintf((info)->problem, sizeof (info)->problem, __VA_ARGS__)

static int is_sun(const lattio_field_info *fi)
{
    const uint64_t n = (uint64_t)lattio_field_gauge_colors(fi);
    return n && fi->nd == 4 && (fi->precision == 32 || fi->precision == 64) &&
           fi->recordtype == 0 && fi->typesize * fi->datacount == (uint64_t)fi->precision * n * n;
}

/* The first field of the file that is a 4-D SU(N) gauge field. */
static int find_gauge(lattio_lime_reader *r, lattio_field_info *fi, lattio_gauge_info *info)
{
    int count;
    RETURN_IF_ERROR(lattio_field_count(r, &count));
    for (int i = 0; i < count; i++) {
        RETURN_IF_ERROR(lattio_field_info_read(r, i, fi));
        if (is_sun(fi)) return LATTIO_OK;
        lattio_field_info_free(fi);
    }
    PROBLEM(info, "LIME file with %d binary records, none a 4-D SU(N) gauge field", count);
    return LATTIO_FAIL(LATTIO_ERR_UNSUPPORTED, "no gauge field in the LIME file");
}

static void describe(const lattio_field_info *fi, lattio_gauge_info *info)
{
    info->format = strcmp(fi->binary.type, "ildg-binary-data") == 0 || fi->has_ildg_format
                       ? LATTIO_GAUGE_ILDG
                       : LATTIO_GAUGE_SCIDAC;
    memcpy(info->dims, fi->dims, sizeof info->dims);
    info->volume = fi->volume;
    info->precision = fi->precision;
    info->rows = info->colors = lattio_field_gauge_colors(fi);
    info->data_offset = fi->binary.data_offset;
    info->data_length = fi->binary.length;
    info->checksum_kind = LATTIO_GSUM_SCIDAC;
    info->has_checksum = fi->has_checksum;
    info->stored[0] = fi->stored.suma;
    info->stored[1] = fi->stored.sumb;
    info->binary = fi->binary;
}

int gauge_lime_read(const char *path, lattio_gauge_info *info, double **u)
{
    lattio_lime_reader *r;
    RETURN_IF_ERROR(lattio_lime_reader_open(path, &r));
    lattio_field_info fi;
    int rc = find_gauge(r, &fi, info);
    if (rc == LATTIO_OK) {
        describe(&fi, info);
        rc = gauge_alloc(fi.volume, info->colors, u);
        lattio_scidac_sum sum = {0, 0};
        if (rc == LATTIO_OK)
            rc = lattio_field_read_double(r, &fi, *u, fi.volume * GAUGE_SITE_DOUBLES_NC(info->colors), &sum);
        if (rc == LATTIO_ERR_CHECKSUM) rc = LATTIO_OK; /* compared by the caller */
        info->computed[0] = sum.suma;
        info->computed[1] = sum.sumb;
        lattio_field_info_free(&fi);
    } else if (rc != LATTIO_ERR_UNSUPPORTED && !info->problem[0]) {
        const char *where = lattio_detail_peek();
        PROBLEM(info, "ILDG/SciDAC metadata: %s%s%s (%s)", where, where[0] ? ": " : "",
                lattio_strerror(rc), lattio_error_name(rc));
    }
    lattio_lime_reader_close(r);
    return rc;
}

/* --- writing ------------------------------------------------------------ */

const char *lattio_gauge_record_xml(int colors)
{
    return colors == 0 || colors == 3 ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?><info>SU(3) gauge field</info>"
                                      : "<?xml version=\"1.0\" encoding=\"UTF-8\"?><info>SU(N) gauge field</info>";
}

static int make_info(lattio_field_info *fi, int format, const lattio_gauge_write_options *opt,
                     const uint64_t dims[4], char *file_xml)
{
    memset(fi, 0, sizeof *fi);
    RETURN_IF_ERROR(lattio_field_metadata_fits("lfn", opt->lfn));
    RETURN_IF_ERROR(lattio_field_metadata_fits("file_xml", opt->file_xml));
    RETURN_IF_ERROR(lattio_field_metadata_fits("record_xml", opt->record_xml));
    RETURN_IF_ERROR(lattio_field_check_other(opt->other, opt->n_other));
    fi->other = opt->other;
    fi->n_other = opt->n_other;
    fi->kind = format == LATTIO_GAUGE_ILDG ? LATTIO_FIELD_ILDG_GAUGE : LATTIO_FIELD_SU3_GAUGE;
    fi->nd = 4;
    memcpy(fi->dims, dims, 4 * sizeof *dims);
    fi->volume = dims[0] * dims[1] * dims[2] * dims[3];
    fi->precision = opt->precision;
    fi->precision_code = opt->precision == 32 ? 'F' : 'D';
    const int nc = opt->colors ? opt->colors : 3;
    snprintf(fi->datatype, sizeof fi->datatype, "USQCD_%c%d_ColorMatrix", fi->precision_code, nc);
    strcpy(fi->record_version, "1.1");
    fi->colors = nc;
    fi->typesize = (uint64_t)opt->precision * 2 * (uint64_t)(nc * nc) / 8;
    fi->datacount = 4;
    fi->lfn = (char *)(opt->lfn ? opt->lfn : "lattio");
    fi->file_xml = opt->file_xml ? (char *)opt->file_xml : file_xml;
    fi->record_xml = (char *)(opt->record_xml ? opt->record_xml : lattio_gauge_record_xml(nc));
    if (opt->date) snprintf(fi->date, sizeof fi->date, "%s", opt->date);
    return LATTIO_OK;
}

int gauge_lime_write(const char *path, int format, const lattio_gauge_write_options *opt,
                     const uint64_t dims[4], const double *u)
{
    char label[256], file_xml[512];
    RETURN_IF_ERROR(lattio_xml_escape(opt->label ? opt->label : "written by lattio", label,
                                      sizeof label, NULL));
    snprintf(file_xml, sizeof file_xml,
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?><info>%s</info>", label);
    lattio_field_info fi;
    RETURN_IF_ERROR(make_info(&fi, format, opt, dims, file_xml));
    return lattio_field_put_set(path, &fi, LATTIO_REAL_F64_NATIVE, u, 0);
}
