/* Repair: a container whose writer was abandoned before close (one file,
 * and three files), one cut inside a chunk, and one whose chunk data fails
 * its CRC; after lattio_container_repair a strict open succeeds and every
 * stream equals the complete chunks the writer had written (cut before the
 * damaged chunk), with FINAL trailers and stream CRCs as the format wants
 * them; the report gives those sizes.  A whole container is left alone;
 * repairing into another name leaves the input untouched. */
#include "contest.h"

#define NT 7u

/* Bytes of task t a killed writer leaves readable: its full chunks. */
static uint64_t full_chunks(uint32_t t) { return t_size(t) / T_CAP * T_CAP; }

static void check_repaired(const char *path, const uint64_t *want, uint32_t nf)
{
    lattio_container_reader *r = NULL;
    lattio_container_info info;
    CHECK_OK(lattio_container_open_serial(path, 0, &r));
    if (!r) return;
    CHECK_OK(lattio_container_reader_info(r, &info));
    CHECK_INT(info.complete, 1);
    CHECK_INT(info.nfiles, nf);
    unsigned char *buf = malloc(8 * T_CAP);
    for (uint32_t t = 0; t < NT; t++) {
        uint64_t size = 99;
        uint32_t crc = 0;
        int complete = 0;
        CHECK_OK(lattio_container_reader_size(r, t, &size, &complete));
        CHECK_U64(size, want[t]);
        CHECK_INT(complete, 1);
        CHECK_OK(lattio_container_reader_read(r, t, 0, buf, (size_t)size));
        CHECK_INT(pattern_mismatches(t, 0, buf, (size_t)size), 0);
        CHECK_OK(lattio_container_reader_stream_crc(r, t, &crc));
        CHECK_U64(crc, t_pattern_crc(t, 0, size));
    }
    free(buf);
    lattio_container_reader_close(r);
}

static void check_report(const lattio_container_repair_report *rep, const uint64_t *want)
{
    CHECK_INT(rep->ntasks, NT);
    for (uint32_t t = 0; rep->sizes && t < NT; t++) CHECK_U64(rep->sizes[t], want[t]);
}

static void abandoned(uint32_t nf)
{
    uint64_t want[NT];
    lattio_container_repair_report rep;
    lattio_container_reader *r = NULL;
    for (uint32_t t = 0; t < NT; t++) want[t] = full_chunks(t);
    CHECK_OK(t_write_files("a.ltc", NT, nf, NULL, 0));
    CHECK_STATUS(lattio_container_open_serial("a.ltc", 0, &r), LATTIO_ERR_CONTAINER_TRUNCATED);
    CHECK_OK(lattio_container_repair("a.ltc", NULL, 0, &rep));
    CHECK_INT(rep.was_complete, 0);
    CHECK_INT(rep.nfiles, nf);
    check_report(&rep, want);
    lattio_container_repair_report_free(&rep);
    check_repaired("a.ltc", want, nf);
    CHECK_INT(test_count_temporaries(), 0);
}

/* A whole container cut in task 2's chunk 3: tasks before it in block 3 keep
 * their streams, later ones their full chunks up to block 2. */
static void cut(void)
{
    uint64_t want[NT];
    CHECK_OK(t_write_container("cut.ltc", NT, 1));
    size_t len = 0;
    unsigned char *b = test_slurp("cut.ltc", &len);
    size_t at = (size_t)t_chunk(NT, 2, 3) + 10;
    CHECK(b && at < len);
    FILE *f = fopen("cut.ltc", "wb");
    if (f && b) fwrite(b, 1, at, f);
    if (f) fclose(f);
    for (uint32_t t = 0; t < NT; t++) {
        uint64_t nb = t_size(t) ? (t_size(t) + T_CAP - 1) / T_CAP : 1; /* chunks written */
        uint64_t keep = 0;
        for (uint64_t blk = 0; blk < nb; blk++) {
            if (t_chunk(NT, t, blk) + T_STRIDE > at) break;
            keep = blk + 1 == nb ? t_size(t) : (blk + 1) * T_CAP;
        }
        want[t] = keep;
    }
    CHECK_OK(lattio_container_repair("cut.ltc", NULL, 0, NULL));
    check_repaired("cut.ltc", want, 1);
    free(b);
}

/* Chunk 2 of task 2 damaged in an abandoned container: the repaired stream
 * ends before it (NO_VERIFY keeps it, damage and all). */
static void damaged(void)
{
    uint64_t want[NT];
    for (uint32_t t = 0; t < NT; t++) want[t] = full_chunks(t);
    CHECK_OK(t_write_container("d.ltc", NT, 0));
    size_t len = 0;
    unsigned char *b = test_slurp("d.ltc", &len);
    if (!b) { CHECK(0); return; }
    b[t_chunk(NT, 2, 2) + 7] ^= 1;
    FILE *f = fopen("d.ltc", "wb");
    if (f) fwrite(b, 1, len, f);
    if (f) fclose(f);
    CHECK_OK(lattio_container_repair("d.ltc", "d2.ltc", LATTIO_CONTAINER_NO_VERIFY, NULL));
    size_t len2 = 0;
    unsigned char *after = test_slurp("d.ltc", &len2);
    CHECK(after && len2 == len && memcmp(after, b, len) == 0); /* input untouched */
    free(after);
    lattio_container_reader *r = NULL;
    uint64_t size = 0;
    CHECK_OK(lattio_container_open_serial("d2.ltc", 0, &r));
    CHECK_OK(lattio_container_reader_size(r, 2, &size, NULL));
    CHECK_U64(size, want[2]);
    lattio_container_reader_close(r);
    want[2] = 2 * T_CAP;
    CHECK_OK(lattio_container_repair("d.ltc", NULL, 0, NULL));
    check_repaired("d.ltc", want, 1);
    free(b);
}

static void whole(void)
{
    lattio_container_repair_report rep;
    uint64_t want[NT];
    for (uint32_t t = 0; t < NT; t++) want[t] = t_size(t);
    CHECK_OK(t_write_container("w.ltc", NT, 1));
    size_t len = 0, len2 = 0;
    unsigned char *b = test_slurp("w.ltc", &len);
    CHECK_OK(lattio_container_repair("w.ltc", NULL, 0, &rep));
    CHECK_INT(rep.was_complete, 1);
    check_report(&rep, want);
    lattio_container_repair_report_free(&rep);
    unsigned char *after = test_slurp("w.ltc", &len2);
    CHECK(b && after && len == len2 && memcmp(b, after, len) == 0);
    free(b);
    free(after);
    CHECK_STATUS(lattio_container_repair("nonexistent.ltc", NULL, 0, &rep), LATTIO_ERR_OPEN);
}

int main(void)
{
    abandoned(1);
    abandoned(3);
    cut();
    damaged();
    whole();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
