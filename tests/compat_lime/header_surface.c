/* header_surface: every name a client of C-LIME 1.3.3 can use from the
 * headers C-LIME installs (lime.h, lime_binary_header.h, lime_config.h,
 * lime_defs.h, lime_fixed_types.h, lime_fseeko.h, lime_header.h,
 * lime_reader.h, lime_utils.h, lime_writer.h, dcap-overload.h), the list
 * read off C-LIME's headers.  Each function is assigned to a pointer of
 * C-LIME's exact type, so a signature that differs fails to compile; the
 * macros are used as C-LIME's examples and QIO use them (DCAP(fopen),
 * DCAPL(fseeko), _LIME_UNUSED_PARAM); the lime_binary_header.h buffer and
 * field pointers address the right bytes.  A program that includes lime.h
 * alone sees dcap-overload.h, lime_config.h and _LIME_UNUSED_PARAM, as with
 * C-LIME. */
#include "lime.h"

/* lime.h alone brings these (C-LIME's lime.h includes them) */
#if !defined(DCAP) || !defined(DCAPL) || !defined(_LIME_UNUSED_PARAM) || !defined(LIME_MAGIC_NO)
#error "lime.h must define DCAP, DCAPL, _LIME_UNUSED_PARAM and the lime_defs.h constants"
#endif

#include "dcap-overload.h"
#include "lime_binary_header.h"
#include "lime_config.h"
#include "lime_defs.h"
#include "lime_fixed_types.h"
#include "lime_fseeko.h"
#include "lime_header.h"
#include "lime_reader.h"
#include "lime_utils.h"
#include "lime_writer.h"

#include "limecheck.h"

#include <string.h>

static int unused_param(int p)
{
    _LIME_UNUSED_PARAM(p);
    return 0;
}

