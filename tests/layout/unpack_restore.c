/* unpack_restore.c -- unpacking a rank's sites (computed naively in file
 * order) into a buffer full of a marker byte restores exactly the interior
 * values at their memory-order positions and leaves every ghost byte as it
 * was; the buffer is compared whole with a brute-force construction. */
#include "sim.h"

#define MARK 0x3C

static void one_rank(const lattio_layout *l)
{
    const uint64_t local = sim_prod(l->ndims, l->count);
    const uint64_t bytes = sim_buffer_sites(l) * l->site_bytes;
    unsigned char *packed = sim_packed(l);
    unsigned char *want = sim_buffer(l, MARK);
    unsigned char *buf = malloc(bytes + 1);
    memset(buf, MARK, bytes);
    const int before = test_failures_;
    CHECK_OK(lattio_layout_unpack(l, packed, 0, local, buf));
    CHECK(memcmp(buf, want, bytes) == 0);
    /* and back: packing the restored buffer gives the same packed bytes */
    unsigned char *again = malloc(local * l->site_bytes + 1);
    CHECK_OK(lattio_layout_pack(l, buf, 0, local, again));
    CHECK(memcmp(again, packed, local * l->site_bytes) == 0);
    if (test_failures_ != before) sim_describe(l);
    free(packed);
    free(want);
    free(buf);
    free(again);
}

int main(void)
{
    sim_rng_state = 0x1234567u;
    for (int shape = 0; shape < SIM_NSHAPES; shape++)
        for (int mode = 0; mode < 5; mode++)
            for (int trial = 0; trial < 8; trial++) {
                sim_case s;
                lattio_layout l;
                sim_make_case(&s, (int)sim_shapes[shape][0], &sim_shapes[shape][1], mode);
                for (int r = 0; r < s.nranks; r++) {
                    sim_rank_layout(&s, r, &l);
                    one_rank(&l);
                }
            }
    return test_finish();
}
