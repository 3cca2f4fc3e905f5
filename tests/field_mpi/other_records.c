/* other_records.c -- other writers' text records (tmLQCD's xlf-info, Grid's
 * grid-format) written back by lattio's writers: each a message of its own
 * at the start of the file, its text byte for byte (no NUL added), before
 * the SciDAC file records and only once in a file of two fields; the
 * parallel writer's file equal byte for byte to the serial writer's and to
 * lattio_gauge_write's; the fields still read back verified.  Refused on
 * every rank alike: lattio's own types, a type too long or with a blank,
 * too many records, ranks passing different texts, NERSC and QIO volume
 * sets (records they cannot hold). */
#include "fmtest.h"

#include <sys/stat.h>

static const lattio_text_record other[2] = {
    {"xlf-info", "plaquette = 0.417669228375\n trajectory nr = 2\n beta = 6.000000000000, kappa = 0.177\n"},
    {"grid-format", "<?xml version=\"1.0\"?>\n<FieldMetaData><plaquette>0.41</plaquette></FieldMetaData>\n"},
};

static void describe(lattio_field_desc *d, int n_other)
{
    lattio_field_desc_default(d, LATTIO_FIELD_ILDG_GAUGE, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, 72);
    d->date = "Sun Nov 29 12:00:00 2026 UTC";
    d->other = other;
    d->n_other = n_other;
}

static int write_parallel(const char *path, const lattio_field_desc *d, const lattio_layout *l, const double *local,
                          int fields)
{
    lattio_file *f = NULL;
    int rc = lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f);
    for (int i = 0; rc == LATTIO_OK && i < fields; i++) rc = lattio_field_write(f, d, l, local, NULL);
    const int closed = f ? lattio_close(f) : LATTIO_OK;
    rc = rc != LATTIO_OK ? rc : closed;
    CHECK(fm_same_everywhere(rc));
    return rc;
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    CHECK(fp != NULL);
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    *n = (size_t)ftell(fp);
    fseek(fp, 0, SEEK_SET);
    unsigned char *b = malloc(*n ? *n : 1);
    CHECK(fread(b, 1, *n, fp) == *n);
    fclose(fp);
    return b;
}

/* The file's records, read with the core's LIME reader: the two others
 * first, each MB and ME, their payload the text exactly, then one SciDAC
 * file message and `fields` record messages. */
static void check_layout(const char *path, int fields)
{
    size_t n = 0;
    unsigned char *bytes = slurp(path, &n);
    lattio_lime_reader *r = NULL;
    lattio_record_info info;
    CHECK_OK(lattio_lime_reader_open(path, &r));
    for (int i = 0; i < 2; i++) {
        CHECK_OK(lattio_lime_reader_next(r, &info));
        CHECK_STR(info.type, other[i].type);
        CHECK(info.mb && info.me);
        CHECK_U64(info.length, strlen(other[i].text));
        CHECK(info.data_offset + info.length <= n && memcmp(bytes + info.data_offset, other[i].text, info.length) == 0);
    }
    int privfile = 0, binaries = 0, others = 0;
    while (lattio_lime_reader_next(r, &info) == LATTIO_OK) {
        privfile += strcmp(info.type, "scidac-private-file-xml") == 0;
        binaries += strcmp(info.type, "ildg-binary-data") == 0;
        others += strcmp(info.type, "xlf-info") == 0 || strcmp(info.type, "grid-format") == 0;
    }
    CHECK_INT(privfile, 1);
    CHECK_INT(binaries, fields);
    CHECK_INT(others, 0); /* once, at the start of the file */
    lattio_lime_reader_close(r);
    free(bytes);
    for (int i = 0; i < fields; i++) {
        lattio_field_info fi;
        CHECK_OK(lattio_field_verify(path, i, &fi, NULL));
        lattio_field_info_free(&fi);
    }
}

static void check_same_bytes(const char *a, const char *b)
{
    size_t na = 0, nb = 0;
    unsigned char *x = slurp(a, &na), *y = slurp(b, &nb);
    CHECK_U64(na, nb);
    CHECK(x && y && na == nb && memcmp(x, y, na) == 0);
    free(x);
    free(y);
}

