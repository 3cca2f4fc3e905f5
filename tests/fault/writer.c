/* writer.c -- the writer the fault scripts kill, starve of space or point
 * at unwritable directories.
 *   writer OUT SEED [NAP_MS]
 * Writes pid.RANK (this process's pid) first, then OUT: a SciDAC record set
 * of an 8^3x16 gauge-sized field (72 doubles per site, durable, verified
 * after writing) between 6 records of 256 KiB, NAP_MS (default 0)
 * milliseconds apart, so a kill can land in any phase.  The content
 * depends on SEED only (the record date is fixed).  Prints
 * "writer: STATUS_NAME" on each rank and exits 0 on success, 1 on failure
 * (the same status on every rank is the library's promise: the caller
 * compares the lines). */
#include "mpitest.h"

#include <time.h>
#include <unistd.h>

#define REC ((uint64_t)1 << 18)

static const uint64_t G[4] = {8, 8, 8, 16};

static void mark_pid(void)
{
    char name[32], tmp[40];
    snprintf(name, sizeof name, "pid.%d", mpitest_rank);
    snprintf(tmp, sizeof tmp, "%s.part", name);
    FILE *f = fopen(tmp, "w");
    if (!f) return;
    fprintf(f, "%ld\n", (long)getpid());
    fclose(f);
    rename(tmp, name);
}

static void nap(int ms)
{
    const struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    if (ms > 0) nanosleep(&t, NULL);
}

static int record(lattio_file *f, int i, int seed)
{
    const uint64_t lo = REC * (uint64_t)mpitest_rank / (uint64_t)mpitest_size;
    const uint64_t hi = REC * (uint64_t)(mpitest_rank + 1) / (uint64_t)mpitest_size;
    unsigned char *buf = malloc(hi - lo + 1);
    if (!buf) return LATTIO_ERR_NOMEM;
    for (uint64_t k = lo; k < hi; k++) buf[k - lo] = (unsigned char)(k * 13 + (uint64_t)(seed + i));
    int rc = lattio_record_begin(f, "writer-record", REC, 1, 1); /* a message of its own */
    if (rc == LATTIO_OK) rc = lattio_record_write_at(f, lo, buf, hi - lo);
    if (rc == LATTIO_OK) rc = lattio_record_end(f, 0);
    free(buf);
    return rc;
}

static int field(lattio_file *f, int seed)
{
    uint64_t lo[4] = {0, 0, 0, 0}, cnt[4] = {G[0], G[1], G[2], 0};
    lattio_split(G[3], (uint64_t)mpitest_size, (uint64_t)mpitest_rank, &lo[3], &cnt[3]);
    lattio_layout l;
    int rc = lattio_layout_init(&l, 4, G, lo, cnt, 72 * 8);
    static const int order[4] = {3, 2, 1, 0};
    memcpy(l.file_order, order, sizeof order);
    memcpy(l.mem_order, order, sizeof order);
    const uint64_t n = lattio_layout_local_sites(&l) * 72;
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) return LATTIO_ERR_NOMEM;
    for (uint64_t k = 0; k < n; k++) v[k] = (double)((k + lo[3] * 8 * 8 * 8 * 72) % 1000) * 0.001 + seed;
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, 72);
    d.date = "Tue Nov 24 00:00:00 2026 UTC";
    d.verify = 1;
    if (rc == LATTIO_OK) rc = lattio_field_write(f, &d, &l, v, NULL);
    free(v);
    return rc;
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    if (argc < 3) {
        if (mpitest_rank == 0) fprintf(stderr, "usage: writer OUT SEED [NAP_MS]\n");
        MPI_Finalize();
        return 2;
    }
    const int seed = atoi(argv[2]), ms = argc > 3 ? atoi(argv[3]) : 0;
    mark_pid();
    lattio_options opt;
    lattio_options_default(&opt);
    opt.durable = 1;
    lattio_file *f = NULL;
    int rc = lattio_open(MPI_COMM_WORLD, argv[1], LATTIO_MODE_CREATE, MPI_INFO_NULL, &opt, &f);
    for (int i = 0; rc == LATTIO_OK && i < 3; i++, nap(ms)) rc = record(f, i, seed);
    if (rc == LATTIO_OK) rc = field(f, seed);
    for (int i = 3; rc == LATTIO_OK && i < 6; i++, nap(ms)) rc = record(f, i, seed);
    if (f) {
        const int crc = lattio_close(f);
        if (rc == LATTIO_OK) rc = crc;
    }
    const int err = lattio_last_errno();
    printf("writer: %s%s%s\n", lattio_error_name(rc), err ? ": " : "", err ? strerror(err) : "");
    MPI_Finalize();
    return rc == LATTIO_OK ? 0 : 1;
}
