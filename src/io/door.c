/* door.c -- what the field pipeline and the HDF5 layer may know of a file
 * and do with it: the file-side calls of xfer.h (its communicator, path,
 * hints, the record to read, a region another format laid out, sync,
 * agreement and timing).  The transfer itself is strategy/xfer.c. */
#include "io_internal.h"

#include <string.h>

uint64_t lattio_xfer_staging_bytes(const lattio_file *f) { return f->cfg.staging_bytes; }

MPI_Comm lattio_xfer_comm(const lattio_file *f) { return f->comm; }

int lattio_xfer_reading(const lattio_file *f) { return f->mode == LATTIO_MODE_READ; }

const char *lattio_xfer_path(const lattio_file *f)
{
    return f->place.path && f->place.base == 0 && !f->place.borrowed ? f->place.path : NULL;
}

int lattio_xfer_select(lattio_file *f, uint64_t offset, uint64_t length)
{
    for (int i = 0; i < f->in.nindex; i++)
        if (f->in.index[i].offset == offset && f->in.index[i].length == length) {
            f->in.cur = i;
            return LATTIO_OK;
        }
    return LATTIO_FAIL(LATTIO_ERR_STATE, "binary record not indexed");
}

int lattio_xfer_region(lattio_file *f, uint64_t offset, uint64_t length)
{
    RETURN_IF(!f || f->place.borrowed || length > UINT64_MAX - offset, LATTIO_ERR_ARG);
    if (f->mode == LATTIO_MODE_READ) {
        memset(&f->in.raw_rec, 0, sizeof f->in.raw_rec);
        f->in.raw_rec.offset = offset;
        f->in.raw_rec.data_offset = offset;
        f->in.raw_rec.length = length;
        f->in.raw = 1;
        return LATTIO_OK;
    }
    RETURN_IF_ERROR(f->out.failed ? LATTIO_ERR_STATE : LATTIO_OK);
    RETURN_IF(f->out.in_record && !f->in.raw, LATTIO_FAIL(LATTIO_ERR_STATE, "record open"));
    f->in.raw = 1;
    f->out.in_record = 1;
    f->out.rec_data = offset;
    f->out.rec_len = length;
    f->out.rec_written = f->out.rec_end = 0;
    return LATTIO_OK;
}

void lattio_xfer_region_end(lattio_file *f)
{
    if (!f || !f->in.raw) return;
    if (f->mode != LATTIO_MODE_READ) f->out.in_record = 0;
    f->in.raw = 0;
}

MPI_Info lattio_xfer_hints(const lattio_file *f) { return f->place.info; }

uint64_t lattio_xfer_alignment(const lattio_file *f) { return lattio_file_alignment(f, f->opt.stripe_size); }

const char *lattio_xfer_disk_name(const lattio_file *f)
{
    if (!f || f->place.borrowed) return NULL;
    return f->place.tmp ? f->place.tmp : f->place.path;
}

int lattio_xfer_sync(lattio_file *f)
{
    RETURN_IF_ERROR(lattio_agree(f->comm, f->req.npending > 0 ? LATTIO_ERR_PENDING : LATTIO_OK));
    /* one rank reads its own writes through the same handle, which MPI-IO
     * makes visible without a sync (an fsync of the file on most systems) */
    if (f->size == 1) return LATTIO_OK;
    RETURN_IF_ERROR(lattio_agree(f->comm, MPI_CHECK(MPI_File_sync(f->fh), LATTIO_ERR_SYNC)));
    RETURN_IF_ERROR(MPI_CHECK(MPI_Barrier(f->comm), LATTIO_ERR_MPI));
    int rc = MPI_CHECK(MPI_File_sync(f->fh), LATTIO_ERR_SYNC);
    if (rc == LATTIO_OK) rc = lattio_file_refresh(f); /* sizes and reads on this node */
    return lattio_agree(f->comm, rc);
}

int lattio_xfer_agree(lattio_file *f, int rc) { return lattio_agree(f->comm, rc); }

int lattio_xfer_mpi(int mpi_rc, const char *what) { return lattio_mpi_status(mpi_rc, LATTIO_ERR_MPI, what); }

void lattio_xfer_call_begin(lattio_file *f, int phase) { lattio_prof_begin(f, phase); }

int lattio_xfer_call_end(lattio_file *f, int rc, int writing)
{
    if (writing) rc = lattio_file_outcome(f, rc);
    return lattio_prof_end(f, rc, 0);
}

void lattio_xfer_phase(lattio_file *f, int phase) { lattio_prof_phase(f, phase); }
