/* h5_internal.h -- the HDF5 format beside LIME: what the files of
 * src/hdf5 share.  HDF5 lays a field's datasets out; the field pipeline
 * (src/field/mpi/field_mpi.h) and the MPI layer's one door (src/io/xfer.h)
 * move, convert and checksum the bytes, or hand them to collective
 * H5Dwrite / H5Dread in the file's own type (h5_move.c). */
#ifndef LATTIO_H5_INTERNAL_H
#define LATTIO_H5_INTERNAL_H

#include "field/mpi/field_mpi.h"

#include <hdf5.h>

/* --- h5_util.c ------------------------------------------------------------ */

/* A public call's HDF5 error printing is off (restored at the end). */
typedef struct lattio_h5_quiet {
    H5E_auto2_t fn;
    void *data;
} lattio_h5_quiet;
void lattio_h5_quiet_begin(lattio_h5_quiet *q);
void lattio_h5_quiet_end(const lattio_h5_quiet *q);

/* The frame of a public call: the detail cleared, TARGET split into its
 * file and object path, HDF5's printing off; end undoes it all. */
typedef struct lattio_h5_call {
    char *file, *object;
    lattio_h5_quiet q;
} lattio_h5_call;
int lattio_h5_call_begin(lattio_h5_call *c, const char *target);
void lattio_h5_call_end(lattio_h5_call *c);

/* Return `status`, with HDF5's innermost message on its error stack as
 * lattio_last_detail ("what: message"). */
int lattio_h5_fail(int status, const char *what);
/* H5Fopen failed: ERR_TRUNCATED_PAYLOAD when HDF5 says the file ends
 * before its stored end, else ERR_HDF5_DAMAGED. */
int lattio_h5_open_fail(void);
/* H5Dread failed: ERR_CHECKSUM (a checksum filter's mismatch),
 * ERR_HDF5_FILTER (a filter failed: damaged compressed data), ERR_READ
 * (the file could not be read), else ERR_HDF5_DAMAGED (addresses,
 * indexes), by HDF5's innermost message. */
int lattio_h5_read_fail(void);
/* `id` < 0 (an HDF5 call failed): lattio_h5_fail(ERR_HDF5, what). */
#define H5_CHECK(id, what) ((id) < 0 ? lattio_h5_fail(LATTIO_ERR_HDF5, (what)) : LATTIO_OK)

/* "FILE:/PATH" into a file name and an object path (lattio_malloc'd):
 * split at the last ":/" unless the whole target is an existing file;
 * a bare FILE holds "/lattice". */
int lattio_h5_split(const char *target, char **file, char **object);

/* Return ERR_HDF5_DAMAGED with "PATH: what" as the detail, or ERR_READ
 * when HDF5's error stack shows a read below HDF5 failed (the stack then
 * cleared). */
int lattio_h5_damaged(const char *path, const char *what);
/* ERR_READ as above when HDF5's error stack shows a failed read below
 * HDF5, else LATTIO_OK; the stack cleared either way. */
int lattio_h5_io_failed(const char *path, const char *what);
/* Collective.  Every argument of an HDF5 write (writing) or read that
 * must match compared with rank 0's (lattio_args_agree): ERR_RANK_ARG. */
int lattio_h5_args_agree(MPI_Comm comm, const char *target, const lattio_field_desc *d, const lattio_layout *l,
                         const lattio_h5_options *o, int writing);

/* File access: MPI-IO on comm with the hints (striping, collective
 * buffering) lattio opened its own handle with, collective metadata
 * operations and writes, alignment (0: none) of objects of at least 64 KiB. */
hid_t lattio_h5_fapl(MPI_Comm comm, MPI_Info hints, uint64_t alignment);
/* Collective transfers. */
hid_t lattio_h5_dxpl(void);
/* Collective.  H5Fopen(path, flags, fapl) after this node's view of the
 * file is made current (lattio_fs_refresh): another node may have just
 * written or replaced it. */
hid_t lattio_h5_fopen(const char *path, unsigned flags, hid_t fapl);

