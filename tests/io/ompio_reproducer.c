/* ompio_reproducer.c -- a raw MPI program (no lattio) that writes a 4-D
 * lattice with a subarray file view and one MPI_File_write_at_all, then
 * checks every byte of the file on rank 0.  Each site's bytes encode its
 * global index.  It documents whether the MPI library's collective write
 * corrupts legal subarray writes (Open MPI 4.1's OMPIO with its default
 * fcoll module "vulcan" does; see the report printed per case).  It never
 * fails because of the MPI library: lattio's own correctness under such a
 * library is asserted by collective_guard.c.
 *
 * Usage: test_io.ompio_reproducer [X Y Z T SITE OFFSET GX GY GZ GT CART NAME] runs
 * one case (G*: ranks along x,y,z,t, 0 = the rest; CART 1 = open the file on
 * a Cartesian communicator); without arguments it runs a table of cases.  Prints one line per case:
 *   case ...: ok | CORRUPT <bad bytes> bad, first at payload byte <n> (site <s>, byte <b>)
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rcase {
    int g[4];      /* x, y, z, t extents (file order t slowest, x fastest) */
    int site;      /* bytes per site */
    long offset;   /* file offset of the payload */
    int grid[4];   /* ranks along x, y, z, t (0: the rest of the ranks) */
    int cart;      /* open the file on a Cartesian communicator of the grid */
    const char *name;
} rcase;

static int rank_, size_;

/* Byte b of global site k: the site index in the first 8 bytes, then a
 * pattern of (k, b) that is never 0 (so an unwritten byte is seen). */
static unsigned char pattern(uint64_t k, int b)
{
    if (b < 8) return (unsigned char)(k >> (8 * b));
    return (unsigned char)((k * 131 + (uint64_t)b * 7) % 255 + 1);
}

static void split(int extent, int parts, int index, int *lo, int *count)
{
    int base = extent / parts, rem = extent % parts;
    *count = base + (index < rem);
    *lo = index * base + (index < rem ? index : rem);
}

/* Returns 1 when the case could be set up on this many ranks. */
static int resolve_grid(const rcase *c, int *grid)
{
    int fixed = 1, free_dims = 0;
    for (int d = 0; d < 4; d++) {
        grid[d] = c->grid[d];
        if (grid[d]) fixed *= grid[d];
        else free_dims++;
    }
    if (size_ % fixed) return 0;
    for (int d = 0; d < 4; d++)
        if (!grid[d]) grid[d] = free_dims ? size_ / fixed : 1, free_dims = 0;
    int prod = 1;
    for (int d = 0; d < 4; d++) prod *= grid[d];
    return prod == size_;
}

