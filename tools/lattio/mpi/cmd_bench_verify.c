/* cmd_bench_verify.c -- `lattio bench`: the site-dependent pattern and the
 * checks of files on disk and of read buffers.  The file positions are
 * computed here from the lattice arithmetic alone (lexicographic, the last
 * dimension slowest), independently of lattio's layout code. */
#define _XOPEN_SOURCE 700 /* pread */
#include "cmd_bench.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define VERIFY_CHUNK ((size_t)16 << 20)

/* The bytes of the site with file rank r: 64-bit words depending on r and
 * on the word's position, so a misplaced or swapped site is caught. */
static void fill_site(unsigned char *p, uint64_t r, size_t site)
{
    for (size_t off = 0; off < site; off += 8) {
        uint64_t v = ((r << 12) ^ (off >> 3) ^ 0x1a771ceULL) * 0x9E3779B97F4A7C15ULL;
        size_t n = site - off < 8 ? site - off : 8;
        memcpy(p + off, &v, n);
    }
}

/* File rank of local site i (local sites numbered with dimension 0 fastest). */
static uint64_t file_rank_of(const lattio_layout *l, uint64_t i)
{
    uint64_t r = 0, stride = 1;
    for (int d = 0; d < l->ndims; d++) {
        r += (l->lo[d] + i % l->count[d]) * stride;
        i /= l->count[d];
        stride *= l->global[d];
    }
    return r;
}

void bench_fill(const bench *b)
{
    for (uint64_t i = 0; i < b->local_sites; i++)
        fill_site(b->src + i * b->o.site, file_rank_of(&b->lay, i), b->o.site);
}

/* Local sites per piece that is contiguous in the file. */
static uint64_t run_sites(const lattio_layout *l)
{
    uint64_t run = 1;
    for (int d = 0; d < l->ndims; d++) {
        run *= l->count[d];
        if (l->count[d] != l->global[d]) break;
    }
    return run;
}

/* The file's bytes of local sites [i, i+n) equal src's. */
static int check_piece(const bench *b, int fd, uint64_t i, uint64_t n, unsigned char *tmp)
{
    uint64_t off = LATTIO_LIME_HEADER_SIZE + file_rank_of(&b->lay, i) * b->o.site;
    uint64_t bytes = n * b->o.site, done = 0;
    while (done < bytes) {
        size_t k = bytes - done > VERIFY_CHUNK ? VERIFY_CHUNK : (size_t)(bytes - done);
        if (pread(fd, tmp, k, (off_t)(off + done)) != (ssize_t)k) return 1;
        if (memcmp(tmp, b->src + i * b->o.site + done, k) != 0) return 1;
        done += k;
    }
    return 0;
}

static uint64_t be64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return v;
}

/* Rank 0: one LIME record of the right type and length, nothing after it. */
static int check_header(const bench *b, int fd)
{
    static const unsigned char magic[6] = {0x45, 0x67, 0x89, 0xab, 0x00, 0x01};
    unsigned char h[LATTIO_LIME_HEADER_SIZE];
    struct stat st;
    if (pread(fd, h, sizeof h, 0) != (ssize_t)sizeof h || fstat(fd, &st) != 0) return 1;
    uint64_t padded = (b->global_bytes + 7) / 8 * 8;
    if (memcmp(h, magic, sizeof magic) != 0 || h[6] != 0xc0 || h[7] != 0) return 1;
    if (be64(h + 8) != b->global_bytes) return 1;
    if (strncmp((const char *)h + 16, BENCH_RECORD_TYPE, 128) != 0) return 1;
    return (uint64_t)st.st_size != LATTIO_LIME_HEADER_SIZE + padded;
}

int bench_verify_file(const bench *b, const char *path)
{
    int bad = 0;
    int fd = open(path, O_RDONLY);
    unsigned char *tmp = malloc(VERIFY_CHUNK);
    if (fd < 0 || !tmp) bad = 1;
    if (!bad && b->rank == 0) bad = check_header(b, fd);
    uint64_t run = run_sites(&b->lay);
    for (uint64_t i = 0; !bad && i < b->local_sites; i += run) bad = check_piece(b, fd, i, run, tmp);
    if (fd >= 0) close(fd);
    free(tmp);
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any;
}

int bench_verify_read(const bench *b, int c)
{
    int bad = 0, any = 0;
    if (c != BC_POSIX_ONE) bad = memcmp(b->dst, b->src, (size_t)b->local_bytes) != 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any;
}
