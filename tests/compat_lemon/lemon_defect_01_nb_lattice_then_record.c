/* Lemon defect 1: a non-blocking lattice write followed by another record put
 * the next header inside the lattice payload.  Here the lattice record is
 * followed by a metadata record, once after lemonFinishWriting and once with
 * the request completed implicitly by lemonWriterCloseRecord: the file must
 * be byte for byte the serial encoding. */
#include "lemontest.h"

static const int L[4] = {12, 2, 4, 4};
enum { SITE = 5 }; /* 1920 bytes: no padding; 5 * 384 */

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    MPI_Comm cart = make_cart(4, NULL);
    lattice_t t;
    lattice_init(&t, cart, 4, L, NULL, SITE);
    MPI_Offset bytes = (MPI_Offset)lattice_sites(&t) * SITE;
    unsigned char *local = lattice_local(&t);
    MPI_File fh = open_new(cart, "defect01.lime");
    LemonWriter *w = lemonCreateWriter(&fh, cart);
    for (int pass = 0; pass < 2; pass++) {
        LemonRecordHeader *h = lemonCreateHeader(1, 0, "lattice", bytes);
        CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
        lemonDestroyHeader(h);
        CHECK_INT(lemonWriteLatticeParallelNonBlocking(w, local, SITE, L), LEMON_SUCCESS);
        if (pass == 0) CHECK_INT(lemonFinishWriting(w), LEMON_SUCCESS);
        CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
        lemon_record(w, "after-lattice", "next record", 11, 0, 1);
    }
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    MPI_File_close(&fh);

    expect_buf e = {0};
    unsigned char *payload = lattice_expected(&t);
    for (int pass = 0; pass < 2; pass++) {
        exp_record(&e, "lattice", payload, (uint64_t)bytes, 1, 0);
        exp_record(&e, "after-lattice", "next record", 11, 0, 1);
    }
    check_file("defect01.lime", &e);
    free(payload); free(local); free(e.b);
    MPI_Comm_free(&cart);
    return mpitest_finish();
}
