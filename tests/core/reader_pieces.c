/* reader_pieces.c -- payload reads in pieces, at offsets, seeks, lookup by
 * type, and state errors, checked against bytes sliced from the real file
 * independently of the reader. */
#include "testutil.h"

static unsigned char *whole;
static size_t whole_len;

static void pieces(lattio_lime_reader *r)
{
    /* t_dprec_ildg.lime: ildg-binary-data at header offset 1936, 147456 bytes */
    lattio_record_info info;
    CHECK_OK(lattio_lime_reader_find(r, "ildg-binary-data", 0, &info));
    CHECK_U64(info.offset, 1936);
    CHECK_U64(info.length, 147456);
    CHECK_U64(info.data_offset, 1936 + 144);
    unsigned char *buf = malloc(info.length + 100);
    size_t total = 0, got = 0, step = 1;
    do { /* odd, growing piece sizes */
        CHECK_OK(lattio_lime_reader_read(r, buf + total, step, &got));
        total += got;
        step = step * 3 + 1;
    } while (got > 0);
    CHECK_U64(total, 147456);
    CHECK(memcmp(buf, whole + 1936 + 144, 147456) == 0);
    /* at the end of the payload: 0 bytes, not an error */
    CHECK_OK(lattio_lime_reader_read(r, buf, 10, &got));
    CHECK_INT(got, 0);
    /* read_at does not move the position; seek does */
    CHECK_OK(lattio_lime_reader_read_at(r, 1000, buf, 24));
    CHECK(memcmp(buf, whole + 2080 + 1000, 24) == 0);
    CHECK_OK(lattio_lime_reader_seek(r, 147450));
    CHECK_OK(lattio_lime_reader_read(r, buf, 100, &got));
    CHECK_INT(got, 6);
    CHECK(memcmp(buf, whole + 2080 + 147450, 6) == 0);
    /* beyond the record: errors, nothing read past it */
    CHECK_STATUS(lattio_lime_reader_read_at(r, 147450, buf, 7), LATTIO_ERR_RECORD_OVERRUN);
    CHECK_STATUS(lattio_lime_reader_read_at(r, UINT64_MAX, buf, 1), LATTIO_ERR_RECORD_OVERRUN);
    CHECK_STATUS(lattio_lime_reader_seek(r, 147457), LATTIO_ERR_RECORD_OVERRUN);
    CHECK_OK(lattio_lime_reader_seek(r, 147456));
    free(buf);
}

static void lookup(lattio_lime_reader *r)
{
    lattio_record_info info, cur;
    CHECK_OK(lattio_lime_reader_find(r, "scidac-checksum", 0, &info));
    CHECK_U64(info.offset, 149536);
    CHECK_OK(lattio_lime_reader_current(r, &cur));
    CHECK_U64(cur.offset, 149536);
    char text[137];
    CHECK_OK(lattio_lime_reader_read_at(r, 0, text, 136));
    CHECK(memcmp(text, whole + 149536 + 144, 136) == 0);
    CHECK(strstr(text, "<suma>e6ca40a6</suma>") != NULL);
    CHECK_STATUS(lattio_lime_reader_find(r, "scidac-checksum", 1, &info), LATTIO_ERR_NOT_FOUND);
    CHECK_STATUS(lattio_lime_reader_find(r, "no-such-type", 0, &info), LATTIO_ERR_NOT_FOUND);
    /* after a failed search no record is current */
    CHECK_STATUS(lattio_lime_reader_current(r, &cur), LATTIO_ERR_STATE);
    CHECK_STATUS(lattio_lime_reader_read_at(r, 0, text, 1), LATTIO_ERR_STATE);
    /* the first record again after a rewind */
    CHECK_OK(lattio_lime_reader_rewind(r));
    CHECK_OK(lattio_lime_reader_next(r, &info));
    CHECK_STR(info.type, "scidac-private-file-xml");
    CHECK_U64(lattio_lime_reader_file_size(r), whole_len);
}

static void arguments(void)
{
    lattio_lime_reader *r = (lattio_lime_reader *)&r;
    CHECK_STATUS(lattio_lime_reader_open("does/not/exist.lime", &r), LATTIO_ERR_OPEN);
    CHECK(r == NULL);
    CHECK_STATUS(lattio_lime_reader_open(NULL, &r), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_lime_reader_next(NULL, NULL), LATTIO_ERR_ARG);
    lattio_lime_reader_close(NULL);
}

int main(void)
{
    whole = test_slurp(test_data("t_dprec_ildg.lime"), &whole_len);
    CHECK(whole && whole_len == 149816);
    lattio_lime_reader *r = NULL;
    CHECK_OK(lattio_lime_reader_open(test_data("t_dprec_ildg.lime"), &r));
    if (r && whole) {
        pieces(r);
        lookup(r);
    }
    lattio_lime_reader_close(r);
    arguments();
    free(whole);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
