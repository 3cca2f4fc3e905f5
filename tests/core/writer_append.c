/* writer_append.c -- appending records to files written by other codes. */
#include "testutil.h"

static void copy_file(const char *from, const char *to, size_t drop)
{
    size_t len = 0;
    unsigned char *p = test_slurp(from, &len);
    FILE *f = fopen(to, "wb");
    fwrite(p, 1, len - drop, f);
    fclose(f);
    free(p);
}

static void append_to_real_file(void)
{
    size_t olen = 0, nlen = 0;
    unsigned char *orig = test_slurp(test_data("unity.lime"), &olen);
    copy_file(test_data("unity.lime"), "unity.lime", 0);
    lattio_lime_writer *w = NULL;
    CHECK_OK(lattio_lime_writer_open("unity.lime", LATTIO_LIME_APPEND, &w));
    CHECK_U64(lattio_lime_writer_offset(w), olen);
    CHECK_OK(lattio_lime_writer_record(w, "appended", "xyz", 3, 1, 1));
    CHECK_OK(lattio_lime_writer_close(w));
    unsigned char *now = test_slurp("unity.lime", &nlen);
    CHECK_INT(nlen, olen + 152);
    CHECK(now && orig && memcmp(now, orig, olen) == 0);
    unsigned char h[144];
    lattio_lime_header_encode(h, "appended", 3, 1, 1);
    CHECK(now && memcmp(now + olen, h, 144) == 0 && memcmp(now + olen + 144, "xyz\0\0\0\0\0", 8) == 0);
    size_t count = 9, nrec = 0;
    CHECK_OK(lattio_lime_check("unity.lime", NULL, 0, &count, &nrec));
    CHECK_INT(nrec, 5);
    free(orig);
    free(now);
}

/* A last record without its padding: appending fills the padding in. */
static void append_after_missing_padding(void)
{
    copy_file(test_data("lime_writer_test1.lime"), "short.lime", 5);
    lattio_lime_writer *w = NULL;
    CHECK_OK(lattio_lime_writer_open("short.lime", LATTIO_LIME_APPEND, &w));
    CHECK_U64(lattio_lime_writer_offset(w), 888);
    CHECK_OK(lattio_lime_writer_record(w, "more", "1234567", 7, 1, 1));
    CHECK_OK(lattio_lime_writer_close(w));
    size_t count = 9, nrec = 0;
    CHECK_OK(lattio_lime_check("short.lime", NULL, 0, &count, &nrec));
    CHECK_INT(count, 0);
    CHECK_INT(nrec, 6);
}

static void append_refuses_damaged_file(void)
{
    copy_file(test_data("unity.lime"), "cut.lime", 1000);
    lattio_lime_writer *w = NULL;
    CHECK_STATUS(lattio_lime_writer_open("cut.lime", LATTIO_LIME_APPEND, &w), LATTIO_ERR_TRUNCATED_PAYLOAD);
    CHECK(w == NULL);
    size_t len = 0;
    free(test_slurp("cut.lime", &len));
    CHECK_INT(len, 148816 - 1000); /* untouched */
    copy_file(test_data("t_nersc.cfg"), "nersc.cfg", 0);
    CHECK_STATUS(lattio_lime_writer_open("nersc.cfg", LATTIO_LIME_APPEND, &w), LATTIO_ERR_BAD_MAGIC);
}

static void append_creates(void)
{
    lattio_lime_writer *w = NULL;
    remove("new.lime"); /* left over from an earlier run */
    CHECK_OK(lattio_lime_writer_open("new.lime", LATTIO_LIME_APPEND, &w));
    CHECK_U64(lattio_lime_writer_offset(w), 0);
    CHECK_OK(lattio_lime_writer_record(w, "a", "b", 1, 1, 1));
    CHECK_OK(lattio_lime_writer_close(w));
    size_t len = 0;
    free(test_slurp("new.lime", &len));
    CHECK_INT(len, 152);
}

int main(void)
{
    append_to_real_file();
    append_after_missing_padding();
    append_refuses_damaged_file();
    append_creates();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
