/* nonblocking: lemonWriteLatticeParallelNonBlocking{,Mapped} and the
 * matching reads, completed by lemonFinishWriting / lemonFinishReading; two
 * records (unmapped and mapped) whose bytes must match the serial encoding. */
#include "lemontest.h"

static const int L[4] = {12, 6, 4, 4};
static const int map[4] = {0, 3, 2, 1};
enum { SITE = 8 };

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    MPI_Comm cart = make_cart(4, NULL);
    lattice_t plain, mapped;
    lattice_init(&plain, cart, 4, L, NULL, SITE);
    lattice_init(&mapped, cart, 4, L, map, SITE);
    MPI_Offset bytes = (MPI_Offset)lattice_sites(&plain) * SITE;
    size_t nlocal = (size_t)lattice_local_sites(&plain) * SITE;
    unsigned char *a = lattice_local(&plain), *b = lattice_local(&mapped);

    MPI_File fh = open_new(cart, "nonblocking.lime");
    LemonWriter *w = lemonCreateWriter(&fh, cart);
    LemonRecordHeader *h = lemonCreateHeader(1, 0, "plain", bytes);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    CHECK_INT(lemonWriteLatticeParallelNonBlocking(w, a, SITE, L), LEMON_SUCCESS);
    CHECK_INT(lemonFinishWriting(w), LEMON_SUCCESS);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    h = lemonCreateHeader(0, 1, "mapped", bytes);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    CHECK_INT(lemonWriteLatticeParallelNonBlockingMapped(w, b, SITE, L, map), LEMON_SUCCESS);
    CHECK_INT(lemonFinishWriting(w), LEMON_SUCCESS);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    MPI_File_close(&fh);

    expect_buf e = {0};
    unsigned char *pa = lattice_expected(&plain), *pb = lattice_expected(&mapped);
    exp_record(&e, "plain", pa, (uint64_t)bytes, 1, 0);
    exp_record(&e, "mapped", pb, (uint64_t)bytes, 0, 1);
    check_file("nonblocking.lime", &e);

    unsigned char *ga = calloc(nlocal, 1), *gb = calloc(nlocal, 1);
    fh = open_read(cart, "nonblocking.lime");
    LemonReader *r = lemonCreateReader(&fh, cart);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_INT(lemonReadLatticeParallelNonBlocking(r, ga, SITE, L), LEMON_SUCCESS);
    CHECK_INT(lemonFinishReading(r), LEMON_SUCCESS);
    CHECK(memcmp(ga, a, nlocal) == 0);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_STR(lemonReaderType(r), "mapped");
    CHECK_INT(lemonReadLatticeParallelNonBlockingMapped(r, gb, SITE, L, map), LEMON_SUCCESS);
    CHECK_INT(lemonFinishReading(r), LEMON_SUCCESS);
    CHECK(memcmp(gb, b, nlocal) == 0);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_EOF);
    lemonDestroyReader(r);
    MPI_File_close(&fh);
    free(a); free(b); free(pa); free(pb); free(ga); free(gb); free(e.b);
    MPI_Comm_free(&cart);
    return mpitest_finish();
}
