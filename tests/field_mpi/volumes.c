/* volumes.c -- QIO volume sets in parallel (lattio_volumes_write/_read):
 * two Dirac-fermion fields written as multifile (a volume per rank),
 * partfile (a volume per node) and partfile in directories from t slabs,
 * and partfile from slabs scattered so that a node's make no box;
 * each set joined by rank 0 is byte for byte the single file
 * lattio_fields_write_serial writes of the same fields, and reads back
 * into x-split boxes site for site with verified checksums.  QIO's own
 * multifile and partfile sets (4 volumes) read on any number of ranks
 * equal its single file; global data and subsets are refused alike;
 * ranks that disagree, a set short of a volume and an older, larger set
 * under the same name are handled on every rank. */
#include "fmtest.h"

#include <sys/stat.h>
#include <unistd.h>

#define REALS 24
#define NF 2

static const uint64_t G[4] = {4, 4, 2, 6}; /* x, y, z, t */

static void desc_of(lattio_field_desc *d)
{
    lattio_field_desc_default(d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, LATTIO_REAL_F64_BE, REALS);
    d->datatype = "USQCD_D3_DiracFermion";
    d->colors = 3, d->spins = 4, d->datacount = 1;
    d->date = "Sat Nov 28 12:00:00 2026 UTC";
}

/* Field f's values of the whole lattice in file order (serial reference). */
static double *whole(int f)
{
    const uint64_t vol = G[0] * G[1] * G[2] * G[3];
    double *all = malloc(vol * REALS * sizeof *all);
    for (uint64_t r = 0; r < vol; r++)
        for (uint64_t k = 0; k < REALS; k++) all[r * REALS + k] = fm_value(r, k + 100 * (uint64_t)f);
    return all;
}

static double *local_field(const lattio_layout *l, int f)
{
    double *buf = fm_fill(l, REALS);
    uint64_t *pos, *gr;
    const uint64_t n = fm_sites(l, &pos, &gr);
    for (uint64_t s = 0; s < n; s++)
        for (uint64_t k = 0; k < REALS; k++) buf[pos[s] * REALS + k] = fm_value(gr[s], k + 100 * (uint64_t)f);
    free(pos);
    free(gr);
    return buf;
}

static int volumes_of(const char *base)
{
    lattio_volumes *v = NULL;
    lattio_volumes_info vi = {0};
    if (lattio_volumes_open(base, &v) == LATTIO_OK) lattio_volumes_describe(v, &vi);
    lattio_volumes_close(v);
    return vi.volumes;
}

/* scatter: the ranks write the t slabs 0, 2, 4, .. then 1, 3, .., so a
 * node of several consecutive ranks holds slabs that make no box
 * (partfile: a volume per rank of such a node). */
