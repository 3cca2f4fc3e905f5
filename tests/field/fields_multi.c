/* fields_multi.c -- a multi-field file (QIO's multi-record file, an
 * eigenvector set) written serially by lattio_fields_write_serial: the
 * record sequence QIO writes (the file's two header records once, then four
 * records per field), each binary record the big-endian bytes of its own
 * field (swapped here, not by the library) with its own checksum, each
 * field read back by index with its type, shape and axis names
 * (lattio_field_site_of); and the sites of the real QDP++ file and of
 * fields the table does not know. */
#include "fieldtest.h"

#include <string.h>

#define NF 3
#define T 4
#define Z 2
#define Y 2
#define X 3
#define VOL (T * Z * Y * X)
#define REALS 24 /* a Dirac fermion: 4 spins x 3 colours, complex */

static double fields[NF][VOL * REALS];

static void be64(unsigned char *out, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    for (int i = 0; i < 8; i++) out[i] = (unsigned char)(u >> (56 - 8 * i));
}

static void write_file(const char *path)
{
    const uint64_t global[4] = {T, Z, Y, X}, lo[4] = {0, 0, 0, 0};
    lattio_layout l;
    CHECK_OK(lattio_layout_init(&l, 4, global, lo, global, REALS * sizeof(double)));
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, REALS);
    d.datatype = "USQCD_D3_DiracFermion";
    d.colors = 3, d.spins = 4, d.datacount = 1, d.verify = 1;
    const void *values[NF] = {fields[0], fields[1], fields[2]};
    CHECK_OK(lattio_fields_write_serial(path, &d, &l, NF, values));
    CHECK_STATUS(lattio_fields_write_serial(path, &d, &l, 0, values), LATTIO_ERR_ARG);
}

/* The records in order, and each binary payload against the bytes swapped here. */
static void check_records(const char *path)
{
    static const char *const want[] = {"scidac-private-file-xml", "scidac-file-xml"};
    static const char *const per_field[] = {"scidac-private-record-xml", "scidac-record-xml", "scidac-binary-data",
                                            "scidac-checksum"};
    lattio_lime_reader *r = NULL;
    CHECK_OK(lattio_lime_reader_open(path, &r));
    lattio_record_info info;
    int n = 0, field = 0;
    unsigned char *buf = malloc(VOL * REALS * 8), expect[8];
    while (r && buf && lattio_lime_reader_next(r, &info) == LATTIO_OK) {
        const char *type = n < 2 ? want[n] : per_field[(n - 2) % 4];
        CHECK_STR(info.type, type);
        if (strcmp(info.type, "scidac-binary-data") == 0) {
            CHECK_U64(info.length, VOL * REALS * 8);
            CHECK_OK(lattio_lime_reader_read_at(r, 0, buf, info.length));
            int same = 1;
            for (int i = 0; i < VOL * REALS; i++) {
                be64(expect, fields[field][i]);
                same &= memcmp(expect, buf + 8 * i, 8) == 0;
            }
            CHECK(same);
            field++;
        }
        n++;
    }
    CHECK_INT(n, 2 + 4 * NF);
    CHECK_INT(field, NF);
    free(buf);
    lattio_lime_reader_close(r);
}

static void check_fields(const char *path)
{
    lattio_lime_reader *r = NULL;
    CHECK_OK(lattio_lime_reader_open(path, &r));
    int count = 0;
    CHECK_OK(lattio_field_count(r, &count));
    CHECK_INT(count, NF);
    static double back[VOL * REALS];
    for (int k = 0; r && k < count; k++) {
        lattio_field_info fi;
        CHECK_OK(lattio_field_info_read(r, k, &fi));
        CHECK(fi.has_checksum);
        CHECK_U64(fi.typesize, 192);
        lattio_field_site s;
        CHECK_OK(lattio_field_site_of(&fi, &s));
        CHECK_STR(s.type, "fermion");
        CHECK_INT(s.rank, 2);
        CHECK(s.shape[0] == 4 && s.shape[1] == 3 && s.is_complex);
        CHECK_STR(s.axes, "spin color");
        lattio_scidac_sum sum;
        CHECK_OK(lattio_field_read_double(r, &fi, back, VOL * REALS, &sum));
        CHECK(sum.suma == fi.stored.suma && sum.sumb == fi.stored.sumb);
        CHECK(memcmp(back, fields[k], sizeof back) == 0);
        lattio_field_info_free(&fi);
    }
    lattio_lime_reader_close(r);
}

/* Sites of fields the table does not type, and of other types. */
static void check_sites(void)
{
    lattio_lime_reader *r = NULL;
    CHECK_OK(lattio_lime_reader_open(test_data("t_qio.intel-scalar.lime"), &r));
    static const char *const axes[] = {"", "s0", "s0 s1"};
    static const int rank[] = {0, 1, 2};
    for (int k = 0; r && k < 3; k++) {
        lattio_field_info fi;
        lattio_field_site s;
        CHECK_OK(lattio_field_info_read(r, k, &fi));
        CHECK_OK(lattio_field_site_of(&fi, &s));
        CHECK(s.type == NULL && s.is_complex);
        CHECK_INT(s.rank, rank[k]);
        CHECK_STR(s.axes, axes[k]);
        lattio_field_info_free(&fi);
    }
    lattio_lime_reader_close(r);
    lattio_field_info fi;
    memset(&fi, 0, sizeof fi);
    lattio_field_site s;
    fi.precision = 64, fi.datacount = 12, fi.typesize = 192, fi.colors = 3, fi.spins = 4;
    strcpy(fi.datatype, "USQCD_D3_DiracFermion"); /* twelve fermions per site */
    CHECK_OK(lattio_field_site_of(&fi, &s));
    CHECK_STR(s.axes, "datum spin color");
    CHECK(s.rank == 3 && s.shape[0] == 12);
    fi.datacount = 1, fi.typesize = 2 * 16 * 25 * 8, fi.colors = 5;
    strcpy(fi.datatype, "USQCD_D5_DiracPropagator");
    CHECK_OK(lattio_field_site_of(&fi, &s));
    CHECK_STR(s.axes, "spin_sink spin_source color_sink color_source");
    CHECK(s.shape[2] == 5 && s.shape[3] == 5);
    fi.precision = 0, fi.precision_code = 'I';
    CHECK_STATUS(lattio_field_site_of(&fi, &s), LATTIO_ERR_UNSUPPORTED);
    CHECK_STATUS(lattio_field_site_of(NULL, &s), LATTIO_ERR_ARG);
}

int main(void)
{
    for (int f = 0; f < NF; f++)
        for (int i = 0; i < VOL * REALS; i++) fields[f][i] = (f + 1) * 1000.0 + i * 0.25 - 7.5;
    const char *path = "fields_multi.lime";
    write_file(path);
    check_records(path);
    check_fields(path);
    check_sites();
    remove(path);
    return test_finish();
}
