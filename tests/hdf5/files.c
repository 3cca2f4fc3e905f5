/* files.c -- HDF5 files holding several fields: a gauge field (QDP++), a
 * Dirac fermion (Qlua) appended, a 5-real field appended chunked (the HDF5
 * transport), each at its own path, read back with their values; listed
 * with their layouts; a part of the lattice read by some ranks while
 * others read nothing; an append onto an existing object refused with the
 * file unchanged; and the errors a reader meets (wrong length, wrong
 * dims, layout asked that is not there, no object, not HDF5 (also when
 * appending: the file is kept), no checksum
 * when one is required, a Qlua object of no Qlua kind), each the same on
 * every rank.  With argument "kill" the program appends with the test hook
 * that kills the writer after its data (test_kill.py checks the file). */
#include "../field_mpi/fmtest.h"
#include "testhooks.h"
#include "hdf5/h5_internal.h" /* lattio_h5_split */

#include <hdf5.h>

#include <stdlib.h>
#include <sys/stat.h>

/* This rank's layout of E reals per site in decomposition v. */
static void layout_of(lattio_layout *l, uint64_t e, int v, int odd)
{
    int grid[4];
    fm_grid(v, mpitest_size, grid);
    CHECK_OK(fm_layout(l, fm_g, grid, mpitest_rank, (size_t)(e * 8), odd, odd));
}

static uint64_t wrong(const lattio_layout *l, const double *local, uint64_t e)
{
    uint64_t *pos, *gr, bad = 0;
    const uint64_t n = fm_sites(l, &pos, &gr);
    for (uint64_t s = 0; s < n; s++)
        for (uint64_t k = 0; k < e; k++)
            if (local[pos[s] * e + k] != fm_value(gr[s], k)) {
                bad++;
                break;
            }
    free(pos);
    free(gr);
    return bad;
}

static int put(const char *target, uint64_t e, int layout, int append, int chunked)
{
    lattio_layout l;
    layout_of(&l, e, 3, 0);
    double *local = fm_fill(&l, e);
    lattio_field_desc d;
    if (e == 72) fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
    else lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, e);
    lattio_h5_options o;
    lattio_h5_options_default(&o);
    o.layout = layout;
    o.append = append;
    o.chunked = chunked;
    lattio_h5_info h5;
    const int rc = lattio_h5_write(MPI_COMM_WORLD, target, &d, &l, local, &o, NULL, &h5);
    CHECK(fm_same_everywhere(rc));
    if (rc == LATTIO_OK && chunked) CHECK(h5.transport == LATTIO_H5_TRANSPORT_HDF5 && h5.no_collective_cause == 0);
    free(local);
    return rc;
}

/* Read e reals per site of target in decomposition v (odd: halos, x
 * slowest in memory); the values checked. */
static int get(const char *target, uint64_t e, int v, int odd, int require, lattio_field_read_info *info)
{
    lattio_layout l;
    layout_of(&l, e, v, odd);
    double *local = fm_buffer(&l);
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, e);
    d.require_checksum = require;
    lattio_field_read_info mine;
    if (!info) info = &mine;
    const int rc = lattio_h5_read(MPI_COMM_WORLD, target, &d, &l, local, NULL, info, NULL);
    CHECK(fm_same_everywhere(rc));
    if (rc == LATTIO_OK) CHECK(wrong(&l, local, e) == 0);
    if (info == &mine || rc != LATTIO_OK) lattio_field_info_free(&info->field);
    free(local);
    return rc;
}

static int same_bytes(const char *a, const char *b) { return fm_same_file(a, b); }

static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    char buf[65536];
    size_t n;
    while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
    if (in) fclose(in);
    if (out) fclose(out);
}