static void write_and_read(int volfmt, const char *base, int nodes, int scatter)
{
    lattio_field_desc d;
    desc_of(&d);
    int grid[4];
    lattio_layout lw, lr;
    fm_grid(0, mpitest_size, grid);
    const int half = (mpitest_size + 1) / 2; /* scattered: slabs 0, 2, 4, .. then 1, 3, .. */
    const int box = !scatter ? mpitest_rank : mpitest_rank < half ? 2 * mpitest_rank : 2 * (mpitest_rank - half) + 1;
    CHECK_OK(fm_layout(&lw, G, grid, box, REALS * 8, 1, 0));
    fm_grid(2, mpitest_size, grid);
    CHECK_OK(fm_layout(&lr, G, grid, mpitest_rank, REALS * 8, 0, 1));
    double *in[NF], *out = NULL;
    for (int f = 0; f < NF; f++) in[f] = local_field(&lw, f);
    if (mpitest_rank == 0) { /* an older set of the same name with a volume this one lacks */
        char stale[256];
        CHECK_OK(lattio_volumes_name(base, volfmt, 99, stale, sizeof stale));
        if (volfmt == LATTIO_VOLFMT_PART_DIR) mkdir("vol0099", 0777);
        FILE *s = fopen(stale, "w");
        if (s) fclose(s);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    lattio_field_write_info wi;
    CHECK_OK(lattio_volumes_write(MPI_COMM_WORLD, base, volfmt, &d, &lw, NF, (const void *const *)in, &wi));
    if (mpitest_rank == 0) {
        const int want = volfmt == LATTIO_VOLFMT_MULTI || (scatter && nodes > 1) ? mpitest_size : nodes;
        CHECK_INT(volumes_of(base), want);
        char stale[256], joined[256];
        CHECK_OK(lattio_volumes_name(base, volfmt, 99, stale, sizeof stale));
        CHECK(access(stale, F_OK) != 0);
        snprintf(joined, sizeof joined, "%s.joined", base);
        CHECK_OK(lattio_volumes_join(base, joined));
        const uint64_t g[4] = {G[3], G[2], G[1], G[0]}; /* file order, as the serial writer takes it */
        lattio_layout lall;
        CHECK_OK(lattio_layout_init(&lall, 4, g, (uint64_t[4]){0, 0, 0, 0}, g, REALS * 8));
        double *all[NF] = {whole(0), whole(1)};
        CHECK_OK(lattio_fields_write_serial("reference.lime", &d, &lall, NF, (const void *const *)all));
        CHECK(fm_same_file(joined, "reference.lime"));
        free(all[0]);
        free(all[1]);
    }
    out = fm_buffer(&lr);
    for (int f = 0; f < NF; f++) {
        double *all = whole(f);
        lattio_field_read_info info;
        CHECK_OK(lattio_volumes_read(MPI_COMM_WORLD, base, f, &d, &lr, out, &info));
        CHECK_INT(info.checksum, LATTIO_CHECKSUM_VERIFIED);
        CHECK_STR(info.field.datatype, "USQCD_D3_DiracFermion");
        CHECK_INT(info.field.spins, 4);
        lattio_field_info_free(&info.field);
        CHECK_U64(fm_mismatches(&lr, out, all, REALS), 0);
        free(all);
    }
    for (int f = 0; f < NF; f++) free(in[f]);
    free(out);
}

/* QIO's sets (qio-test2, qio-test3 on 4 ranks) on this many ranks. */
static void read_qio(const char *set)
{
    lattio_lime_reader *r = NULL;
    lattio_field_info fi;
    CHECK_OK(lattio_lime_reader_open(test_data("qio-volumes/single/binary_test"), &r));
    CHECK_OK(lattio_field_info_read(r, 3, &fi));
    double *all = malloc(fi.volume * 72 * sizeof *all);
    CHECK_OK(lattio_field_read_double(r, &fi, all, fi.volume * 72, NULL));
    lattio_lime_reader_close(r);
    const uint64_t g[4] = {fi.dims[0], fi.dims[1], fi.dims[2], fi.dims[3]};
    int grid[4];
    lattio_layout l;
    fm_grid(3, mpitest_size, grid);
    CHECK_OK(fm_layout(&l, g, grid, mpitest_rank, 72 * 8, 0, 0));
    double *local = fm_buffer(&l);
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, 0, 72);
    lattio_field_read_info info;
    CHECK_OK(lattio_volumes_read(MPI_COMM_WORLD, test_data(set), 3, &d, &l, local, &info));
    CHECK_INT(info.checksum, LATTIO_CHECKSUM_VERIFIED);
    CHECK_STR(info.field.datatype, "QDP_F3_ColorMatrix");
    CHECK_INT(info.field.volfmt, strstr(set, "multi") ? LATTIO_VOLFMT_MULTI : LATTIO_VOLFMT_PART);
    lattio_field_info_free(&info.field);
    CHECK_U64(fm_mismatches(&l, local, all, 72), 0);
    /* the first lattice field when no index is given: the real field */
    lattio_field_desc dr;
    lattio_field_desc_default(&dr, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, 0, 2);
    lattio_layout l2;
    CHECK_OK(fm_layout(&l2, g, grid, mpitest_rank, 2 * 8, 0, 0));
    double *two = fm_buffer(&l2);
    CHECK_OK(lattio_volumes_read(MPI_COMM_WORLD, test_data(set), -1, &dr, &l2, two, &info));
    CHECK_INT(info.field.index, 0);
    lattio_field_info_free(&info.field);
    /* subset and global data are not lattice fields */
    CHECK_STATUS(lattio_volumes_read(MPI_COMM_WORLD, test_data(set), 1, &dr, &l2, two, NULL), LATTIO_ERR_UNSUPPORTED);
    CHECK_STATUS(lattio_volumes_read(MPI_COMM_WORLD, test_data(set), 2, &dr, &l2, two, NULL), LATTIO_ERR_UNSUPPORTED);
    /* the wrong element count */
    CHECK_STATUS(lattio_volumes_read(MPI_COMM_WORLD, test_data(set), 0, &d, &l, local, NULL), LATTIO_ERR_FIELD_LENGTH);
    free(two);
    free(local);
    free(all);
    lattio_field_info_free(&fi);
}

