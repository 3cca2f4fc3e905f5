# _common.pxi -- included by both extension modules (_core.pyx, the serial
# one, and _lattio.pyx, the MPI one): the MPI-free half of lattio.h and the
# helpers both use.
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset, strlen

cimport numpy as cnp
import numpy as np

cnp.import_array()

from lattio import errors

cdef extern from "lattio.h" nogil:
    enum: LATTIO_MAX_DIMS
    enum: LATTIO_LIME_TYPE_MAX
    enum: LATTIO_FIELD_TEXT_MAX

    ctypedef struct lattio_scidac_sum:
        uint32_t suma
        uint32_t sumb

    ctypedef struct lattio_record_info:
        uint64_t offset
        uint64_t data_offset
        uint64_t length
        uint32_t padding
        int mb
        int me
        int version
        char type[129]

    ctypedef struct lattio_layout:
        int ndims
        uint64_t global_ "global"[8]
        uint64_t lo[8]
        uint64_t count[8]
        int file_order[8]
        int mem_order[8]
        size_t site_bytes

    ctypedef struct lattio_field_info:
        int index
        int kind
        int nd
        uint64_t dims[8]
        uint64_t volume
        int precision
        char precision_code
        int recordtype
        char datatype[64]
        char date[64]
        int colors
        int spins
        uint64_t typesize
        uint64_t datacount
        lattio_record_info binary
        int has_checksum
        lattio_scidac_sum stored
        int has_ildg_format
        int has_private_file
        int has_private_record
        char *lfn
        char *file_xml
        char *record_xml
        int etmc_record
        int etmc_flavours
        uint64_t etmc_lz_written

    ctypedef struct lattio_gauge_info:
        int format
        uint64_t dims[4]
        uint64_t volume
        int precision
        int little_endian
        int rows
        int colors
        uint64_t data_offset
        uint64_t data_length
        int checksum_kind
        int has_checksum
        uint32_t stored[2]
        uint32_t computed[2]
        int has_plaquette
        double plaquette
        int has_link_trace
        double link_trace
        lattio_record_info binary
        char problem[160]

    ctypedef struct lattio_gauge_stats:
        double plaquette
        double link_trace
        double unitarity

    ctypedef struct lattio_gauge_write_options:
        int precision
        int nersc_rows
        int colors
        int little_endian
        const char *lfn
        const char *label
        const char *file_xml
        const char *record_xml
        const char *date
        const char *nersc_header

    ctypedef struct lattio_lime_reader:
        pass

    const char *lattio_version()
    const char *lattio_build_info()
    const char *lattio_strerror(int status)
    const char *lattio_error_name(int status)
    int lattio_last_detail(char *buf, size_t size)
    int lattio_last_errno()

    int lattio_split(uint64_t extent, uint64_t parts, uint64_t index, uint64_t *lo, uint64_t *count)
    int lattio_layout_init(lattio_layout *l, int ndims, const uint64_t *glob, const uint64_t *lo,
                           const uint64_t *count, size_t site_bytes)

    int lattio_gauge_detect(const char *path, int *format)
    const char *lattio_gauge_format_name(int format)
    int lattio_gauge_read(const char *path, lattio_gauge_info *info, double **u)
    void lattio_gauge_free(double *u)
    int lattio_gauge_stats_compute(const double *u, const uint64_t dims[4], lattio_gauge_stats *out)
    int lattio_gauge_check_header(const lattio_gauge_info *info, const lattio_gauge_stats *stats)
    void lattio_gauge_write_options_default(lattio_gauge_write_options *opt, int format)
    int lattio_gauge_stats_compute_nc(const double *u, const uint64_t dims[4], int colors,
                                      lattio_gauge_stats *out)
    int lattio_gauge_write(const char *path, int format, const lattio_gauge_write_options *opt,
                           const uint64_t dims[4], const double *u)

    int lattio_lime_reader_open(const char *path, lattio_lime_reader **out)
    void lattio_lime_reader_close(lattio_lime_reader *r)
    int lattio_lime_reader_next(lattio_lime_reader *r, lattio_record_info *info)
    int lattio_field_count(lattio_lime_reader *r, int *count)
    int lattio_field_info_read(lattio_lime_reader *r, int index, lattio_field_info *fi)
    void lattio_field_info_free(lattio_field_info *fi)
    int lattio_field_read_double(lattio_lime_reader *r, const lattio_field_info *fi, double *out,
                                 uint64_t n_out, lattio_scidac_sum *computed)

    ctypedef struct lattio_text_record:
        const char *type
        const char *text
    ctypedef struct lattio_field_desc:
        int kind
        int mem_format
        int disk_format
        uint64_t elements
        uint64_t datacount
        const char *datatype
        int colors
        int spins
        const char *lfn
        const char *file_xml
        const char *record_xml
        const char *date
        int verify
        int verify_retries
        int skip_checksum
        int require_checksum
        const lattio_text_record *other
        int n_other

    void lattio_field_desc_default(lattio_field_desc *d, int kind, int mem_format, int disk_format,
                                   uint64_t elements)
    int lattio_h5_is_hdf5(const char *path)
    int lattio_field_read_values(lattio_lime_reader *r, const lattio_field_info *fi, int mem_format,
                                 void *values, uint64_t n_out, lattio_scidac_sum *computed)
    ctypedef struct lattio_volumes:
        pass
    int lattio_volumes_probe(const char *base)
    int lattio_volumes_open(const char *base, lattio_volumes **out)
    void lattio_volumes_close(lattio_volumes *v)
    int lattio_volumes_field_info(lattio_volumes *v, int index, lattio_field_info *fi)
    int lattio_volumes_read_values(lattio_volumes *v, int index, int mem_format, void *values, uint64_t n_out,
                                   lattio_scidac_sum *computed)
    ctypedef struct lattio_volumes_info:
        int volfmt
        int volumes
        int fields
    int lattio_volumes_describe(const lattio_volumes *v, lattio_volumes_info *vi)
    ctypedef struct lattio_volumes_plan:
        int volfmt
        int nd
        int grid[8]
        int io_grid[8]
    int lattio_volumes_split(const char *inp, const char *base, const lattio_volumes_plan *p)
    ctypedef struct lattio_field_site:
        const char *type
        int is_complex
        int rank
        uint64_t shape[5]
        char axes[128]
    int lattio_field_site_of(const lattio_field_info *fi, lattio_field_site *s)
    int lattio_fields_write_serial(const char *path, const lattio_field_desc *d, const lattio_layout *l, int n,
                                   const void *const *values)


