/* nb_errors.c -- non-blocking calls with a bad argument on one rank only
 * return the same error on every rank (no hang, no request, nothing
 * pending afterwards) and poison a file being written (close returns the
 * error, nothing is published); lattio_wait(NULL) and a NULL request are OK; no open
 * or current record is ERR_STATE; a read whose bytes vanished (the file
 * truncated behind lattio's back) fails on every rank, and does not hang
 * (OMPIO never completes a non-blocking read across the end of file). */
#include "nbutil.h"
#include "io/io_internal.h"

#include <unistd.h>

#define LEN 4096
static const uint64_t G[2] = {8, 6};

static int last(void) { return mpitest_rank == mpitest_size - 1; }

static void layout_of(lattio_layout *l, int tile)
{
    uint64_t lo[2] = {0, 0}, cnt[2] = {8, 0};
    lattio_split(G[1], (uint64_t)mpitest_size, (uint64_t)mpitest_rank, &lo[1], &cnt[1]);
    if (!tile && last()) cnt[1]--; /* the last rank forgets a row */
    CHECK_OK(lattio_layout_init(l, 2, G, lo, cnt, 4));
}

/* A CREATE file on w.lime with record "r" of LEN bytes open. */
static lattio_file *open_record(void)
{
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "w.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_begin(f, "r", LEN, 1, 1));
    return f;
}

/* A refused start poisons the file: later calls are ERR_STATE, close returns
 * the refusal on every rank and publishes nothing. */
static void expect_poisoned(lattio_file *f, int status)
{
    unsigned char b = 0;
    lattio_request *req = NULL;
    CHECK(f->req.npending == 0);
    CHECK_STATUS(lattio_record_iwrite_at(f, 0, &b, 1, &req), LATTIO_ERR_STATE);
    CHECK_STATUS(lattio_close(f), status);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(access("w.lime", F_OK) != 0);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void write_errors(void)
{
    lattio_file *f = NULL;
    lattio_request *req = NULL;
    lattio_layout l, bad;
    unsigned char buf[LEN] = {0};
    layout_of(&l, 1);
    layout_of(&bad, 0);
    if (mpitest_rank == 0) unlink("w.lime"); /* from an earlier run */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "w.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_STATUS(lattio_lattice_iwrite(f, &l, 0, buf, &req), LATTIO_ERR_STATE); /* no record */
    expect_poisoned(f, LATTIO_ERR_STATE);
    f = open_record();
    CHECK_STATUS(lattio_record_iwrite_at(f, last() ? LEN - 1 : 0, buf, 2, &req),
                 LATTIO_ERR_RECORD_OVERRUN);
    CHECK(req == NULL);
    expect_poisoned(f, LATTIO_ERR_RECORD_OVERRUN);
    f = open_record();
    CHECK_STATUS(lattio_record_iwrite_at(f, 0, last() ? NULL : buf, 2, &req), LATTIO_ERR_ARG);
    expect_poisoned(f, LATTIO_ERR_ARG);
    f = open_record();
    CHECK_STATUS(lattio_record_iwrite_at(f, 0, buf, 2, last() ? NULL : &req), LATTIO_ERR_ARG);
    expect_poisoned(f, LATTIO_ERR_ARG);
    f = open_record();
    CHECK_STATUS(lattio_lattice_iwrite(f, mpitest_size > 1 ? &bad : NULL, 0, buf, &req),
                 mpitest_size > 1 ? LATTIO_ERR_LAYOUT : LATTIO_ERR_ARG);
    expect_poisoned(f, mpitest_size > 1 ? LATTIO_ERR_LAYOUT : LATTIO_ERR_ARG);
    if (mpitest_size > 1) {
        f = open_record();
        lattio_layout other = l;
        if (last()) other.global[0] = 9, other.count[0] = 9;
        CHECK_STATUS(lattio_lattice_iwrite(f, &other, 0, buf, &req), LATTIO_ERR_RANK_ARG);
        expect_poisoned(f, LATTIO_ERR_RANK_ARG);
    }
    f = open_record();
    CHECK_STATUS(lattio_lattice_iwrite(f, &l, LEN - 100, buf, &req), LATTIO_ERR_RECORD_OVERRUN);
    CHECK(req == NULL);
    CHECK_OK(lattio_wait(NULL));
    CHECK_OK(lattio_wait(&req));
    expect_poisoned(f, LATTIO_ERR_RECORD_OVERRUN);
    /* a clean write after all that */
    f = open_record();
    CHECK_OK(lattio_record_iwrite_at(f, 0, buf, mpitest_rank == 0 ? LEN : 0, &req));
    CHECK_OK(lattio_record_end(f, 0));
    CHECK_OK(lattio_wait(&req));
    CHECK_OK(lattio_close(f));
    image im = {0};
    image_record(&im, "r", buf, LEN, 1, 1);
    check_file("w.lime", &im);
    free(im.b);
}

/* A read file truncated after open: short reads surface at the wait. */
static void read_errors(void)
{
    static unsigned char data[LEN];
    image im = {0};
    image_record(&im, "r", data, LEN, 1, 1);
    if (mpitest_rank == 0) {
        FILE *fp = fopen("r.lime", "wb");
        CHECK(fp && fwrite(im.b, 1, im.n, fp) == im.n);
        if (fp) fclose(fp);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    lattio_file *f = NULL;
    lattio_request *req = NULL;
    lattio_record_info info;
    unsigned char buf[LEN];
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "r.lime", LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    CHECK_STATUS(lattio_record_iread_at(f, 0, buf, 1, &req), LATTIO_ERR_STATE); /* no current */
    CHECK_STATUS(lattio_record_iwrite_at(f, 0, buf, 1, &req), LATTIO_ERR_STATE);
    CHECK_OK(lattio_record_next(f, &info));
    CHECK_STATUS(lattio_record_iread_at(f, last() ? 1 : 0, buf, LEN, &req), LATTIO_ERR_RECORD_OVERRUN);
    CHECK(req == NULL);
    if (mpitest_rank == 0) CHECK_INT(truncate("r.lime", 144 + 100), 0);
    MPI_Barrier(MPI_COMM_WORLD);
    /* only the last rank's read reaches past the new end: the error comes
     * from the start (the file's size is checked: OMPIO never completes a
     * non-blocking read across the end) or from the wait (short count) */
    int rc = lattio_record_iread_at(f, last() ? 0 : 10, buf, last() ? LEN : 10, &req);
    if (rc == LATTIO_OK) rc = lattio_wait(&req);
    CHECK_STATUS(rc, LATTIO_ERR_TRUNCATED_PAYLOAD);
    CHECK(req == NULL && f->req.npending == 0);
    CHECK_OK(lattio_record_iread_at(f, 10, buf, 10, &req)); /* within the new size */
    CHECK_OK(lattio_close(f)); /* completed at close */
    CHECK(memcmp(buf, data, 10) == 0);
    free(im.b);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    write_errors();
    read_errors();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
