/* Lemon defect 4: non-blocking record data deadlocked at 2+ ranks under Open
 * MPI's ompio (a collective sync while a request was pending).  Non-blocking
 * metadata and lattice writes and reads, each followed by further calls before
 * and after the finish, must complete (TIMEOUT 60) with the expected bytes. */
#include "lemontest.h"

static const int L[2] = {24, 6};
enum { SITE = 4 };

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    MPI_Comm cart = make_cart(2, NULL);
    lattice_t t;
    lattice_init(&t, cart, 2, L, NULL, SITE);
    MPI_Offset bytes = (MPI_Offset)lattice_sites(&t) * SITE, n = 10;
    unsigned char *local = lattice_local(&t);
    MPI_File fh = open_new(cart, "defect04.lime");
    LemonWriter *w = lemonCreateWriter(&fh, cart);
    LemonRecordHeader *h = lemonCreateHeader(1, 0, "meta", 10);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    CHECK_INT(lemonWriteRecordDataNonBlocking("0123456789", &n, w), LEMON_SUCCESS);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    h = lemonCreateHeader(0, 1, "lattice", bytes);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    CHECK_INT(lemonWriteLatticeParallelNonBlocking(w, local, SITE, L), LEMON_SUCCESS);
    CHECK_INT(lemonFinishWriting(w), LEMON_SUCCESS);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    MPI_File_close(&fh);

    expect_buf e = {0};
    unsigned char *payload = lattice_expected(&t);
    exp_record(&e, "meta", "0123456789", 10, 1, 0);
    exp_record(&e, "lattice", payload, (uint64_t)bytes, 0, 1);
    check_file("defect04.lime", &e);

    char meta[10] = {0};
    fh = open_read(cart, "defect04.lime");
    LemonReader *r = lemonCreateReader(&fh, cart);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_INT(lemonReaderReadDataNonBlocking(meta, &n, r), LEMON_SUCCESS);
    CHECK_INT(lemonFinishReading(r), LEMON_SUCCESS);
    CHECK(memcmp(meta, "0123456789", 10) == 0);
    lemonDestroyReader(r);
    MPI_File_close(&fh);
    free(local); free(payload); free(e.b);
    MPI_Comm_free(&cart);
    return mpitest_finish();
}
