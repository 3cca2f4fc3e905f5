/* fuzz_volumes.c -- libFuzzer target for QIO volume sets: the input is
 * two volumes (its first 4 bytes, big-endian, the length of volume 0; the
 * rest volume 1) written as SET.vol0000 and SET.vol0001 in a private
 * directory; the set is opened, every field read with its checksum and the
 * set joined into one file.  Invariants: a known status; an opened set's
 * volumes and fields are what describe says; a join that fails leaves no
 * file. */
#include <mpi.h> /* links the upper layer (the volume reader lives in the field layer) */

#include "fuzz_input.h"
#include "lattio.h"

#include <fcntl.h>
#include <string.h>

static char dir[64];

static int put(const char *name, const uint8_t *data, size_t n)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return -1;
    const int ok = n == 0 || write(fd, data, n) == (ssize_t)n;
    close(fd);
    return ok ? 0 : -1;
}

static void read_fields(lattio_volumes *v)
{
    lattio_volumes_info vi;
    FUZZ_ASSERT(lattio_volumes_describe(v, &vi) == LATTIO_OK);
    FUZZ_ASSERT(vi.volumes >= 1 && vi.volumes <= 2 && vi.volfmt >= 1 && vi.volfmt <= 3);
    for (int i = 0; i < vi.fields && i < 8; i++) {
        lattio_field_info fi;
        if (lattio_volumes_field_info(v, i, &fi) != LATTIO_OK) continue;
        const uint64_t bytes = fi.typesize * fi.datacount * lattio_field_record_sites(&fi);
        lattio_field_info_free(&fi);
        if (bytes > (UINT64_C(16) << 20)) continue;
        void *buf = malloc(bytes ? bytes : 1);
        const int rc = lattio_volumes_read_bytes(v, i, buf, NULL);
        FUZZ_ASSERT(strcmp(lattio_error_name(rc), "UNKNOWN") != 0);
        free(buf);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/lattio-fuzz-volumes-XXXXXX");
        if (!mkdtemp(dir)) abort();
    }
    if (size < 4) return 0;
    size_t n0 = (size_t)data[0] << 24 | (size_t)data[1] << 16 | (size_t)data[2] << 8 | data[3];
    data += 4, size -= 4;
    if (n0 > size) n0 = size;
    if (put("set.vol0000", data, n0) || put("set.vol0001", data + n0, size - n0)) return 0;
    char base[96], out[96];
    snprintf(base, sizeof base, "%s/set", dir);
    snprintf(out, sizeof out, "%s/joined", dir);
    lattio_volumes *v = NULL;
    const int rc = lattio_volumes_open(base, &v);
    char detail[256];
    lattio_last_detail(detail, sizeof detail);
    FUZZ_ASSERT(strlen(detail) < sizeof detail);
    FUZZ_ASSERT(strcmp(lattio_error_name(rc), "UNKNOWN") != 0);
    FUZZ_ASSERT((rc == LATTIO_OK) == (v != NULL));
    if (v) {
        read_fields(v);
        lattio_volumes_close(v);
        unlink(out);
        const int jrc = lattio_volumes_join(base, out);
        FUZZ_ASSERT(strcmp(lattio_error_name(jrc), "UNKNOWN") != 0);
        FUZZ_ASSERT(jrc == LATTIO_OK || access(out, F_OK) != 0);
        unlink(out);
    }
    return 0;
}