/* A copy of QIO's multifile set without volume 2. */
static void short_set(void)
{
    if (mpitest_rank == 0)
        for (int k = 0; k < 4; k++) {
            char from[4096], to[64];
            snprintf(from, sizeof from, "%s.vol%04d", test_data("qio-volumes/multi/binary_test"), k);
            snprintf(to, sizeof to, "short.vol%04d", k);
            size_t n = 0;
            unsigned char *p = test_slurp(from, &n);
            FILE *f = k == 2 ? NULL : fopen(to, "wb");
            if (f) {
                CHECK(fwrite(p, 1, n, f) == n);
                fclose(f);
            }
            free(p);
        }
    MPI_Barrier(MPI_COMM_WORLD);
    const uint64_t g[4] = {8, 4, 4, 4};
    int grid[4];
    lattio_layout l;
    fm_grid(0, mpitest_size, grid);
    CHECK_OK(fm_layout(&l, g, grid, mpitest_rank, 72 * 8, 0, 0));
    double *local = fm_buffer(&l);
    lattio_field_desc d;
    lattio_field_desc_default(&d, LATTIO_FIELD_GENERIC, LATTIO_REAL_F64_NATIVE, 0, 72);
    CHECK_STATUS(lattio_volumes_read(MPI_COMM_WORLD, "short", 3, &d, &l, local, NULL), LATTIO_ERR_VOLUME_SITES);
    CHECK_STATUS(lattio_volumes_read(MPI_COMM_WORLD, "no-such-set", 3, &d, &l, local, NULL), LATTIO_ERR_OPEN);
    free(local);
}

static void disagreeing_ranks(void)
{
    lattio_field_desc d;
    desc_of(&d);
    int grid[4];
    lattio_layout l;
    fm_grid(0, mpitest_size, grid);
    CHECK_OK(fm_layout(&l, G, grid, mpitest_rank, REALS * 8, 0, 0));
    double *in = local_field(&l, 0);
    const void *fields[1] = {in};
    const int volfmt = mpitest_rank == mpitest_size - 1 ? LATTIO_VOLFMT_PART : LATTIO_VOLFMT_MULTI;
    const int want = mpitest_size > 1 ? LATTIO_ERR_RANK_ARG : LATTIO_OK;
    CHECK_STATUS(lattio_volumes_write(MPI_COMM_WORLD, "disagree", volfmt, &d, &l, 1, fields, NULL), want);
    CHECK_STATUS(lattio_volumes_write(MPI_COMM_WORLD, "bad", 7, &d, &l, 1, fields, NULL), LATTIO_ERR_ARG);
    char base[32]; /* a base name of each rank's own: no volume written anywhere */
    snprintf(base, sizeof base, "rank%d", mpitest_rank);
    CHECK_STATUS(lattio_volumes_write(MPI_COMM_WORLD, base, LATTIO_VOLFMT_MULTI, &d, &l, 1, fields, NULL), want);
    if (mpitest_size > 1) CHECK(access("rank0.vol0000", F_OK) != 0);
    free(in);
}

/* A binary record that reaches the disk wrong (the test hook flips a byte
 * of a site rank 0 stages, after its checksum): with verify the write fails on every rank and the
 * set written before stays as it was. */
static void verify_on_write(void)
{
    lattio_field_desc d;
    desc_of(&d);
    d.verify = 1;
    int grid[4];
    lattio_layout l;
    fm_grid(0, mpitest_size, grid);
    CHECK_OK(fm_layout(&l, G, grid, mpitest_rank, REALS * 8, 0, 0));
    double *in = local_field(&l, 0);
    const void *fields[1] = {in};
    CHECK_OK(lattio_volumes_write(MPI_COMM_WORLD, "verified", LATTIO_VOLFMT_MULTI, &d, &l, 1, fields, NULL));
    unsigned char *before = NULL;
    size_t nb = 0;
    if (mpitest_rank == 0) before = test_slurp("verified.vol0000", &nb);
    MPI_Barrier(MPI_COMM_WORLD);
    if (mpitest_rank == 0) lattio_field_test_corrupt_writes(1);
    in[0] += 1.0; /* different data: the old volume 0 must stay */
    CHECK_STATUS(lattio_volumes_write(MPI_COMM_WORLD, "verified", LATTIO_VOLFMT_MULTI, &d, &l, 1, fields, NULL),
                 LATTIO_ERR_VERIFY);
    lattio_field_test_corrupt_writes(0);
    if (mpitest_rank == 0) {
        size_t na = 0;
        unsigned char *after = test_slurp("verified.vol0000", &na);
        CHECK(before && after && na == nb && memcmp(before, after, na) == 0);
        free(after);
        CHECK_OK(lattio_volumes_join("verified", "verified.lime"));
    }
    free(before);
    free(in);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    const int nodes = mpitest_nodes();
    write_and_read(LATTIO_VOLFMT_MULTI, "multi", nodes, 0);
    write_and_read(LATTIO_VOLFMT_PART, "part", nodes, 0);
    write_and_read(LATTIO_VOLFMT_PART_DIR, "dir", nodes, 0);
    write_and_read(LATTIO_VOLFMT_PART, "scattered", nodes, 1);
    read_qio("qio-volumes/multi/binary_test");
    read_qio("qio-volumes/part/binary_test");
    short_set();
    disagreeing_ranks();
    verify_on_write();
    return mpitest_finish();
}
