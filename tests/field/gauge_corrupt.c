/* Damaged and hostile headers give specific statuses (and a problem text),
 * never a crash: NERSC with a wrong CHECKSUM, a flipped data byte, truncated
 * data, extra bytes, no END_HEADER, a bad DATATYPE / FLOATING_POINT, huge or
 * zero dims; MILC with a bad magic, truncated, order 1, huge dims; openQCD
 * truncated (no longer recognised); empty and text files. */
#include "gaugetest.h"

static unsigned char *real;
static size_t nreal;

static int read_status(const char *name, const void *p, size_t n, lattio_gauge_info *in)
{
    gt_write_file(name, p, n);
    double *u = NULL;
    const int rc = lattio_gauge_read(name, in, &u);
    if (rc != LATTIO_OK && rc != LATTIO_ERR_CHECKSUM) CHECK(u == NULL);
    lattio_gauge_free(u);
    return rc;
}

/* t_nersc.cfg with `from` replaced by `to` in the header. */
static int nersc_edit(const char *from, const char *to, lattio_gauge_info *in)
{
    const char *at = strstr((const char *)real, from);
    CHECK(at != NULL);
    if (!at) return 0;
    const size_t pre = (size_t)(at - (const char *)real), fl = strlen(from), tl = strlen(to);
    unsigned char *p = malloc(nreal + tl);
    memcpy(p, real, pre);
    memcpy(p + pre, to, tl);
    memcpy(p + pre + tl, real + pre + fl, nreal - pre - fl);
    const int rc = read_status("edit.nersc", p, nreal - fl + tl, in);
    free(p);
    return rc;
}

static void nersc(void)
{
    lattio_gauge_info in;
    CHECK_STATUS(nersc_edit("CHECKSUM = 717938df", "CHECKSUM = 717938de", &in), LATTIO_ERR_CHECKSUM);
    CHECK_U64(in.stored[0], 0x717938de);
    CHECK_U64(in.computed[0], 0x717938df);
    unsigned char *p = malloc(nreal);
    for (size_t pos = 586; pos < nreal; pos += 12345) {
        memcpy(p, real, nreal);
        p[pos] ^= 0x10;
        CHECK_STATUS(read_status("flip.nersc", p, nreal, &in), LATTIO_ERR_CHECKSUM);
    }
    CHECK_STATUS(read_status("short.nersc", real, nreal - 1, &in), LATTIO_ERR_TRUNCATED_PAYLOAD);
    CHECK(strstr(in.problem, "truncated") != NULL);
    memcpy(p, real, nreal);
    CHECK_STATUS(read_status("hdr.nersc", p, 300, &in), LATTIO_ERR_BAD_HEADER);
    CHECK(strstr(in.problem, "END_HEADER") != NULL);
    free(p);
    p = malloc(nreal + 8);
    memcpy(p, real, nreal);
    memset(p + nreal, 0, 8);
    CHECK_STATUS(read_status("long.nersc", p, nreal + 8, &in), LATTIO_ERR_FIELD_LENGTH);
    free(p);
    CHECK_STATUS(nersc_edit("4D_SU3_GAUGE\n", "4D_SU3_GAUGE_2x3\n", &in), LATTIO_ERR_BAD_HEADER);
    CHECK(strstr(in.problem, "DATATYPE") != NULL);
    CHECK_STATUS(nersc_edit("IEEE32BIG", "IEEE16BIG", &in), LATTIO_ERR_BAD_HEADER);
    CHECK_STATUS(nersc_edit("DIMENSION_1 = 4", "DIMENSION_1 = 99999999999999999999", &in),
                 LATTIO_ERR_BAD_HEADER);
    CHECK_STATUS(nersc_edit("DIMENSION_2 = 4", "DIMENSION_2 = 0", &in), LATTIO_ERR_BAD_HEADER);
    CHECK_STATUS(nersc_edit("DIMENSION_3 = 4", "DIMENSION_3 = 16777216", &in),
                 LATTIO_ERR_TRUNCATED_PAYLOAD);
    CHECK_STATUS(nersc_edit("DIMENSION_4 = 4\n", "", &in), LATTIO_ERR_BAD_HEADER);
    CHECK(strstr(in.problem, "DIMENSION_4") != NULL);
    /* the other byte order: data no longer match the checksum */
    CHECK_STATUS(nersc_edit("IEEE32BIG", "IEEE32LITTLE", &in), LATTIO_ERR_CHECKSUM);
}

