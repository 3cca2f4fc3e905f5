/* MILC v5 in both byte orders: the header bytes (magic 20103, dims, order 0,
 * sums at 88/92, data from byte 96) and the sum29/sum31 checksums are
 * recomputed here from formats.md; lat.sample.l4444.ildg (MILC's own file
 * through QIO) written big-endian stores exactly its ILDG payload; the
 * little-endian file holds the same words byte-swapped; both read back to
 * the same field. */
#include "gaugetest.h"

static uint32_t rotl(uint32_t v, unsigned n)
{
    return n ? (v << n) | (v >> (32 - n)) : v;
}

static uint32_t word(const unsigned char *p, int little)
{
    return little ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
                  : (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void check_file(const char *name, int little, const unsigned char *ildg, size_t n_ildg)
{
    size_t n = 0;
    unsigned char *f = test_slurp(name, &n);
    CHECK_U64(n, 96 + n_ildg);
    if (!f || n != 96 + n_ildg) return;
    CHECK_U64(word(f, little), 20103);
    for (int d = 0; d < 4; d++) CHECK_U64(word(f + 4 + 4 * d, little), 4);
    CHECK_U64(word(f + 84, little), 0);
    uint32_t s29 = 0, s31 = 0;
    size_t mismatches = 0;
    for (size_t i = 0; i < n_ildg / 4; i++) {
        const uint32_t w = word(f + 96 + 4 * i, little);
        s29 ^= rotl(w, (unsigned)(i % 29));
        s31 ^= rotl(w, (unsigned)(i % 31));
        mismatches += w != word(ildg + 4 * i, 0);
    }
    CHECK_U64(mismatches, 0);
    CHECK_U64(word(f + 88, little), s29);
    CHECK_U64(word(f + 92, little), s31);
    lattio_gauge_info in;
    double *u = gt_read(name, &in, LATTIO_OK);
    CHECK_INT(in.format, LATTIO_GAUGE_MILC);
    CHECK_INT(in.little_endian, little);
    CHECK_U64(in.computed[0], s29);
    CHECK_U64(in.computed[1], s31);
    lattio_gauge_free(u);
    free(f);
}

int main(void)
{
    lattio_gauge_info in;
    double *u = gt_read(test_data("lat.sample.l4444.ildg"), &in, LATTIO_OK);
    size_t n = 0;
    unsigned char *ildg = ft_binary("lat.sample.l4444.ildg", 0, &n);
    if (!u || !ildg) return test_finish();
    lattio_gauge_write_options opt;
    lattio_gauge_write_options_default(&opt, LATTIO_GAUGE_MILC);
    CHECK_INT(opt.little_endian, 1);
    CHECK_OK(lattio_gauge_write("le.milc", LATTIO_GAUGE_MILC, &opt, in.dims, u));
    opt.little_endian = 0;
    CHECK_OK(lattio_gauge_write("be.milc", LATTIO_GAUGE_MILC, &opt, in.dims, u));
    check_file("le.milc", 1, ildg, n);
    check_file("be.milc", 0, ildg, n);
    lattio_gauge_info a, b;
    double *x = gt_read("le.milc", &a, LATTIO_OK), *y = gt_read("be.milc", &b, LATTIO_OK);
    CHECK(x && y && memcmp(x, u, 256 * 72 * 8) == 0 && memcmp(y, u, 256 * 72 * 8) == 0);
    /* the stats of MILC's own configuration, as EXPECTED.md says */
    lattio_gauge_stats st;
    if (x) CHECK_OK(lattio_gauge_stats_compute(x, a.dims, &st));
    CHECK(fabs(st.plaquette - 0.594850158947) < 1e-11);
    CHECK(fabs(st.link_trace - 0.646758737419) < 1e-11);
    lattio_gauge_free(u), lattio_gauge_free(x), lattio_gauge_free(y);
    free(ildg);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