/* Ranks of even number read the box of t in [2, 7), the others nothing. */
static void partial(void)
{
    lattio_layout l;
    const uint64_t lo[4] = {0, 0, 0, 2}, none[4] = {0, 0, 0, 0}, some[4] = {6, 4, 8, 5};
    CHECK_OK(lattio_layout_init(&l, 4, fm_g, lo, mpitest_rank % 2 ? none : some, 5 * 8));
    memcpy(l.file_order, fm_file_order, sizeof fm_file_order);
    memcpy(l.mem_order, fm_file_order, sizeof fm_file_order);
    /* a second even rank takes another t range so the boxes are disjoint */
    if (mpitest_rank % 2 == 0 && mpitest_rank > 0) {
        l.lo[3] = 7;
        l.count[3] = 3;
        if (mpitest_rank > 2) memset(l.count, 0, sizeof l.count);
    }
    double *local = fm_buffer(&l);
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, 5);
    lattio_field_read_info info;
    const int rc = lattio_h5_read(MPI_COMM_WORLD, "f.h5:/x/y", &d, &l, local, NULL, &info, NULL);
    CHECK(fm_same_everywhere(rc));
    CHECK_OK(rc);
    CHECK(info.checksum == LATTIO_CHECKSUM_PARTIAL);
    CHECK(wrong(&l, local, 5) == 0);
    lattio_field_info_free(&info.field);
    free(local);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    if (argc > 1 && strcmp(argv[1], "kill") == 0) { /* test_kill.py */
        lattio_h5_test_kill_after_data(1);
        put("k.h5:/second", 72, LATTIO_H5_QDP, 1, 0);
        return mpitest_finish(); /* not reached */
    }
    if (argc > 1 && strcmp(argv[1], "prepare") == 0) { /* test_kill.py */
        CHECK_OK(put("k.h5:/first", 72, LATTIO_H5_QDP, 0, 0));
        return mpitest_finish();
    }
    CHECK_OK(put("f.h5:/cfg/1/U", 72, LATTIO_H5_QDP, 0, 0));
    CHECK_OK(put("f.h5:/prop/psi", 24, LATTIO_H5_QLUA, 1, 0));
    CHECK_OK(put("f.h5:/x/y", 5, LATTIO_H5_QDP, 1, 1));
    lattio_field_read_info info;
    for (int v = 0; v < 5; v++) {
        CHECK_OK(get("f.h5:/cfg/1/U", 72, v, v % 2, 1, &info));
        CHECK(info.checksum == LATTIO_CHECKSUM_VERIFIED);
        lattio_field_info_free(&info.field);
        CHECK_OK(get("f.h5:/prop/psi", 24, v, !(v % 2), 1, &info));
        CHECK(info.checksum == LATTIO_CHECKSUM_VERIFIED);
        lattio_field_info_free(&info.field);
        CHECK_OK(get("f.h5:/x/y", 5, v, 0, 1, NULL));
    }
    lattio_h5_entry e[8];
    int n = 0;
    CHECK_OK(lattio_h5_list(MPI_COMM_WORLD, "f.h5", 4, e, 8, &n));
    CHECK(n == 3);
    if (n == 3) { /* name order: /cfg/1/U, /prop/psi, /x/y */
        CHECK(strcmp(e[0].path, "/cfg/1/U") == 0 && e[0].layout == LATTIO_H5_QDP && e[0].gauge && e[0].checksum == 1);
        CHECK(strcmp(e[1].path, "/prop/psi") == 0 && e[1].layout == LATTIO_H5_QLUA && e[1].elements == 24 &&
              e[1].big_endian && e[1].checksum == 2);
        CHECK(strcmp(e[2].path, "/x/y") == 0 && e[2].elements == 5 && e[2].dims[0] == 6 && e[2].dims[3] == 10);
    }
    partial();
    /* a directory whose name ends in ':' (ROMIO itself refuses to open
     * such names: it takes "run:" for a file-system prefix, so the split
     * is checked alone): the whole target names an existing file */
    if (mpitest_rank == 0) {
        mkdir("run:", 0755);
        copy_file("f.h5", "run:/f.h5");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    char *file = NULL, *object = NULL;
    CHECK_OK(lattio_h5_split("run:/f.h5", &file, &object));
    CHECK(file && strcmp(file, "run:/f.h5") == 0 && object && strcmp(object, "/lattice") == 0);
    lattio_free(file);
    lattio_free(object);
    CHECK_OK(lattio_h5_split("run:/f.h5:/x/y", &file, &object));
    CHECK(file && strcmp(file, "run:/f.h5") == 0 && object && strcmp(object, "/x/y") == 0);
    lattio_free(file);
    lattio_free(object);
    CHECK_OK(lattio_h5_split("run:/new.h5", &file, &object)); /* no such file: split */
    CHECK(file && strcmp(file, "run") == 0 && object && strcmp(object, "/new.h5") == 0);
    lattio_free(file);
    lattio_free(object);
    /* an append onto an existing object: refused, the file as it was */
    if (mpitest_rank == 0) copy_file("f.h5", "before.h5");
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(put("f.h5:/x/y", 5, LATTIO_H5_QDP, 1, 0) == LATTIO_ERR_HDF5);
    if (mpitest_rank == 0) CHECK(same_bytes("f.h5", "before.h5"));
    /* the errors of a reader */
    CHECK(get("f.h5:/cfg/1/U", 18, 0, 0, 0, NULL) == LATTIO_ERR_FIELD_LENGTH);
    CHECK(get("f.h5:/nothing", 72, 0, 0, 0, NULL) == LATTIO_ERR_HDF5_NOT_FOUND);
    CHECK(get("f.h5:/cfg", 72, 0, 0, 0, NULL) == LATTIO_ERR_HDF5_LAYOUT); /* a group, not Qlua's */
    CHECK(put("f.h5:/cfg/2/U", 5, LATTIO_H5_QLUA, 1, 0) == LATTIO_ERR_ARG); /* no Qlua kind of 5 reals */
    {
        lattio_layout l;
        const uint64_t g[4] = {6, 4, 8, 12}, lo[4] = {0, 0, 0, 0};
        CHECK_OK(lattio_layout_init(&l, 4, g, lo, mpitest_rank == 0 ? g : lo, 5 * 8));
        memcpy(l.file_order, fm_file_order, sizeof fm_file_order);
        memcpy(l.mem_order, fm_file_order, sizeof fm_file_order);
        double *buf = fm_buffer(&l);
        lattio_field_desc d;
        lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, 5);
        int rc = lattio_h5_read(MPI_COMM_WORLD, "f.h5:/x/y", &d, &l, buf, NULL, NULL, NULL);
        CHECK(fm_same_everywhere(rc) && rc == LATTIO_ERR_FIELD_DIMS);
        lattio_h5_options o;
        lattio_h5_options_default(&o);
        o.layout = LATTIO_H5_QLUA;
        l.global[3] = 10;
        if (mpitest_rank == 0) l.count[3] = 10;
        rc = lattio_h5_read(MPI_COMM_WORLD, "f.h5:/x/y", &d, &l, buf, &o, NULL, NULL);
        CHECK(fm_same_everywhere(rc) && rc == LATTIO_ERR_HDF5_LAYOUT);
        free(buf);
    }
    /* not HDF5: a LIME file */
    {
        lattio_layout l;
        layout_of(&l, 72, 0, 0);
        double *local = fm_fill(&l, 72);
        lattio_field_desc d;
        fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE);
        CHECK_OK(fm_write(MPI_COMM_WORLD, "g.lime", &d, &l, local, NULL));
        free(local);
        CHECK(get("g.lime:/U", 72, 0, 0, 0, NULL) == LATTIO_ERR_UNKNOWN_FORMAT);
        /* appending to it would replace it: refused, the LIME file kept */
        if (mpitest_rank == 0) copy_file("g.lime", "g_before.lime");
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK(put("g.lime:/U", 5, LATTIO_H5_QDP, 1, 0) == LATTIO_ERR_UNKNOWN_FORMAT);
        if (mpitest_rank == 0) CHECK(same_bytes("g.lime", "g_before.lime"));
    }
    /* no checksum stored, one required: a QDP++ dataset whose suma/sumb are
     * removed by HDF5 itself, with every other byte lattio's */
    if (mpitest_rank == 0) {
        hid_t f = H5Fopen("f.h5", H5F_ACC_RDWR, H5P_DEFAULT);
        hid_t ds = H5Dopen2(f, "/x/y", H5P_DEFAULT);
        CHECK(H5Adelete(ds, "suma") >= 0 && H5Adelete(ds, "sumb") >= 0);
        H5Dclose(ds);
        CHECK(H5Fclose(f) >= 0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(get("f.h5:/x/y", 5, 2, 0, 1, NULL) == LATTIO_ERR_NO_CHECKSUM);
    CHECK(get("f.h5:/x/y", 5, 2, 0, 0, &info) == LATTIO_OK);
    CHECK(info.checksum == LATTIO_CHECKSUM_MISSING);
    lattio_field_info_free(&info.field);
    return mpitest_finish();
}
