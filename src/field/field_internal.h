/* field_internal.h -- shared by the MPI-free field files (src/field). */
#ifndef LATTIO_FIELD_INTERNAL_H
#define LATTIO_FIELD_INTERNAL_H

#include "internal.h"

#include <string.h>

/* Largest metadata payload read into memory (XML, LFN): 16 MiB. */
#define LATTIO_FIELD_XML_MAX (UINT64_C(16) << 20)

/* A writer's metadata string `s` (`what`: lfn, file_xml, ...) is no longer
 * than what the readers take back (LATTIO_FIELD_XML_MAX): a writer never
 * publishes what its own reader refuses.  ERR_ARG with the detail. */
static inline int lattio_field_metadata_fits(const char *what, const char *s)
{
    const size_t n = s ? strlen(s) + 1 : 0; /* the payload holds its NUL, as QIO writes it */
    if (n <= LATTIO_FIELD_XML_MAX) return LATTIO_OK;
    lattio_detail_set("%s of %zu bytes with its NUL: lattio's readers take at most %llu", what, n,
                      (unsigned long long)LATTIO_FIELD_XML_MAX);
    return LATTIO_FAIL(LATTIO_ERR_ARG, "metadata size");
}

/* Read the whole payload of record recs[i] of the file's index (at most
 * LATTIO_FIELD_XML_MAX bytes, ERR_BAD_METADATA beyond) into a new
 * NUL-terminated buffer that the caller frees with lattio_free; *len
 * receives the payload length. */
int lattio_field_read_text(lattio_lime_reader *r, const lattio_record_info *recs, int i,
                           char **text, size_t *len);

/* recordset.c: the file's record index (every intact record, at most
 * 100000: more is not a field file, ERR_BAD_METADATA), into *recs
 * (lattio_free) and *n; record i of it made current in the reader. */
int lattio_field_read_index(lattio_lime_reader *r, lattio_record_info **recs, int *n);
/* A binary record's type: scidac-binary-data or ildg-binary-data. */
int lattio_field_is_binary_type(const char *type);
/* tmLQCD's format records (etmc-propagator-format, etmc-source-format),
 * which describe the binary records after them (docs/format.md 5.2.1). */
int lattio_field_is_etmc_format(const char *type);
int lattio_field_select_record(lattio_lime_reader *r, const lattio_record_info *recs, int i);

/* recordset.c: lattio_field_info_read of a file that may be one volume of
 * a QIO volume set (fi->volfmt then 1 .. 3; with `part` a lattice field's
 * binary record holds any whole number of sites up to the volume). */
int lattio_field_info_read_part(lattio_lime_reader *r, int index, int part, lattio_field_info *fi);

/* scidac_xml.c: now as QIO writes a record's date ("Tue Nov 24 10:00:00 2026 UTC"). */
void lattio_field_date_now(char *out, size_t size);

/* Field fi's computed SciDAC checksum `sum` differs from the stored one:
 * ERR_CHECKSUM, with the record, its offset and both sums in
 * lattio_last_detail (and the trace). */
int lattio_field_sum_mismatch(const lattio_field_info *fi, lattio_scidac_sum sum);

/* sun.c: links are 2 n^2 doubles (n x n complex, row-major, re/im pairs;
 * n <= LATTIO_GAUGE_MAX_COLORS).
 * Re tr(a b (d c)^dagger): the plaquette U_mu(x) U_nu(x+mu) U_mu(x+nu)^+
 * U_nu(x)^+ with a = U_mu(x), b = U_nu(x+mu), c = U_mu(x+nu), d = U_nu(x).
 * Re tr of a link, and max_ij |(U^dagger U - 1)_ij| (infinity for NaN). */
double lattio_sun_plaquette(const double *a, const double *b, const double *c, const double *d, int n);
void lattio_sun_link(const double *u, int n, double *re_tr, double *dev);


/* recordset.c: the records of a field's set before its binary record, in
 * QIO's order, with their LIME message-begin / message-end flags: the file
 * header pair when `file_header`, the record pair, and for ILDG gauge
 * fields (`ildg`) ildg-format and ildg-data-lfn.  Fills out[] (room for
 * LATTIO_SET_HEAD_MAX) and returns how many. */
typedef struct lattio_set_record {
    int rec, mb, me; /* LATTIO_REC_* and its flags */
} lattio_set_record;
#define LATTIO_SET_HEAD_MAX 6
int lattio_field_set_head(int ildg, int file_header, lattio_set_record *out);

/* Other writers' records (lattio_text_record) as writers take them: at
 * most LATTIO_OTHER_RECORDS_MAX, types checked (ERR_ARG naming the fault). */
int lattio_field_check_other(const lattio_text_record *other, int n);