/* Write the case into `path`: 0 on success, else an MPI error code. */
static int write_case(const rcase *c, const int *grid, const char *path)
{
    int lo[4], cnt[4], r = rank_;
    for (int d = 0; d < 4; d++) {
        split(c->g[d], grid[d], r % grid[d], &lo[d], &cnt[d]);
        r /= grid[d];
    }
    uint64_t n = (uint64_t)cnt[0] * cnt[1] * cnt[2] * cnt[3];
    unsigned char *buf = malloc(n * (uint64_t)c->site + 1), *p = buf;
    for (int t = 0; t < cnt[3]; t++)
        for (int z = 0; z < cnt[2]; z++)
            for (int y = 0; y < cnt[1]; y++)
                for (int x = 0; x < cnt[0]; x++) {
                    uint64_t k = (((uint64_t)(lo[3] + t) * c->g[2] + lo[2] + z) * c->g[1] + lo[1] + y) *
                                     c->g[0] + lo[0] + x;
                    for (int b = 0; b < c->site; b++) *p++ = pattern(k, b);
                }
    int sizes[4] = {c->g[3], c->g[2], c->g[1], c->g[0]};
    int subs[4] = {cnt[3], cnt[2], cnt[1], cnt[0]}, starts[4] = {lo[3], lo[2], lo[1], lo[0]};
    MPI_Datatype site, ftype;
    MPI_Type_contiguous(c->site, MPI_BYTE, &site);
    MPI_Type_commit(&site);
    int empty = n == 0;
    if (empty) /* a subarray needs extents >= 1; this rank writes count 0 below */
        for (int d = 0; d < 4; d++) subs[d] = 1, starts[d] = 0;
    MPI_Type_create_subarray(4, sizes, subs, starts, MPI_ORDER_C, site, &ftype);
    MPI_Type_commit(&ftype);
    MPI_File fh;
    MPI_Comm comm = MPI_COMM_WORLD;
    if (c->cart) {
        int dims[4] = {grid[3], grid[2], grid[1], grid[0]}, periods[4] = {0, 0, 0, 0};
        MPI_Cart_create(MPI_COMM_WORLD, 4, dims, periods, 0, &comm);
    }
    int rc = MPI_File_open(comm, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    if (rc == MPI_SUCCESS) {
        MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
        rc = MPI_File_set_view(fh, c->offset, site, ftype, "native", MPI_INFO_NULL);
        MPI_Status st;
        if (rc == MPI_SUCCESS) rc = MPI_File_write_at_all(fh, 0, buf, empty ? 0 : (int)n, site, &st);
        MPI_File_close(&fh);
    }
    if (comm != MPI_COMM_WORLD) MPI_Comm_free(&comm);
    MPI_Type_free(&ftype);
    MPI_Type_free(&site);
    free(buf);
    return rc;
}

/* Rank 0 checks the file; prints the verdict.  Returns 1 when corrupt. */
static int check_case(const rcase *c, const int *grid, const char *path, int rc)
{
    uint64_t sites = (uint64_t)c->g[0] * c->g[1] * c->g[2] * c->g[3];
    uint64_t bytes = sites * (uint64_t)c->site, bad = 0, first = 0;
    unsigned char *file = calloc(bytes + 1, 1);
    FILE *fp = fopen(path, "rb");
    size_t got = 0;
    if (fp && fseek(fp, c->offset, SEEK_SET) == 0) got = fread(file, 1, bytes, fp);
    if (fp) fclose(fp);
    for (uint64_t i = 0; i < bytes; i++)
        if (file[i] != pattern(i / (uint64_t)c->site, (int)(i % (uint64_t)c->site)))
            if (bad++ == 0) first = i;
    printf("case %-10s %dx%dx%dx%d site %3d offset %4ld grid %dx%dx%dx%d %s np %d: ", c->name, c->g[0],
           c->g[1], c->g[2], c->g[3], c->site, c->offset, grid[0], grid[1], grid[2], grid[3],
           c->cart ? "cart" : "world", size_);
    if (rc != MPI_SUCCESS) printf("MPI error %d; ", rc);
    if (bad || got != bytes)
        printf("CORRUPT %llu of %llu bytes bad (file gave %zu), first at payload byte %llu (site %llu, "
               "byte %llu)\n", (unsigned long long)bad, (unsigned long long)bytes, got,
               (unsigned long long)first, (unsigned long long)(first / (uint64_t)c->site),
               (unsigned long long)(first % (uint64_t)c->site));
    else
        printf("ok\n");
    free(file);
    fflush(stdout);
    return bad || got != bytes;
}

static int run_case(const rcase *c)
{
    int grid[4];
    if (!resolve_grid(c, grid)) return 0;
    char path[64];
    snprintf(path, sizeof path, "repro.%d.bin", size_);
    if (rank_ == 0) remove(path);
    MPI_Barrier(MPI_COMM_WORLD);
    int rc = write_case(c, grid, path), worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int corrupt = rank_ == 0 ? check_case(c, grid, path, worst) : 0;
    MPI_Bcast(&corrupt, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank_ == 0) remove(path);
    return corrupt;
}

static const rcase table[] = {
    /* g{x,y,z,t}, site, offset, grid{x,y,z,t}, name */
    {{8, 8, 8, 16}, 72, 0, {1, 1, 1, 0}, 0, "t-slab"},
    {{8, 8, 8, 16}, 72, 144, {1, 1, 1, 0}, 0, "t-slab"},
    {{8, 8, 8, 16}, 72, 144, {1, 1, 2, 0}, 0, "t+z"},
    {{8, 8, 8, 16}, 72, 144, {2, 0, 1, 1}, 0, "y+x"},
    {{8, 8, 8, 16}, 72, 144, {0, 0, 0, 0}, 0, "all-x"},
    {{8, 8, 8, 15}, 72, 144, {1, 1, 1, 0}, 0, "uneven-t"},
    {{6, 5, 7, 9}, 72, 100, {0, 1, 1, 1}, 0, "uneven-x"},
    {{8, 8, 8, 16}, 576, 144, {1, 1, 2, 0}, 0, "t+z"},
    {{8, 8, 8, 16}, 576, 144, {2, 0, 1, 1}, 0, "y+x"},
    {{16, 16, 16, 32}, 72, 144, {1, 1, 2, 0}, 0, "t+z"},
    {{16, 16, 16, 32}, 72, 144, {2, 0, 1, 1}, 0, "y+x"},
    {{16, 16, 16, 32}, 72, 144, {1, 1, 1, 0}, 0, "t-slab"},
    /* on a Cartesian communicator (OMPIO groups aggregators by topology) */
    {{2, 2, 2, 3}, 72, 144, {1, 1, 1, 0}, 1, "cart-tiny"},
    {{4, 4, 4, 8}, 72, 144, {0, 1, 1, 1}, 1, "cart-x"},
    {{8, 8, 8, 16}, 576, 144, {2, 0, 1, 1}, 1, "cart-y+x"},
    {{16, 16, 16, 32}, 72, 144, {1, 1, 2, 0}, 1, "cart-t+z"},
};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    int corrupt = 0, ran = 0;
    if (argc == 13) {
        rcase c = {{atoi(argv[1]), atoi(argv[2]), atoi(argv[3]), atoi(argv[4])}, atoi(argv[5]),
                   atol(argv[6]), {atoi(argv[7]), atoi(argv[8]), atoi(argv[9]), atoi(argv[10])},
                   atoi(argv[11]), argv[12]};
        corrupt += run_case(&c);
        ran++;
    } else {
        for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
            int grid[4];
            ran += resolve_grid(&table[i], grid);
            corrupt += run_case(&table[i]);
        }
    }
    if (rank_ == 0) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
        int len = 0;
        MPI_Get_library_version(lib, &len);
        char *nl = strchr(lib, '\n');
        if (nl) *nl = 0;
        const char *io = getenv("OMPI_MCA_io"), *fc = getenv("OMPI_MCA_fcoll");
        printf("%s (io=%s, fcoll=%s): %d of %d cases %s\n", lib, io ? io : "default",
               fc ? fc : "default", corrupt, ran,
               corrupt ? "CORRUPTED by the MPI library's collective write" : "correct");
    }
    MPI_Finalize();
    return 0; /* documents the library; never fails because of it */
}
