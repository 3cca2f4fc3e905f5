/* fuzz_gauge.c -- libFuzzer target for the gauge readers: format detection
 * and lattio_gauge_read of NERSC, MILC, openQCD, HiRep and LIME (ILDG/SciDAC)
 * inputs, SU(N) included.  Seeds: the real NERSC and LIME files and MILC/openQCD headers
 * (scripts/fuzz.sh).  Invariants: a known status; on success a field, a
 * volume matching the dims, and a header check that returns a status; a
 * NERSC header's lines taken back (lattio_gauge_nersc_header). */
#include <mpi.h> /* links the upper layer (the gauge readers live there) */

#include "fuzz_input.h"
#include "lattio.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    const int fd = fuzz_file(data, size, path);
    if (fd < 0) return 0;
    int format = -1;
    int rc = lattio_gauge_detect(path, &format);
    FUZZ_ASSERT(rc == LATTIO_OK || strcmp(lattio_error_name(rc), "UNKNOWN") != 0);
    lattio_gauge_info info;
    double *u = NULL;
    rc = lattio_gauge_read(path, &info, &u);
    FUZZ_ASSERT(strcmp(lattio_error_name(rc), "UNKNOWN") != 0);
    FUZZ_ASSERT(memchr(info.problem, '\0', sizeof info.problem) != NULL);
    if (rc == LATTIO_OK) {
        FUZZ_ASSERT(u != NULL);
        FUZZ_ASSERT(info.volume == info.dims[0] * info.dims[1] * info.dims[2] * info.dims[3]);
        lattio_gauge_stats st;
        if (lattio_gauge_stats_compute_nc(u, info.dims, info.colors, &st) == LATTIO_OK)
            (void)lattio_gauge_check_header(&info, &st);
    }
    lattio_gauge_free(u);
    char *header = NULL; /* a NERSC header's lines, as a conversion writes them back */
    int left = -1;
    rc = lattio_gauge_nersc_header(path, &header, &left);
    FUZZ_ASSERT(strcmp(lattio_error_name(rc), "UNKNOWN") != 0);
    FUZZ_ASSERT(rc != LATTIO_OK || left >= 0);
    FUZZ_ASSERT(!header || strlen(header) < 65536);
    free(header);
    close(fd);
    return 0;
}
