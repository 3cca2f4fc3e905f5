/* rank_args.c -- collective writes and reads where one rank passes one
 * argument different from the others: verify, layout, append, chunked,
 * precision, memory type (dtype), metadata (lfn, file XML, record XML),
 * the path; the ILDG writer's verify, precision and LFN; the readers'
 * checksum demand and record index; several fields through the HDF5
 * writer (rank 1 without a layout; rank 1 naming another object).  Each
 * call returns ERR_RANK_ARG on
 * every rank, with the argument named, nothing hangs (the test's timeout),
 * and the previous file stays byte for byte as it was. */
#include "../field_mpi/fmtest.h"

#include <stdlib.h>
#include <string.h>

enum { VERIFY, LAYOUT, APPEND, CHUNKED, PRECISION, DTYPE, LFN, FILE_XML, RECORD_XML, PATH, NCASES };
static const char *const names[NCASES] = {"verify", "layout", "append", "chunked", "precision",
                                          "dtype", "lfn", "file_xml", "record_xml", "path"};

/* This rank's layout of the gauge field in memory type `mem`. */
static void gauge_layout(lattio_layout *l, int mem)
{
    int grid[4];
    fm_grid(3, mpitest_size, grid);
    CHECK_OK(fm_layout(l, fm_g, grid, mpitest_rank, mem == LATTIO_REAL_F32_NATIVE ? 288 : 576, 0, 0));
}

/* The argument of case c as rank `odd` (rank 1) passes it. */
static void skew(int c, int odd, lattio_field_desc *d, lattio_h5_options *o, const char **target)
{
    if (!odd) return;
    switch (c) {
    case VERIFY: d->verify = !d->verify; break;
    case LAYOUT: o->layout = LATTIO_H5_QLUA; break;
    case APPEND: o->append = 1; break;
    case CHUNKED: o->chunked = 1; break;
    case PRECISION: d->disk_format = LATTIO_REAL_F32_BE; break;
    case DTYPE: d->mem_format = LATTIO_REAL_F32_NATIVE; break;
    case LFN: d->lfn = "lfn://lattio/other"; break;
    case FILE_XML: d->file_xml = "<other/>"; break;
    case RECORD_XML: d->record_xml = "<other/>"; break;
    case PATH: *target = "cfg.h5:/other"; break;
    }
}

static void expect_rank_arg(int rc, const char *what)
{
    CHECK(fm_same_everywhere(rc));
    if (rc != LATTIO_ERR_RANK_ARG) fprintf(stderr, "rank %d: %s: %s\n", mpitest_rank, what, lattio_error_name(rc));
    CHECK(rc == LATTIO_ERR_RANK_ARG);
    char detail[200] = "";
    lattio_last_detail(detail, sizeof detail);
    CHECK(strstr(detail, "differs between ranks") != NULL);
}

static void kept(const char *path, const unsigned char *before, size_t n, const char *what)
{
    size_t m = 0;
    unsigned char *now = mpitest_rank == 0 ? test_slurp(path, &m) : NULL;
    if (mpitest_rank == 0 && !(now && m == n && memcmp(now, before, n) == 0))
        fprintf(stderr, "%s: %s changed\n", what, path);
    CHECK(mpitest_rank != 0 || (now && m == n && memcmp(now, before, n) == 0));
    free(now);
}

/* Several fields: lattio_h5_write_fields with no layout on rank 1 alone, and
 * a writer whose add names another object on rank 1: ERR_RANK_ARG on every
 * rank, the close refuses to publish, cfg.h5 as it was. */
static void writer_cases(const double *local, const lattio_layout *l, const lattio_field_desc *d,
                         const unsigned char *before, size_t n)
{
    const void *locals[2] = {local, local};
    lattio_h5_options o;
    lattio_h5_options_default(&o);
    expect_rank_arg(lattio_h5_write_fields(MPI_COMM_WORLD, "cfg.h5:/set", d, mpitest_rank == 1 ? NULL : l, 2, locals,
                                           &o, NULL, NULL),
                    "write_fields layout");
    kept("cfg.h5", before, n, "write_fields layout");
    lattio_h5_writer *w = NULL;
    CHECK_OK(lattio_h5_writer_open(MPI_COMM_WORLD, "cfg.h5", 4, &o, &w));
    expect_rank_arg(lattio_h5_writer_add(w, mpitest_rank == 1 ? "/b" : "/a", d, l, local, NULL, NULL), "add object");
    const int rc = lattio_h5_writer_close(w);
    CHECK(fm_same_everywhere(rc) && rc != LATTIO_OK);
    kept("cfg.h5", before, n, "writer add object");
}

