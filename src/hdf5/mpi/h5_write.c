/* h5_write.c -- a field written as an HDF5 dataset (QDP++ or Qlua layout):
 * a new file under a temporary name (or a copy of the file appended to),
 * HDF5 lays out the dataset(s) and metadata, the field pipe moves the bytes
 * (h5_move.c), the checksums become attributes, the rename publishes. */
#include "h5_mpi.h"
#include "testhooks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#ifdef LATTIO_TEST_HOOKS
#include <signal.h>
static int kill_after_data;
void lattio_h5_test_kill_after_data(int on) { kill_after_data = on; }
#endif

/* Test hook: a writer killed between its data and its rename. */
static void maybe_die(void)
{
#ifdef LATTIO_TEST_HOOKS
    if (kill_after_data) raise(SIGKILL);
#endif
}

/* Local: the descriptor, layout and options make sense together. */
static int check_write(const lattio_field_desc *d, const lattio_layout *l, const void *local, int layout)
{
    RETURN_IF_ERROR(lattio_field_check_memory(d, l, local));
    RETURN_IF_ERROR(lattio_field_check_metadata(d));
    RETURN_IF(lattio_real_size(d->disk_format) != 4 && lattio_real_size(d->disk_format) != 8, LATTIO_ERR_ARG);
    RETURN_IF(d->datacount == 0 || d->elements % d->datacount, LATTIO_ERR_ARG);
    RETURN_IF(layout != LATTIO_H5_QDP && layout != LATTIO_H5_QLUA, LATTIO_ERR_ARG);
    if (d->n_other) {
        lattio_detail_set("other writers' records go into LIME files (ILDG, SciDAC), not HDF5");
        return LATTIO_FAIL(LATTIO_ERR_ARG, "other records");
    }
    const uint64_t nc = d->colors > 0 ? (uint64_t)d->colors : 3;
    if (lattio_field_is_gauge_kind(d->kind))
        RETURN_IF(l->ndims != 4 || d->elements != 8 * nc * nc || nc > LATTIO_GAUGE_MAX_COLORS,
                  LATTIO_FAIL(LATTIO_ERR_ARG, "gauge field: 4-D, 8 N^2 reals"));
    return lattio_field_desc_type_check(d, l);
}

/* Rank 0: FILE's bytes into the temporary file (append); none when FILE
 * does not exist yet (*existed 0). */
static int copy_existing(const char *from, const char *to, int *existed)
{
    *existed = 0;
    int in = open(from, O_RDONLY);
    if (in < 0) return errno == ENOENT ? LATTIO_OK : LATTIO_FAIL_ERRNO(LATTIO_ERR_OPEN, "append: open FILE");
    *existed = 1;
    int out = open(to, O_WRONLY | O_TRUNC);
    int rc = out < 0 ? LATTIO_FAIL_ERRNO(LATTIO_ERR_OPEN, "append: open temporary") : LATTIO_OK;
    char buf[1 << 16];
    for (ssize_t n; rc == LATTIO_OK && (n = read(in, buf, sizeof buf)) != 0;) {
        if (n < 0) rc = LATTIO_FAIL_ERRNO(LATTIO_ERR_READ, "append: read FILE");
        for (ssize_t w = 0; rc == LATTIO_OK && w < n;) {
            const ssize_t k = write(out, buf + w, (size_t)(n - w));
            if (k < 0) rc = LATTIO_FAIL_ERRNO(LATTIO_ERR_WRITE, "append: copy");
            else w += k;
        }
    }
    if (out >= 0 && close(out) != 0 && rc == LATTIO_OK) rc = LATTIO_FAIL_ERRNO(LATTIO_ERR_WRITE, "append: close");
    close(in);
    return rc;
}

/* Collective: the metadata attributes (equal on every rank: the date is
 * rank 0's). */
static int put_metadata(hid_t obj, const lattio_field_info *fi, MPI_Comm comm)
{
    char date[LATTIO_FIELD_TEXT_MAX];
    if (fi->date[0]) snprintf(date, sizeof date, "%s", fi->date);
    else lattio_field_date_now(date, sizeof date);
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Bcast(date, sizeof date, MPI_CHAR, 0, comm), "date"));
    RETURN_IF_ERROR(lattio_h5_put_string(obj, "file_xml", fi->file_xml));
    RETURN_IF_ERROR(lattio_h5_put_string(obj, "record_xml", fi->record_xml));
    RETURN_IF_ERROR(lattio_h5_put_string(obj, "ildg_data_lfn", fi->lfn));
    RETURN_IF_ERROR(lattio_h5_put_string(obj, "scidac_datatype", fi->datatype));
    RETURN_IF_ERROR(lattio_h5_put_string(obj, "scidac_date", date));
    RETURN_IF_ERROR(lattio_h5_put_i64(obj, "scidac_colors", fi->colors, 0));
    RETURN_IF_ERROR(lattio_h5_put_i64(obj, "scidac_spins", fi->spins, 0));
    return lattio_h5_put_i64(obj, "scidac_datacount", (int64_t)fi->datacount, 0);
}