int main(void)
{
    /* lime_header.h, lime_reader.h, lime_writer.h: exact signatures */
    LimeRecordHeader *(*create_header)(int, int, char *, n_uint64_t) = limeCreateHeader;
    void (*destroy_header)(LimeRecordHeader *) = limeDestroyHeader;
    LimeReader *(*create_reader)(FILE *) = limeCreateReader;
    int (*set_reader_pointer)(LimeReader *, off_t) = limeSetReaderPointer;
    off_t (*get_reader_pointer)(LimeReader *) = limeGetReaderPointer;
    void (*destroy_reader)(LimeReader *) = limeDestroyReader;
    int (*next_record)(LimeReader *) = limeReaderNextRecord;
    int (*mb_flag)(LimeReader *) = limeReaderMBFlag;
    int (*me_flag)(LimeReader *) = limeReaderMEFlag;
    char *(*reader_type)(LimeReader *) = limeReaderType;
    n_uint64_t (*reader_bytes)(LimeReader *) = limeReaderBytes;
    size_t (*pad_bytes)(LimeReader *) = limeReaderPadBytes;
    int (*read_data)(void *, n_uint64_t *, LimeReader *) = limeReaderReadData;
    int (*reader_close)(LimeReader *) = limeReaderCloseRecord;
    int (*reader_seek)(LimeReader *, off_t, int) = limeReaderSeek;
    int (*reader_set_state)(LimeReader *, LimeReader *) = limeReaderSetState;
    int (*eom)(LimeReader *) = limeEOM;
    LimeWriter *(*create_writer)(FILE *) = limeCreateWriter;
    int (*destroy_writer)(LimeWriter *) = limeDestroyWriter;
    int (*write_header)(LimeRecordHeader *, LimeWriter *) = limeWriteRecordHeader;
    int (*write_data)(void *, n_uint64_t *, LimeWriter *) = limeWriteRecordData;
    int (*writer_close)(LimeWriter *) = limeWriterCloseRecord;
    int (*writer_seek)(LimeWriter *, off_t, int) = limeWriterSeek;
    int (*writer_set_state)(LimeWriter *, LimeWriter *) = limeWriterSetState;
    /* lime_utils.h */
    int (*padding)(size_t) = lime_padding;
    n_uint64_t (*be64)(n_uint64_t) = big_endian_long_long;
    n_uint32_t (*be32)(n_uint32_t) = big_endian_long;
    n_uint16_t (*be16)(n_uint16_t) = big_endian_short;
    void *fns[] = {(void *)&create_header, (void *)&destroy_header, (void *)&create_reader,
                   (void *)&set_reader_pointer, (void *)&get_reader_pointer, (void *)&destroy_reader,
                   (void *)&next_record, (void *)&mb_flag, (void *)&me_flag, (void *)&reader_type,
                   (void *)&reader_bytes, (void *)&pad_bytes, (void *)&read_data, (void *)&reader_close,
                   (void *)&reader_seek, (void *)&reader_set_state, (void *)&eom, (void *)&create_writer,
                   (void *)&destroy_writer, (void *)&write_header, (void *)&write_data,
                   (void *)&writer_close, (void *)&writer_seek, (void *)&writer_set_state,
                   (void *)&padding, (void *)&be64, (void *)&be32, (void *)&be16};
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) CHECK(fns[i] != NULL);

    /* the structures' fields, by name and type */
    LimeRecordHeader h = {1, 1, 0, (char *)"t", 0};
    CHECK(h.lime_version == 1 && h.MB_flag == 1 && h.ME_flag == 0 && h.type[0] == 't' && h.data_length == 0);
    LimeReader r;
    memset(&r, 0, sizeof r);
    CHECK(r.first_read == 0 && r.is_last == 0 && r.header_nextP == 0 && r.fp == NULL &&
          r.curr_header == NULL && r.bytes_left == 0 && r.bytes_total == 0 && r.rec_ptr == 0 &&
          r.rec_start == 0 && r.bytes_pad == 0);
    LimeWriter w;
    memset(&w, 0, sizeof w);
    CHECK(w.first_record == 0 && w.last_written == 0 && w.fp == NULL && w.header_nextP == 0 &&
          w.bytes_total == 0 && w.bytes_left == 0 && w.rec_ptr == 0 && w.rec_start == 0 &&
          w.bytes_pad == 0 && w.isLastP == 0);

    /* dcap-overload.h: the plain calls without dCache, as C-LIME's examples
     * and QIO spell them (DCAPL(fopen), DCAP(fread/fwrite/fclose)) */
    FILE *fp = DCAP(fopen)("surface.lime", "wb+");
    CHECK(fp != NULL);
    if (fp) {
        CHECK(DCAP(fwrite)("lime", 1, 4, fp) == 4);
        CHECK(DCAPL(fseeko)(fp, 0, SEEK_SET) == 0);
        CHECK(DCAPL(ftello)(fp) == 0);
        char got[4];
        CHECK(DCAP(fread)(got, 1, 4, fp) == 4 && memcmp(got, "lime", 4) == 0);
        CHECK(DCAP(fclose)(fp) == 0);
    }
    fp = DCAPL(fopen)("surface.lime", "rb");
    CHECK(fp != NULL && DCAP(fclose)(fp) == 0);
    CHECK(unused_param(7) == 0);

    /* lime_binary_header.h: the buffer and where the fields are */
    CHECK_INT(sizeof lime_header, 8 * MAX_HDR64_PAD);
    CHECK(MAX_HDR64 == 18 && LIME_HDR_LENGTH == 144 && MB_MASK == 0x80 && ME_MASK == 0x40);
    CHECK((unsigned char *)lime_hdr_magic_no == &lime_header.uchr[0]);
    CHECK((unsigned char *)lime_hdr_version == &lime_header.uchr[4]);
    CHECK(lime_hdr_mbme == &lime_header.uchr[6]);
    CHECK((unsigned char *)lime_hdr_data_len == &lime_header.uchr[8]);
    CHECK(lime_hdr_rec_type == &lime_header.uchr[16]);
    CHECK(MAX_LIME_HDR_REC_TYPE == 128 && LIME_HDR_LENGTH - 16 == MAX_LIME_HDR_REC_TYPE);

    /* lime_config.h, lime_defs.h, lime_fixed_types.h */
    const char *pkg[] = {LIME_PACKAGE, LIME_PACKAGE_BUGREPORT, LIME_PACKAGE_NAME, LIME_PACKAGE_STRING,
                         LIME_PACKAGE_TARNAME, LIME_PACKAGE_VERSION};
    for (int i = 0; i < 6; i++) CHECK(pkg[i] != NULL);
    CHECK(strncmp(LIME_PACKAGE_VERSION, "1.3", 3) == 0);
    CHECK(LIME_MAGIC_NO == 1164413355 && LIME_VERSION == 1u && LIME_MAX_BUFSIZE == 2147483647u);
    CHECK(LIME_SUCCESS == 0 && LIME_ERR_LAST_NOT_WRITTEN == -1 && LIME_ERR_PARAM == -2 &&
          LIME_ERR_HEADER_NEXT == -3 && LIME_LAST_REC_WRITTEN == -4 && LIME_ERR_WRITE == -5 &&
          LIME_EOR == -6 && LIME_EOF == -7 && LIME_ERR_READ == -8 && LIME_ERR_SEEK == -9 &&
          LIME_ERR_MBME == -10 && LIME_ERR_CLOSE == -11);
    CHECK(sizeof(n_uint16_t) == 2 && sizeof(n_uint32_t) == 4 && sizeof(n_uint64_t) == 8);
    return lc_finish();
}
