/* write_and_read.c -- lattio's serial LIME API in one page.
 * Run me:  build/examples/example_write_and_read [FILE]
 * Writes a two-message LIME file (metadata text, then a binary record
 * written in pieces), reads it back by type, and checks its structure. */
#include "lattio.h"

#include <stdio.h>
#include <string.h>

static int fail(const char *what, int rc)
{
    fprintf(stderr, "example: %s: %s (%s)\n", what, lattio_strerror(rc), lattio_error_name(rc));
    return 1;
}

static int write_file(const char *path)
{
    static const char meta[] = "<note>written by lattio's example</note>";
    double row[8];
    lattio_lime_writer *w = NULL;
    int rc = lattio_lime_writer_open(path, LATTIO_LIME_CREATE, &w);
    if (rc < 0) return fail("open for writing", rc);
    rc = lattio_lime_writer_record(w, "example-xml", meta, strlen(meta), 1, 1);
    if (rc == LATTIO_OK) rc = lattio_lime_writer_begin(w, "example-binary", 4 * sizeof row, 1, 1);
    for (int k = 0; k < 4 && rc == LATTIO_OK; k++) { /* the payload in four pieces */
        for (int i = 0; i < 8; i++) row[i] = k + i / 8.0;
        rc = lattio_lime_writer_write(w, row, sizeof row);
    }
    if (rc == LATTIO_OK) rc = lattio_lime_writer_end(w);
    int rc2 = lattio_lime_writer_close(w); /* renames the finished file into place */
    if (rc < 0) return fail("write", rc);
    return rc2 < 0 ? fail("close", rc2) : 0;
}

static int read_file(const char *path)
{
    lattio_lime_reader *r = NULL;
    lattio_record_info info;
    double row[8];
    int rc = lattio_lime_reader_open(path, &r);
    if (rc < 0) return fail("open for reading", rc);
    rc = lattio_lime_reader_find(r, "example-binary", 0, &info);
    if (rc == LATTIO_OK) rc = lattio_lime_reader_read_at(r, 2 * sizeof row, row, sizeof row);
    lattio_lime_reader_close(r);
    if (rc < 0) return fail("read", rc);
    printf("record '%s' at offset %llu, %llu bytes; row 2 starts with %g\n", info.type,
           (unsigned long long)info.offset, (unsigned long long)info.length, row[0]);
    size_t problems = 0, records = 0;
    rc = lattio_lime_check(path, NULL, 0, &problems, &records);
    if (rc < 0) return fail("check", rc);
    printf("%s: %zu records, %zu problems\n", path, records, problems);
    return row[0] == 2.0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "example.lime";
    return write_file(path) || read_file(path);
}
