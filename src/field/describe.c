/* describe.c -- a field descriptor (lattio_field_desc) and the metadata
 * of the field it describes, shared by the parallel writer (field/mpi) and
 * the serial one (serial_write.c). */
#include "field_internal.h"

#include <stdio.h>
#include <string.h>

void lattio_field_desc_default(lattio_field_desc *d, int kind, int mem_format, int disk_format,
                               uint64_t elements)
{
    if (!d) return;
    memset(d, 0, sizeof *d);
    d->kind = kind;
    d->mem_format = mem_format;
    d->disk_format = disk_format;
    d->elements = elements;
    d->datacount = 1;
    if (lattio_field_is_gauge_kind(kind)) {
        d->elements = 72;
        d->datacount = 4;
        d->colors = 3;
    }
}

int lattio_field_is_gauge_kind(int kind)
{
    return kind == LATTIO_FIELD_ILDG_GAUGE || kind == LATTIO_FIELD_SU3_GAUGE;
}

/* Local: the metadata of the field to write (strings point into d). */
void lattio_field_describe(lattio_field_info *fi, const lattio_field_desc *d, const lattio_layout *l)
{
    static const char *const file_xml =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><info>written by lattio</info>";
    static const char *const record_xml =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><info>lattice field</info>";
    memset(fi, 0, sizeof *fi);
    const int prec = lattio_real_size(d->disk_format) == 4 ? 32 : 64;
    fi->kind = d->kind;
    fi->nd = l->ndims;
    for (int i = 0; i < l->ndims; i++) fi->dims[i] = l->global[l->file_order[l->ndims - 1 - i]];
    fi->volume = lattio_layout_global_sites(l);
    fi->precision = prec;
    fi->precision_code = prec == 32 ? 'F' : 'D';
    if (d->datatype) snprintf(fi->datatype, sizeof fi->datatype, "%s", d->datatype);
    else if (lattio_field_is_gauge_kind(d->kind))
        snprintf(fi->datatype, sizeof fi->datatype, "USQCD_%c%d_ColorMatrix", fi->precision_code,
                 d->colors > 0 ? d->colors : 3);
    else snprintf(fi->datatype, sizeof fi->datatype, "lattio_%c_real", fi->precision_code);
    if (d->date) snprintf(fi->date, sizeof fi->date, "%s", d->date);
    strcpy(fi->record_version, "1.1");
    fi->colors = d->colors;
    if (lattio_field_is_gauge_kind(d->kind)) fi->ildg_colors = d->colors > 0 ? d->colors : 3;
    fi->spins = d->spins;
    fi->datacount = d->datacount;
    fi->typesize = d->elements / d->datacount * (uint64_t)(prec / 8);
    fi->lfn = (char *)(d->lfn ? d->lfn : "lattio");
    fi->file_xml = (char *)(d->file_xml ? d->file_xml : file_xml);
    fi->record_xml = (char *)(d->record_xml ? d->record_xml : record_xml);
    fi->other = d->other;
    fi->n_other = d->n_other;
}

int lattio_field_check_metadata(const lattio_field_desc *d)
{
    RETURN_IF(!d, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lattio_field_metadata_fits("lfn", d->lfn));
    RETURN_IF_ERROR(lattio_field_metadata_fits("file_xml", d->file_xml));
    RETURN_IF_ERROR(lattio_field_metadata_fits("record_xml", d->record_xml));
    RETURN_IF_ERROR(lattio_field_check_other(d->other, d->n_other));
    return lattio_field_metadata_fits("datatype", d->datatype);
}

int lattio_field_desc_type_check(const lattio_field_desc *d, const lattio_layout *l)
{
    lattio_field_info fi;
    lattio_field_describe(&fi, d, l);
    fi.index = -1; /* not in a file yet */
    return lattio_field_type_check(&fi);
}
