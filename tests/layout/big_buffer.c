/* big_buffer.c -- a local buffer beyond 2 GiB: a 1024 x 1024 box of
 * 2048-byte sites with one ghost layer on every side (2.16e9 bytes) is
 * accepted, and pack / unpack of its last sites read and write the bytes at
 * offsets beyond 2^31 computed here by hand, for the row-copy path (memory
 * order = file order) and the per-site path (memory order transposed).  The
 * buffer is a lazily mapped anonymous mapping: only the touched pages are
 * ever backed by memory. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include "testutil.h"

#include <sys/mman.h>

enum { SB = 2048, N = 1024, E = N + 2 };

/* Byte offset in the buffer of local site (x, y) (interior coordinates). */
static uint64_t mem_offset(int transposed, uint64_t x, uint64_t y)
{
    const uint64_t px = x + 1, py = y + 1;
    return (transposed ? py * E + px : px * E + py) * SB;
}

static void fill(unsigned char *p, unsigned char seed)
{
    for (int b = 0; b < SB; b++) p[b] = (unsigned char)(seed + 7 * b);
}

static void last_sites(lattio_layout *l, unsigned char *buf, int transposed)
{
    l->mem_order[0] = transposed, l->mem_order[1] = !transposed;
    CHECK_OK(lattio_layout_check(l));
    const uint64_t local = (uint64_t)N * N;
    const uint64_t off1 = mem_offset(transposed, N - 1, N - 2);
    const uint64_t off2 = mem_offset(transposed, N - 1, N - 1);
    CHECK(off1 > (UINT64_C(1) << 31) && off2 > off1);
    fill(buf + off1, 11);
    fill(buf + off2, 99);
    static unsigned char packed[2 * SB], want[2 * SB];
    fill(want, 11);
    fill(want + SB, 99);
    CHECK_OK(lattio_layout_pack(l, buf, local - 2, 2, packed));
    CHECK(memcmp(packed, want, sizeof want) == 0);
    fill(want, 200);
    CHECK_OK(lattio_layout_unpack(l, want, local - 2, 1, buf));
    CHECK(memcmp(buf + off1, want, SB) == 0);
    CHECK(memcmp(buf + off2, want + SB, SB) == 0); /* neighbour untouched */
}

int main(void)
{
    const uint64_t g[2] = {2 * N, N}, lo[2] = {N, 0}, count[2] = {N, N};
    lattio_layout l;
    CHECK_OK(lattio_layout_init(&l, 2, g, lo, count, SB));
    l.halo_lo[0] = l.halo_hi[0] = l.halo_lo[1] = l.halo_hi[1] = 1;
    CHECK_OK(lattio_layout_check(&l));
    const uint64_t bytes = (uint64_t)E * E * SB;
    CHECK_U64(lattio_layout_buffer_sites(&l), (uint64_t)E * E);
    CHECK(bytes > (UINT64_C(1) << 31));
    lattio_run run;
    size_t nruns;
    CHECK_OK(lattio_layout_runs(&l, (uint64_t)N * N - 1, 1, &run, 1, &nruns));
    CHECK_U64(run.file_offset, ((uint64_t)(2 * N - 1) * N + N - 1) * SB);
    void *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
    if (map == MAP_FAILED) {
        printf("mmap of %" PRIu64 " bytes failed: pack/unpack part skipped\n", bytes);
        return test_finish();
    }
    last_sites(&l, map, 0);
    last_sites(&l, map, 1);
    munmap(map, bytes);
    return test_finish();
}
