/* Lemon defect 2: after a non-blocking lattice read the next record lookup
 * reported end of file early.  A file of three records (written serially by
 * rank 0 from the independent encoding) is read: non-blocking lattice read
 * of record 1 (completed explicitly, then implicitly by NextRecord), and
 * records 2 and 3 must still be found, then LEMON_EOF. */
#include "lemontest.h"

static const int L[4] = {12, 4, 2, 2};
enum { SITE = 16 };

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    MPI_Comm cart = make_cart(4, NULL);
    lattice_t t;
    lattice_init(&t, cart, 4, L, NULL, SITE);
    uint64_t bytes = lattice_sites(&t) * SITE;
    unsigned char *payload = lattice_expected(&t);
    expect_buf e = {0};
    exp_record(&e, "lattice", payload, bytes, 1, 0);
    exp_record(&e, "second", "2nd", 3, 0, 0);
    exp_record(&e, "lattice", payload, bytes, 0, 1);
    if (mpitest_rank == 0) {
        FILE *f = fopen("defect02.lime", "wb");
        fwrite(e.b, 1, e.n, f);
        fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    size_t n = (size_t)lattice_local_sites(&t) * SITE;
    unsigned char *want = lattice_local(&t), *got = calloc(n, 1);
    MPI_File fh = open_read(cart, "defect02.lime");
    LemonReader *r = lemonCreateReader(&fh, cart);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_INT(lemonReadLatticeParallelNonBlocking(r, got, SITE, L), LEMON_SUCCESS);
    CHECK_INT(lemonFinishReading(r), LEMON_SUCCESS);
    CHECK(memcmp(got, want, n) == 0);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_STR(lemonReaderType(r), "second");
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_STR(lemonReaderType(r), "lattice");
    memset(got, 0, n);
    CHECK_INT(lemonReadLatticeParallelNonBlocking(r, got, SITE, L), LEMON_SUCCESS);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_EOF); /* completes the read first */
    CHECK(memcmp(got, want, n) == 0);
    lemonDestroyReader(r);
    MPI_File_close(&fh);
    free(payload); free(want); free(got); free(e.b);
    MPI_Comm_free(&cart);
    return mpitest_finish();
}