/* Attributes of an object: scalar strings (UTF-8), unsigned 32-bit and
 * signed 64-bit integers, a byte array of 32.  _get of a missing
 * attribute: ERR_NOT_FOUND; of a malformed one ERR_HDF5_ATTRIBUTE. */
int lattio_h5_put_string(hid_t obj, const char *name, const char *value);
int lattio_h5_put_u32(hid_t obj, const char *name, uint32_t v, int big_endian);
int lattio_h5_put_i64(hid_t obj, const char *name, int64_t v, int big_endian);
int lattio_h5_put_bytes32(hid_t obj, const char *name, const unsigned char *v, int big_endian);
int lattio_h5_get_string(hid_t obj, const char *name, char **value);
int lattio_h5_get_u32(hid_t obj, const char *name, uint32_t *v);
int lattio_h5_get_i64(hid_t obj, const char *name, int64_t *v);
int lattio_h5_get_bytes32(hid_t obj, const char *name, unsigned char *v);
int lattio_h5_has_attr(hid_t obj, const char *name);

/* --- h5_walk.c ------------------------------------------------------------ */

/* lattio's limits on a file it walks (docs/format.md, "HDF5 files lattio
 * refuses"): object paths (the size of lattio_h5_entry.path), group
 * nesting, links in the whole walk, soft links taken for one target. */
#define LATTIO_H5_PATH_MAX 256
#define LATTIO_H5_MAX_DEPTH 32
#define LATTIO_H5_MAX_LINKS 100000
#define LATTIO_H5_MAX_SOFT 16
#define LATTIO_H5_MAX_CHUNKS 16777216ULL /* chunks of one dataset */

/* Local.  What the object at hard path `path` is for a reader of nd-D
 * fields: LATTIO_OK (a field, described in *e), LATTIO_H5_NOT_FIELD (some
 * other object), or why it cannot be read: ERR_HDF5_DAMAGED, _LAYOUT (a
 * float type that is not IEEE, a Qlua group missing a direction),
 * _ATTRIBUTE, _STORAGE, _FILTER, _LIMIT. */
#define LATTIO_H5_NOT_FIELD 2
int lattio_h5_examine(hid_t fid, const char *path, int nd, lattio_h5_entry *e);

/* Called for every group and dataset reached by hard links, once each,
 * in name order, parents first; returns LATTIO_OK, LATTIO_H5_SKIP (a
 * group's links are not walked) or a status that ends the walk. */
#define LATTIO_H5_SKIP 1
typedef int (*lattio_h5_visit_fn)(hid_t fid, const char *path, H5O_type_t type, void *data);
/* Local.  Walk the file from its root: every link's name checked (not
 * empty, no NUL or '/', the path under LATTIO_H5_PATH_MAX) and every hard
 * link's object opened before `fn` sees it; soft, external and
 * user-defined links are not followed.  ERR_HDF5_DAMAGED (a link or object
 * that cannot be read), ERR_HDF5_LIMIT, or fn's status. */
int lattio_h5_walk(hid_t fid, lattio_h5_visit_fn fn, void *data);
/* Local.  The hard path of the object `path` names into out[0 .. size):
 * soft links inside the file followed (at most LATTIO_H5_MAX_SOFT);
 * external and user-defined links are ERR_HDF5_LINK, a missing component
 * ERR_HDF5_NOT_FOUND, a path too long ERR_HDF5_LIMIT. */
int lattio_h5_resolve(hid_t fid, const char *path, char *out, size_t size);

/* --- h5_guard.c ----------------------------------------------------------- */

typedef int (*lattio_h5_file_fn)(hid_t fid, void *data);
/* Local.  Run fn on the file at path, opened read-only on HDF5's serial
 * driver, in a forked child: its status and detail, or ERR_HDF5_DAMAGED
 * when HDF5 crashed or did not finish in time (so this process never makes
 * that call); LATTIO_OK at once when LATTIO_H5_GUARD=0. */
int lattio_h5_guarded(const char *path, lattio_h5_file_fn fn, void *data);
/* Local.  1 where the checks only the guard's child makes are due: in the
 * child, or everywhere when the guard is off.  (Opening every attribute by
 * index crashes HDF5 on some damaged attribute messages, and whether it
 * does depends on the heap's garbage: the child makes that call, with its
 * fresh and freed memory filled with a pattern so that garbage read as a
 * pointer faults there; a process whose child passed does not repeat it.) */
