/* Lemon defect 9: record data above 2 GiB was truncated to an int count
 * (4 GiB + 16 bytes wrote 16 bytes).  Rank 0's 4 GiB + 13 bytes go through
 * one lemonWriteRecordData call: *nbytes must be the whole length, the bytes
 * on disk right at the 2^31 and 2^32 boundaries and the end, the padding and
 * the next record where the serial encoding puts them; reads across the
 * boundaries (and, at 1 rank, one read of the whole record) return them. */
#include "bigcheck.h"

#define TOTAL ((UINT64_C(1) << 32) + 13)

static unsigned char pat(uint64_t i)
{
    return (unsigned char)(((i * UINT64_C(2654435761)) >> 24) ^ (i >> 31) ^ (i >> 32));
}

static const uint64_t probes[] = {0, (UINT64_C(1) << 31) - 32, (UINT64_C(1) << 32) - 51,
                                  TOTAL - 64};

static void check_disk(void)
{
    int ok = 1;
    if (mpitest_rank == 0) {
        for (size_t i = 0; i < 4; i++) ok &= window_ok("big9.lime", 144, probes[i], 64, pat);
        expect_buf e = {0};
        exp_bytes(&e, NULL, 3); /* padding */
        exp_record(&e, "after", "next", 4, 0, 1);
        ok &= bytes_at("big9.lime", 144 + TOTAL, e.b, e.n);
        free(e.b);
    }
    check_root(ok);
}

static void read_back(unsigned char *big)
{
    MPI_File fh = open_read(MPI_COMM_WORLD, "big9.lime");
    LemonReader *r = lemonCreateReader(&fh, MPI_COMM_WORLD);
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_INT(lemonReaderBytes(r), (MPI_Offset)TOTAL);
    for (size_t i = 0; i < 4; i++) {
        unsigned char w[64];
        MPI_Offset n = 64;
        CHECK_INT(lemonReaderSeek(r, (MPI_Offset)probes[i], MPI_SEEK_SET), LEMON_SUCCESS);
        CHECK_INT(lemonReaderReadData(w, &n, r), LEMON_SUCCESS);
        int ok = n == 64;
        for (int k = 0; k < 64; k++) ok &= w[k] == pat(probes[i] + (uint64_t)k);
        CHECK(ok);
    }
    if (big) { /* one read of the whole record */
        memset(big, 0, TOTAL);
        MPI_Offset n = (MPI_Offset)TOTAL;
        CHECK_INT(lemonReaderSeek(r, 0, MPI_SEEK_SET), LEMON_SUCCESS);
        CHECK_INT(lemonReaderReadData(big, &n, r), LEMON_SUCCESS);
        CHECK_INT(n, (MPI_Offset)TOTAL);
        int ok = 1;
        for (uint64_t i = 0; i < TOTAL; i += 4093) ok &= big[i] == pat(i);
        for (size_t p = 0; p < 4; p++)
            for (uint64_t i = probes[p]; i < probes[p] + 64; i++) ok &= big[i] == pat(i);
        CHECK(ok);
    }
    CHECK_INT(lemonReaderNextRecord(r), LEMON_SUCCESS);
    CHECK_STR(lemonReaderType(r), "after");
    lemonDestroyReader(r);
    MPI_File_close(&fh);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    unsigned char small[1], *big = NULL;
    if (mpitest_rank == 0) {
        big = malloc(TOTAL);
        for (uint64_t i = 0; i < TOTAL; i++) big[i] = pat(i);
    }
    MPI_File fh = open_new(MPI_COMM_WORLD, "big9.lime");
    LemonWriter *w = lemonCreateWriter(&fh, MPI_COMM_WORLD);
    LemonRecordHeader *h = lemonCreateHeader(1, 0, "big", (MPI_Offset)TOTAL);
    CHECK_INT(lemonWriteRecordHeader(h, w), LEMON_SUCCESS);
    lemonDestroyHeader(h);
    MPI_Offset n = (MPI_Offset)TOTAL;
    CHECK_INT(lemonWriteRecordData(big ? big : small, &n, w), LEMON_SUCCESS);
    CHECK_INT(n, (MPI_Offset)TOTAL);
    CHECK_INT(lemonWriterCloseRecord(w), LEMON_SUCCESS);
    lemon_record(w, "after", "next", 4, 0, 1);
    CHECK_INT(lemonDestroyWriter(w), LEMON_SUCCESS);
    MPI_File_close(&fh);
    check_disk();
    read_back(mpitest_size == 1 ? big : NULL);
    free(big);
    if (mpitest_rank == 0) remove("big9.lime");
    return mpitest_finish();
}