# enum values of lattio.h, mirrored for the Python layer
OK = 0
ERR_CHECKSUM = -300
ERR_NO_CHECKSUM = -301
REAL_F32 = 1          # LATTIO_REAL_F32_NATIVE
REAL_F64 = 2          # LATTIO_REAL_F64_NATIVE
REAL_F32_BE = 3
REAL_F64_BE = 4
FIELD_GENERIC = 0
FIELD_ILDG_GAUGE = 1
FIELD_SU3_GAUGE = 2
CHECKSUM_STATES = {1: "verified", 2: "skipped", 3: "missing", 4: "partial"}
H5_LAYOUTS = {"auto": 0, "qdp": 1, "qlua": 2}
H5_LAYOUT_NAMES = {1: "qdp", 2: "qlua"}
cdef int MODE_READ = 1
cdef int MODE_CREATE = 2


def version():
    """The C library's version, "major.minor.patch"."""
    return lattio_version().decode()


def build_info():
    """What the C library's build holds, in one line (lattio_build_info)."""
    return lattio_build_info().decode()


def status_error(int rc, what=""):
    """The exception (not raised) for status rc, with the library's detail."""
    cdef char buf[512]
    n = lattio_last_detail(buf, sizeof(buf))
    detail = buf[:n].decode("utf-8", "replace") if n > 0 else ""
    err = lattio_last_errno()
    return errors.from_status(rc, lattio_error_name(rc).decode(), lattio_strerror(rc).decode(),
                              detail, what, err)


cdef int check(int rc, what) except -1:
    if rc != 0:
        raise status_error(rc, what)
    return 0


cdef bytes fspath(path):
    import os
    p = os.fsencode(path)
    if b"\0" in p:
        raise ValueError("path contains a NUL byte: %r" % (path,))
    return p


cdef str text(const char *s):
    return s.decode("utf-8", "replace") if s != NULL else None


cdef bytes opt_bytes(value, name):
    if value is None:
        return None
    if isinstance(value, str):
        value = value.encode()
    if not isinstance(value, bytes) or b"\0" in value:
        raise ValueError("metadata %r must be text without NUL bytes" % name)
    return value


