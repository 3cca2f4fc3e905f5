/* nb_no_collective_pending.c -- Lemon defect 4: while a request is pending
 * lattio makes no collective MPI-IO call on the file (the MPI standard
 * forbids it; Lemon's collective sync deadlocked under OMPIO at 2+ ranks).
 * The test intercepts the collective MPI-IO functions (PMPI) and counts
 * those made on a file with pending requests, while it runs iwrite +
 * record_end + record_begin / write_at / read_at + a durable close with the
 * request still pending, on a file lattio opened and on an attached one.
 * Everything completes (a hang fails by TIMEOUT) and the bytes on disk equal
 * a serial image. */
#include "nbutil.h"
#include "../layout/sim.h"
#include "io/io_internal.h"

static const lattio_file *watched; /* the file under test */
static int violations, calls;

static void seen(MPI_File fh, const char *what)
{
    calls++;
    if (watched && watched->req.npending > 0 && fh == watched->fh) {
        violations++;
        fprintf(stderr, "rank %d: collective %s with a request pending\n", mpitest_rank, what);
    }
}

/* Every collective MPI-IO call lattio makes or might make. */
int MPI_File_close(MPI_File *fh)
{
    seen(*fh, "close");
    return PMPI_File_close(fh);
}
int MPI_File_sync(MPI_File fh)
{
    seen(fh, "sync");
    return PMPI_File_sync(fh);
}
int MPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    seen(fh, "set_size");
    return PMPI_File_set_size(fh, size);
}
int MPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
    seen(fh, "preallocate");
    return PMPI_File_preallocate(fh, size);
}
int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                      const char *datarep, MPI_Info info)
{
    seen(fh, "set_view");
    return PMPI_File_set_view(fh, disp, etype, filetype, datarep, info);
}
int MPI_File_write_at_all(MPI_File fh, MPI_Offset off, const void *buf, int count,
                          MPI_Datatype type, MPI_Status *st)
{
    seen(fh, "write_at_all");
    return PMPI_File_write_at_all(fh, off, buf, count, type, st);
}
int MPI_File_read_at_all(MPI_File fh, MPI_Offset off, void *buf, int count, MPI_Datatype type,
                         MPI_Status *st)
{
    seen(fh, "read_at_all");
    return PMPI_File_read_at_all(fh, off, buf, count, type, st);
}
int MPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype type, MPI_Status *st)
{
    seen(fh, "write_all");
    return PMPI_File_write_all(fh, buf, count, type, st);
}
int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype type, MPI_Status *st)
{
    seen(fh, "read_all");
    return PMPI_File_read_all(fh, buf, count, type, st);
}

static const uint64_t G[4] = {6, 5, 3, 4};
#define SITE 16

static void layout_of(lattio_layout *l)
{
    nb_cart_layout(G, SITE, l);
}

/* The writes under test; the lattice request stays pending through close. */
static void write_all_kinds(lattio_file *f, const lattio_layout *l, const unsigned char *buf)
{
    const uint64_t bytes = 6 * 5 * 3 * 4 * SITE;
    lattio_request *req = NULL;
    unsigned char mine[4];
    memset(mine, 'a' + mpitest_rank, 4);
    watched = f;
    CHECK_OK(lattio_record_begin(f, "lattice", bytes, 1, 0));
    CHECK_OK(lattio_lattice_iwrite(f, l, 0, buf, &req));
    CHECK_OK(lattio_record_end(f, 0));
    CHECK_OK(lattio_record_begin(f, "pieces", 4 * (uint64_t)mpitest_size, 0, 0));
    CHECK_OK(lattio_record_write_at(f, 4 * (uint64_t)mpitest_rank, mine, 4));
    CHECK_OK(lattio_record_end(f, 0));
    CHECK_OK(lattio_record_write(f, "meta", "<m/>", 4, 0, 1));
    CHECK(req != NULL && f->req.npending == 1);
    CHECK_OK(lattio_close(f)); /* completes req, then syncs (durable) */
    watched = NULL;
}

static void expected(image *im, const unsigned char *lat)
{
    unsigned char p[4 * 4];
    for (int r = 0; r < mpitest_size; r++) memset(p + 4 * r, 'a' + r, 4);
    image_record(im, "lattice", lat, 6 * 5 * 3 * 4 * SITE, 1, 0);
    image_record(im, "pieces", p, 4 * (uint64_t)mpitest_size, 0, 0);
    image_record(im, "meta", "<m/>", 4, 0, 1);
}

/* Reading: a pending lattice read, then a blocking read and close. */
static void read_pending(const lattio_layout *l, const unsigned char *buf)
{
    lattio_file *f = NULL;
    lattio_request *req = NULL;
    lattio_record_info info;
    unsigned char *got = malloc(lattio_layout_local_sites(l) * SITE + 1), m[4];
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "own.lime", LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    watched = f;
    CHECK_OK(lattio_record_next(f, &info));
    CHECK_OK(lattio_lattice_iread(f, l, 0, got, &req));
    CHECK_OK(lattio_record_find(f, "meta", 0, &info));
    CHECK_OK(lattio_record_read_at(f, 0, m, 4));
    CHECK(memcmp(m, "<m/>", 4) == 0);
    CHECK_OK(lattio_close(f)); /* completes the read into got */
    watched = NULL;
    CHECK(memcmp(got, buf, lattio_layout_local_sites(l) * SITE) == 0);
    free(got);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    lattio_layout l;
    layout_of(&l);
    unsigned char *buf = sim_buffer(&l, POISON), *lat = sim_expected_file(&l);
    lattio_options opt;
    lattio_options_default(&opt);
    opt.durable = 1;
    image im = {0};
    expected(&im, lat);
    lattio_file *f = NULL;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "own.lime", LATTIO_MODE_CREATE, MPI_INFO_NULL, &opt, &f));
    write_all_kinds(f, &l, buf);
    check_file("own.lime", &im);
    /* the same on a file the caller opened, after 8 bytes of its own */
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, "att.lime", MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    if (mpitest_rank == 0) MPI_File_write_at(fh, 0, "CALLER!!", 8, MPI_BYTE, MPI_STATUS_IGNORE);
    CHECK_OK(lattio_attach(MPI_COMM_WORLD, fh, LATTIO_MODE_CREATE, 8, &opt, &f));
    write_all_kinds(f, &l, buf);
    CHECK_INT(MPI_File_close(&fh), MPI_SUCCESS);
    image im2 = {0};
    image_put(&im2, "CALLER!!", 8);
    image_put(&im2, im.b, im.n);
    check_file("att.lime", &im2);
    read_pending(&l, buf);
    CHECK(calls > 0); /* the interception works */
    CHECK_INT(violations, 0);
    free(im.b);
    free(im2.b);
    free(buf);
    free(lat);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