/* Collective: dataset `name` under loc, contiguous and allocated now (its
 * offset known) or chunked as `chunk` (non-NULL). */
static int create_dataset(hid_t loc, const char *name, hid_t type, const lattio_h5_shape *sh,
                          const hsize_t *chunk, hid_t *dset)
{
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t sp = H5Screate_simple(sh->rank, sh->dims, NULL);
    int rc = H5_CHECK(lcpl < 0 || dcpl < 0 || sp < 0 || H5Pset_create_intermediate_group(lcpl, 1) < 0 ||
                              (chunk ? H5Pset_chunk(dcpl, sh->rank, chunk) : H5Pset_layout(dcpl, H5D_CONTIGUOUS)) < 0 ||
                              H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY) < 0 ||
                              H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) < 0
                          ? -1
                          : 0,
                      "dataset properties");
    if (rc == LATTIO_OK) {
        *dset = H5Dcreate2(loc, name, type, sp, lcpl, dcpl, H5P_DEFAULT);
        rc = H5_CHECK(*dset, name);
    }
    if (sp >= 0) H5Sclose(sp);
    if (dcpl >= 0) H5Pclose(dcpl);
    if (lcpl >= 0) H5Pclose(lcpl);
    return rc;
}

/* What one write needs across its steps: the file (open from
 * lattio_h5_writer_open to _close) and the field being added. */
typedef struct h5w {
    MPI_Comm comm;
    lattio_file *f;
    hid_t fid;
    int nd;                 /* lattice dimensions an appended file is judged by */
    const char *object;
    const lattio_field_desc *d;
    const lattio_layout *l; /* the caller's */
    lattio_layout fl;       /* memory layout, file_order of the dataset */
    const lattio_h5_options *o;
    int layout, transport;
    lattio_field_info fi;
} h5w;

/* Collective: chunk dims = rank 0's box in the dataset's order. */
static int chunk_dims(const h5w *w, const lattio_h5_shape *sh, hsize_t *chunk, int *use)
{
    uint64_t c[LATTIO_MAX_DIMS];
    for (int i = 0; i < w->fl.ndims; i++) c[i] = w->fl.count[w->fl.file_order[i]];
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Bcast(c, w->fl.ndims, MPI_UINT64_T, 0, w->comm), "chunk"));
    *use = 1;
    for (int i = 0; i < sh->rank; i++) {
        chunk[i] = i < w->fl.ndims ? (hsize_t)c[i] : sh->dims[i];
        if (chunk[i] == 0) *use = 0;
    }
    return LATTIO_OK;
}

/* One dataset being written: what it is, its shape, its handles. */
typedef struct h5ds {
    int gauge, qlua, bits, chunked;
    uint64_t reals; /* per site of the dataset (18: one direction of a Qlua gauge group) */
    lattio_h5_shape sh;
    hid_t dset, mtype; /* -1 until made */
} h5ds;

/* Collective: the dataset's file type, chunking (the option) and creation
 * under loc, and its memory type. */
static int ds_create(const h5w *w, hid_t loc, const char *name, h5ds *ds)
{
    for (int i = 0; i < w->fl.ndims; i++) ds->sh.dims[i] = w->fl.global[w->fl.file_order[i]];
    const int ildg = ds->gauge && !ds->qlua;
    hid_t type = lattio_h5_make_type(w->fid, w->layout, ildg, ds->reals, ds->bits, w->d->colors, &ds->sh, w->fl.ndims);
    int rc = type >= 0 ? LATTIO_OK : ds->qlua ? LATTIO_FAIL(LATTIO_ERR_ARG, "no Qlua kind") : lattio_h5_fail(LATTIO_ERR_HDF5, "dataset type");
    hsize_t chunk[H5S_MAX_RANK];
    if (rc == LATTIO_OK && w->o->chunked) rc = chunk_dims(w, &ds->sh, chunk, &ds->chunked);
    if (rc == LATTIO_OK) rc = create_dataset(loc, name, type, &ds->sh, ds->chunked ? chunk : NULL, &ds->dset);
    if (type >= 0) H5Tclose(type);
    RETURN_IF_ERROR(rc);
    lattio_h5_shape twin = ds->sh;
    ds->mtype = lattio_h5_make_type(-1, w->layout, ildg, ds->reals, ds->bits, w->d->colors, &twin, w->fl.ndims);
    return ds->mtype < 0 ? lattio_h5_fail(LATTIO_ERR_HDF5, "memory type") : LATTIO_OK;
}