cdef const char *cstr(bytes b):
    return <const char *>b if b is not None else NULL


cdef void *data_of(cnp.ndarray a):
    return cnp.PyArray_DATA(a)


cdef const void **data_pointers(list arrays) except NULL:
    """The data of each array of a list (one field each), malloc'd: free it."""
    cdef const void **p = <const void **>malloc(max(len(arrays), 1) * sizeof(void *))
    if p == NULL:
        raise MemoryError()
    for i in range(len(arrays)):
        p[i] = data_of(arrays[i])
    return p


cdef int make_layout(lattio_layout *l, glob, lo, count, size_t site_bytes) except -1:
    """A layout in array-axis order (axis 0 slowest = file dimension 0)."""
    cdef uint64_t g[8]
    cdef uint64_t a[8]
    cdef uint64_t c[8]
    nd = len(glob)
    if nd < 1 or nd > 8:
        raise ValueError("a lattice has 1 to 8 dimensions, not %d" % nd)
    for i in range(nd):
        g[i] = glob[i]
        a[i] = lo[i]
        c[i] = count[i]
    check(lattio_layout_init(l, nd, g, a, c, site_bytes), "layout")
    return 0


def split(uint64_t extent, uint64_t parts, uint64_t index):
    """The library's block split: part `index` of `extent` sites over `parts`."""
    cdef uint64_t lo = 0, count = 0
    check(lattio_split(extent, parts, index, &lo, &count), "split")
    return int(lo), int(count)


cdef dict field_info_dict(lattio_field_info *fi):
    cdef lattio_field_site site
    ok = lattio_field_site_of(fi, &site) == 0
    return {
        "site": tuple(int(site.shape[k]) for k in range(site.rank)) if ok else None,
        "site_axes": tuple(site.axes.decode("ascii").split()) if ok else None,
        "complex": bool(site.is_complex) if ok else None,
        "field_type": site.type.decode("ascii") if ok and site.type != NULL else None,
        "index": fi.index, "kind": fi.kind, "dims": tuple(int(fi.dims[k]) for k in range(fi.nd)),
        "volume": int(fi.volume), "precision": fi.precision,
        "precision_code": chr(fi.precision_code) if fi.precision_code else None,
        "datatype": fi.datatype.decode("utf-8", "replace"), "date": fi.date.decode("utf-8", "replace"),
        "colors": fi.colors, "spins": fi.spins, "typesize": int(fi.typesize),
        "datacount": int(fi.datacount), "recordtype": fi.recordtype,
        "type": fi.binary.type.decode("utf-8", "backslashreplace"),
        "offset": int(fi.binary.offset), "data_offset": int(fi.binary.data_offset),
        "length": int(fi.binary.length), "has_checksum": bool(fi.has_checksum),
        "stored": (int(fi.stored.suma), int(fi.stored.sumb)) if fi.has_checksum else None,
        "lfn": text(fi.lfn), "file_xml": text(fi.file_xml), "record_xml": text(fi.record_xml),
        "has_private_record": bool(fi.has_private_record), "has_ildg_format": bool(fi.has_ildg_format),
        "etmc_record": fi.etmc_record, "etmc_flavours": fi.etmc_flavours,
        "etmc_lz_written": int(fi.etmc_lz_written),
    }


cdef int prepare(lattio_layout *l, lattio_field_desc *d, int kind, int mem_format, int disk_format,
                 uint64_t elements, glob, lo, count) except -1:
    """This rank's layout (array-axis order, mem_format reals per site) and
    a field descriptor with the library's defaults."""
    make_layout(l, glob, lo, count, elements * (4 if mem_format == REAL_F32 else 8))
    lattio_field_desc_default(d, kind, mem_format, disk_format, elements)
    d.elements = elements  # an SU(N) gauge field: 8 N^2 (the default says SU(3)'s 72)
    return 0


cdef class TextRecords:
    """Other writers' records (lattio_text_record) for a descriptor, kept
    alive with the bytes they point to while the call runs."""
    cdef lattio_text_record *recs
    cdef int n
    cdef list texts

    def __cinit__(self, list other):
        self.texts = []
        self.n = len(other)
        self.recs = <lattio_text_record *>calloc(self.n if self.n else 1, sizeof(lattio_text_record))
        if self.recs == NULL:
            raise MemoryError()
        for i, (rtype, text) in enumerate(other):
            t, x = str(rtype).encode("utf-8"), str(text).encode("utf-8")
            self.texts += [t, x]
            self.recs[i].type = t
            self.recs[i].text = x

    def __dealloc__(self):
        free(self.recs)


