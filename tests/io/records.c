/* records.c -- records written collectively (header by rank 0, payload in
 * pieces from every rank, payloads above the 1 GiB piece size excluded
 * here) give the same bytes as the serial writer, and read back on every
 * rank through the broadcast index. */
#include "mpitest.h"

#define PIECE 1000 /* bytes per rank in the binary record: not a multiple of 8 */

static unsigned char byte_at(uint64_t i) { return (unsigned char)(i * 7 + 3); }

static void write_parallel(const char *path, uint64_t nbytes)
{
    lattio_file *f = NULL;
    static const char xml[] = "<meta>parallel</meta>";
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(lattio_record_write(f, "meta-xml", xml, strlen(xml), 1, 0));
    CHECK_OK(lattio_record_begin(f, "binary", nbytes, 0, 0));
    /* ranks write their pieces in reverse order of offsets */
    uint64_t off = (uint64_t)(mpitest_size - 1 - mpitest_rank) * PIECE;
    unsigned char buf[PIECE];
    for (int i = 0; i < PIECE; i++) buf[i] = byte_at(off + (uint64_t)i);
    CHECK_OK(lattio_record_write_at(f, off, buf, PIECE));
    CHECK_OK(lattio_record_end(f, 0));
    CHECK_OK(lattio_record_write(f, "empty", NULL, 0, 0, 1));
    CHECK_OK(lattio_close(f));
}

static void write_serial(const char *path, uint64_t nbytes)
{
    static const char xml[] = "<meta>parallel</meta>";
    unsigned char *all = malloc(nbytes);
    for (uint64_t i = 0; i < nbytes; i++) all[i] = byte_at(i);
    lattio_lime_writer *w = NULL;
    CHECK_OK(lattio_lime_writer_open(path, LATTIO_LIME_CREATE, &w));
    CHECK_OK(lattio_lime_writer_record(w, "meta-xml", xml, strlen(xml), 1, 0));
    CHECK_OK(lattio_lime_writer_record(w, "binary", all, nbytes, 0, 0));
    CHECK_OK(lattio_lime_writer_record(w, "empty", NULL, 0, 0, 1));
    CHECK_OK(lattio_lime_writer_close(w));
    free(all);
}

static void read_parallel(const char *path, uint64_t nbytes)
{
    lattio_file *f = NULL;
    lattio_record_info info;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    CHECK_INT(lattio_record_count(f), 3);
    CHECK_OK(lattio_record_next(f, &info));
    CHECK_STR(info.type, "meta-xml");
    CHECK_OK(lattio_record_find(f, "binary", 0, &info));
    CHECK_U64(info.length, nbytes);
    CHECK_U64(info.offset, 144 + 24);
    /* every rank reads a different piece than it wrote */
    uint64_t off = (uint64_t)mpitest_rank * PIECE;
    unsigned char buf[PIECE];
    CHECK_OK(lattio_record_read_at(f, off, buf, PIECE));
    int bad = 0;
    for (int i = 0; i < PIECE; i++) bad += buf[i] != byte_at(off + (uint64_t)i);
    CHECK_INT(bad, 0);
    CHECK_STATUS(lattio_record_read_at(f, nbytes - 10, buf, mpitest_rank == 0 ? 11 : 1),
                 LATTIO_ERR_RECORD_OVERRUN);
    CHECK_OK(lattio_record_next(f, &info));
    CHECK_STR(info.type, "empty");
    CHECK_INT(info.me, 1);
    CHECK_STATUS(lattio_record_next(f, &info), LATTIO_ERR_EOF);
    CHECK_STATUS(lattio_record_find(f, "nothing", 0, &info), LATTIO_ERR_NOT_FOUND);
    CHECK_OK(lattio_close(f));
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    uint64_t nbytes = (uint64_t)mpitest_size * PIECE;
    write_parallel("parallel.lime", nbytes);
    if (mpitest_rank == 0) {
        write_serial("serial.lime", nbytes);
        size_t a = 0, b = 0;
        unsigned char *pa = test_slurp("parallel.lime", &a), *sa = test_slurp("serial.lime", &b);
        CHECK_INT(a, b);
        CHECK(pa && sa && a == b && memcmp(pa, sa, a) == 0);
        free(pa);
        free(sa);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    read_parallel("parallel.lime", nbytes);
    return mpitest_finish();
}
