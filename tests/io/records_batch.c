/* records_batch.c -- lattio_xfer_records, the record set's metadata in one
 * write of rank 0: records of 0, 5, 11 and 8 bytes (padding of 0, 3, 5
 * and 0) after a lattice record give the same file, byte for byte, as the
 * serial writer (lattio_lime_writer) writing them one by one, and the
 * index reads them back.  So do payloads of 60000 bytes (copied beside
 * their headers, three of them more than one gathered write holds) and
 * of 200003 bytes (written from the caller's memory), through
 * lattio_xfer_records and lattio_record_write.  Refused on every rank, with one status: a length
 * that differs on one rank (ERR_RANK_ARG; the file is then poisoned: close
 * fails and publishes nothing), more than LATTIO_XFER_RECORDS_MAX records
 * (ERR_ARG), a record still open (ERR_STATE). */
#include "mpitest.h"
#include "io/io_internal.h"

#include <unistd.h>

static const char *types[4] = {"empty-first", "five", "eleven-bytes", "eight"};
static const char *payloads[4] = {"", "12345", "hello world", "8 bytes!"};
static const uint64_t lengths[4] = {0, 5, 11, 8};

static void set_of(lattio_xfer_record *r)
{
    for (int i = 0; i < 4; i++)
        r[i] = (lattio_xfer_record){types[i], payloads[i], lengths[i], i == 0, i == 3};
}

static void write_batched(const char *path)
{
    lattio_file *f = NULL;
    lattio_xfer_record r[4];
    set_of(r);
    unsigned char lattice[12];
    for (int i = 0; i < 12; i++) lattice[i] = (unsigned char)(i + 1);
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_write(f, "lattice", mpitest_rank == 0 ? lattice : NULL, 12, 1, 1));
    CHECK_OK(lattio_xfer_records(f, 4, r));
    CHECK_OK(lattio_xfer_records(f, 0, NULL)); /* nothing: no byte */
    CHECK_OK(lattio_close(f));
}

static void write_serial(const char *path)
{
    lattio_lime_writer *w = NULL;
    unsigned char lattice[12];
    for (int i = 0; i < 12; i++) lattice[i] = (unsigned char)(i + 1);
    CHECK_OK(lattio_lime_writer_open(path, LATTIO_LIME_CREATE, &w));
    CHECK_OK(lattio_lime_writer_record(w, "lattice", lattice, 12, 1, 1));
    for (int i = 0; i < 4; i++) CHECK_OK(lattio_lime_writer_record(w, types[i], payloads[i], lengths[i], i == 0, i == 3));
    CHECK_OK(lattio_lime_writer_close(w));
}

/* Payloads copied beside their headers (60000 bytes: three overflow one
 * gathered write) and written from the caller's memory (200003 bytes). */
static const uint64_t big[5] = {60000, 60000, 60000, 200003, 5};

static unsigned char *big_payload(int i)
{
    unsigned char *p = malloc((size_t)big[i]);
    for (uint64_t k = 0; k < big[i]; k++) p[k] = (unsigned char)(k * 31 + (uint64_t)i * 7 + 1);
    return p;
}

/* records 0-3 through lattio_xfer_records, 3-4 again through lattio_record_write */
static void write_big(const char *path, int serial)
{
    unsigned char *p[5];
    lattio_xfer_record r[4];
    for (int i = 0; i < 5; i++) p[i] = big_payload(i);
    for (int i = 0; i < 4; i++) r[i] = (lattio_xfer_record){types[i % 4], p[i], big[i], i == 0, 0};
    if (serial) {
        lattio_lime_writer *w = NULL;
        CHECK_OK(lattio_lime_writer_open(path, LATTIO_LIME_CREATE, &w));
        for (int i = 0; i < 4; i++) CHECK_OK(lattio_lime_writer_record(w, types[i], p[i], big[i], i == 0, 0));
        CHECK_OK(lattio_lime_writer_record(w, "direct", p[3], big[3], 0, 0));
        CHECK_OK(lattio_lime_writer_record(w, "tail", p[4], big[4], 0, 1));
        CHECK_OK(lattio_lime_writer_close(w));
    } else {
        lattio_file *f = NULL;
        CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
        CHECK_OK(lattio_xfer_records(f, 4, r));
        CHECK_OK(lattio_record_write(f, "direct", mpitest_rank == 0 ? p[3] : NULL, big[3], 0, 0));
        CHECK_OK(lattio_record_write(f, "tail", p[4], big[4], 0, 1));
        CHECK_OK(lattio_close(f));
    }
    for (int i = 0; i < 5; i++) free(p[i]);
}

static void check_index(const char *path)
{
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    CHECK_INT(lattio_record_count(f), 5);
    for (int i = 0; i < 4; i++) {
        lattio_record_info info;
        char buf[16] = {0};
        CHECK_OK(lattio_record_find(f, types[i], 0, &info));
        CHECK_U64(info.length, lengths[i]);
        CHECK_OK(lattio_record_read_at(f, 0, buf, lengths[i]));
        CHECK(memcmp(buf, payloads[i], (size_t)lengths[i]) == 0);
    }
    CHECK_OK(lattio_close(f));
}

/* Collective: a new file where lattio_xfer_records(n, r) is refused with
 * `want` on every rank (after opening a record when `open_record`); the
 * failure poisons the file: close returns it and publishes nothing. */
static void refused(const char *path, int open_record, int n, const lattio_xfer_record *r, int want)
{
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    if (open_record) CHECK_OK(lattio_record_begin(f, "open", 8, 1, 1));
    CHECK_STATUS(lattio_xfer_records(f, n, r), want);
    CHECK_STATUS(lattio_close(f), want);
    CHECK(access(path, F_OK) != 0);
}

static void refusals(void)
{
    lattio_xfer_record r[LATTIO_XFER_RECORDS_MAX + 1];
    for (int i = 0; i <= LATTIO_XFER_RECORDS_MAX; i++) r[i] = (lattio_xfer_record){"x", "", 0, 0, 0};
    refused("toomany.lime", 0, LATTIO_XFER_RECORDS_MAX + 1, r, LATTIO_ERR_ARG);
    refused("open.lime", 1, 1, r, LATTIO_ERR_STATE);
    if (mpitest_size == 1) return;
    lattio_xfer_record set[4];
    set_of(set);
    if (mpitest_rank == mpitest_size - 1) set[2].length = 10; /* one rank disagrees */
    refused("rankarg.lime", 0, 4, set, LATTIO_ERR_RANK_ARG);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    write_batched("batched.lime");
    if (mpitest_rank == 0) {
        write_serial("serial.lime");
        size_t a = 0, b = 0;
        unsigned char *pa = test_slurp("batched.lime", &a), *pb = test_slurp("serial.lime", &b);
        CHECK(pa && pb && a == b && memcmp(pa, pb, a) == 0);
        CHECK_U64(a, 144 + 16 + 144 + 0 + 144 + 8 + 144 + 16 + 144 + 8);
        free(pa);
        free(pb);
    }
    check_index("batched.lime");
    write_big("big.lime", 0);
    if (mpitest_rank == 0) {
        write_big("big_serial.lime", 1);
        size_t a = 0, b = 0;
        unsigned char *pa = test_slurp("big.lime", &a), *pb = test_slurp("big_serial.lime", &b);
        CHECK(pa && pb && a == b && memcmp(pa, pb, a) == 0);
        CHECK_U64(a, 6 * 144 + 3 * 60000 + 2 * 200008 + 8);
        free(pa);
        free(pb);
    }
    refusals();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