cdef int fill_meta(lattio_field_desc *d, dict meta, list keep) except -1:
    for key in ("lfn", "file_xml", "record_xml", "date", "datatype"):
        keep.append(opt_bytes(meta.get(key), key))
    d.lfn, d.file_xml, d.record_xml, d.date = cstr(keep[0]), cstr(keep[1]), cstr(keep[2]), cstr(keep[3])
    if keep[4] is not None:
        d.datatype = cstr(keep[4])
    cdef TextRecords other
    if meta.get("other"):
        other = TextRecords(list(meta["other"]))
        keep.append(other)
        d.other, d.n_other = other.recs, other.n
    return 0


cdef int describe_write(lattio_layout *l, lattio_field_desc *d, int kind, int mem_format, int disk_format,
                        uint64_t elements, uint64_t datacount, int colors, int spins, dict meta, list keep,
                        glob, lo, count, bint verify) except -1:
    """A writer's layout and descriptor (strings kept alive in keep)."""
    prepare(l, d, kind, mem_format, disk_format, elements, glob, lo, count)
    d.datacount = datacount
    if colors:
        d.colors = colors
    if spins:
        d.spins = spins
    fill_meta(d, meta, keep)
    d.verify = 1 if verify else 0
    return 0



cdef extern from "lattio.h" nogil:
    ctypedef struct lattio_field_type:
        int id
        const char *name
        const char *stem
        const char *kinds
        int is_complex
        const char *axes
    const lattio_field_type *lattio_field_type_by_name(const char *name)
    const lattio_field_type *lattio_field_type_of(const char *datatype)
    const lattio_field_type *lattio_field_type_at(int i)
    int lattio_field_type_datum(const lattio_field_type *t, int colors, int spins, int precision,
                                int *shape, int *rank, uint64_t *typesize)
    int lattio_field_type_datatype(const lattio_field_type *t, int colors, int precision, char *out, size_t size)


def field_types():
    """The library's field-type table (src/field/types.c) as dicts: name,
    stem, kinds (S spin, C colour axes), complex, axes (names)."""
    out = []
    cdef int i = 0
    cdef const lattio_field_type *t = lattio_field_type_at(0)
    while t != NULL:
        out.append({"name": t.name.decode(), "stem": t.stem.decode(), "kinds": t.kinds.decode(),
                    "complex": bool(t.is_complex), "axes": tuple(t.axes.decode().split())})
        i += 1
        t = lattio_field_type_at(i)
    return out


def field_type_of(datatype):
    """The type name of a SciDAC datatype, None when it follows no convention."""
    cdef bytes d = datatype.encode("utf-8", "replace") if isinstance(datatype, str) else bytes(datatype)
    cdef const lattio_field_type *t = lattio_field_type_of(d)
    return t.name.decode() if t != NULL else None


def field_type_datum(str name, int colors, int spins, int precision):
    """(shape, typesize, datatype) of one datum of type `name`."""
    cdef bytes n = name.encode()
    cdef const lattio_field_type *t = lattio_field_type_by_name(n)
    cdef int shape[4]
    cdef int rank = 0
    cdef uint64_t typesize = 0
    cdef char dt[64]
    if t == NULL:
        raise ValueError("unknown field type %r" % name)
    check(lattio_field_type_datum(t, colors, spins, precision, shape, &rank, &typesize), name)
    check(lattio_field_type_datatype(t, colors, precision, dt, sizeof(dt)), name)
    return tuple(shape[k] for k in range(rank)), int(typesize), dt.decode()


cdef extern from "lattio.h" nogil:
    ctypedef struct lattio_verify_report:
        int status
    void lattio_verify_report_init(lattio_verify_report *rep)
    void lattio_verify_report_free(lattio_verify_report *rep)
    int lattio_verify_file(const char *path, lattio_verify_report *rep, double **gauge)
    int lattio_verify_report_json(const lattio_verify_report *rep, char **json)
    int lattio_h5_is_target(const char *target)


