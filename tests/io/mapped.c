/* mapped.c -- the mapped strategy (src/strategy/mapped.c): where it applies it
 * moves the payload without one MPI-IO read or write call, the file holds
 * exactly the bytes computed here, and it steps aside where it must.
 *   - AUTO on 2+ ranks of one node writes this small field through one
 *     writer (one rank's calls only; LATTIO_ONE_WRITER_BYTES);
 *   - with that rule off, AUTO on 2+ ranks of one node (this test's directory is a local disk
 *     or tmpfs): a fine x split of a 3-D lattice (ghost-free, 40-byte
 *     sites) is written and read back with no MPI-IO call of any rank
 *     during the lattice calls, and the file is the image built here;
 *   - on 1 rank AUTO writes independently (write calls are made) but
 *     reads through the mapping (none), and MAPPED asked for explicitly
 *     maps writes there too;
 *   - a file whose pages are not all in the page cache (dropped with
 *     posix_fadvise after fsync) is read through MPI-IO calls instead
 *     (a disk error under a mapping would be a signal, not a status), and
 *     the data are right;
 *   - LATTIO_STRATEGY=independent turns it off (calls are made);
 *   - asked for on a file it cannot map (one attached, not opened by name),
 *     the measured default runs and the profile says so: one fallback, the
 *     strategy that ran, the reason in words.
 * The calls are counted through the profiling interface. */
#define _GNU_SOURCE
#include "xsplit.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#define COUNTED(call) (xs_counting ? xs_io_calls++ : 0, call)

int MPI_File_write_at(MPI_File fh, MPI_Offset off, const void *b, int n, MPI_Datatype t, MPI_Status *st)
{
    return COUNTED(PMPI_File_write_at(fh, off, b, n, t, st));
}
int MPI_File_read_at(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Datatype t, MPI_Status *st)
{
    return COUNTED(PMPI_File_read_at(fh, off, b, n, t, st));
}
int MPI_File_write_at_all(MPI_File fh, MPI_Offset off, const void *b, int n, MPI_Datatype t, MPI_Status *st)
{
    return COUNTED(PMPI_File_write_at_all(fh, off, b, n, t, st));
}
int MPI_File_read_at_all(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Datatype t, MPI_Status *st)
{
    return COUNTED(PMPI_File_read_at_all(fh, off, b, n, t, st));
}
int MPI_File_write_all(MPI_File fh, const void *b, int n, MPI_Datatype t, MPI_Status *st)
{
    return COUNTED(PMPI_File_write_all(fh, b, n, t, st));
}
int MPI_File_read_all(MPI_File fh, void *b, int n, MPI_Datatype t, MPI_Status *st)
{
    return COUNTED(PMPI_File_read_all(fh, b, n, t, st));
}

#define X 12u
#define Y 6u
#define Z 5u
#define SITE 40u
#define OFF 3u /* the lattice starts 3 bytes into the payload */
#define PAYLOAD (OFF + (uint64_t)X * Y * Z * SITE)

static int writers; /* how many ranks made calls in the last write_file */