/* field_stage.c: the field pipeline's staging (MPI-free).  A stage moves
 * this rank's sites of layout l (the caller's memory layout, file-order
 * numbering) between the caller's buffer `local` (elements reals of
 * mem_fmt per site) and file bytes (disk_fmt): fill packs, converts and
 * checksums sites [first, first + n) into dst; drain checksums, converts
 * and unpacks them from src (with sum_only: checksums only, `l` then
 * describes the file's sites and `local` is unused).  Lanes 0 and 1 may
 * run at once on disjoint sites (own block, own partial sum); phase(ctx,
 * p) is told lane 0's phase changes (LATTIO_STAGE_*) when set.  The
 * signatures are those of lattio_stager (src/io/xfer.h). */
enum { LATTIO_STAGE_CONVERT = 0, LATTIO_STAGE_CHECKSUM = 1 };
/* What a stage sums: nothing, SciDAC's CRC sums, Qlua's SHA-256 sum. */
enum { LATTIO_STAGE_SUM_NONE = 0, LATTIO_STAGE_SUM_SCIDAC = 1, LATTIO_STAGE_SUM_QLUA = 2 };

typedef struct lattio_field_stage {
    const lattio_layout *l;
    int mem_fmt, disk_fmt;
    uint64_t elements;
    size_t disk_site;
    void *local;
    int packed;                    /* local already holds the sites in file order */
    int sum_only;
    unsigned char *block[2];       /* per lane: block_sites sites of mem_fmt */
    uint64_t block_sites;
    /* a window of each memory site: its reals [win_first, win_first +
     * elements) of mem_elements (lattio_field_stage_window; default: all) */
    uint64_t mem_elements, win_first;
    /* what is summed (lattio_field_stage_checksum): the SciDAC sum of the
     * sites' bytes in sum_fmt (default: as stored), or Qlua's SHA-256 sum */
    int sum_kind, sum_fmt;
    unsigned char *scratch[2];     /* per lane: block_sites sites in sum_fmt, when != disk_fmt */
    lattio_scidac_sum sum[2];      /* per lane */
    lattio_qlua_sum qsum[2];       /* per lane */
    void (*phase)(void *ctx, int phase);
    void *phase_ctx;
} lattio_field_stage;

/* The layout's sites are the descriptor's elements in memory format
 * (ERR_ARG otherwise, or the layout's own check). */
int lattio_field_check_memory(const lattio_field_desc *d, const lattio_layout *l, const void *local);
int lattio_field_stage_init(lattio_field_stage *st, const lattio_layout *l, int mem_fmt, int disk_fmt,
                            uint64_t elements, void *local);
void lattio_field_stage_free(lattio_field_stage *st);
int lattio_field_stage_fill(void *ctx, int lane, uint64_t first, uint64_t n, unsigned char *dst);
int lattio_field_stage_drain(void *ctx, int lane, uint64_t first, uint64_t n, const unsigned char *src);
/* Both lanes' checksums combined. */
lattio_scidac_sum lattio_field_stage_sum(const lattio_field_stage *st);
lattio_qlua_sum lattio_field_stage_qlua_sum(const lattio_field_stage *st);
/* Sum `kind` (LATTIO_STAGE_SUM_*) of the sites' bytes in format `fmt`
 * (a file format of the disk precision; the default is SCIDAC as stored). */
int lattio_field_stage_checksum(lattio_field_stage *st, int kind, int fmt);
/* The memory sites hold mem_elements reals of which the file takes
 * [first, first + elements) (e.g. one direction of a gauge field). */
int lattio_field_stage_window(lattio_field_stage *st, uint64_t mem_elements, uint64_t first);

/* --- descriptors (describe.c) --- */
int lattio_field_is_gauge_kind(int kind);
/* Local: a writer's metadata strings fit what the readers take back. */
int lattio_field_check_metadata(const lattio_field_desc *d);
/* Local: the metadata of the field d describes (disk precision from
 * d->disk_format, dims x fastest; strings point into d or static text). */
void lattio_field_describe(lattio_field_info *fi, const lattio_field_desc *d, const lattio_layout *l);
/* Local (serial_write.c): the record set of *fi (its stored sum set on the
 * way) from the whole field's values in file order, under a temporary name
 * renamed at the end; with verify, the binary record is read back before
 * the rename and its checksum compared (ERR_VERIFY). */
int lattio_field_put_set(const char *path, lattio_field_info *fi, int mem_format, const void *values,
                         int verify);
/* The same for n fields of *fi's kind in one file (QIO's multi-record file:
 * the file's header records once, then each field's record set). */
int lattio_field_put_sets(const char *path, lattio_field_info *fi, int mem_format, int n,
                          const void *const *values, int verify);

/* types.c: a field of a known datatype has that type's typesize for its
 * colors and spins (ERR_FIELD_TYPESIZE naming the field; fields of other
 * datatypes pass). */
int lattio_field_type_check(const lattio_field_info *fi);
/* The same for a field about to be written (describe.c). */
int lattio_field_desc_type_check(const lattio_field_desc *d, const lattio_layout *l);

#endif
