/* link_shared: a Lemon program built with only include/ on the include path
 * (lemon.h and Lemon's other header names) and linked only against the
 * shared liblattio: every Lemon function must resolve there.  Runs without
 * MPI: only the MPI-free paths (headers, NULL handles) are called. */
#include "lemon.h"
#include "lemon_binheader.h"
#include "lemon_defines.h"
#include "lemon_header.h"
#include "lemon_reader.h"
#include "lemon_writer.h"

#include <stdio.h>
#include <string.h>

#ifdef LATTIO_H
#error "lemon.h must not pull in lattio.h"
#endif

typedef void (*fn)(void);
#define F(name) {#name, (fn)name}

static const struct {
    const char *name;
    fn f;
} api[] = {
    F(lemonCreateHeader), F(lemonDestroyHeader), F(lemonCreateReader), F(lemonDestroyReader),
    F(lemonSetReaderPointer), F(lemonGetReaderPointer), F(lemonReaderNextRecord),
    F(lemonReaderMBFlag), F(lemonReaderMEFlag), F(lemonReaderType), F(lemonReaderBytes),
    F(lemonReaderPadBytes), F(lemonReaderReadData), F(lemonReaderCloseRecord),
    F(lemonReaderSeek), F(lemonReaderSetState), F(lemonEOM), F(lemonReadLatticeParallel),
    F(lemonReadLatticeParallelMapped), F(lemonReadLatticeParallelNonBlocking),
    F(lemonReadLatticeParallelNonBlockingMapped), F(lemonReaderReadDataNonBlocking),
    F(lemonFinishReading), F(lemonCreateWriter), F(lemonDestroyWriter),
    F(lemonWriteRecordHeader), F(lemonWriteRecordData), F(lemonWriterCloseRecord),
    F(lemonWriterSeek), F(lemonWriterSetState), F(lemonWriteLatticeParallel),
    F(lemonWriteLatticeParallelNonBlocking), F(lemonWriteLatticeParallelMapped),
    F(lemonWriteLatticeParallelNonBlockingMapped), F(lemonWriteRecordDataNonBlocking),
    F(lemonFinishWriting),
};

int main(void)
{
    int bad = 0;
    size_t n = sizeof api / sizeof api[0];
    for (size_t i = 0; i < n; i++)
        if (!api[i].f) {
            fprintf(stderr, "link_shared: %s missing\n", api[i].name);
            bad = 1;
        }
    LemonRecordHeader *h = lemonCreateHeader(1, 0, "link-test", 5);
    if (!h || strcmp(h->type, "link-test") || h->data_length != 5 || h->MB_flag != 1 ||
        h->lemon_version != 1)
        bad = 1;
    lemonDestroyHeader(h);
    if (lemonCreateHeader(1, 1, NULL, 0) || lemonCreateReader(NULL, MPI_COMM_NULL) ||
        lemonCreateWriter(NULL, MPI_COMM_NULL))
        bad = 1;
    if (lemonReaderType(NULL) || lemonReaderBytes(NULL) != LEMON_ERR_PARAM ||
        lemonWriteRecordHeader(NULL, NULL) != LEMON_ERR_PARAM || lemonDestroyWriter(NULL) != 0 ||
        LEMON_ERR_CLOSE != -11 || LEMON_EOF != -7 || HDR_SIZE_BYTES != 144)
        bad = 1;
    if (bad) return 1;
    printf("link_shared: %zu Lemon functions resolved\n", n);
    return 0;
}
