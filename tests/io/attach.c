/* attach.c -- Lemon's contract: the caller opens the MPI_File, writes its
 * own bytes, lattio writes records from the caller's position, closes
 * without closing the file (and restores the caller's error handler); the
 * caller goes on writing and closes it.  A READ attach at that offset finds
 * the records; at 0 (not LIME there) it reports BAD_MAGIC.  Bad arguments:
 * offsets differing between ranks, APPEND, CREATE on a read-only file. */
#include "nbutil.h"

#define PREFIX 100
#define PIECE 37 /* bytes per rank: the record length is no multiple of 8 */
static const char meta[] = "<caller-meta/>";

static unsigned char byte_at(uint64_t i) { return (unsigned char)(i * 13 + 5); }

static void expected(image *im)
{
    unsigned char prefix[PREFIX];
    uint64_t n = (uint64_t)mpitest_size * PIECE;
    unsigned char *data = malloc(n);
    for (int i = 0; i < PREFIX; i++) prefix[i] = (unsigned char)('a' + i % 26);
    for (uint64_t i = 0; i < n; i++) data[i] = byte_at(i);
    image_put(im, prefix, PREFIX);
    image_record(im, "meta", meta, strlen(meta), 1, 0);
    image_record(im, "data", data, n, 0, 1);
    image_put(im, "TAIL", 4);
    free(data);
}

/* lattio's part, between the caller's writes. */
static uint64_t lattio_part(MPI_File fh, uint64_t at)
{
    lattio_file *f = NULL;
    lattio_options opt;
    lattio_options_default(&opt);
    opt.durable = 1;
    uint64_t n = (uint64_t)mpitest_size * PIECE, off = (uint64_t)mpitest_rank * PIECE;
    unsigned char buf[PIECE];
    for (int i = 0; i < PIECE; i++) buf[i] = byte_at(off + (uint64_t)i);
    CHECK_OK(lattio_attach(MPI_COMM_WORLD, fh, LATTIO_MODE_CREATE, at, &opt, &f));
    CHECK_U64(lattio_file_position(f), at);
    CHECK_OK(lattio_record_write(f, "meta", meta, strlen(meta), 1, 0));
    CHECK_OK(lattio_record_begin(f, "data", n, 0, 1));
    CHECK_U64(lattio_file_position(f), at + 144 + 16 + 144 + n + (8 - n % 8) % 8);
    CHECK_OK(lattio_record_write_at(f, off, buf, PIECE));
    CHECK_OK(lattio_record_end(f, 0));
    uint64_t end = lattio_file_position(f);
    CHECK_U64(end, at + 144 + 16 + 144 + n + (8 - n % 8) % 8);
    CHECK_OK(lattio_close(f));
    return end;
}

static void write_side(const image *im)
{
    MPI_File fh;
    MPI_Offset pos = -1;
    MPI_Errhandler eh;
    CHECK_INT(MPI_File_open(MPI_COMM_WORLD, "attach.lime", MPI_MODE_RDWR | MPI_MODE_CREATE,
                            MPI_INFO_NULL, &fh), MPI_SUCCESS);
    if (mpitest_rank == 0) MPI_File_write_at(fh, 0, im->b, PREFIX, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_File_seek(fh, PREFIX, MPI_SEEK_SET);
    MPI_File_get_position(fh, &pos);
    CHECK_INT(pos, PREFIX);
    MPI_File_set_errhandler(fh, MPI_ERRORS_ARE_FATAL);
    uint64_t end = lattio_part(fh, (uint64_t)pos);
    MPI_File_get_errhandler(fh, &eh);
    CHECK(eh == MPI_ERRORS_ARE_FATAL); /* the caller's handler is back */
    MPI_Errhandler_free(&eh);
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    /* the caller still owns fh: write after lattio's records, read back, close */
    if (mpitest_rank == mpitest_size - 1)
        CHECK_INT(MPI_File_write_at(fh, (MPI_Offset)end, "TAIL", 4, MPI_BYTE, MPI_STATUS_IGNORE),
                  MPI_SUCCESS);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    unsigned char *back = calloc(im->n, 1);
    CHECK_INT(MPI_File_read_at_all(fh, 0, back, (int)im->n, MPI_BYTE, MPI_STATUS_IGNORE),
              MPI_SUCCESS);
    CHECK(memcmp(back, im->b, im->n) == 0);
    free(back);
    CHECK_INT(MPI_File_close(&fh), MPI_SUCCESS);
}

static void read_side(const image *im)
{
    MPI_File fh;
    lattio_file *f = NULL;
    lattio_record_info info;
    uint64_t n = (uint64_t)mpitest_size * PIECE;
    unsigned char *buf = malloc(n);
    MPI_File_open(MPI_COMM_WORLD, "attach.lime", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK_OK(lattio_attach(MPI_COMM_WORLD, fh, LATTIO_MODE_READ, PREFIX, NULL, &f));
    CHECK_U64(lattio_file_position(f), PREFIX);
    CHECK_INT(lattio_record_count(f), 2);
    CHECK_OK(lattio_record_next(f, &info));
    CHECK_STR(info.type, "meta");
    CHECK_U64(info.offset, PREFIX);
    CHECK_OK(lattio_record_next(f, &info));
    CHECK_STR(info.type, "data");
    CHECK_U64(lattio_file_position(f), im->n - 4);
    CHECK_OK(lattio_record_read_at(f, 0, buf, n));
    CHECK(memcmp(buf, im->b + info.data_offset, n) == 0);
    CHECK(lattio_record_next(f, &info) < 0); /* "TAIL" is no record */
    CHECK_OK(lattio_close(f));
    /* at 0 the caller's prefix is not LIME */
    CHECK_OK(lattio_attach(MPI_COMM_WORLD, fh, LATTIO_MODE_READ, 0, NULL, &f));
    CHECK_INT(lattio_record_count(f), 0);
    CHECK_STATUS(lattio_record_next(f, &info), LATTIO_ERR_BAD_MAGIC);
    CHECK_OK(lattio_close(f));
    /* writing on a read-only file, APPEND, offsets that differ */
    CHECK_STATUS(lattio_attach(MPI_COMM_WORLD, fh, LATTIO_MODE_CREATE, PREFIX, NULL, &f), LATTIO_ERR_ARG);
    CHECK(f == NULL);
    CHECK_STATUS(lattio_attach(MPI_COMM_WORLD, fh, LATTIO_MODE_APPEND, PREFIX, NULL, &f), LATTIO_ERR_ARG);
    if (mpitest_size > 1)
        CHECK_STATUS(lattio_attach(MPI_COMM_WORLD, fh, LATTIO_MODE_READ, (uint64_t)mpitest_rank * 8,
                                   NULL, &f), LATTIO_ERR_RANK_ARG);
    CHECK_STATUS(lattio_attach(MPI_COMM_WORLD, mpitest_rank ? fh : MPI_FILE_NULL, LATTIO_MODE_READ,
                               PREFIX, NULL, &f), LATTIO_ERR_ARG);
    CHECK_INT(MPI_File_close(&fh), MPI_SUCCESS); /* still open after all of that */
    free(buf);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    image im = {0};
    expected(&im);
    write_side(&im);
    check_file("attach.lime", &im);
    read_side(&im);
    CHECK_INT(test_count_temporaries(), 0);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    free(im.b);
    return mpitest_finish();
}
