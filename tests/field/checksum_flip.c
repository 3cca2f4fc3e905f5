/* checksum_flip.c -- one flipped byte in a binary record changes the
 * checksum: lattio_field_verify returns ERR_CHECKSUM and the trace
 * (LATTIO_TRACE=1, stderr captured into a file) names the binary record and
 * its offset.  Also: a file without a checksum record gives ERR_NO_CHECKSUM
 * with the sum still computed. */
#include "fieldtest.h"

#include <unistd.h>

static void flip(const char *name, long offset)
{
    FILE *f = fopen(name, "r+b");
    CHECK(f != NULL);
    if (!f) return;
    fseek(f, offset, SEEK_SET);
    int c = fgetc(f);
    fseek(f, offset, SEEK_SET);
    fputc(c ^ 0x01, f);
    fclose(f);
}

static char *verify_traced(const char *name, int field, int expected_status)
{
    fflush(stderr);
    const int saved = dup(2);
    FILE *log = freopen("trace.log", "w", stderr);
    CHECK(log != NULL);
    lattio_scidac_sum s;
    const int rc = lattio_field_verify(name, field, NULL, &s);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    CHECK_STATUS(rc, expected_status);
    return (char *)test_slurp("trace.log", NULL);
}

int main(void)
{
    setenv("LATTIO_TRACE", "1", 1);
    /* t_dprec_ildg.lime: binary payload at 1936 + 144 */
    CHECK(ft_copy("t_dprec_ildg.lime", "flipped.lime"));
    CHECK_OK(lattio_field_verify("flipped.lime", 0, NULL, NULL));
    flip("flipped.lime", 1936 + 144 + 100000);
    char *trace = verify_traced("flipped.lime", 0, LATTIO_ERR_CHECKSUM);
    CHECK(trace && strstr(trace, "ildg-binary-data record at offset 1936"));
    CHECK(trace && strstr(trace, "stored e6ca40a6 59cdeef1"));
    free(trace);
    /* the second field of t_qio: scidac-binary-data at 6480; the others stay intact */
    CHECK(ft_copy("t_qio.intel-scalar.lime", "qio.lime"));
    flip("qio.lime", 6480 + 144 + 36863);
    trace = verify_traced("qio.lime", 1, LATTIO_ERR_CHECKSUM);
    CHECK(trace && strstr(trace, "scidac-binary-data record at offset 6480"));
    free(trace);
    CHECK_OK(lattio_field_verify("qio.lime", 0, NULL, NULL));
    CHECK_OK(lattio_field_verify("qio.lime", 2, NULL, NULL));
    /* a flipped byte in the stored checksum's text also fails */
    CHECK(ft_copy("unity.lime", "unity.lime"));
    flip("unity.lime", 148520 + 144 + 90); /* inside "35b49a1b" */
    trace = verify_traced("unity.lime", 0, LATTIO_ERR_CHECKSUM);
    free(trace);
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
