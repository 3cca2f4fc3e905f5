/* fuzz_container.c -- libFuzzer target for the task-local container reader
 * (src/container): open, geometry, every task's stream read in odd pieces
 * with its checks, stream CRCs.  Invariants: a known status; a stream never
 * yields more bytes than its size. */
#include "fuzz_input.h"
#include "lattio.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    const int fd = fuzz_file(data, size, path);
    if (fd < 0) return 0;
    lattio_container_reader *r = NULL;
    const int rc = lattio_container_open_serial(path, 0, &r);
    FUZZ_ASSERT(strcmp(lattio_error_name(rc), "UNKNOWN") != 0);
    if (rc == LATTIO_OK) {
        lattio_container_info info;
        if (lattio_container_reader_info(r, &info) == LATTIO_OK) {
            unsigned char buf[777];
            for (uint32_t t = 0; t < info.ntasks && t < 16; t++) {
                uint64_t total = 0;
                int complete = 0;
                if (lattio_container_reader_size(r, t, &total, &complete) != LATTIO_OK) continue;
                for (uint64_t off = 0; off < total && off < 64 * sizeof buf;) {
                    const size_t n = total - off < sizeof buf ? (size_t)(total - off) : sizeof buf;
                    const int rrc = lattio_container_reader_read(r, t, off, buf, n);
                    FUZZ_ASSERT(strcmp(lattio_error_name(rrc), "UNKNOWN") != 0);
                    if (rrc != LATTIO_OK) break;
                    off += n;
                }
                /* a read past the stream's end is refused */
                FUZZ_ASSERT(lattio_container_reader_read(r, t, total, buf, 1) != LATTIO_OK);
                uint32_t crc = 0;
                (void)lattio_container_reader_stream_crc(r, t, &crc);
            }
        }
        lattio_container_reader_close(r);
    }
    close(fd);
    return 0;
}