cdef lattio_verify_report *new_report() except NULL:
    cdef lattio_verify_report *rep = <lattio_verify_report *>malloc(sizeof(lattio_verify_report))
    if rep == NULL:
        raise MemoryError()
    lattio_verify_report_init(rep)
    return rep


cdef object report_dict(lattio_verify_report *rep, path):
    """The library's report as a dict (its JSON form, parsed); rep freed."""
    import json
    cdef char *js = NULL
    cdef int rc
    try:
        rc = lattio_verify_report_json(rep, &js)
        check(rc, path)
        out = json.loads(js.decode("utf-8"))
    finally:
        free(js)
        lattio_verify_report_free(rep)
        free(rep)
    return out


cdef extern from "lattio.h" nogil:
    ctypedef struct lattio_convert_options:
        int format
        int precision
        int nersc_rows
        int h5_layout
        const char *h5_path
        lattio_volumes_plan split
    ctypedef struct lattio_convert_report:
        int status
    void lattio_convert_options_default(lattio_convert_options *o)
    void lattio_convert_report_init(lattio_convert_report *rep)
    void lattio_convert_report_free(lattio_convert_report *rep)
    int lattio_convert_report_json(const lattio_convert_report *rep, char **json)
    int lattio_convert_needs_mpi(const char *inp, const lattio_convert_options *o)
    int lattio_convert_file(const char *inp, const char *out, const lattio_convert_options *o,
                            lattio_convert_report *rep)


cdef int convert_options(lattio_convert_options *o, dict opts, bytes h5_path) except -1:
    """The conversion's options from the dict lattio.convert made (format,
    precision, nersc_rows, h5_layout: ints; volfmt and the grids for a
    split); h5_path must outlive o."""
    lattio_convert_options_default(o)
    o.format = opts.get("format", 0)
    o.precision = opts.get("precision", 0)
    o.nersc_rows = opts.get("nersc_rows", 3)
    o.h5_layout = opts.get("h5_layout", 0)
    o.h5_path = NULL
    if h5_path is not None:
        o.h5_path = h5_path
    o.split.volfmt = opts.get("volfmt", 0)
    grid = opts.get("grid", ())
    io_grid = opts.get("io_grid", ())
    if len(grid) > 8 or len(io_grid) > 8:
        raise ValueError("a grid has at most 8 extents")
    o.split.nd = len(grid)
    for k in range(len(grid)):
        o.split.grid[k] = grid[k]
    for k in range(len(io_grid)):
        o.split.io_grid[k] = io_grid[k]
    return 0


cdef lattio_convert_report *new_convert_report() except NULL:
    cdef lattio_convert_report *rep = <lattio_convert_report *>malloc(sizeof(lattio_convert_report))
    if rep == NULL:
        raise MemoryError()
    lattio_convert_report_init(rep)
    return rep


ctypedef int (*convert_call)(void *arg, const char *inp, const char *out, const lattio_convert_options *o,
                             lattio_convert_report *rep) noexcept nogil


cdef object run_convert(convert_call call, void *arg, src, dst, dict opts):
    """The conversion `call` makes (lattio_convert_file or the collective
    lattio_convert, arg its communicator) as its report's dict."""
    cdef bytes p = fspath(src)
    cdef bytes q = fspath(dst)
    cdef const char *cp = p
    cdef const char *cq = q
    cdef bytes hp = opts["h5_path"].encode() if opts.get("h5_path") else None
    cdef lattio_convert_options o
    convert_options(&o, opts, hp)
    cdef lattio_convert_report *rep = new_convert_report()
    with nogil:
        call(arg, cp, cq, &o, rep)
    return convert_dict(rep, src)


cdef object convert_dict(lattio_convert_report *rep, path):
    """The conversion's report as a dict (its JSON form, parsed); rep freed."""
    import json
    cdef char *js = NULL
    cdef int rc
    try:
        rc = lattio_convert_report_json(rep, &js)
        check(rc, path)
        out = json.loads(js.decode("utf-8"))
    finally:
        free(js)
        lattio_convert_report_free(rep)
        free(rep)
    return out


cdef extern from "lattio.h" nogil:
    ctypedef struct lattio_info_report:
        int status
    void lattio_info_report_init(lattio_info_report *rep)
    void lattio_info_report_free(lattio_info_report *rep)
    int lattio_info_file(const char *path, int flags, lattio_info_report *rep)
    int lattio_info_report_json(const lattio_info_report *rep, char **json)


