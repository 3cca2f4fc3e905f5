/* bad_input: hostile files through the C-LIME reader.  Each case asserts
 * the specific status: bad magic, version 2 and 0 (C-LIME exits the
 * process; lattio returns LIME_ERR_READ), a header cut short, a payload cut
 * short, lengths too large to address, an unterminated 128-byte type
 * (accepted, as C-LIME writes such headers), reserved flag bits (ignored). */
#include "limecheck.h"

static unsigned char img[4096];

/* Write img[0, n) to a file and open a reader on it. */
static LimeReader *open_img(size_t n, FILE **f)
{
    CHECK_INT(lc_spit("bad.lime", img, n), 0);
    *f = fopen("bad.lime", "rb");
    LimeReader *r = limeCreateReader(*f);
    CHECK(r != NULL);
    return r;
}

static void done(LimeReader *r, FILE *f)
{
    limeDestroyReader(r);
    if (f) fclose(f);
}

/* The first record's status, on a fresh reader. */
static int first_status(size_t n)
{
    FILE *f;
    LimeReader *r = open_img(n, &f);
    int st = limeReaderNextRecord(r);
    if (st != LIME_SUCCESS) CHECK(limeReaderType(r) == NULL);
    done(r, f);
    return st;
}

static void one_good(size_t *n)
{
    *n = 0;
    lc_record(img, n, "good", "payload", 7, 1, 1);
}

int main(void)
{
    size_t n;
    /* empty file: a clean end */
    CHECK_INT(first_status(0), LIME_EOF);

    /* bad magic, first record and second record (repeatable) */
    one_good(&n);
    img[0] ^= 1;
    CHECK_INT(first_status(n), LIME_ERR_READ);
    one_good(&n);
    lc_record(img, &n, "second", "xy", 2, 1, 1);
    img[152 + 3] = 0;
    FILE *f;
    LimeReader *r = open_img(n, &f);
    CHECK_INT(limeReaderNextRecord(r), LIME_SUCCESS);
    CHECK_INT(limeReaderNextRecord(r), LIME_ERR_READ);
    CHECK_INT(limeReaderNextRecord(r), LIME_ERR_READ);
    done(r, f);

    /* versions other than 1 */
    one_good(&n);
    img[5] = 2;
    CHECK_INT(first_status(n), LIME_ERR_READ);
    img[5] = 0;
    CHECK_INT(first_status(n), LIME_ERR_READ);
    img[4] = 1, img[5] = 1;
    CHECK_INT(first_status(n), LIME_ERR_READ);

    /* header cut short, alone or after a complete record */
    one_good(&n);
    CHECK_INT(first_status(100), LIME_ERR_READ);
    CHECK_INT(first_status(1), LIME_ERR_READ);
    lc_header(img + n, "next", 5, 1, 1);
    r = open_img(n + 143, &f);
    CHECK_INT(limeReaderNextRecord(r), LIME_SUCCESS);
    CHECK_INT(limeReaderNextRecord(r), LIME_ERR_READ);
    done(r, f);

    /* payload cut short: the header reads, the data read fails, the next
     * record is the end of the file */
    n = 0;
    lc_record(img, &n, "long", "0123456789", 10, 1, 1);
    img[15] = 200; /* claims 200 bytes, holds 10 + padding */
    r = open_img(n, &f);
    CHECK_INT(limeReaderNextRecord(r), LIME_SUCCESS);
    CHECK_U64(limeReaderBytes(r), 200);
    unsigned char buf[256];
    n_uint64_t got = 200;
    CHECK_INT(limeReaderReadData(buf, &got, r), LIME_ERR_READ);
    CHECK_U64(got, 16);
    CHECK(memcmp(buf, "0123456789", 10) == 0);
    CHECK_INT(limeReaderNextRecord(r), LIME_EOF);
    done(r, f);

    /* lengths near and beyond 2^63 */
    one_good(&n);
    memset(img + 8, 0xff, 8);
    CHECK_INT(first_status(n), LIME_ERR_READ);
    memset(img + 8, 0, 8);
    img[8] = 0x80;
    CHECK_INT(first_status(n), LIME_ERR_READ);
    img[8] = 0x7f, memset(img + 9, 0xff, 7);
    CHECK_INT(first_status(n), LIME_ERR_READ);
    /* 2^62: addressable, so the header is accepted; reading fails cleanly */
    memset(img + 8, 0, 8);
    img[8] = 0x40;
    r = open_img(n, &f);
    CHECK_INT(limeReaderNextRecord(r), LIME_SUCCESS);
    got = 100;
    CHECK_INT(limeReaderReadData(buf, &got, r), LIME_ERR_READ);
    CHECK_U64(got, 8); /* the payload and padding actually present */
    int st = limeReaderNextRecord(r);
    CHECK(st == LIME_EOF || st == LIME_ERR_SEEK); /* file systems differ */
    done(r, f);

    /* unterminated type: all 128 bytes are the type */
    one_good(&n);
    memset(img + 16, 'T', 128);
    r = open_img(n, &f);
    CHECK_INT(limeReaderNextRecord(r), LIME_SUCCESS);
    CHECK(limeReaderType(r) && strlen(limeReaderType(r)) == 128);
    got = 7;
    CHECK_INT(limeReaderReadData(buf, &got, r), LIME_SUCCESS);
    CHECK(memcmp(buf, "payload", 7) == 0);
    done(r, f);

    /* reserved bits of the flag byte and the reserved byte are ignored */
    one_good(&n);
    img[6] |= 0x3f, img[7] = 0xff;
    r = open_img(n, &f);
    CHECK_INT(limeReaderNextRecord(r), LIME_SUCCESS);
    CHECK_INT(limeReaderMBFlag(r), 1);
    CHECK_INT(limeReaderMEFlag(r), 1);
    CHECK_INT(limeReaderNextRecord(r), LIME_EOF);
    done(r, f);
    return lc_finish();
}
