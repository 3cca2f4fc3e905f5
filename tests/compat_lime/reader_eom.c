/* reader_eom: limeEOM (declared but never defined by C-LIME) reports the
 * ME flag of the current record; the flag accessors before, during and after
 * the records of the real C-LIME test file. */
#include "limecheck.h"

int main(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/lime_writer_test1.lime", lc_datadir());
    FILE *f = fopen(path, "rb");
    LimeReader *r = limeCreateReader(f);
    CHECK(r != NULL);
    if (!r) return lc_finish();
    CHECK_INT(limeEOM(r), 0);
    CHECK_INT(limeReaderMBFlag(r), -1);
    CHECK_INT(limeReaderMEFlag(r), -1);
    CHECK_INT(limeEOM(NULL), LIME_ERR_PARAM);
    static const int mb[5] = {1, 0, 1, 0, 1}, me[5] = {0, 1, 0, 1, 1};
    for (int i = 0; i < 5; i++) {
        CHECK_INT(limeReaderNextRecord(r), LIME_SUCCESS);
        CHECK_INT(limeReaderMBFlag(r), mb[i]);
        CHECK_INT(limeReaderMEFlag(r), me[i]);
        CHECK_INT(limeEOM(r), me[i]);
    }
    CHECK_INT(limeReaderNextRecord(r), LIME_EOF);
    CHECK_INT(limeReaderMBFlag(r), -1);
    limeDestroyReader(r);
    fclose(f);
    return lc_finish();
}
