/* collective_guard.c -- lattio's collective strategy does not trust a
 * corrupting MPI library.
 * 1. The guard's detection: on Open MPI with the OMPIO component (the
 *    default, or OMPI_MCA_io=ompio) collective writes are untrusted; with
 *    ROMIO (OMPI_MCA_io=romio321), on MPICH, or with
 *    LATTIO_TRUST_COLLECTIVE=1 they are trusted.
 * 2. The pattern of ompio_reproducer.c (a 4-D lattice split in y and x,
 *    sites of 576 and 72 bytes, behind a LIME header, on a Cartesian
 *    communicator) written with the collective strategy gives exactly the
 *    serial image.  A raw MPI subarray write of the same pattern is made
 *    first and its verdict printed (it documents the library, never fails).
 * 3. A simulated corrupting library (a test hook changes one byte of every
 *    collective write round behind lattio's back): with the guard on, the
 *    file is still right and the repair count is > 0; with the guard off
 *    (ROMIO) the same fault reaches the file, so the byte check above can
 *    fail. */
#include "io/io_internal.h"
#include "mpitest.h"
#include "../layout/sim.h"

/* The expectation, computed without lattio: Open MPI, OMPIO selected. */
static int untrusted_; /* the guard is on (Open MPI with OMPIO, not trusted) */

static int expect_untrusted(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING + 1] = "";
    int len = 0;
    MPI_Get_library_version(v, &len);
    const char *io = getenv("OMPI_MCA_io"), *trust = getenv("LATTIO_TRUST_COLLECTIVE");
    if (trust && strcmp(trust, "1") == 0) return 0;
    return strstr(v, "Open MPI") && (!io || strcmp(io, "ompio") == 0);
}

/* A 4-D layout (dims x,y,z,t; file order t,z,y,x) on the Cartesian grid. */
static void make_layout(MPI_Comm cart, const uint64_t *g, size_t site, lattio_layout *l)
{
    CHECK_OK(lattio_layout_from_cart(cart, g, site, l));
    static const int order[4] = {3, 2, 1, 0};
    memcpy(l->file_order, order, sizeof order);
    memcpy(l->mem_order, order, sizeof order);
    CHECK_OK(lattio_layout_check(l));
}

/* The raw MPI write of the same lattice (subarray view, write_at_all);
 * returns the number of wrong bytes (rank 0), printing the verdict. */
static uint64_t raw_write(MPI_Comm cart, const lattio_layout *l, const unsigned char *packed)
{
    int sizes[4], subs[4], starts[4];
    for (int i = 0; i < 4; i++) {
        int d = l->file_order[i];
        sizes[i] = (int)l->global[d], subs[i] = (int)l->count[d], starts[i] = (int)l->lo[d];
    }
    MPI_Datatype site, ftype;
    MPI_Type_contiguous((int)l->site_bytes, MPI_BYTE, &site);
    MPI_Type_commit(&site);
    MPI_Type_create_subarray(4, sizes, subs, starts, MPI_ORDER_C, site, &ftype);
    MPI_Type_commit(&ftype);
    MPI_File fh;
    MPI_Status st;
    CHECK(MPI_File_open(cart, "raw.bin", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh) == 0);
    MPI_File_set_view(fh, 144, site, ftype, "native", MPI_INFO_NULL);
    MPI_File_write_at_all(fh, 0, packed, (int)lattio_layout_local_sites(l), site, &st);
    MPI_File_close(&fh);
    MPI_Type_free(&ftype);
    MPI_Type_free(&site);
    uint64_t bad = 0, bytes = lattio_layout_global_sites(l) * l->site_bytes;
    if (mpitest_rank == 0) {
        size_t n = 0;
        unsigned char *file = test_slurp("raw.bin", &n), *img = sim_expected_file(l);
        for (uint64_t i = 0; i < bytes; i++) bad += !file || n < 144 + bytes || file[144 + i] != img[i];
        printf("raw MPI collective write, site %zu: %s (%" PRIu64 " bad bytes)\n", l->site_bytes,
               bad ? "CORRUPTED by the MPI library" : "correct", bad);
        free(file);
        free(img);
    }
    MPI_Barrier(cart);
    return bad;
}

/* lattio collective write at payload offset 0 of the second record (file
 * byte 296); rank 0 compares with the serial image.  Returns repairs made
 * by all ranks during the write. */
static uint64_t lattio_write(MPI_Comm cart, const lattio_layout *l, const unsigned char *buf,
                             int expect_right)
{
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = LATTIO_STRATEGY_COLLECTIVE;
    uint64_t bytes = lattio_layout_global_sites(l) * l->site_bytes, before = lattio_collective_repairs();
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(cart, "guard.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, &opt, &f));
    CHECK_OK(lattio_record_write(f, "meta", "m", 1, 1, 0));
    CHECK_OK(lattio_record_begin(f, "lattice", bytes, 0, 1));
    CHECK_OK(lattio_lattice_write(f, l, 0, buf));
    CHECK_OK(lattio_record_end(f, 0));
    CHECK_OK(lattio_close(f));
    uint64_t mine = lattio_collective_repairs() - before, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, cart);
    if (mpitest_rank == 0) {
        size_t n = 0;
        unsigned char *file = test_slurp("guard.lime", &n), *img = sim_expected_file(l);
        int right = file && n == 296 + bytes + (8 - bytes % 8) % 8 && memcmp(file + 296, img, bytes) == 0;
        CHECK_INT(right, expect_right);
        free(file);
        free(img);
    }
    MPI_Barrier(cart);
    return all;
}

static void pattern(MPI_Comm cart, const uint64_t *g, size_t site)
{
    lattio_layout l;
    make_layout(cart, g, site, &l);
    unsigned char *buf = sim_buffer(&l, POISON), *packed = sim_packed(&l);
    uint64_t bad = raw_write(cart, &l, packed);
    uint64_t repairs = lattio_write(cart, &l, buf, 1);
    if (mpitest_rank == 0)
        printf("lattio collective write, site %zu: right bytes, %" PRIu64 " runs repaired%s\n", site,
               repairs, bad ? " (the library corrupts this pattern)" : "");
    /* simulated corrupting library: the guard must repair */
    lattio_collective_test_hooks(4096, 1, 1);
    repairs = lattio_write(cart, &l, buf, 1);
    CHECK(repairs > 0);
    /* the same fault without the guard reaches the file (negative control) */
    if (!untrusted_) {
        lattio_collective_test_hooks(4096, 0, 1);
        CHECK_U64(lattio_write(cart, &l, buf, 0), 0);
    }
    lattio_collective_test_hooks(0, 0, 0);
    free(buf);
    free(packed);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    lattio_file *probe = NULL; /* the trust a file opened now takes from the environment */
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "probe.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, NULL, &probe));
    untrusted_ = lattio_collective_untrusted(probe);
    CHECK_INT(untrusted_, expect_untrusted());
    CHECK_OK(lattio_close(probe));
    int dims[4] = {1, 1, 0, 0}, periods[4] = {0, 0, 0, 0}; /* comm order t,z,y,x: split y and x */
    MPI_Dims_create(mpitest_size, 4, dims);
    MPI_Comm cart;
    int rev[4] = {dims[3], dims[2], dims[1], dims[0]}; /* lattice dims x,y,z,t */
    MPI_Cart_create(MPI_COMM_WORLD, 4, rev, periods, 0, &cart);
    static const uint64_t small[4] = {8, 8, 8, 16}, large[4] = {16, 16, 16, 32};
    pattern(cart, small, 576);
    pattern(cart, large, 72);
    MPI_Comm_free(&cart);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