static void refused(const lattio_layout *l, const double *local)
{
    lattio_field_desc d;
    lattio_text_record bad[LATTIO_OTHER_RECORDS_MAX + 1];
    char longtype[LATTIO_LIME_TYPE_MAX + 1];
    memset(longtype, 'a', LATTIO_LIME_TYPE_MAX);
    longtype[LATTIO_LIME_TYPE_MAX] = '\0';
    const char *types[] = {"scidac-file-xml", "ildg-format", "lattio-aborted", "xlf info", "", longtype};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        describe(&d, 1);
        bad[0] = (lattio_text_record){types[i], "text"};
        d.other = bad;
        CHECK_STATUS(write_parallel("refused.lime", &d, l, local, 1), LATTIO_ERR_ARG);
    }
    for (int i = 0; i <= LATTIO_OTHER_RECORDS_MAX; i++) bad[i] = other[0];
    describe(&d, LATTIO_OTHER_RECORDS_MAX + 1);
    d.other = bad;
    CHECK_STATUS(write_parallel("refused.lime", &d, l, local, 1), LATTIO_ERR_ARG);
    struct stat st;
    CHECK(stat("refused.lime", &st) != 0); /* nothing published */
    if (mpitest_size > 1) {
        lattio_text_record mine = {"xlf-info", mpitest_rank == 1 ? "rank 1's text" : "everyone else's"};
        describe(&d, 1);
        d.other = &mine;
        CHECK_STATUS(write_parallel("refused.lime", &d, l, local, 1), LATTIO_ERR_RANK_ARG);
    }
    describe(&d, 1);
    const void *locals[1] = {local};
    const int rc = lattio_volumes_write(MPI_COMM_WORLD, "refusedvol", LATTIO_VOLFMT_MULTI, &d, l, 1, locals, NULL);
    CHECK_STATUS(rc, LATTIO_ERR_ARG);
    CHECK(fm_same_everywhere(rc));
}

static void serial_writers(const uint64_t g[4])
{
    lattio_layout whole; /* array-axis order (t slowest), as the serial writer takes it */
    const uint64_t tzyx[4] = {g[3], g[2], g[1], g[0]}, lo[4] = {0, 0, 0, 0};
    CHECK_OK(lattio_layout_init(&whole, 4, tzyx, lo, tzyx, 576));
    const uint64_t volume = g[0] * g[1] * g[2] * g[3];
    double *all = malloc(volume * 72 * sizeof *all);
    for (uint64_t i = 0; i < volume * 72; i++) all[i] = fm_value(i / 72, i % 72);
    lattio_field_desc d;
    describe(&d, 2);
    const void *two[2] = {all, all};
    CHECK_OK(lattio_fields_write_serial("serial.lime", &d, &whole, 2, two));
    check_same_bytes("parallel.lime", "serial.lime");
    lattio_gauge_write_options o;
    lattio_gauge_write_options_default(&o, LATTIO_GAUGE_NERSC);
    o.other = other;
    o.n_other = 2;
    CHECK_STATUS(lattio_gauge_write("refused.nersc", LATTIO_GAUGE_NERSC, &o, g, all), LATTIO_ERR_ARG);
    lattio_gauge_write_options_default(&o, LATTIO_GAUGE_ILDG);
    o.other = other;
    o.n_other = 2;
    CHECK_OK(lattio_gauge_write("gauge.lime", LATTIO_GAUGE_ILDG, &o, g, all));
    check_layout("gauge.lime", 1);
    free(all);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    static const uint64_t g[4] = {4, 2, 2, 6};
    int grid[4];
    fm_grid(0, mpitest_size, grid);
    lattio_layout l;
    CHECK_OK(fm_layout(&l, g, grid, mpitest_rank, 576, 0, 0));
    double *local = fm_fill(&l, 72);
    lattio_field_desc d;
    describe(&d, 2);
    CHECK_OK(write_parallel("parallel.lime", &d, &l, local, 2));
    if (mpitest_rank == 0) {
        check_layout("parallel.lime", 2);
        serial_writers(g);
    }
    refused(&l, local);
    free(local);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
