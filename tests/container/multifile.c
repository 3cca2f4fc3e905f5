/* Multi-file containers written by the serial writer: 1, 2 and 3 physical
 * files (even split) and an uneven explicit split; every file's bytes as
 * the format defines them (header fields, chunk offsets within the file,
 * trailers, footer); the serial reader opens the set from PATH and reads
 * every task; a missing member, a member opened as PATH, and a member of
 * another container are refused with their own statuses. */
#include "contest.h"

#define NT 7u

static void check_set(const char *path, uint32_t nf, const uint32_t *first)
{
    char name[256];
    for (uint32_t f = 0; f < nf; f++) {
        uint32_t a = first ? first[f] : t_first(f, NT, nf);
        uint32_t b = f + 1 < nf ? (first ? first[f + 1] : t_first(f + 1, NT, nf)) : NT;
        t_member(name, sizeof name, path, f);
        t_check_file(name, NT, nf, f, a, b - a);
    }
    lattio_container_reader *r = NULL;
    lattio_container_info info;
    CHECK_OK(lattio_container_open_serial(path, 0, &r));
    if (!r) return;
    CHECK_OK(lattio_container_reader_info(r, &info));
    CHECK_INT(info.nfiles, nf);
    CHECK_INT(info.complete, 1);
    CHECK_INT(info.stream_crcs, 1);
    unsigned char *buf = malloc(8 * T_CAP);
    for (uint32_t t = 0; t < NT; t++) {
        lattio_container_task_info ti;
        CHECK_OK(lattio_container_reader_task(r, t, &ti));
        CHECK_U64(ti.bytes, t_size(t));
        CHECK_INT(ti.complete, 1);
        uint32_t f = 0;
        while (f + 1 < nf && (first ? first[f + 1] : t_first(f + 1, NT, nf)) <= t) f++;
        CHECK_INT(ti.file, f);
        CHECK_OK(lattio_container_reader_read(r, t, 0, buf, (size_t)ti.bytes));
        CHECK_INT(pattern_mismatches(t, 0, buf, (size_t)ti.bytes), 0);
    }
    for (uint32_t f = 0; f < nf; f++) {
        lattio_container_file_info fi;
        CHECK_OK(lattio_container_reader_file(r, f, &fi));
        CHECK_INT(fi.first_task, first ? first[f] : t_first(f, NT, nf));
        CHECK_INT(fi.closed, 1);
    }
    lattio_container_file_info fi;
    CHECK_STATUS(lattio_container_reader_file(r, nf, &fi), LATTIO_ERR_ARG);
    free(buf);
    lattio_container_reader_close(r);
}

static void refusals(void)
{
    lattio_container_reader *r = NULL;
    /* a member opened as if it were the container */
    CHECK_STATUS(lattio_container_open_serial("m3.ltc.000001", 0, &r), LATTIO_ERR_CONTAINER_FILES);
    /* a member of another container (other id) in the set */
    CHECK_OK(t_write_files("o3.ltc", NT, 3, NULL, 1));
    CHECK(rename("o3.ltc.000002", "m3.ltc.000002") == 0);
    CHECK_STATUS(lattio_container_open_serial("m3.ltc", 0, &r), LATTIO_ERR_CONTAINER_FILES);
    /* a missing member */
    CHECK(remove("m3.ltc.000002") == 0);
    CHECK_STATUS(lattio_container_open_serial("m3.ltc", 0, &r), LATTIO_ERR_CONTAINER_MEMBER);
    CHECK_STATUS(lattio_container_open_serial("m3.ltc", LATTIO_CONTAINER_RECOVER, &r),
                 LATTIO_ERR_CONTAINER_MEMBER);
    CHECK(r == NULL);
    /* bad splits */
    lattio_container_writer *w = NULL;
    lattio_container_serial_options o = {T_HINT, T_ALIGN, NT + 1, NULL, 0};
    CHECK_STATUS(lattio_container_create_serial_ex("bad.ltc", NT, &o, &w), LATTIO_ERR_ARG);
    const uint32_t bad[2] = {0, 0};
    o.nfiles = 2;
    o.first_tasks = bad;
    CHECK_STATUS(lattio_container_create_serial_ex("bad.ltc", NT, &o, &w), LATTIO_ERR_ARG);
}

int main(void)
{
    char path[32];
    for (uint32_t nf = 1; nf <= 3; nf++) {
        snprintf(path, sizeof path, "m%u.ltc", (unsigned)nf);
        CHECK_OK(t_write_files(path, NT, nf, NULL, 1));
        check_set(path, nf, NULL);
    }
    const uint32_t uneven[3] = {0, 1, 5};
    CHECK_OK(t_write_files("u.ltc", NT, 3, uneven, 1));
    check_set("u.ltc", 3, uneven);
    refusals();
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return test_finish();
}
