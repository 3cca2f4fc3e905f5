/* h5_internal.h -- the HDF5 format beside LIME, MPI-free: what the files
 * of src/hdf5 share (examining a file without trusting it, its objects'
 * layout and metadata, the serial read through the field stage), and
 * what src/hdf5/mpi builds the collective calls on (mpi/h5_mpi.h). */
#ifndef LATTIO_H5_INTERNAL_H
#define LATTIO_H5_INTERNAL_H

#include "field/field_internal.h"

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
/* H5Fopen(path, flags, fapl) after this node's view of the
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
/* Local.  1 in a guard's child. */
int lattio_h5_guard_in_child(void);

/* --- h5_examine.c: the guarded first pass ----------------------------------- */

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

/* --- h5_examine.c (beside lattio_h5_examine above) -------------------------- */

/* What the walk of lattio_h5_list_fields fills (up to max entries into out,
 * every field counted) and lattio_h5_find_field looks for. */
typedef struct lattio_h5_listing {
    int nd, max, count;
    lattio_h5_entry *out;
} lattio_h5_listing;
typedef struct lattio_h5_finding {
    const char *object;
    int nd;
    lattio_h5_entry *e;
    int read; /* the guard's first pass before a read: chunked data read too */
} lattio_h5_finding;
/* lattio_h5_file_fn's of the listing (data: a lattio_h5_listing) and of
 * the lookup of one target (data: a lattio_h5_finding). */
int lattio_h5_list_fields(hid_t fid, void *data);
int lattio_h5_find_field(hid_t fid, void *data);
/* The first look at a file: HDF5 at all (ERR_UNKNOWN_FORMAT), then fn in
 * the guard's child. */
int lattio_h5_first_pass(const char *path, lattio_h5_file_fn fn, void *data);

/* --- h5_object.c ------------------------------------------------------------ */

/* One field object of an open file being read, serial or collective. */
typedef struct lattio_h5_object {
    hid_t fid, obj;
    const char *object;          /* its path as the caller named it */
    const lattio_field_desc *d;
    const lattio_layout *l;      /* the caller's layout */
    lattio_layout fl;            /* memory layout, file_order of the dataset(s) */
    int want_layout;             /* LATTIO_H5_AUTO or the layout asked for */
    int layout, group;           /* group: a Qlua gauge group of nd datasets */
    int gauge_colors;            /* N of an SU(N) gauge field, 0 for other fields */
} lattio_h5_object;

/* Local: find the object (soft links inside the file followed), judge it
 * as the listing does and take its layout into r->layout, r->fl. */
int lattio_h5_object_detect(lattio_h5_object *r);
/* Local: *fi from the object's attributes and shape. */
int lattio_h5_object_describe(lattio_h5_object *r, lattio_field_info *fi);
/* Local: dataset ds has the lattice of r->fl and `want` reals per site
 * (its format into *fmt, its reals per site into *reals). */
int lattio_h5_object_shape(const lattio_h5_object *r, hid_t ds, uint64_t want, int *fmt, uint64_t *reals);
/* Local: the stored Qlua sum of dataset ds compared (ERR_CHECKSUM), or
 * absent (*have 0). */
int lattio_h5_qlua_compare(hid_t ds, const char *name, const lattio_qlua_sum *got, int *have);
/* Local: the read's checksum state into info (fmt: the datasets' real
 * format; whole: every site was read; stored_all: Qlua, every dataset had
 * its sum); ERR_CHECKSUM when a stored SciDAC sum differs, ERR_NO_CHECKSUM
 * when one is required and missing. */
int lattio_h5_object_verdict(const lattio_h5_object *r, int fmt, int whole, int stored_all,
                             lattio_field_read_info *info);
/* Open direction mu of a group (dataset "mu") or the object's dataset;
 * close with lattio_h5_object_close_set. */
hid_t lattio_h5_object_set(const lattio_h5_object *r, int mu);
void lattio_h5_object_close_set(const lattio_h5_object *r, hid_t ds);

#endif