/* The MPI-IO calls of all ranks during one lattice write (or read). */
static long write_file(const char *path, int strategy, const lattio_layout *l, const unsigned char *buf)
{
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = strategy;
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, path, LATTIO_MODE_CREATE, MPI_INFO_NULL, &opt, &f));
    CHECK_OK(lattio_record_begin(f, "lattio-test", PAYLOAD, 1, 1));
    MPI_Barrier(MPI_COMM_WORLD);
    xs_io_calls = 0;
    xs_counting = 1;
    CHECK_OK(lattio_lattice_write(f, l, OFF, buf));
    xs_counting = 0;
    CHECK_OK(lattio_record_end(f, 1)); /* the OFF bytes before the lattice: zeros */
    CHECK_OK(lattio_close(f));
    long all = 0;
    MPI_Allreduce(&xs_io_calls, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    const int wrote = xs_io_calls > 0;
    MPI_Allreduce(&wrote, &writers, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return all;
}

static int evict(const char *path);

static void evict_cb(void *path) { CHECK(evict(path)); }

/* `drop`: the file's pages leave the page cache after the open (which
 * reads the record index) and before the lattice read. */
static long read_file(const char *path, int strategy, const lattio_layout *l, const unsigned char *want,
                      int drop)
{
    return xs_read_counted(path, strategy, l, OFF, want, drop ? evict_cb : NULL, (void *)path);
}

/* Rank 0: the payload is the image, byte for byte. */
static void check_payload(const char *path)
{
    if (mpitest_rank != 0) return;
    FILE *fp = fopen(path, "rb");
    CHECK(fp != NULL);
    if (!fp) return;
    unsigned char *b = malloc(PAYLOAD);
    CHECK(fseek(fp, 144, SEEK_SET) == 0); /* one LIME header */
    CHECK(fread(b, 1, PAYLOAD, fp) == PAYLOAD);
    fclose(fp);
    uint64_t bad = 0;
    for (uint64_t i = 0; i < (uint64_t)X * Y * Z * SITE; i++) bad += b[OFF + i] != xs_byte(i / SITE, (unsigned)(i % SITE));
    for (unsigned i = 0; i < OFF; i++) bad += b[i] != 0;
    CHECK_U64(bad, 0);
    free(b);
}

/* Rank 0 drops the file's pages from the page cache (written back first). */
static int evict(const char *path)
{
    int ok = 1;
    if (mpitest_rank == 0) {
        const int fd = open(path, O_RDONLY);
        ok = fd >= 0 && fsync(fd) == 0 && posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
        if (fd >= 0) close(fd);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return ok;
}

/* 1 when the test directory is tmpfs (its pages cannot be dropped). */
static int on_tmpfs(void)
{
    struct statfs s;
    return statfs(".", &s) == 0 && s.f_type == 0x01021994;
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    lattio_layout l;
    xs_layout(&l, Z, Y, X, SITE);
    const size_t n = (size_t)lattio_layout_local_sites(&l) * SITE;
    unsigned char *buf = malloc(n ? n : 1);
    xs_fill(&l, buf);
    const int many = mpitest_size > 1;

    /* the default for this small field on one node: one writer (one rank's
     * calls only); with the one-writer rule off (LATTIO_ONE_WRITER_BYTES=0):
     * mapped on 2+ ranks; on one, independent writes (calls) and mapped reads */
    const long w1 = write_file("m_one.lime", LATTIO_STRATEGY_AUTO, &l, buf);
    check_payload("m_one.lime");
    if (many) CHECK(w1 > 0 && writers == 1);
    setenv("LATTIO_ONE_WRITER_BYTES", "0", 1);
    const long w = write_file("m_auto.lime", LATTIO_STRATEGY_AUTO, &l, buf);
    unsetenv("LATTIO_ONE_WRITER_BYTES");
    check_payload("m_auto.lime");
    const long r = read_file("m_auto.lime", LATTIO_STRATEGY_AUTO, &l, buf, 0);
    if (many) CHECK_INT((int)w, 0);
    else CHECK(w > 0);
    CHECK_INT((int)r, 0);

    /* asked for: mapped on any number of ranks */
    CHECK_INT((int)write_file("m_mapped.lime", LATTIO_STRATEGY_MAPPED, &l, buf), 0);
    check_payload("m_mapped.lime");
    CHECK_INT((int)read_file("m_mapped.lime", LATTIO_STRATEGY_MAPPED, &l, buf, 0), 0);

    /* pages not in the page cache: read with calls, right data */
    if (!on_tmpfs()) CHECK(read_file("m_mapped.lime", LATTIO_STRATEGY_MAPPED, &l, buf, 1) > 0);

    /* asked for where it cannot run: the profile names the fallback */
    {
        MPI_File fh;
        CHECK(MPI_File_open(MPI_COMM_WORLD, "m_attached.lime", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                            &fh) == MPI_SUCCESS);
        lattio_options opt;
        lattio_options_default(&opt);
        opt.strategy = LATTIO_STRATEGY_MAPPED;
        lattio_file *f = NULL;
        CHECK_OK(lattio_attach(MPI_COMM_WORLD, fh, LATTIO_MODE_CREATE, 0, &opt, &f));
        CHECK_OK(lattio_record_begin(f, "lattio-test", PAYLOAD, 1, 1));
        CHECK_OK(lattio_lattice_write(f, &l, OFF, buf));
        CHECK_OK(lattio_record_end(f, 1));
        lattio_profile p;
        CHECK_OK(lattio_profile_get(f, &p));
        CHECK_INT((int)p.fallbacks, 1);
        CHECK(p.strategy != LATTIO_STRATEGY_MAPPED && p.strategy != LATTIO_STRATEGY_AUTO);
        CHECK(strstr(p.fallback, "not one lattio opened by name") != NULL);
        CHECK_OK(lattio_close(f));
        MPI_File_close(&fh);
        lattio_file *g = NULL; /* opened by name: mapped runs, no fallback */
        CHECK_OK(lattio_open(MPI_COMM_WORLD, "m_attached.lime", LATTIO_MODE_READ, MPI_INFO_NULL, &opt, &g));
        lattio_record_info ri;
        CHECK_OK(lattio_record_next(g, &ri));
        unsigned char *back = calloc(n ? n : 1, 1);
        CHECK_OK(lattio_lattice_read(g, &l, OFF, back));
        CHECK(memcmp(back, buf, n) == 0);
        CHECK_OK(lattio_profile_get(g, &p));
        CHECK_INT((int)p.fallbacks, 0);
        CHECK_INT(p.strategy, LATTIO_STRATEGY_MAPPED);
        free(back);
        CHECK_OK(lattio_close(g));
    }

    /* the environment turns the default off */
    setenv("LATTIO_STRATEGY", "independent", 1);
    CHECK(write_file("m_env.lime", LATTIO_STRATEGY_AUTO, &l, buf) > 0);
    check_payload("m_env.lime");
    unsetenv("LATTIO_STRATEGY");

    MPI_Barrier(MPI_COMM_WORLD);
    if (mpitest_rank == 0) {
        unlink("m_auto.lime");
        unlink("m_mapped.lime");
        unlink("m_env.lime");
        unlink("m_attached.lime");
    }
    free(buf);
    return mpitest_finish();
}
