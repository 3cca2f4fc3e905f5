/* header_surface: every name a client of Lemon can use from the headers
 * Lemon installs (lemon.h, lemon_binheader.h, lemon_defines.h,
 * lemon_header.h, lemon_reader.h, lemon_writer.h), the list read off
 * Lemon's headers.  Each function is assigned to a pointer of Lemon's exact
 * type, so a signature that differs fails to compile; the constants have
 * Lemon's values; the structures have Lemon's field names; the
 * lemon_binheader.h buffer and field pointers address the right bytes.
 * (One documented difference: LemonReader.bytes_wanted is a size_t, so a
 * pending read may exceed 2 GiB.) */
#include "lemon.h"
#include "lemon_binheader.h"
#include "lemon_defines.h"
#include "lemon_header.h"
#include "lemon_reader.h"
#include "lemon_writer.h"

#include "mpitest.h"

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    LemonRecordHeader *(*create_header)(int, int, char const *, MPI_Offset) = lemonCreateHeader;
    void (*destroy_header)(LemonRecordHeader *) = lemonDestroyHeader;
    LemonReader *(*create_reader)(MPI_File *, MPI_Comm) = lemonCreateReader;
    void (*destroy_reader)(LemonReader *) = lemonDestroyReader;
    int (*set_reader_pointer)(LemonReader *, MPI_Offset) = lemonSetReaderPointer;
    MPI_Offset (*get_reader_pointer)(LemonReader *) = lemonGetReaderPointer;
    int (*next_record)(LemonReader *) = lemonReaderNextRecord;
    int (*mb_flag)(LemonReader *) = lemonReaderMBFlag;
    int (*me_flag)(LemonReader *) = lemonReaderMEFlag;
    char const *(*reader_type)(LemonReader *) = lemonReaderType;
    MPI_Offset (*reader_bytes)(LemonReader *) = lemonReaderBytes;
    MPI_Offset (*pad_bytes)(LemonReader *) = lemonReaderPadBytes;
    int (*read_data)(void *, MPI_Offset *, LemonReader *) = lemonReaderReadData;
    int (*reader_close)(LemonReader *) = lemonReaderCloseRecord;
    int (*reader_seek)(LemonReader *, MPI_Offset, int) = lemonReaderSeek;
    int (*reader_set_state)(LemonReader *, LemonReader const *) = lemonReaderSetState;
    int (*eom)(LemonReader *) = lemonEOM;
    int (*read_lat)(LemonReader *, void *, MPI_Offset, int const *) = lemonReadLatticeParallel;
    int (*read_lat_m)(LemonReader *, void *, MPI_Offset, int const *, int const *) =
        lemonReadLatticeParallelMapped;
    int (*read_lat_nb)(LemonReader *, void *, MPI_Offset, int const *) =
        lemonReadLatticeParallelNonBlocking;
    int (*read_lat_nbm)(LemonReader *, void *, MPI_Offset, int const *, int const *) =
        lemonReadLatticeParallelNonBlockingMapped;
    int (*read_nb)(void *, MPI_Offset const *, LemonReader *) = lemonReaderReadDataNonBlocking;
    int (*finish_reading)(LemonReader *) = lemonFinishReading;
    LemonWriter *(*create_writer)(MPI_File *, MPI_Comm) = lemonCreateWriter;
    int (*destroy_writer)(LemonWriter *) = lemonDestroyWriter;
    int (*write_header)(LemonRecordHeader const *, LemonWriter *) = lemonWriteRecordHeader;
    int (*write_data)(void *, MPI_Offset *, LemonWriter *) = lemonWriteRecordData;
    int (*writer_close)(LemonWriter *) = lemonWriterCloseRecord;
    int (*writer_seek)(LemonWriter *, MPI_Offset, int) = lemonWriterSeek;
    int (*writer_set_state)(LemonWriter *, LemonWriter const *) = lemonWriterSetState;
    int (*write_lat)(LemonWriter *, void *, MPI_Offset, int const *) = lemonWriteLatticeParallel;
    int (*write_lat_nb)(LemonWriter *, void *, MPI_Offset, int const *) =
        lemonWriteLatticeParallelNonBlocking;
    int (*write_lat_m)(LemonWriter *, void *, MPI_Offset, int const *, int const *) =
        lemonWriteLatticeParallelMapped;
    int (*write_lat_nbm)(LemonWriter *, void *, MPI_Offset, int const *, int const *) =
        lemonWriteLatticeParallelNonBlockingMapped;
    int (*write_nb)(void *, MPI_Offset const *, LemonWriter *) = lemonWriteRecordDataNonBlocking;
    int (*finish_writing)(LemonWriter *) = lemonFinishWriting;
    void *fns[] = {(void *)&create_header, (void *)&destroy_header, (void *)&create_reader,
                   (void *)&destroy_reader, (void *)&set_reader_pointer, (void *)&get_reader_pointer,
                   (void *)&next_record, (void *)&mb_flag, (void *)&me_flag, (void *)&reader_type,
                   (void *)&reader_bytes, (void *)&pad_bytes, (void *)&read_data, (void *)&reader_close,
                   (void *)&reader_seek, (void *)&reader_set_state, (void *)&eom, (void *)&read_lat,
                   (void *)&read_lat_m, (void *)&read_lat_nb, (void *)&read_lat_nbm, (void *)&read_nb,
                   (void *)&finish_reading, (void *)&create_writer, (void *)&destroy_writer,
                   (void *)&write_header, (void *)&write_data, (void *)&writer_close,
                   (void *)&writer_seek, (void *)&writer_set_state, (void *)&write_lat,
                   (void *)&write_lat_nb, (void *)&write_lat_m, (void *)&write_lat_nbm,
                   (void *)&write_nb, (void *)&finish_writing};
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) CHECK(fns[i] != NULL);

    /* constants and codes */
    CHECK(LEMON_MAGIC_NO == 0x456789ab && LEMON_VERSION == 1 && LEMON_MAX_BUFSIZE == 2147483647);
    CHECK(HDR_SIZE_BYTES == 144 && MB_MASK == 0x80 && ME_MASK == 0x40 && MAX_LEMON_HDR_REC_TYPE == 128);
    enum LEMON_Error_codes codes[] = {LEMON_SUCCESS, LEMON_ERR_LAST_NOT_WRITTEN, LEMON_ERR_PARAM,
                                      LEMON_ERR_HEADER_NEXT, LEMON_LAST_REC_WRITTEN, LEMON_ERR_WRITE,
                                      LEMON_EOR, LEMON_EOF, LEMON_ERR_READ, LEMON_ERR_SEEK,
                                      LEMON_ERR_MBME, LEMON_ERR_CLOSE};
    for (int i = 0; i < 12; i++) CHECK_INT(codes[i], -i);

    /* the structures' fields, by name */
    LemonRecordHeader h = {1, 1, 0, (char *)"t", 8};
    CHECK(h.lemon_version == 1 && h.MB_flag == 1 && h.ME_flag == 0 && h.type[0] == 't' && h.data_length == 8);
    LemonReader r;
    memset(&r, 0, sizeof r);
    CHECK(r.fp == NULL && r.curr_header == NULL && r.my_rank == 0 && r.off == 0 && r.pos == 0 &&
          r.is_last == 0 && r.is_awaiting_header == 0 && r.is_busy == 0 && r.is_striped == 0 &&
          r.buffer == NULL && r.bytes_wanted == 0);
    r.cartesian = MPI_COMM_NULL;
    LemonWriter w;
    memset(&w, 0, sizeof w);
    CHECK(w.fp == NULL && w.my_rank == 0 && w.off == 0 && w.pos == 0 && w.is_awaiting_header == 0 &&
          w.is_busy == 0 && w.is_collective == 0 && w.is_first_record == 0 && w.is_last == 0 &&
          w.is_last_written == 0 && w.buffer == NULL && w.bytes_wanted == 0 && w.data_length == 0);
    w.cartesian = MPI_COMM_NULL;
    w.request = MPI_REQUEST_NULL;

    /* lemon_binheader.h */
    CHECK_INT(sizeof lemon_header, HDR_SIZE_BYTES);
    CHECK((unsigned char *)lemon_hdr_magic_no == &lemon_header.uchr[0]);
    CHECK((unsigned char *)lemon_hdr_version == &lemon_header.uchr[4]);
    CHECK((unsigned char *)lemon_hdr_data_len == &lemon_header.uchr[8]);
    CHECK(lemon_hdr_mbme == &lemon_header.uchr[6] && lemon_hdr_rec_type == &lemon_header.uchr[16]);
    return mpitest_finish();
}
