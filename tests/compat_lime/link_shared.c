/* link_shared: a C-LIME program built with only include/ on the include path
 * and linked only against the shared liblattio.  It writes one record and
 * reads it back, checking the header bytes on disk by hand. */
#include "lime.h"

#include <stdio.h>
#include <string.h>

#ifdef LATTIO_H
#error "lime.h must not pull in lattio.h"
#endif

static int fail(const char *what)
{
    fprintf(stderr, "link_shared: %s\n", what);
    return 1;
}

int main(void)
{
    FILE *f = fopen("link.lime", "w+b");
    if (!f) return fail("fopen");
    LimeWriter *w = limeCreateWriter(f);
    LimeRecordHeader *h = limeCreateHeader(1, 1, "link-test", 5);
    n_uint64_t n = 5;
    if (limeWriteRecordHeader(h, w) != LIME_SUCCESS) return fail("header");
    if (limeWriteRecordData("hello", &n, w) != LIME_SUCCESS || n != 5) return fail("data");
    limeDestroyHeader(h);
    limeDestroyWriter(w);
    fflush(f);

    unsigned char b[160];
    rewind(f);
    if (fread(b, 1, sizeof b, f) != 152) return fail("size");
    static const unsigned char head[16] = {0x45, 0x67, 0x89, 0xab, 0, 1, 0xc0, 0,
                                           0, 0, 0, 0, 0, 0, 0, 5};
    if (memcmp(b, head, 16) || strcmp((char *)b + 16, "link-test") ||
        memcmp(b + 144, "hello\0\0\0", 8))
        return fail("bytes on disk");

    rewind(f);
    LimeReader *r = limeCreateReader(f);
    char buf[8] = {0};
    n = sizeof buf;
    if (limeReaderNextRecord(r) != LIME_SUCCESS) return fail("next");
    if (strcmp(limeReaderType(r), "link-test") || limeReaderBytes(r) != 5)
        return fail("header read");
    if (limeReaderReadData(buf, &n, r) != LIME_SUCCESS || n != 5 || memcmp(buf, "hello", 5))
        return fail("read");
    if (limeReaderNextRecord(r) != LIME_EOF) return fail("eof");
    limeDestroyReader(r);
    fclose(f);
    printf("link_shared: ok\n");
    return 0;
}
