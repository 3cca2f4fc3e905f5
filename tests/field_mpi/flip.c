/* flip.c -- one flipped byte in the binary data of a real ILDG file gives
 * ERR_CHECKSUM on every rank whatever the decomposition (and OK with the
 * checksum skipped); a file whose scidac-checksum record is missing reads
 * with the state MISSING, or ERR_NO_CHECKSUM on every rank when required. */
#include "fmtest.h"

#include "../field/fieldtest.h"

/* Rank 0: copy t_dprec_ildg.lime and change one byte at `offset`. */
static void damaged_copy(const char *name, uint64_t offset, unsigned char xor_mask)
{
    if (mpitest_rank == 0) {
        CHECK(ft_copy("t_dprec_ildg.lime", name));
        FILE *fp = fopen(name, "r+b");
        CHECK(fp != NULL);
        if (fp) {
            fseek(fp, (long)offset, SEEK_SET);
            const int c = fgetc(fp);
            fseek(fp, (long)offset, SEEK_SET);
            fputc(c ^ xor_mask, fp);
            fclose(fp);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static int read_with(const char *name, int v, int skip, int require, int *state)
{
    const uint64_t g[4] = {4, 4, 4, 4};
    int grid[4];
    fm_grid(v, mpitest_size, grid);
    lattio_layout l;
    CHECK_OK(fm_layout(&l, g, grid, mpitest_rank, 576, 0, 0));
    double *local = fm_buffer(&l);
    lattio_field_desc d;
    fm_gauge_desc(&d, LATTIO_REAL_F64_NATIVE, 0);
    d.skip_checksum = skip;
    d.require_checksum = require;
    lattio_file *f = NULL;
    lattio_field_read_info info;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, name, LATTIO_MODE_READ, MPI_INFO_NULL, NULL, &f));
    const int rc = lattio_field_read(f, 0, &d, &l, local, &info);
    *state = info.checksum;
    lattio_field_info_free(&info.field);
    CHECK_OK(lattio_close(f));
    free(local);
    CHECK(fm_same_everywhere(rc));
    return rc;
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    int state = 0;
    /* ildg-binary-data header at 1936: payload from 2080 */
    damaged_copy("flip.lime", 2080 + 12345, 0x01);
    for (int v = 0; v < 4; v++) CHECK_STATUS(read_with("flip.lime", v, 0, 0, &state), LATTIO_ERR_CHECKSUM);
    CHECK_OK(read_with("flip.lime", 3, 1, 0, &state));
    CHECK_INT(state, LATTIO_CHECKSUM_SKIPPED);
    /* the last byte of the data: the last site on the last rank */
    damaged_copy("flip_last.lime", 2080 + 147456 - 1, 0x80);
    CHECK_STATUS(read_with("flip_last.lime", 0, 0, 0, &state), LATTIO_ERR_CHECKSUM);
    /* scidac-checksum at 149536 renamed (type at header byte 16, 'm' at 14) */
    damaged_copy("nocheck.lime", 149536 + 16 + 14, 'm' ^ 'X');
    CHECK_OK(read_with("nocheck.lime", 1, 0, 0, &state));
    CHECK_INT(state, LATTIO_CHECKSUM_MISSING);
    CHECK_STATUS(read_with("nocheck.lime", 1, 0, 1, &state), LATTIO_ERR_NO_CHECKSUM);
    damaged_copy("intact.lime", 0, 0);
    CHECK_OK(read_with("intact.lime", 2, 0, 1, &state));
    CHECK_INT(state, LATTIO_CHECKSUM_VERIFIED);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
