/* chunked.c -- pack, unpack and runs over [first, first + n) in odd pieces
 * (starting and ending in the middle of rows) agree with the one-shot calls:
 * chunks of packed bytes concatenate to the one-shot pack, chunked unpack
 * rebuilds the brute-force buffer, and each chunk's runs (packed offsets
 * relative to the chunk) scatter the chunk to the right file bytes. */
#include "sim.h"

#define MARK 0x3C

/* Scatter a chunk into img through its own runs. */
static void scatter_chunk(const lattio_layout *l, uint64_t first, uint64_t n,
                          const unsigned char *chunk, unsigned char *img)
{
    lattio_run runs[512];
    size_t nruns = 0;
    CHECK_OK(lattio_layout_runs(l, first, n, runs, 512, &nruns));
    CHECK(nruns <= n && (n == 0 || nruns >= 1));
    uint64_t covered = 0;
    for (size_t j = 0; j < nruns && j < 512; j++) {
        CHECK_U64(runs[j].packed_offset, covered);
        memcpy(img + runs[j].file_offset, chunk + runs[j].packed_offset, runs[j].bytes);
        covered += runs[j].bytes;
    }
    CHECK_U64(covered, n * l->site_bytes);
}

static void one_rank(const lattio_layout *l, unsigned char *img)
{
    const size_t sb = l->site_bytes;
    const uint64_t local = sim_prod(l->ndims, l->count), bytes = sim_buffer_sites(l) * sb;
    unsigned char *buf = sim_buffer(l, POISON), *want_buf = sim_buffer(l, MARK);
    unsigned char *whole = malloc(local * sb + 1), *pieces = malloc(local * sb + 1);
    unsigned char *back = malloc(bytes + 1);
    memset(back, MARK, bytes);
    CHECK_OK(lattio_layout_pack(l, buf, 0, local, whole));
    const int before = test_failures_;
    for (uint64_t first = 0, n; first < local; first += n) {
        n = 1 + sim_below(7);
        if (n > local - first) n = local - first;
        CHECK_OK(lattio_layout_pack(l, buf, first, n, pieces + first * sb));
        CHECK_OK(lattio_layout_unpack(l, whole + first * sb, first, n, back));
        scatter_chunk(l, first, n, pieces + first * sb, img);
    }
    CHECK(memcmp(pieces, whole, local * sb) == 0);
    CHECK(memcmp(back, want_buf, bytes) == 0);
    if (test_failures_ != before) sim_describe(l);
    free(buf), free(want_buf), free(whole), free(pieces), free(back);
}

int main(void)
{
    sim_rng_state = 0xC0FFEEu;
    for (int shape = 0; shape < SIM_NSHAPES; shape++)
        for (int mode = 0; mode < 5; mode++)
            for (int trial = 0; trial < 6; trial++) {
                sim_case s;
                lattio_layout l;
                sim_make_case(&s, (int)sim_shapes[shape][0], &sim_shapes[shape][1], mode);
                sim_rank_layout(&s, 0, &l);
                const uint64_t img_bytes = sim_prod(s.nd, s.global) * s.site_bytes;
                unsigned char *img = calloc(img_bytes, 1), *want = sim_expected_file(&l);
                for (int r = 0; r < s.nranks; r++) {
                    sim_rank_layout(&s, r, &l);
                    one_rank(&l, img);
                }
                CHECK(memcmp(img, want, img_bytes) == 0);
                free(img);
                free(want);
            }
    return test_finish();
}