static void milc(void)
{
    lattio_gauge_info in;
    double *u = gt_read(test_data("lat.sample.l4444.ildg"), &in, LATTIO_OK);
    if (!u) return;
    CHECK_OK(lattio_gauge_write("ok.milc", LATTIO_GAUGE_MILC, NULL, in.dims, u));
    lattio_gauge_free(u);
    size_t n = 0;
    unsigned char *m = test_slurp("ok.milc", &n);
    if (!m) return;
    m[0] ^= 1; /* magic 20103 -> 20102 (little-endian) */
    CHECK_STATUS(read_status("magic.milc", m, n, &in), LATTIO_ERR_UNKNOWN_FORMAT);
    m[0] ^= 1;
    CHECK_STATUS(read_status("short.milc", m, n - 100, &in), LATTIO_ERR_TRUNCATED_PAYLOAD);
    CHECK_STATUS(read_status("hdr.milc", m, 50, &in), LATTIO_ERR_TRUNCATED_HEADER);
    m[84] = 1;
    CHECK_STATUS(read_status("order.milc", m, n, &in), LATTIO_ERR_UNSUPPORTED);
    m[84] = 0;
    m[7] = 0x7f; /* dims[0] huge */
    CHECK_STATUS(read_status("dims.milc", m, n, &in), LATTIO_ERR_BAD_HEADER);
    m[7] = 0;
    m[200] ^= 4;
    CHECK_STATUS(read_status("flip.milc", m, n, &in), LATTIO_ERR_CHECKSUM);
    free(m);
}

static void others(void)
{
    lattio_gauge_info in;
    double *u = gt_read(test_data("unity.lime"), &in, LATTIO_OK);
    if (u) CHECK_OK(lattio_gauge_write("ok.oq", LATTIO_GAUGE_OPENQCD, NULL, in.dims, u));
    lattio_gauge_free(u);
    size_t n = 0;
    unsigned char *q = test_slurp("ok.oq", &n);
    if (q) CHECK_STATUS(read_status("short.oq", q, n - 8, &in), LATTIO_ERR_UNKNOWN_FORMAT);
    free(q);
    CHECK_STATUS(read_status("empty", "", 0, &in), LATTIO_ERR_UNKNOWN_FORMAT);
    CHECK_STATUS(read_status("text", "hello world, not a lattice\n", 27, &in), LATTIO_ERR_UNKNOWN_FORMAT);
    CHECK_STATUS(read_status("nohdr", "BEGIN_HEADER\n", 13, &in), LATTIO_ERR_BAD_HEADER);
    /* a LIME file without gauge field, and one with SciDAC fields that are not SU(3) */
    CHECK_STATUS(lattio_gauge_read(test_data("lime_writer_test1.lime"), &in, &u), LATTIO_ERR_UNSUPPORTED);
    CHECK_STATUS(lattio_gauge_read(test_data("t_qio.intel-scalar.lime"), &in, &u), LATTIO_ERR_UNSUPPORTED);
    CHECK_STATUS(lattio_gauge_read("does-not-exist", &in, &u), LATTIO_ERR_OPEN);
}

int main(void)
{
    real = test_slurp(test_data("t_nersc.cfg"), &nreal);
    CHECK(real != NULL);
    if (!real) return test_finish();
    nersc();
    milc();
    others();
    free(real);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
