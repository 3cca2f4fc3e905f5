/* status_table.c -- the one error table: names, messages, fixed values,
 * ranges, and no two entries sharing a value. */
#include "testutil.h"

int main(void)
{
    CHECK_STR(lattio_error_name(LATTIO_OK), "OK");
    CHECK_STR(lattio_error_name(LATTIO_ERR_BAD_MAGIC), "ERR_BAD_MAGIC");
    CHECK_INT(LATTIO_ERR_BAD_MAGIC, -200);
    CHECK_INT(LATTIO_ERR_CHECKSUM, -300);
    CHECK_INT(LATTIO_ERR_MPI, -400);
    CHECK_STR(lattio_strerror(12345), "unknown status");
    CHECK_STR(lattio_error_name(12345), "UNKNOWN");
    CHECK(strstr(lattio_strerror(LATTIO_ERR_TRUNCATED_PAYLOAD), "payload") != NULL);
    static const int values[] = {
#define X(name, value, msg) value,
        LATTIO_STATUS_TABLE(X)
#undef X
    };
    size_t n = sizeof values / sizeof values[0];
    for (size_t i = 0; i < n; i++) {
        CHECK(values[i] <= 0 && values[i] > -800); /* ranges down to HDF5's -700s */
        CHECK(strcmp(lattio_error_name(values[i]), "UNKNOWN") != 0);
        for (size_t j = i + 1; j < n; j++) CHECK(values[i] != values[j]);
    }
    CHECK(strlen(lattio_version()) >= 5);
    return test_finish();
}
