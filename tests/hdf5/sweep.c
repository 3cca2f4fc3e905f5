/* sweep.c -- HDF5 files damaged every way one byte can damage them: for
 * each FILE given, every truncation point and three single-byte changes
 * (XOR 0x01, 0x10 and 0xFF) of every byte outside the datasets' raw data
 * (the superblock, object headers, local and global heaps, B-trees; runs
 * of 1024 zero bytes, alignment padding, are left out), each variant listed (lattio_h5_list) and every field it
 * lists read whole (lattio_h5_read).  Asserted for every variant: the calls
 * return (a crash or a hang is the harness's failure; under the sanitizers
 * an overflow inside HDF5 is one), with a status of lattio's table, and a
 * read that succeeds with a verified checksum returns exactly the intact
 * file's values -- damage is never a silent "ok".  `--stride N` takes every
 * N-th byte only (a quick run); the variant being tried is in
 * sweep.current, so a crash names it.  Prints the outcomes counted by
 * status.
 *
 * usage: test_hdf5.sweep [--stride N] FILE... */
#include "../field_mpi/fmtest.h"

#include <hdf5.h>

#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 8

typedef struct intact {
    lattio_h5_entry e[MAX_FIELDS];
    double *v[MAX_FIELDS];
    int checked[MAX_FIELDS]; /* its checksum was verified: damage must not pass */
    int n;
} intact;

typedef struct tally {
    char name[64];
    long n;
    char example[200]; /* the first variant's detail */
} tally;

static tally outcomes[64];
static int noutcomes;
static long variants, silent;

static void count(const char *name)
{
    char detail[200];
    lattio_last_detail(detail, sizeof detail);
    for (int i = 0; i < noutcomes; i++)
        if (strcmp(outcomes[i].name, name) == 0) {
            outcomes[i].n++;
            return;
        }
    if (noutcomes == 64) return;
    tally *t = &outcomes[noutcomes++];
    t->n = 1;
    snprintf(t->name, sizeof t->name, "%s", name);
    snprintf(t->example, sizeof t->example, "%s", detail);
}

/* --- raw data of the intact file, by HDF5 itself ----------------------------- */

typedef struct raw {
    unsigned char *mask; /* 1: a byte of some dataset's raw data */
    size_t size;
} raw;

static void mark(raw *r, haddr_t at, hsize_t n)
{
    for (hsize_t i = 0; i < n && at + i < r->size; i++) r->mask[at + i] = 1;
}

static herr_t mark_dataset(hid_t fid, const char *name, const H5O_info_t *info, void *data)
{
    if (info->type != H5O_TYPE_DATASET) return 0;
    raw *r = data;
    hid_t ds = H5Dopen2(fid, name, H5P_DEFAULT), sp = H5Dget_space(ds);
    const haddr_t off = H5Dget_offset(ds);
    if (off != HADDR_UNDEF) mark(r, off, H5Dget_storage_size(ds));
    hsize_t n = 0;
    if (off == HADDR_UNDEF && H5Dget_num_chunks(ds, sp, &n) >= 0)
        for (hsize_t i = 0; i < n; i++) {
            hsize_t o[H5S_MAX_RANK], size = 0;
            unsigned mask = 0;
            haddr_t at = HADDR_UNDEF;
            if (H5Dget_chunk_info(ds, sp, i, o, &mask, &at, &size) >= 0 && at != HADDR_UNDEF) mark(r, at, size);
        }
    H5Sclose(sp);
    H5Dclose(ds);
    return 0;
}

static void raw_bytes(const char *path, raw *r)
{
    hid_t fid = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(fid >= 0);
    if (fid >= 0) {
        H5Ovisit2(fid, H5_INDEX_NAME, H5_ITER_INC, mark_dataset, r, H5O_INFO_BASIC);
        H5Fclose(fid);
    }
}

/* Runs of 1024 or more zero bytes are alignment padding no reader looks
 * at (lattio aligns large datasets to the stripe): marked as not swept. */
static void skip_padding(const unsigned char *data, raw *r)
{
    for (size_t i = 0; i < r->size;) {
        size_t j = i;
        while (j < r->size && data[j] == 0) j++;
        if (j - i >= 1024) memset(r->mask + i, 1, j - i);
        i = j > i ? j : i + 1;
    }
}

/* --- one variant --------------------------------------------------------------- */

static int read_field(const char *file, const lattio_h5_entry *e, double **out, int *verified)
{
    uint64_t lo[LATTIO_MAX_DIMS] = {0};
    lattio_layout l;
    int rc = lattio_layout_init(&l, e->nd, e->dims, lo, e->dims, e->elements * 8);
    for (int d = 0; rc == LATTIO_OK && d < e->nd; d++) l.file_order[d] = l.mem_order[d] = e->nd - 1 - d;
    const uint64_t n = rc == LATTIO_OK ? lattio_layout_local_sites(&l) * e->elements : 0;
    *out = n && n < (UINT64_C(1) << 27) ? malloc(n * sizeof **out) : NULL;
    if (rc == LATTIO_OK && !*out) return LATTIO_ERR_NOMEM;
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, e->elements);
    char target[600];
    snprintf(target, sizeof target, "%s:%s", file, e->path);
    lattio_field_read_info info;
    if (rc == LATTIO_OK) rc = lattio_h5_read(MPI_COMM_SELF, target, &d, &l, *out, NULL, &info, NULL);
    if (rc == LATTIO_OK) {
        *verified = info.checksum == LATTIO_CHECKSUM_VERIFIED;
        lattio_field_info_free(&info.field);
    }
    return rc;
}