/* Collective: the metadata attributes (Qlua: its .kind; a Qlua gauge
 * direction carries nothing else). */
static int ds_metadata(const h5w *w, const h5ds *ds)
{
    if (ds->qlua) RETURN_IF_ERROR(lattio_h5_put_string(ds->dset, ".kind", ds->sh.kind));
    return ds->qlua && ds->gauge ? LATTIO_OK : put_metadata(ds->dset, &w->fi, w->comm);
}

/* Local: the move of direction mu's data into the dataset: through HDF5
 * (chunked, the HDF5 transport, or no offset known) or through lattio's
 * strategies at the dataset's offset in the file. */
static void ds_move_init(const h5w *w, const h5ds *ds, int mu, lattio_h5_move *m)
{
    *m = (lattio_h5_move){.f = w->f, .dset = -1, .mtype = ds->mtype, .d = w->d, .l = &w->fl, .fmt = ds->sh.fmt,
                          .elements = ds->reals, .win_first = ds->qlua && ds->gauge ? ds->reals * (uint64_t)mu : 0,
                          .sum_kind = ds->qlua ? LATTIO_STAGE_SUM_QLUA : LATTIO_STAGE_SUM_SCIDAC};
    const haddr_t off = H5Dget_offset(ds->dset);
    if (ds->chunked || w->transport == LATTIO_H5_TRANSPORT_HDF5 || off == HADDR_UNDEF) m->dset = ds->dset;
    else m->offset = (uint64_t)off;
}

/* Collective: the checksum attributes of the data written (Qlua: .sha256
 * and .time, rank 0's clock; else SciDAC's suma and sumb). */
static int ds_sums(const h5w *w, const h5ds *ds, const lattio_h5_move *m)
{
    if (!ds->qlua) {
        RETURN_IF_ERROR(lattio_h5_put_u32(ds->dset, "suma", m->sum.suma, 0));
        return lattio_h5_put_u32(ds->dset, "sumb", m->sum.sumb, 0);
    }
    struct timeval tv;
    gettimeofday(&tv, NULL);
    int64_t us = (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Bcast(&us, 1, MPI_INT64_T, 0, w->comm), "time"));
    RETURN_IF_ERROR(lattio_h5_put_bytes32(ds->dset, ".sha256", m->qsum.x, 1));
    return lattio_h5_put_i64(ds->dset, ".time", us, 1);
}

/* Local: what the write of direction mu reports. */
static void ds_report(const lattio_h5_move *m, int mu, lattio_field_write_info *out, lattio_h5_info *h5)
{
    out->sum = m->sum;
    out->rounds += m->rounds;
    out->threaded = m->threaded;
    if (!h5) return;
    if (mu < 4) h5->sha256[mu] = m->qsum;
    h5->ndatasets++;
    h5->transport = m->dset >= 0 ? LATTIO_H5_TRANSPORT_HDF5 : LATTIO_H5_TRANSPORT_LATTIO;
    h5->no_collective_cause = m->no_coll;
}

/* Collective: one dataset (direction `mu` of a Qlua gauge group, else the
 * field) created and written, its checksum attributes set. */