# --- HDF5 fields: the listing's entries, and the MPI-free calls (the serial
# module reads HDF5 with them where the library has them) ---------------------
cdef extern from "lattio.h" nogil:
    ctypedef struct lattio_field_read_info:
        lattio_field_info field
        lattio_scidac_sum computed
        int checksum

    ctypedef struct lattio_h5_entry:
        char path[256]
        int layout
        int gauge
        int colors
        int nd
        uint64_t dims[8]
        uint64_t elements
        int precision
        int big_endian
        int checksum
        char type[24]
        int type_colors

    int lattio_h5_serial_available()
    int lattio_h5_list_serial(const char *path, int nd, lattio_h5_entry *out, int max, int *count)
    int lattio_h5_find_serial(const char *target, int nd, lattio_h5_entry *e)
    int lattio_h5_read_serial(const char *target, const lattio_field_desc *d, const lattio_layout *l,
                              void *values, lattio_field_read_info *info)


cdef dict h5_entry_dict(lattio_h5_entry *e):
    return {"path": e.path.decode("utf-8", "backslashreplace"),
            "layout": H5_LAYOUT_NAMES.get(e.layout, "unknown"), "gauge": bool(e.gauge), "colors": e.colors,
            "dims": tuple(int(e.dims[k]) for k in range(e.nd)),
            "elements": int(e.elements), "precision": e.precision,
            "byte_order": "big" if e.big_endian else "little",
            "checksum": {1: "scidac", 2: "sha256"}.get(e.checksum, "none"),
            "type": e.type.decode("ascii") or None, "type_colors": e.type_colors}


# The HDF5 listing, lookup and read of both modules: the C call (serial, or
# on the MPI module's communicator: arg) passed in, the rest shared.
ctypedef int (*h5_list_fn)(void *arg, const char *path, lattio_h5_entry *out, int max, int *count) noexcept nogil
ctypedef int (*h5_find_fn)(void *arg, const char *target, lattio_h5_entry *e) noexcept nogil
ctypedef int (*h5_read_fn)(void *arg, const char *target, const lattio_field_desc *d, const lattio_layout *l,
                           void *values, lattio_field_read_info *info) noexcept nogil


cdef list h5_list_with(h5_list_fn fn, void *arg, path):
    """The lattice fields of an HDF5 file, as dicts: counted, then listed."""
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef int n = 0, m = 0, rc
    with nogil:
        rc = fn(arg, cp, NULL, 0, &n)
    check(rc, path)
    cdef lattio_h5_entry *e = <lattio_h5_entry *>malloc(max(n, 1) * sizeof(lattio_h5_entry))
    if e == NULL:
        raise MemoryError()
    try:
        with nogil:
            rc = fn(arg, cp, e, n, &m)
        check(rc, path)
        return [h5_entry_dict(&e[i]) for i in range(min(n, m))]
    finally:
        free(e)


cdef dict h5_find_with(h5_find_fn fn, void *arg, target):
    """The lattice field at target ("FILE:/PATH", soft links inside the file
    followed, as every reader follows them), as a dict."""
    cdef bytes p = fspath(target)
    cdef const char *cp = p
    cdef lattio_h5_entry e
    cdef int rc
    with nogil:
        rc = fn(arg, cp, &e)
    check(rc, target)
    return h5_entry_dict(&e)


cdef tuple h5_read_with(h5_read_fn fn, void *arg, target, int mem_format, uint64_t elements, glob, lo, count,
                        cnp.ndarray out, bint verify):
    """The HDF5 field at target (this process's box) into out: (checksum state, metadata)."""
    cdef bytes p = fspath(target)
    cdef const char *cp = p
    cdef lattio_layout l
    cdef lattio_field_desc d
    cdef lattio_field_read_info info
    cdef int rc
    prepare(&l, &d, FIELD_ILDG_GAUGE if elements == 72 else FIELD_GENERIC, mem_format, REAL_F64_BE, elements,
            glob, lo, count)
    d.skip_checksum = 0 if verify else 1
    memset(&info, 0, sizeof(info))
    cdef void *buf = data_of(out)
    with nogil:
        rc = fn(arg, cp, &d, &l, buf, &info)
    meta = field_info_dict(&info.field) if rc == 0 else None
    lattio_field_info_free(&info.field)
    check(rc, target)
    return CHECKSUM_STATES.get(info.checksum, "unknown"), meta
