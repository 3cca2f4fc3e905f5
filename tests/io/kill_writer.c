/* kill_writer.c -- the writer killed by tests/io/kill_writer.py.
 *   kill_writer small OUT   write a small good file OUT and exit
 *   kill_writer large OUT   write pid.RANK files, open OUT for CREATE, write
 *                           "started" once the first record is out, then
 *                           records of 256 KiB for ~2 minutes (40 ms apart)
 *                           unless killed first (the driver kills it).
 * Every rank writes half of each record's payload. */
#include "mpitest.h"

#include <time.h>
#include <unistd.h>

#define BIG ((uint64_t)1 << 18)

static void write_marker(const char *name, long value)
{
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%s.part", name);
    FILE *f = fopen(tmp, "w");
    if (!f) return;
    fprintf(f, "%ld\n", value);
    fclose(f);
    rename(tmp, name); /* the driver never reads a half-written marker */
}

/* One record: rank r writes bytes [r*n/size, (r+1)*n/size). */
static int write_record(lattio_file *f, const char *type, uint64_t n, unsigned char fill)
{
    uint64_t lo = n * (uint64_t)mpitest_rank / (uint64_t)mpitest_size;
    uint64_t hi = n * (uint64_t)(mpitest_rank + 1) / (uint64_t)mpitest_size;
    unsigned char *buf = malloc(hi - lo + 1);
    memset(buf, fill, hi - lo + 1);
    int rc = lattio_record_begin(f, type, n, 1, 1);
    if (rc == LATTIO_OK) rc = lattio_record_write_at(f, lo, buf, hi - lo);
    if (rc == LATTIO_OK) rc = lattio_record_end(f, 0);
    free(buf);
    return rc;
}

static void small(const char *out)
{
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, out, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    CHECK_OK(write_record(f, "previous-version", 1000, 'p'));
    CHECK_OK(write_record(f, "previous-tail", 77, 't'));
    CHECK_OK(lattio_close(f));
}

static void large(const char *out)
{
    char name[32];
    snprintf(name, sizeof name, "pid.%d", mpitest_rank);
    write_marker(name, (long)getpid());
    MPI_Barrier(MPI_COMM_WORLD);
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, out, LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &f));
    const struct timespec nap = {0, 40000000};
    for (int i = 0; i < 3000; i++) {
        CHECK_OK(write_record(f, "new-version", BIG, (unsigned char)i));
        if (i == 0 && mpitest_rank == 0) write_marker("started", 1);
        nanosleep(&nap, NULL);
    }
    CHECK_OK(lattio_close(f));
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    if (argc == 3 && strcmp(argv[1], "small") == 0)
        small(argv[2]);
    else if (argc == 3 && strcmp(argv[1], "large") == 0)
        large(argv[2]);
    else
        CHECK(!"usage: kill_writer small|large OUT");
    return mpitest_finish();
}
