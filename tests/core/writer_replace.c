/* writer_replace.c -- replacing a file: the previous file stays intact
 * until a successful close, and whenever the write fails; no temporary file
 * is left behind; record lengths are enforced. */
#include "testutil.h"

#include <unistd.h>

#include <sys/stat.h>

static int file_is(const char *path, const char *content)
{
    size_t len = 0;
    unsigned char *p = test_slurp(path, &len);
    int same = p && len == strlen(content) && memcmp(p, content, len) == 0;
    free(p);
    return same;
}

static void make_old(void)
{
    FILE *f = fopen("data.lime", "wb");
    fputs("previous contents", f);
    fclose(f);
}

static void failed_write_keeps_old(void)
{
    make_old();
    lattio_lime_writer *w = NULL;
    CHECK_OK(lattio_lime_writer_open("data.lime", LATTIO_LIME_CREATE, &w));
    CHECK_INT(test_count_temporaries(), 1);
    CHECK_OK(lattio_lime_writer_begin(w, "t", 10, 1, 1));
    CHECK_STATUS(lattio_lime_writer_write(w, "0123456789A", 11), LATTIO_ERR_RECORD_OVERRUN);
    /* the refusal poisons the writer: the first error is what close returns */
    CHECK_STATUS(lattio_lime_writer_write(w, "01234", 5), LATTIO_ERR_STATE);
    CHECK_STATUS(lattio_lime_writer_end(w), LATTIO_ERR_STATE);
    CHECK_STATUS(lattio_lime_writer_begin(w, "u", 1, 1, 1), LATTIO_ERR_STATE);
    CHECK(file_is("data.lime", "previous contents"));
    CHECK_STATUS(lattio_lime_writer_close(w), LATTIO_ERR_RECORD_OVERRUN);
    CHECK(file_is("data.lime", "previous contents"));
    CHECK_INT(test_count_temporaries(), 0);
    /* a record closed short */
    CHECK_OK(lattio_lime_writer_open("data.lime", LATTIO_LIME_CREATE, &w));
    CHECK_OK(lattio_lime_writer_begin(w, "t", 10, 1, 1));
    CHECK_OK(lattio_lime_writer_write(w, "01234", 5));
    CHECK_STATUS(lattio_lime_writer_end(w), LATTIO_ERR_RECORD_SHORT);
    CHECK_STATUS(lattio_lime_writer_close(w), LATTIO_ERR_RECORD_SHORT);
    CHECK(file_is("data.lime", "previous contents"));
    CHECK_INT(test_count_temporaries(), 0);
}

static void successful_write_replaces(void)
{
    make_old();
    lattio_lime_writer *w = NULL;
    CHECK_OK(lattio_lime_writer_open("data.lime", LATTIO_LIME_CREATE | LATTIO_LIME_DURABLE, &w));
    CHECK_OK(lattio_lime_writer_record(w, "t", "abc", 3, 1, 1));
    CHECK(file_is("data.lime", "previous contents"));
    CHECK_OK(lattio_lime_writer_close(w));
    size_t len = 0;
    unsigned char *p = test_slurp("data.lime", &len);
    CHECK_INT(len, 152);
    CHECK(p && memcmp(p + 144, "abc\0\0\0\0\0", 8) == 0);
    free(p);
    CHECK_INT(test_count_temporaries(), 0);
    struct stat st;
    CHECK(stat("data.lime", &st) == 0 && (st.st_mode & 0444) != 0);
}

static void in_place(void)
{
    make_old();
    lattio_lime_writer *w = NULL;
    CHECK_OK(lattio_lime_writer_open("data.lime", LATTIO_LIME_CREATE | LATTIO_LIME_IN_PLACE, &w));
    CHECK_INT(test_count_temporaries(), 0);
    CHECK(!file_is("data.lime", "previous contents")); /* truncated at once */
    CHECK_OK(lattio_lime_writer_record(w, "t", "abc", 3, 1, 1));
    CHECK_OK(lattio_lime_writer_close(w));
}

static void bad_arguments(void)
{
    lattio_lime_writer *w = NULL;
    CHECK_STATUS(lattio_lime_writer_open("no/such/dir/x.lime", LATTIO_LIME_CREATE, &w), LATTIO_ERR_OPEN);
    CHECK(w == NULL);
    CHECK_INT(test_count_temporaries(), 0);
    CHECK_STATUS(lattio_lime_writer_open("x.lime", 7, &w), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_lime_writer_open("", LATTIO_LIME_CREATE, &w), LATTIO_ERR_ARG);
    CHECK_OK(lattio_lime_writer_open("x.lime", LATTIO_LIME_CREATE, &w));
    char longtype[200];
    memset(longtype, 'q', sizeof longtype);
    longtype[150] = '\0';
    CHECK_STATUS(lattio_lime_writer_write(NULL, "a", 1), LATTIO_ERR_ARG);
    CHECK_OK(lattio_lime_writer_close(w)); /* no records: an empty, valid file */
    CHECK(file_is("x.lime", ""));
    /* a refused type or length: close returns it and publishes nothing */
    CHECK_OK(lattio_lime_writer_open("y.lime", LATTIO_LIME_CREATE, &w));
    CHECK_STATUS(lattio_lime_writer_begin(w, longtype, 1, 1, 1), LATTIO_ERR_TYPE_TOO_LONG);
    CHECK_STATUS(lattio_lime_writer_write(w, "a", 1), LATTIO_ERR_STATE);
    CHECK_STATUS(lattio_lime_writer_end(w), LATTIO_ERR_STATE);
    CHECK_STATUS(lattio_lime_writer_record(w, "t", "a", 1, 1, 1), LATTIO_ERR_STATE);
    CHECK_STATUS(lattio_lime_writer_close(w), LATTIO_ERR_TYPE_TOO_LONG);
    CHECK(access("y.lime", F_OK) != 0);
    CHECK_OK(lattio_lime_writer_open("y.lime", LATTIO_LIME_CREATE, &w));
    CHECK_STATUS(lattio_lime_writer_begin(w, "t", UINT64_MAX, 1, 1), LATTIO_ERR_LENGTH_OVERFLOW);
    CHECK_STATUS(lattio_lime_writer_close(w), LATTIO_ERR_LENGTH_OVERFLOW);
    CHECK(access("y.lime", F_OK) != 0);
    CHECK_INT(test_count_temporaries(), 0);
    CHECK_OK(lattio_lime_writer_close(NULL));
}

int main(void)
{
    failed_write_keeps_old();
    successful_write_replaces();
    in_place();
    bad_arguments();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