static int write_dataset(h5w *w, hid_t loc, const char *name, int mu, const void *local, lattio_field_write_info *out,
                         lattio_h5_info *h5)
{
    h5ds ds;
    memset(&ds, 0, sizeof ds);
    ds.gauge = lattio_field_is_gauge_kind(w->d->kind);
    ds.qlua = w->layout == LATTIO_H5_QLUA;
    ds.reals = ds.qlua && ds.gauge ? w->d->elements / 4 : w->d->elements; /* Qlua: one N x N direction */
    ds.bits = lattio_real_size(w->d->disk_format) == 4 ? 32 : 64;
    ds.dset = ds.mtype = -1;
    lattio_h5_move m;
    memset(&m, 0, sizeof m);
    int rc = ds_create(w, loc, name, &ds);
    if (rc == LATTIO_OK) rc = ds_metadata(w, &ds);
    if (rc == LATTIO_OK) ds_move_init(w, &ds, mu, &m);
    if (rc == LATTIO_OK) rc = H5_CHECK(H5Fflush(w->fid, H5F_SCOPE_GLOBAL), "flush");
    rc = lattio_xfer_agree(w->f, rc);
    if (rc == LATTIO_OK) rc = lattio_h5_move_write(&m, (void *)local);
    if (rc == LATTIO_OK) maybe_die();
    if (rc == LATTIO_OK) rc = ds_sums(w, &ds, &m);
    if (ds.dset >= 0) H5Dclose(ds.dset);
    if (ds.mtype >= 0) H5Tclose(ds.mtype);
    if (rc == LATTIO_OK) ds_report(&m, mu, out, h5);
    return lattio_xfer_agree(w->f, rc);
}