int lattio_h5_guard_checks(void);

/* --- h5_list.c (beside lattio_h5_examine above) ----------------------------- */

/* Local.  The guarded first pass before a file is used: the whole listing
 * of nd-D fields (appends, listings), or the field at `object` (reads). */
int lattio_h5_guard_file(const char *path, int nd);
int lattio_h5_guard_target(const char *path, const char *object, int nd);

/* --- h5_types.c ----------------------------------------------------------- */

/* The dataset a field becomes (writing) or is (reading). */
typedef struct lattio_h5_shape {
    int layout;                       /* LATTIO_H5_QDP / _QLUA */
    int rank;                         /* dataset dimensions: nd lattice + trailing */
    hsize_t dims[LATTIO_MAX_DIMS + 4];
    uint64_t reals;                   /* reals per site of this dataset */
    int fmt;                          /* file real format (LATTIO_REAL_F*_LE / _BE) */
    const char *kind;                 /* Qlua's .kind (writing) */
} lattio_h5_shape;

/* Local.  The type of a file's dataset: reals per element and their format
 * (IEEE floats, compounds of two named r,i or re,im, arrays of these).
 * ERR_HDF5_LAYOUT otherwise. */
int lattio_h5_type_reals(hid_t type, uint64_t *reals, int *fmt);
/* Local.  The field-type table's name (docs/format.md 5.4) that an element
 * type's structure spells, as QDP++ and Qlua build them: complex, [N]
 * complex a colorvector, [N][N] a colormatrix, [4] of [N] a fermion, [4][4]
 * of [N][N] a propagator (N into *colors); NULL for reals and any other
 * structure. */
const char *lattio_h5_type_kind(hid_t type, int *colors);
/* Collective (metadata).  The dataset type of a field of `reals` reals per
 * site (72 with `gauge`: a colour-matrix element per direction, Qlua: per
 * dataset 18) in `layout` and precision `bits`: committed at the file's
 * root under QDP++'s / Qlua's names where the file has none of that name
 * (an existing type of the name that differs is left alone and the
 * dataset gets its own).  Sets shape->rank's trailing dims from dims[nd]
 * on, shape->kind.  file < 0: the same type, all transient (a memory type
 * equal to the file's).  The caller closes the returned type. */
hid_t lattio_h5_make_type(hid_t file, int layout, int gauge, uint64_t reals, int bits, int colors,
                          lattio_h5_shape *shape, int nd);

/* --- h5_move.c ------------------------------------------------------------ */

/* One dataset's transfer through the field pipe: the layout of the file's
 * sites (file order of the dataset), the window of each memory site. */
typedef struct lattio_h5_move {
    lattio_file *f;            /* the lattio file (raw regions of the dataset's bytes) */
    hid_t dset;                /* HDF5 transport: the open dataset; else -1 */
    hid_t mtype;               /* its memory type (the file's, transient); -1: H5Dget_type */
    uint64_t offset;           /* lattio transport: the dataset's byte offset */
    const lattio_field_desc *d;
    const lattio_layout *l;    /* memory layout, file_order of the dataset */
    int fmt;                   /* file real format */
    uint64_t elements;         /* reals per site in this dataset */
    uint64_t win_first;        /* first of them in each memory site */
    int sum_kind;              /* LATTIO_STAGE_SUM_* */
    int partial;               /* reading a part of the lattice */
    uint32_t no_coll;          /* HDF5 transport: no-collective cause of the last transfer */
    lattio_scidac_sum sum;     /* computed, XOR over ranks */
    lattio_qlua_sum qsum;
    uint64_t rounds;
    int threaded;
} lattio_h5_move;

/* Collective.  Write / read the dataset's bytes (sums in m->sum / qsum on
 * every rank); writing verifies when m->d->verify. */
int lattio_h5_move_write(lattio_h5_move *m, void *local);
int lattio_h5_move_read(lattio_h5_move *m, void *local);

#endif
