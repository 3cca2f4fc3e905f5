/* pack_image.c -- every virtual rank packs its sites (buffer ghosts filled
 * with POISON) and scatters them into a file image through
 * lattio_layout_runs; the image must equal the file computed serially by
 * looping over all global sites in file order.  Also: each rank's packed
 * bytes equal a naive walk of its box in file order, runs are in bounds,
 * disjoint, increasing and maximal (no two touching). */
#include "sim.h"

static int failed_before;

/* Scatter one rank's packed sites into img; check each run. */
static void scatter(const lattio_layout *l, const unsigned char *packed, unsigned char *img,
                    uint64_t img_bytes)
{
    const uint64_t local = sim_prod(l->ndims, l->count);
    lattio_run runs[4096];
    size_t nruns = 99;
    CHECK_OK(lattio_layout_runs(l, 0, local, runs, 4096, &nruns));
    CHECK(nruns <= 4096);
    uint64_t covered = 0;
    for (size_t j = 0; j < nruns && j < 4096; j++) {
        const lattio_run *r = &runs[j];
        CHECK(r->bytes > 0 && r->bytes % l->site_bytes == 0);
        CHECK(r->file_offset % l->site_bytes == 0);
        CHECK_U64(r->packed_offset, covered);
        CHECK(r->file_offset + r->bytes <= img_bytes);
        if (j > 0) CHECK(runs[j - 1].file_offset + runs[j - 1].bytes < r->file_offset);
        if (r->file_offset + r->bytes > img_bytes) continue;
        for (uint64_t b = 0; b < r->bytes; b++) CHECK(img[r->file_offset + b] == 0);
        memcpy(img + r->file_offset, packed + r->packed_offset, r->bytes);
        covered += r->bytes;
    }
    CHECK_U64(covered, local * l->site_bytes);
}

static void one_rank(const lattio_layout *l, unsigned char *img, uint64_t img_bytes)
{
    CHECK_OK(lattio_layout_check(l));
    const uint64_t local = sim_prod(l->ndims, l->count);
    CHECK_U64(lattio_layout_local_sites(l), local);
    CHECK_U64(lattio_layout_buffer_sites(l), sim_buffer_sites(l));
    CHECK_U64(lattio_layout_global_sites(l), sim_prod(l->ndims, l->global));
    unsigned char *buf = sim_buffer(l, POISON);
    unsigned char *want = sim_packed(l);
    unsigned char *packed = malloc(local * l->site_bytes + 1);
    CHECK_OK(lattio_layout_pack(l, buf, 0, local, packed));
    CHECK(memcmp(packed, want, local * l->site_bytes) == 0);
    for (uint64_t b = 0; b < local * l->site_bytes; b++) CHECK(packed[b] != POISON);
    scatter(l, packed, img, img_bytes);
    if (test_failures_ != failed_before) sim_describe(l);
    failed_before = test_failures_;
    free(buf);
    free(want);
    free(packed);
}

static void one_case(const sim_case *s)
{
    lattio_layout l;
    sim_rank_layout(s, 0, &l);
    const uint64_t img_bytes = sim_prod(s->nd, s->global) * s->site_bytes;
    unsigned char *img = calloc(img_bytes, 1);
    unsigned char *want = sim_expected_file(&l);
    for (int r = 0; r < s->nranks; r++) {
        sim_rank_layout(s, r, &l);
        one_rank(&l, img, img_bytes);
    }
    CHECK(memcmp(img, want, img_bytes) == 0);
    for (uint64_t b = 0; b < img_bytes; b++) CHECK(img[b] != POISON && img[b] != 0);
    free(img);
    free(want);
}

int main(void)
{
    int cases = 0;
    for (int shape = 0; shape < SIM_NSHAPES; shape++) {
        const int nd = (int)sim_shapes[shape][0];
        for (int mode = 0; mode < 5; mode++)
            for (int trial = 0; trial < 8; trial++) {
                sim_case s;
                sim_make_case(&s, nd, &sim_shapes[shape][1], mode);
                one_case(&s);
                cases++;
            }
    }
    printf("%d cases\n", cases);
    return test_finish();
}
