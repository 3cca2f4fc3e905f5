/* repair.c -- make a container whose writer died whole again by rewriting
 * it: the recovered streams (cut before the first chunk failing its data
 * CRC) go into a new container with the same id and geometry under
 * temporary names, which is read back, compared and renamed into place,
 * member files first and file 0 last (docs/format.md section 8.7).  The
 * input is never modified. */
#include "container_internal.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Bytes of task t to keep: its recovered stream, cut before the first
 * chunk whose data fails its CRC when verifying. */
static int kept_bytes(lattio_container_reader *r, uint32_t t, int verify, uint64_t *keep,
                      int *complete)
{
    lattio_container_task_info ti;
    RETURN_IF_ERROR(lattio_container_reader_task(r, t, &ti));
    *keep = ti.bytes;
    *complete = ti.complete;
    for (uint64_t b = 0; verify && b < ti.blocks; b++) {
        lattio_container_chunk_info ci;
        RETURN_IF_ERROR(lattio_container_reader_chunk(r, t, b, &ci, NULL, 0));
        int rc = lattio_container_reader_chunk_verify(r, t, b);
        if (rc == LATTIO_ERR_CONTAINER_CHECKSUM) {
            *keep = ci.stream_offset;
            *complete = 0;
            return LATTIO_OK;
        }
        RETURN_IF_ERROR(rc);
    }
    return LATTIO_OK;
}

static int fill_report(lattio_container_reader *r, int verify, lattio_container_repair_report *rep)
{
    lattio_container_info info;
    RETURN_IF_ERROR(lattio_container_reader_info(r, &info));
    rep->ntasks = info.ntasks;
    rep->nfiles = info.nfiles;
    rep->sizes = lattio_calloc(info.ntasks, sizeof *rep->sizes);
    rep->complete = lattio_calloc(info.ntasks, sizeof *rep->complete);
    RETURN_IF(!rep->sizes || !rep->complete, LATTIO_ERR_NOMEM);
    for (uint32_t t = 0; t < info.ntasks; t++)
        RETURN_IF_ERROR(kept_bytes(r, t, verify, &rep->sizes[t], &rep->complete[t]));
    return LATTIO_OK;
}

/* Copy `n` bytes of task t from r to w (through buf of LATTIO_CONT_PIECE). */
static int copy_stream(lattio_container_reader *r, lattio_container_writer *w, uint32_t t,
                       uint64_t n, unsigned char *buf)
{
    for (uint64_t o = 0; o < n;) {
        size_t k = n - o < LATTIO_CONT_PIECE ? (size_t)(n - o) : LATTIO_CONT_PIECE;
        RETURN_IF_ERROR(lattio_container_reader_read(r, t, o, buf, k));
        RETURN_IF_ERROR(lattio_container_writer_write(w, t, buf, k));
        o += k;
    }
    return LATTIO_OK;
}

/* Compare task t's first n bytes in a and b, and b's size. */
static int same_stream(lattio_container_reader *a, lattio_container_reader *b, uint32_t t,
                       uint64_t n, unsigned char *buf)
{
    uint64_t size = 0;
    int complete = 0;
    RETURN_IF_ERROR(lattio_container_reader_size(b, t, &size, &complete));
    RETURN_IF(size != n || !complete, LATTIO_ERR_VERIFY);
    for (uint64_t o = 0; o < n;) {
        size_t k = n - o < LATTIO_CONT_PIECE / 2 ? (size_t)(n - o) : LATTIO_CONT_PIECE / 2;
        RETURN_IF_ERROR(lattio_container_reader_read(a, t, o, buf, k));
        RETURN_IF_ERROR(lattio_container_reader_read(b, t, o, buf + LATTIO_CONT_PIECE / 2, k));
        RETURN_IF(memcmp(buf, buf + LATTIO_CONT_PIECE / 2, k) != 0, LATTIO_ERR_VERIFY);
        o += k;
    }
    return LATTIO_OK;
}

/* Write the kept streams into a new container at tmp (same id and geometry),
 * then read it back strictly and compare. */