static void hdf5_cases(const double *local)
{
    lattio_layout l;
    gauge_layout(&l, LATTIO_REAL_F64_NATIVE);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    CHECK_OK(lattio_h5_write(MPI_COMM_WORLD, "cfg.h5:/cfg", &d, &l, local, NULL, NULL, NULL));
    size_t n = 0;
    unsigned char *before = mpitest_rank == 0 ? test_slurp("cfg.h5", &n) : NULL;
    for (int c = 0; c < NCASES; c++) {
        lattio_field_desc dc = d;
        lattio_h5_options o;
        lattio_h5_options_default(&o);
        o.append = 1; /* a second field beside /cfg */
        const char *target = "cfg.h5:/more";
        if (c == APPEND) o.append = 0;
        skew(c, mpitest_rank == 1, &dc, &o, &target);
        lattio_layout lc;
        gauge_layout(&lc, dc.mem_format);
        expect_rank_arg(lattio_h5_write(MPI_COMM_WORLD, target, &dc, &lc, local, &o, NULL, NULL), names[c]);
        kept("cfg.h5", before, n, names[c]);
    }
    /* reads: the layout asked for, the checksum demanded, the memory type, the path */
    double *back = fm_buffer(&l);
    for (int c = 0; c < 4; c++) {
        lattio_field_desc dc = d;
        lattio_h5_options o;
        lattio_h5_options_default(&o);
        o.layout = LATTIO_H5_AUTO;
        const char *target = "cfg.h5:/cfg";
        if (mpitest_rank == 1) {
            if (c == 0) o.layout = LATTIO_H5_QDP;
            if (c == 1) dc.require_checksum = 1;
            if (c == 2) dc.mem_format = LATTIO_REAL_F32_NATIVE;
            if (c == 3) target = "cfg.h5:/elsewhere";
        }
        expect_rank_arg(lattio_h5_read(MPI_COMM_WORLD, target, &dc, &l, back, &o, NULL, NULL), "read");
    }
    free(back);
    writer_cases(local, &l, &d, before, n);
    free(before);
}

static void ildg_cases(const double *local)
{
    lattio_layout l;
    gauge_layout(&l, LATTIO_REAL_F64_NATIVE);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    CHECK_OK(fm_write(MPI_COMM_WORLD, "cfg.ildg", &d, &l, local, NULL));
    size_t n = 0;
    unsigned char *before = mpitest_rank == 0 ? test_slurp("cfg.ildg", &n) : NULL;
    static const int cases[] = {VERIFY, PRECISION, LFN, FILE_XML, RECORD_XML};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lattio_field_desc dc = d;
        lattio_h5_options o;
        const char *target = NULL;
        skew(cases[i], mpitest_rank == 1, &dc, &o, &target);
        expect_rank_arg(fm_write(MPI_COMM_WORLD, "cfg.ildg", &dc, &l, local, NULL), names[cases[i]]);
        kept("cfg.ildg", before, n, names[cases[i]]);
    }
    lattio_field_desc dc = d;
    if (mpitest_rank == 1) dc.require_checksum = 1;
    double *back = fm_buffer(&l);
    lattio_field_read_info info;
    expect_rank_arg(fm_read(MPI_COMM_WORLD, "cfg.ildg", &dc, &l, back, &info), "require_checksum");
    free(back);
    free(before);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    lattio_layout l;
    gauge_layout(&l, LATTIO_REAL_F64_NATIVE);
    double *local = fm_fill(&l, 72);
    ildg_cases(local);
    hdf5_cases(local);
    free(local);
    return mpitest_finish();
}
