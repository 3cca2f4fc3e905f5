/* sweep.c -- HDF5 files damaged every way one byte can damage them: for
 * each FILE given, every truncation point and three single-byte changes
 * (XOR 0x01, 0x10 and 0xFF) of every byte outside the datasets' raw data
 * (the superblock, object headers, local and global heaps, B-trees; runs
 * of 1024 zero bytes, alignment padding, are left out), each variant listed (lattio_h5_list) and every field it
 * lists read whole (lattio_h5_read), and the same by the MPI-free calls
 * (lattio_h5_list_serial, lattio_h5_read_serial), which must say the same:
 * status, count, checksum state and values.  Asserted for every variant: the calls
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

/* serial: lattio_h5_read_serial, else lattio_h5_read on MPI_COMM_SELF */
static int read_field(const char *file, const lattio_h5_entry *e, double **out, int *verified, int serial)
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
    if (rc == LATTIO_OK)
        rc = serial ? lattio_h5_read_serial(target, &d, &l, *out, &info)
                    : lattio_h5_read(MPI_COMM_SELF, target, &d, &l, *out, NULL, &info, NULL);
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

static long disagreements, refused_apart;

/* A read with a verified checksum (by `who`) returned the intact file's values. */
static void check_intact(const char *what, const intact *good, const lattio_h5_entry *e, const double *v,
                         const char *who)
{
    for (int k = 0; k < good->n; k++)
        if (strcmp(good->e[k].path, e->path) == 0 && good->checked[k] &&
            (size_of(&good->e[k]) != size_of(e) || memcmp(good->v[k], v, (size_t)size_of(e) * sizeof *v) != 0)) {
            fprintf(stderr, "%s: %s read (%s) with a verified checksum but values differ from the intact file's\n",
                    what, e->path, who);
            silent++;
            CHECK(0);
        }
}

/* The MPI-free read of field e against what the collective one said (rc,
 * verified, values v) and the intact file's values (good: NULL for the
 * intact file itself).  The same status, checksum state and values, with
 * one exception HDF5 makes: on a damaged chunk index its independent
 * lookup (the serial read) and its collective chunk map (the collective
 * read) may find different chunks, so one refuses (the wrong chunk's data
 * fails lattio's checksum, or HDF5 says damaged) where the other reads or
 * refuses otherwise; counted, never tolerated as a read of wrong values. */
static void same_serial(const char *what, const char *path, const lattio_h5_entry *e, int rc, int verified,
                        const double *v, const intact *good)
{
    double *w = NULL;
    int wverified = 0;
    const int src = read_field(path, e, &w, &wverified, 1);
    const int same = src == rc && (rc != LATTIO_OK || (wverified == verified &&
                                   memcmp(v, w, (size_t)size_of(e) * sizeof *v) == 0));
    const int refusal = src == LATTIO_ERR_CHECKSUM || src == LATTIO_ERR_HDF5_DAMAGED;
    if (src == LATTIO_OK && wverified && good) check_intact(what, good, e, w, "serial");
    if (same) {
    } else if (good && (refusal || (src == LATTIO_OK && wverified)) && (rc != LATTIO_OK || refusal)) {
        refused_apart++;
        if (getenv("SWEEP_SHOW_APART"))
            fprintf(stderr, "%s: %s: serial %s, collective %s\n", what, e->path, lattio_error_name(src),
                    lattio_error_name(rc));
    } else {
        fprintf(stderr, "%s: %s: serial read %s (verified %d), collective %s (verified %d)%s\n", what, e->path,
                lattio_error_name(src), wverified, lattio_error_name(rc), verified,
                src == rc && rc == LATTIO_OK ? ", values differ" : "");
        disagreements++;
        CHECK(0);
    }
    free(w);
}

/* The MPI-free listing says what the collective one said (of a damaged
 * file, or the intact one). */
static void same_serial_list(const char *what, const char *path, int rc, int n, int damaged)
{
    lattio_h5_entry e[MAX_FIELDS];
    int m = 0;
    const int src = lattio_h5_list_serial(path, 4, e, MAX_FIELDS, &m);
    /* HDF5 reading a damaged attribute message succeeds or fails by the
     * heap's garbage (h5_guard.c): the guard's child of one listing may
     * refuse what the other's passed */
    if ((src == LATTIO_ERR_HDF5_DAMAGED) != (rc == LATTIO_ERR_HDF5_DAMAGED) && damaged) {
        refused_apart++;
        return;
    }
    if (src != rc || m != n) {
        fprintf(stderr, "%s: serial listing %s (%d fields), collective %s (%d)\n", what, lattio_error_name(src), m,
                lattio_error_name(rc), n);
        disagreements++;
        CHECK(0);
    }
}

/* Try the file at `path` (the variant `what`), against the intact fields. */
static void try_variant(const char *path, const intact *good, const char *what)
{
    variants++;
    lattio_h5_entry e[MAX_FIELDS];
    int n = 0;
    const int rc = lattio_h5_list(MPI_COMM_SELF, path, 4, e, MAX_FIELDS, &n);
    same_serial_list(what, path, rc, n, 1);
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
        const int r = read_field(path, &e[i], &v, &verified, 0);
        same_serial(what, path, &e[i], r, verified, v, good);
        if (strcmp(lattio_error_name(r), "UNKNOWN") == 0) {
            fprintf(stderr, "%s: read of %s returned %d, not a lattio status\n", what, e[i].path, r);
            CHECK(0);
        }
        if (r != LATTIO_OK) {
            count(lattio_error_name(r));
            all_ok = 0;
        }
        if (r == LATTIO_OK && verified) check_intact(what, good, &e[i], v, "collective");
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
    same_serial_list(base, base, LATTIO_OK, good.n, 0);
    for (int i = 0; i < good.n && i < MAX_FIELDS; i++) {
        CHECK_OK(read_field(base, &good.e[i], &good.v[i], &good.checked[i], 0));
        same_serial(base, base, &good.e[i], LATTIO_OK, good.checked[i], good.v[i], NULL);
    }
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
    printf("%ld variants, %ld read with a verified checksum and wrong values, %ld where the MPI-free calls "
           "said otherwise, %ld damaged files refused by one of the two\n", variants, silent,
           disagreements, refused_apart);
    remove("sweep.current");
    return mpitest_finish();
}
