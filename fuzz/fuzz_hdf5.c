/* fuzz_hdf5.c -- libFuzzer target for the HDF5 side: format detection
 * (lattio_h5_is_hdf5), the listing (lattio_h5_list: the guard's child,
 * the bounded walk, every field examined), the target lookup
 * (lattio_h5_find, soft links) and a whole read of each listed field
 * (lattio_h5_read), on one rank, and the same by the MPI-free calls
 * (lattio_h5_list_serial, lattio_h5_read_serial).  Seeds: the .h5 files of fuzz/seeds (QDP++ with a
 * chunked, filtered dataset; a Qlua group and a soft link).  Invariants:
 * a status of lattio's table from every call; a listed field has positive
 * dimensions and a path inside the file's namespace. */
#include <mpi.h>

#include "fuzz_input.h"
#include "lattio.h"

#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<sanitizer/lsan_interface.h>)
#include <sanitizer/lsan_interface.h>
#define FUZZ_LEAK_CHECK() __lsan_do_leak_check()
#endif
#endif
#ifndef FUZZ_LEAK_CHECK
#define FUZZ_LEAK_CHECK() ((void)0)
#endif

/* LeakSanitizer's exit check runs here, while MPI's threads are parked,
 * not after MPI_Finalize: its tracer met Open MPI's threads as they wound
 * down and crashed (SIGSEGV in the tracer, 1 run in 3 of 3 s); after this
 * call the exit check is off. */
static void finalize(void)
{
    FUZZ_LEAK_CHECK();
    MPI_Finalize();
}

/* MPI once for the run, finalized at exit. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    atexit(finalize);
    return 0;
}

static void known(int rc) { FUZZ_ASSERT(strcmp(lattio_error_name(rc), "UNKNOWN") != 0); }

static void read_field(const char *path, const lattio_h5_entry *e)
{
    uint64_t sites = 1, lo[LATTIO_MAX_DIMS] = {0};
    for (int d = 0; d < e->nd; d++) sites *= e->dims[d];
    if (sites * e->elements > (1u << 20)) return; /* a field larger than any seed: its dims were damaged */
    lattio_layout l;
    if (lattio_layout_init(&l, e->nd, e->dims, lo, e->dims, e->elements * 8) != LATTIO_OK) return;
    for (int d = 0; d < e->nd; d++) l.file_order[d] = l.mem_order[d] = e->nd - 1 - d;
    double *v = malloc(sites * e->elements * sizeof *v);
    if (!v) return;
    lattio_field_desc fd;
    lattio_field_desc_default(&fd, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, e->elements);
    char target[400];
    snprintf(target, sizeof target, "%s:%s", path, e->path);
    known(lattio_h5_read(MPI_COMM_SELF, target, &fd, &l, v, NULL, NULL, NULL));
    known(lattio_h5_read_serial(target, &fd, &l, v, NULL));
    free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    const int fd = fuzz_file(data, size, path);
    if (fd < 0) return 0;
    if (lattio_h5_is_hdf5(path)) {
        lattio_h5_entry e[4];
        int n = 0;
        const int rc = lattio_h5_list(MPI_COMM_SELF, path, 4, e, 4, &n);
        known(rc);
        lattio_h5_entry es[4];
        int ns = 0;
        known(lattio_h5_list_serial(path, 4, es, 4, &ns));
        for (int i = 0; rc == LATTIO_OK && i < n && i < 4; i++) {
            FUZZ_ASSERT(e[i].path[0] == '/' && memchr(e[i].path, '\0', sizeof e[i].path) != NULL);
            for (int d = 0; d < e[i].nd; d++) FUZZ_ASSERT(e[i].dims[d] > 0);
            read_field(path, &e[i]);
        }
        char target[100];
        lattio_h5_entry one;
        snprintf(target, sizeof target, "%s:/link", path);
        known(lattio_h5_find(MPI_COMM_SELF, target, 4, &one));
    }
    close(fd);
    return 0;
}