static int size_of(const lattio_h5_entry *e)
{
    uint64_t n = e->elements;
    for (int d = 0; d < e->nd; d++) n *= e->dims[d];
    return (int)n;
}

/* Try the file at `path` (the variant `what`), against the intact fields. */
static void try_variant(const char *path, const intact *good, const char *what)
{
    variants++;
    lattio_h5_entry e[MAX_FIELDS];
    int n = 0;
    const int rc = lattio_h5_list(MPI_COMM_SELF, path, 4, e, MAX_FIELDS, &n);
    if (strcmp(lattio_error_name(rc), "UNKNOWN") == 0) {
        fprintf(stderr, "%s: list returned %d, not a lattio status\n", what, rc);
        CHECK(0);
    }
    if (rc != LATTIO_OK) {
        count(lattio_error_name(rc));
        return;
    }
    int all_ok = 1;
    for (int i = 0; i < n && i < MAX_FIELDS; i++) {
        double *v = NULL;
        int verified = 0;
        const int r = read_field(path, &e[i], &v, &verified);
        if (strcmp(lattio_error_name(r), "UNKNOWN") == 0) {
            fprintf(stderr, "%s: read of %s returned %d, not a lattio status\n", what, e[i].path, r);
            CHECK(0);
        }
        if (r != LATTIO_OK) {
            count(lattio_error_name(r));
            all_ok = 0;
        }
        for (int k = 0; r == LATTIO_OK && verified && k < good->n; k++)
            if (strcmp(good->e[k].path, e[i].path) == 0 && good->checked[k] &&
                (size_of(&good->e[k]) != size_of(&e[i]) ||
                 memcmp(good->v[k], v, (size_t)size_of(&e[i]) * sizeof *v) != 0)) {
                fprintf(stderr, "%s: %s read with a verified checksum but values differ from the intact file's\n",
                        what, e[i].path);
                silent++;
                CHECK(0);
            }
        free(v);
    }
    if (all_ok && n < good->n && getenv("SWEEP_SHOW_FEWER")) fprintf(stderr, "%s: %d of %d fields\n", what, n, good->n);
    if (all_ok) count(n < good->n ? "OK, fewer fields than intact" : "OK");
}

static void write_file(const char *path, const unsigned char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fwrite(data, 1, n, f) == n);
    fclose(f);
}

static void note_current(const char *what)
{
    FILE *f = fopen("sweep.current", "w");
    if (f) {
        fprintf(f, "%s\n", what);
        fclose(f);
    }
}

static void sweep(const char *base, size_t stride)
{
    size_t size = 0;
    unsigned char *data = test_slurp(base, &size);
    CHECK(data != NULL);
    if (!data) return;
    intact good = {.n = 0};
    CHECK_OK(lattio_h5_list(MPI_COMM_SELF, base, 4, good.e, MAX_FIELDS, &good.n));
    CHECK(good.n >= 1 && good.n <= MAX_FIELDS);
    for (int i = 0; i < good.n && i < MAX_FIELDS; i++) CHECK_OK(read_field(base, &good.e[i], &good.v[i], &good.checked[i]));
    raw r = {calloc(size, 1), size};
    raw_bytes(base, &r);
    skip_padding(data, &r);
    size_t meta = 0;
    for (size_t i = 0; i < size; i++) meta += !r.mask[i];
    const long before = variants, silent_before = silent;
    unsigned char *v = malloc(size);
    char what[512];
    for (size_t at = 0; at < size; at += stride) {
        if (r.mask[at]) continue;
        snprintf(what, sizeof what, "%s truncated to %zu bytes", base, at);
        note_current(what);
        write_file("sweep.h5", data, at);
        try_variant("sweep.h5", &good, what);
        static const unsigned char flips[3] = {0x01, 0x10, 0xFF};
        for (int k = 0; k < 3; k++) {
            memcpy(v, data, size);
            v[at] ^= flips[k];
            snprintf(what, sizeof what, "%s byte %zu ^ 0x%02x", base, at, flips[k]);
            note_current(what);
            write_file("sweep.h5", v, size);
            try_variant("sweep.h5", &good, what);
        }
    }
    printf("%s: %zu bytes, %zu outside raw data, %ld variants, %ld silent\n", base, size, meta, variants - before,
           silent - silent_before);
    free(v);
    free(r.mask);
    for (int i = 0; i < good.n && i < MAX_FIELDS; i++) free(good.v[i]);
    free(data);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    size_t stride = 1;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--stride") == 0 && i + 1 < argc) {
            stride = (size_t)strtoul(argv[++i], NULL, 10);
            if (!stride) stride = 1;
            continue;
        }
        sweep(argv[i], stride);
    }
    for (int i = 0; i < noutcomes; i++)
        printf("  %-24s %6ld  e.g. %s\n", outcomes[i].name, outcomes[i].n, outcomes[i].example);
    printf("%ld variants, %ld read with a verified checksum and wrong values\n", variants, silent);
    remove("sweep.current");
    return mpitest_finish();
}