/* Collective: the field's object(s) in the open file. */
static int write_field(h5w *w, const void *local, lattio_field_write_info *out, lattio_h5_info *h5)
{
    if (!(w->layout == LATTIO_H5_QLUA && lattio_field_is_gauge_kind(w->d->kind)))
        return write_dataset(w, w->fid, w->object, 0, local, out, h5);
    /* Qlua gauge field: a group of one dataset per direction */
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    if (lcpl >= 0) H5Pset_create_intermediate_group(lcpl, 1);
    hid_t g = H5Gcreate2(w->fid, w->object, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    if (lcpl >= 0) H5Pclose(lcpl);
    int rc = lattio_xfer_agree(w->f, H5_CHECK(g, w->object));
    if (rc == LATTIO_OK) rc = lattio_xfer_agree(w->f, put_metadata(g, &w->fi, w->comm));
    for (int mu = 0; mu < 4 && rc == LATTIO_OK; mu++) {
        char name[12];
        snprintf(name, sizeof name, "%d", mu);
        rc = write_dataset(w, g, name, mu, local, out, h5);
    }
    if (g >= 0) H5Gclose(g);
    return rc;
}

/* Collective.  Appending: rank 0 copies FILE into the temporary file and
 * tells the others whether there was one; a FILE that is not HDF5 is
 * ERR_UNKNOWN_FORMAT (it would be replaced, not added to), a damaged one
 * the status a listing of it gives. */
static int copy_for_append(h5w *w, const char *file, const char *disk, int *exists)
{
    int rank = 0, rc = LATTIO_OK;
    *exists = 0;
    MPI_Comm_rank(w->comm, &rank);
    if (rank == 0) rc = copy_existing(file, disk, exists);
    if (rank == 0 && rc == LATTIO_OK && *exists && !lattio_h5_is_hdf5(disk)) {
        lattio_detail_set("append: %s exists and is not an HDF5 file", file);
        rc = LATTIO_FAIL(LATTIO_ERR_UNKNOWN_FORMAT, "append to a file that is not HDF5");
    }
    /* the file appended to is judged as a reader would (guard, walk, every
     * field examined): a damaged one is refused and stays as it was */
    if (rank == 0 && rc == LATTIO_OK && *exists) rc = lattio_h5_guard_file(disk, w->nd);
    RETURN_IF_ERROR(lattio_xfer_agree(w->f, rc));
    return lattio_xfer_agree(w->f, lattio_xfer_mpi(MPI_Bcast(exists, 1, MPI_INT, 0, w->comm), "append"));
}

/* Collective: the HDF5 file at the lattio file's temporary name. */
static int h5_open(h5w *w, const char *file)
{
    const char *disk = lattio_xfer_disk_name(w->f);
    int exists = 0;
    if (w->o->append) RETURN_IF_ERROR(copy_for_append(w, file, disk, &exists));
    const uint64_t align = w->o->alignment ? w->o->alignment : lattio_xfer_alignment(w->f);
    hid_t fapl = lattio_h5_fapl(w->comm, lattio_xfer_hints(w->f), align);
    RETURN_IF_ERROR(lattio_xfer_agree(w->f, H5_CHECK(fapl, "file access properties")));
    /* appending: rank 0 made the copy, so this node's view of it is refreshed */
    w->fid = exists ? lattio_h5_fopen(disk, H5F_ACC_RDWR, fapl) : H5Fcreate(disk, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5Pclose(fapl);
    return lattio_xfer_agree(w->f, H5_CHECK(w->fid, exists ? "H5Fopen (append)" : "H5Fcreate"));
}

struct lattio_h5_writer {
    h5w w;
    lattio_h5_options o;
    lattio_options file_options;
    char *file;
    int failed; /* an add failed (on every rank): close discards */
};

static int writer_args(MPI_Comm comm, const char *file, int nd, const lattio_h5_options *o)
{
    lattio_args a = {0};
    lattio_args_str(&a, "file", file);
    lattio_args_int(&a, "dimensions", nd);
    lattio_args_int(&a, "HDF5 layout", o->layout);
    lattio_args_int(&a, "HDF5 transport", o->transport);
    lattio_args_int(&a, "append", o->append);
    lattio_args_int(&a, "chunked", o->chunked);
    lattio_args_int(&a, "alignment", (int64_t)o->alignment);
    return lattio_args_agree(comm, &a);
}

int lattio_h5_writer_open(MPI_Comm comm, const char *file, int nd, const lattio_h5_options *o,
                          lattio_h5_writer **out)
{
    RETURN_IF(!out, LATTIO_ERR_ARG);
    *out = NULL;
    lattio_h5_options dflt;
    if (!o) lattio_h5_options_default(&dflt), o = &dflt;
    lattio_detail_clear();
    RETURN_IF_ERROR(writer_args(comm, file, nd, o));
    RETURN_IF(!file || !*file || nd < 0 || nd > LATTIO_MAX_DIMS, LATTIO_ERR_ARG);
    lattio_h5_writer *wr = lattio_calloc(1, sizeof *wr);
    char *name = lattio_strdup(file);
    const int arc = lattio_agree(comm, wr && name ? LATTIO_OK : LATTIO_ERR_NOMEM); /* every rank, or none, goes on */
    if (arc != LATTIO_OK) {
        lattio_free(wr), lattio_free(name);
        return arc;
    }
    wr->o = *o, wr->file = name;
    if (o->file) wr->file_options = *o->file, wr->o.file = &wr->file_options;
    h5w *w = &wr->w;
    *w = (h5w){.comm = comm, .fid = -1, .nd = nd, .o = &wr->o, .transport = o->transport,
               .layout = o->layout == LATTIO_H5_AUTO ? LATTIO_H5_QDP : o->layout};
    int rc = lattio_open(comm, file, LATTIO_MODE_CREATE, MPI_INFO_NULL, wr->o.file, &w->f);
    if (rc == LATTIO_OK) {
        lattio_h5_quiet q;
        lattio_h5_quiet_begin(&q);
        w->comm = lattio_xfer_comm(w->f);
        lattio_xfer_call_begin(w->f, LATTIO_PHASE_SETUP);
        rc = lattio_xfer_call_end(w->f, h5_open(w, file), 1);
        lattio_h5_quiet_end(&q);
        if (rc != LATTIO_OK) lattio_close(w->f);
    }
    if (rc != LATTIO_OK) {
        lattio_free(wr->file), lattio_free(wr);
        return rc;
    }
    *out = wr;
    return LATTIO_OK;
}

/* Collective: one field's object(s) in the open file. */
static int add_field(h5w *w, const lattio_field_desc *d, const lattio_layout *l, const void *local,
                     lattio_field_write_info *out, lattio_h5_info *h5)
{
    RETURN_IF_ERROR(lattio_xfer_agree(w->f, check_write(d, l, local, w->layout)));
    w->d = d, w->l = l, w->fl = *l;
    if (w->layout == LATTIO_H5_QLUA) /* [Lx][Ly][Lz][Lt]: the reverse of ILDG's order */
        for (int i = 0; i < l->ndims; i++) w->fl.file_order[i] = l->file_order[l->ndims - 1 - i];
    lattio_field_describe(&w->fi, d, l);
    return write_field(w, local, out, h5);
}

int lattio_h5_writer_add(lattio_h5_writer *wr, const char *object, const lattio_field_desc *d,
                         const lattio_layout *l, const void *local, lattio_field_write_info *out,
                         lattio_h5_info *h5)
{
    lattio_field_write_info mine;
    if (!out) out = &mine;
    memset(out, 0, sizeof *out);
    if (h5) memset(h5, 0, sizeof *h5);
    RETURN_IF(!wr, LATTIO_ERR_ARG);
    h5w *w = &wr->w;
    lattio_args a = {0};
    lattio_args_str(&a, "object", object);
    lattio_args_int(&a, "dimensions", l ? l->ndims : -1);
    int rc = lattio_args_agree(w->comm, &a);
    if (rc == LATTIO_OK) rc = lattio_h5_args_agree(w->comm, wr->file, d, l, &wr->o, 1);
    if (rc == LATTIO_OK && wr->failed) rc = LATTIO_FAIL(LATTIO_ERR_ARG, "an earlier add failed");
    if (rc == LATTIO_OK && (!d || !l || !object || object[0] != '/' || strlen(object) > LATTIO_H5_PATH_MAX))
        rc = LATTIO_FAIL(LATTIO_ERR_ARG, "object: an absolute path in the file");
    if (rc == LATTIO_OK && l->ndims != w->nd) rc = LATTIO_FAIL(LATTIO_ERR_ARG, "dimensions differ from the writer's");
    if (rc != LATTIO_OK) { /* arguments differ or are unusable: the same status everywhere */
        wr->failed = 1;
        return rc;
    }
    lattio_h5_quiet q;
    lattio_h5_quiet_begin(&q);
    lattio_detail_clear();
    w->object = object;
    lattio_xfer_call_begin(w->f, LATTIO_PHASE_SETUP);
    rc = lattio_xfer_call_end(w->f, add_field(w, d, l, local, out, h5), 1);
    w->object = NULL;
    lattio_h5_quiet_end(&q);
    if (h5) h5->layout = w->layout;
    if (rc != LATTIO_OK) wr->failed = 1;
    return rc;
}

int lattio_h5_writer_close(lattio_h5_writer *wr)
{
    if (!wr) return LATTIO_OK;
    h5w *w = &wr->w;
    lattio_h5_quiet q;
    lattio_h5_quiet_begin(&q);
    int rc = lattio_xfer_agree(w->f, H5_CHECK(H5Fclose(w->fid), "H5Fclose"));
    lattio_h5_quiet_end(&q);
    if (rc == LATTIO_OK && wr->failed) rc = LATTIO_FAIL(LATTIO_ERR_ARG, "an add failed: the file is not written");
    if (rc != LATTIO_OK) lattio_xfer_call_end(w->f, rc, 1); /* the close discards the temporary file */
    const int crc = lattio_close(w->f);
    lattio_free(wr->file), lattio_free(wr);
    return rc != LATTIO_OK ? rc : crc;
}

int lattio_h5_write(MPI_Comm comm, const char *target, const lattio_field_desc *d, const lattio_layout *l,
                    const void *local, const lattio_h5_options *o, lattio_field_write_info *out,
                    lattio_h5_info *h5)
{
    return lattio_h5_write_fields(comm, target, d, l, 1, &local, o, out, h5);
}

/* One or several fields of one descriptor: OBJECT, or OBJECT/field<i>. */
int lattio_h5_write_fields(MPI_Comm comm, const char *target, const lattio_field_desc *d, const lattio_layout *l,
                           int n, const void *const *locals, const lattio_h5_options *o,
                           lattio_field_write_info *out, lattio_h5_info *h5)
{
    lattio_args a = {0};
    lattio_args_int(&a, "fields", n);
    lattio_args_str(&a, "target", target);
    lattio_args_int(&a, "layout and data given", l != NULL && locals != NULL);
    RETURN_IF_ERROR(lattio_args_agree(comm, &a));
    RETURN_IF(!target || !l || n < 1 || !locals, LATTIO_ERR_ARG);
    char *file = NULL, *object = NULL;
    const int src = lattio_agree(comm, lattio_h5_split(target, &file, &object));
    if (src != LATTIO_OK) {
        lattio_free(file), lattio_free(object);
        return src;
    }
    lattio_h5_writer *wr = NULL;
    int rc = lattio_h5_writer_open(comm, file, l->ndims, o, &wr);
    char name[LATTIO_H5_PATH_MAX + 24];
    for (int i = 0; rc == LATTIO_OK && i < n; i++) {
        if (n == 1) snprintf(name, sizeof name, "%s", object);
        else snprintf(name, sizeof name, "%s%sfield%d", object, strcmp(object, "/") ? "/" : "", i);
        rc = lattio_h5_writer_add(wr, name, d, l, locals[i], out, h5);
    }
    const int crc = lattio_h5_writer_close(wr);
    lattio_free(file), lattio_free(object);
    return rc != LATTIO_OK ? rc : crc;
}