static int rewrite(lattio_container_reader *r, const lattio_container_repair_report *rep,
                   const char *tmp, unsigned char *buf)
{
    lattio_container_writer *w = NULL;
    lattio_container_reader *back = NULL;
    lattio_cont_header proto;
    uint32_t *first = NULL;
    RETURN_IF_ERROR(lattio_container_reader_prototype(r, &proto, &first));
    int rc = lattio_cont_writer_create(tmp, &proto, first, &w);
    lattio_free(first);
    for (uint32_t t = 0; rc == LATTIO_OK && t < rep->ntasks; t++)
        rc = copy_stream(r, w, t, rep->sizes[t], buf);
    if (rc == LATTIO_OK) rc = lattio_container_writer_close(w);
    else lattio_container_writer_abandon(w);
    if (rc == LATTIO_OK) rc = lattio_container_open_serial(tmp, 0, &back);
    for (uint32_t t = 0; rc == LATTIO_OK && t < rep->ntasks; t++)
        rc = same_stream(r, back, t, rep->sizes[t], buf);
    lattio_container_reader_close(back);
    return rc;
}

/* Remove (status < 0) or rename into place every member of tmp, file 0 last. */
static int publish(const char *tmp, const char *out, uint32_t nfiles, int status)
{
    int rc = status;
    for (uint32_t k = nfiles; k-- > 0;) {
        char *from = lattio_cont_member_name(tmp, k), *to = lattio_cont_member_name(out, k);
        if (rc == LATTIO_OK && (!from || !to)) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "name");
        if (rc == LATTIO_OK) rc = lattio_temp_publish(from, to);
        lattio_free(from);
        lattio_free(to);
    }
    if (rc < 0)
        for (uint32_t k = 0; k < nfiles; k++) {
            char *from = lattio_cont_member_name(tmp, k);
            if (from) unlink(from);
            lattio_free(from);
        }
    return rc;
}

static int repair_open(lattio_container_reader *r, const char *out, int verify,
                       lattio_container_repair_report *rep)
{
    RETURN_IF_ERROR(fill_report(r, verify, rep));
    RETURN_IF_ERROR(lattio_output_check(out));
    char *tmp = lattio_temp_name(out);
    unsigned char *buf = lattio_malloc(LATTIO_CONT_PIECE);
    int rc = tmp && buf ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "buffers");
    if (rc == LATTIO_OK) rc = publish(tmp, out, rep->nfiles, rewrite(r, rep, tmp, buf));
    lattio_free(tmp);
    lattio_free(buf);
    return rc;
}

void lattio_container_repair_report_free(lattio_container_repair_report *report)
{
    if (!report) return;
    lattio_free(report->sizes);
    lattio_free(report->complete);
    memset(report, 0, sizeof *report);
}

int lattio_container_repair(const char *path, const char *out, int flags,
                            lattio_container_repair_report *report)
{
    lattio_container_repair_report rep;
    lattio_container_reader *r = NULL;
    memset(&rep, 0, sizeof rep);
    if (report) memset(report, 0, sizeof *report);
    RETURN_IF(!path || (flags & ~LATTIO_CONTAINER_NO_VERIFY), LATTIO_ERR_ARG);
    int verify = !(flags & LATTIO_CONTAINER_NO_VERIFY);
    int rc = lattio_container_open_serial(path, flags, &r);
    if (rc == LATTIO_OK && !out) { /* whole already: leave it */
        rep.was_complete = 1;
        rc = fill_report(r, 0, &rep);
    } else {
        lattio_container_reader_close(r);
        r = NULL;
        rc = lattio_container_open_serial(path, flags | LATTIO_CONTAINER_RECOVER, &r);
        if (rc == LATTIO_OK) rc = repair_open(r, out ? out : path, verify, &rep);
    }
    lattio_container_reader_close(r);
    if (rc == LATTIO_OK && report) *report = rep;
    else lattio_container_repair_report_free(&rep);
    return rc;
}
