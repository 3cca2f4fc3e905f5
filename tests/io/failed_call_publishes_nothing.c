/* failed_call_publishes_nothing.c -- issue 17, case 1: a collective write
 * call that fails on one rank only poisons the file on every rank.  For each
 * collective write entry point (record begin / write / end / whole record,
 * lattice write, partial write, non-blocking lattice and record writes,
 * field write) the last rank alone passes a bad argument; every rank gets
 * the same error, every later call ERR_STATE, lattio_close the first error,
 * and the previous PATH (a 4-record file) stays byte-identical with no
 * temporary file left behind. */
#include "mpitest.h"

#include <string.h>
#include <unistd.h>

#define PATH "keep.lime"
#define LEN 480 /* 8 x 6 sites of 10 bytes */
static const uint64_t G[2] = {8, 6};

static unsigned char *previous;
static size_t previous_len;

static int odd(void) { return mpitest_rank == mpitest_size - 1; }

/* Rank 0 writes the previous 4-record file with the serial writer. */
static void make_previous(void)
{
    if (mpitest_rank == 0) {
        lattio_lime_writer *w = NULL;
        CHECK_OK(lattio_lime_writer_open(PATH, LATTIO_LIME_CREATE, &w));
        const char *types[4] = {"a", "b", "c", "d"};
        for (int i = 0; i < 4; i++)
            CHECK_OK(lattio_lime_writer_record(w, types[i], "previous", 8, i == 0, i == 3));
        CHECK_OK(lattio_lime_writer_close(w));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    previous = test_slurp(PATH, &previous_len);
    CHECK(previous && previous_len > 4 * 144);
}

static void layout_of(lattio_layout *l)
{
    uint64_t lo[2] = {0, 0}, cnt[2] = {8, 0};
    lattio_split(G[1], (uint64_t)mpitest_size, (uint64_t)mpitest_rank, &lo[1], &cnt[1]);
    CHECK_OK(lattio_layout_init(l, 2, G, lo, cnt, 10));
}

static lattio_file *open_new(void)
{
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, PATH, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_write(f, "first", "x", 1, 1, 0));
    return f;
}

/* After the failed call: later calls are refused, close returns `status`
 * everywhere, PATH is the previous file, no temporary is left. */
static void check_poisoned(lattio_file *f, int status, const char *what)
{
    CHECK_STATUS(lattio_record_write(f, "late", "y", 1, 0, 1), LATTIO_ERR_STATE);
    CHECK_STATUS(lattio_close(f), status);
    MPI_Barrier(MPI_COMM_WORLD);
    size_t n = 0;
    unsigned char *now = test_slurp(PATH, &n);
    int same = now && n == previous_len && memcmp(now, previous, n) == 0;
    if (!same) fprintf(stderr, "rank %d: %s: the previous file was replaced\n", mpitest_rank, what);
    CHECK(same);
    free(now);
    CHECK_INT(test_count_temporaries(), 0);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void record_calls(void)
{
    lattio_file *f = NULL;
    if (mpitest_size > 1) { /* arguments that differ between ranks */
        f = open_new();
        CHECK_STATUS(lattio_record_begin(f, "r", odd() ? 7 : 8, 0, 1), LATTIO_ERR_RANK_ARG);
        check_poisoned(f, LATTIO_ERR_RANK_ARG, "begin: other length");
        f = open_new();
        CHECK_STATUS(lattio_record_write(f, odd() ? "x" : "r", "12345678", 8, 0, 1), LATTIO_ERR_RANK_ARG);
        check_poisoned(f, LATTIO_ERR_RANK_ARG, "record_write");
    }
    f = open_new();
    CHECK_STATUS(lattio_record_begin(f, odd() ? NULL : "r", 8, 0, 1), LATTIO_ERR_ARG);
    check_poisoned(f, LATTIO_ERR_ARG, "begin: NULL type");
    f = open_new();
    char longtype[200];
    memset(longtype, 'q', sizeof longtype);
    longtype[199] = '\0';
    CHECK_STATUS(lattio_record_begin(f, odd() ? longtype : "r", 8, 0, 1), LATTIO_ERR_TYPE_TOO_LONG);
    check_poisoned(f, LATTIO_ERR_TYPE_TOO_LONG, "begin: long type");
    f = open_new();
    CHECK_OK(lattio_record_begin(f, "r", 8, 0, 1));
    CHECK_STATUS(lattio_record_write_at(f, odd() ? 4 : 0, "12345678", odd() ? 8 : 0),
                 LATTIO_ERR_RECORD_OVERRUN);
    check_poisoned(f, LATTIO_ERR_RECORD_OVERRUN, "write_at: overrun");
    f = open_new();
    CHECK_OK(lattio_record_begin(f, "r", 8, 0, 1));
    CHECK_STATUS(lattio_record_end(f, 0), LATTIO_ERR_RECORD_SHORT);
    check_poisoned(f, LATTIO_ERR_RECORD_SHORT, "end: short");
}

static void lattice_calls(void)
{
    static unsigned char buf[LEN];
    lattio_layout l;
    layout_of(&l);
    lattio_file *f = open_new();
    CHECK_OK(lattio_record_begin(f, "lat", LEN, 0, 1));
    /* up to 6 ranks, the last one owns rows */
    CHECK_STATUS(lattio_lattice_write(f, &l, 0, odd() ? NULL : buf), LATTIO_ERR_ARG);
    check_poisoned(f, LATTIO_ERR_ARG, "lattice_write: NULL buffer");
    f = open_new();
    CHECK_OK(lattio_record_begin(f, "lat", LEN, 0, 1));
    CHECK_STATUS(lattio_lattice_write_part(f, &l, odd() ? 10 : 0, buf), LATTIO_ERR_RECORD_OVERRUN);
    check_poisoned(f, LATTIO_ERR_RECORD_OVERRUN, "lattice_write_part: overrun");
    f = open_new();
    CHECK_OK(lattio_record_begin(f, "lat", LEN, 0, 1));
    lattio_request *req = NULL;
    CHECK_STATUS(lattio_lattice_iwrite(f, &l, 0, buf, odd() ? NULL : &req), LATTIO_ERR_ARG);
    CHECK(req == NULL);
    check_poisoned(f, LATTIO_ERR_ARG, "lattice_iwrite: NULL request");
    f = open_new();
    CHECK_OK(lattio_record_begin(f, "lat", LEN, 0, 1));
    CHECK_STATUS(lattio_record_iwrite_at(f, 0, odd() ? NULL : buf, 4, &req), LATTIO_ERR_ARG);
    check_poisoned(f, LATTIO_ERR_ARG, "record_iwrite_at: NULL buffer");
}

static void field_call(void)
{
    static double u[8 * 6 * 18];
    uint64_t g4[4] = {2, 2, 2, 6}, lo[4] = {0, 0, 0, 0}, cnt[4] = {2, 2, 2, 0};
    lattio_split(g4[3], (uint64_t)mpitest_size, (uint64_t)mpitest_rank, &lo[3], &cnt[3]);
    lattio_layout l;
    CHECK_OK(lattio_layout_init(&l, 4, g4, lo, cnt, 18 * sizeof(double)));
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, 18);
    if (odd()) d.elements = 0; /* a descriptor no field has */
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, PATH, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    int rc = lattio_field_write(f, &d, &l, u, NULL);
    CHECK(rc < 0);
    check_poisoned(f, rc, "field_write: bad descriptor on one rank");
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    make_previous();
    record_calls();
    lattice_calls();
    field_call();
    free(previous);
    return mpitest_finish();
}
