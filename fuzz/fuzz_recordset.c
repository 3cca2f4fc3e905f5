/* fuzz_recordset.c -- libFuzzer target for the ILDG/SciDAC record sets: the
 * field index, each field's metadata (every XML dialect) and the
 * verification of its binary record.  Invariants: a known status; a field
 * described as read has dims whose product is its volume and a binary record
 * inside the file; the detail text is terminated; other writers' records
 * found (lattio_field_other_records) are records a writer takes. */
#include <mpi.h> /* links the upper layer (the record-set parser lives there) */

#include "fuzz_input.h"
#include "lattio.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    const int fd = fuzz_file(data, size, path);
    if (fd < 0) return 0;
    lattio_lime_reader *r = NULL;
    int count = 0;
    if (lattio_lime_reader_open(path, &r) == LATTIO_OK && lattio_field_count(r, &count) == LATTIO_OK) {
        for (int i = 0; i < count && i < 8; i++) {
            lattio_field_info fi;
            const int rc = lattio_field_info_read(r, i, &fi);
            char detail[256];
            lattio_last_detail(detail, sizeof detail);
            FUZZ_ASSERT(strlen(detail) < sizeof detail);
            FUZZ_ASSERT(strcmp(lattio_error_name(rc), "UNKNOWN") != 0);
            if (rc != LATTIO_OK) continue;
            uint64_t v = 1;
            for (int d = 0; d < fi.nd; d++) v *= fi.dims[d];
            FUZZ_ASSERT(fi.nd >= 1 && v == fi.volume);
            FUZZ_ASSERT(fi.binary.data_offset + fi.binary.length <= size);
            lattio_field_info_free(&fi);
            const int vrc = lattio_field_verify(path, i, NULL, NULL);
            FUZZ_ASSERT(strcmp(lattio_error_name(vrc), "UNKNOWN") != 0);
        }
        /* other writers' records (what a conversion writes back): before
         * the first field and in the whole file; each a valid record to write */
        for (int field = -1; field <= 0; field++) {
            lattio_text_record *other = NULL;
            int n = -1, left = -1;
            const int orc = lattio_field_other_records(r, field, &other, &n, &left);
            FUZZ_ASSERT(strcmp(lattio_error_name(orc), "UNKNOWN") != 0);
            FUZZ_ASSERT(orc != LATTIO_OK || (n >= 0 && n <= LATTIO_OTHER_RECORDS_MAX && left >= 0));
            for (int k = 0; orc == LATTIO_OK && k < n; k++)
                FUZZ_ASSERT(other[k].type[0] && strlen(other[k].type) < LATTIO_LIME_TYPE_MAX && other[k].text);
            lattio_text_records_free(other, n > 0 ? n : 0);
        }
    }
    lattio_lime_reader_close(r);
    close(fd);
    return 0;
}
