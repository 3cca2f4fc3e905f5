# cython: language_level=3, boundscheck=False, wraparound=False, embedsignature=True
"""Low-level binding of liblattio (lattio.h) for the ``lattio`` package.

Every function here is a thin call into the C library: the I/O, byte-order
and precision conversion and checksums run in C, straight into or out of
NumPy buffers, with the GIL released.  The public API is in ``lattio.api``;
nothing here is meant to be called by users.
"""
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset, strlen
from mpi4py cimport MPI as cMPI
from mpi4py import MPI
from mpi4py.libmpi cimport MPI_Comm, MPI_Info, MPI_INFO_NULL

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
        char *lfn
        char *file_xml
        char *record_xml

    ctypedef struct lattio_gauge_info:
        int format
        uint64_t dims[4]
        uint64_t volume
        int precision
        int little_endian
        int rows
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
        int little_endian
        const char *lfn
        const char *label
        const char *file_xml
        const char *record_xml
        const char *date

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

    ctypedef struct lattio_field_write_info:
        lattio_scidac_sum sum

    ctypedef struct lattio_field_read_info:
        lattio_field_info field
        lattio_scidac_sum computed
        int checksum

    ctypedef struct lattio_options:
        int durable

    ctypedef struct lattio_h5_options:
        int layout
        int transport
        int append

    ctypedef struct lattio_h5_entry:
        char path[256]
        int layout
        int gauge
        int nd
        uint64_t dims[8]
        uint64_t elements
        int precision
        int big_endian
        int checksum

    ctypedef struct lattio_lime_reader:
        pass
    ctypedef struct lattio_file:
        pass

    const char *lattio_version()
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

    void lattio_options_default(lattio_options *opt)
    int lattio_open(MPI_Comm comm, const char *path, int mode, MPI_Info info,
                    const lattio_options *opt, lattio_file **out)
    int lattio_close(lattio_file *f)
    void lattio_field_desc_default(lattio_field_desc *d, int kind, int mem_format, int disk_format,
                                   uint64_t elements)
    int lattio_field_write(lattio_file *f, const lattio_field_desc *d, const lattio_layout *l,
                           const void *local, lattio_field_write_info *out)
    int lattio_field_read(lattio_file *f, int index, const lattio_field_desc *d,
                          const lattio_layout *l, void *local, lattio_field_read_info *info)
    int lattio_gauge_stats_mpi(MPI_Comm comm, const lattio_layout *l, const double *local,
                               lattio_gauge_stats *out)

    void lattio_h5_options_default(lattio_h5_options *o)
    int lattio_h5_write(MPI_Comm comm, const char *target, const lattio_field_desc *d,
                        const lattio_layout *l, const void *local, const lattio_h5_options *o,
                        lattio_field_write_info *out, void *h5)
    int lattio_h5_read(MPI_Comm comm, const char *target, const lattio_field_desc *d,
                       const lattio_layout *l, void *local, const lattio_h5_options *o,
                       lattio_field_read_info *info, void *h5)
    int lattio_h5_list(MPI_Comm comm, const char *path, int nd, lattio_h5_entry *out, int max,
                       int *count)
    int lattio_h5_find(MPI_Comm comm, const char *target, int nd, lattio_h5_entry *e)
    int lattio_h5_is_hdf5(const char *path)


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


cdef int close_after(lattio_file *f, err, what) except -1:
    """Collective: close f, then raise err (the call's error, taken before
    the close) or else the close's own."""
    cdef int rc
    with nogil:
        rc = lattio_close(f)
    if err is not None:
        raise err
    return check(rc, what)


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


cdef MPI_Comm as_comm(comm) except *:
    if comm is None:
        return (<cMPI.Comm>MPI.COMM_SELF).ob_mpi
    if not isinstance(comm, MPI.Comm):
        raise TypeError("comm must be an mpi4py communicator, not %s" % type(comm).__name__)
    return (<cMPI.Comm>comm).ob_mpi


cdef void *data_of(cnp.ndarray a):
    return cnp.PyArray_DATA(a)


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


def detect(path):
    """The format of a file from its content: (name, is_hdf5)."""
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef int fmt = 0, rc
    if lattio_h5_is_hdf5(p):
        return "hdf5"
    with nogil:
        rc = lattio_gauge_detect(cp, &fmt)
    check(rc, path)
    return lattio_gauge_format_name(fmt).decode()


cdef class _CBuffer:
    """Owner of a buffer lattio_gauge_read allocated (freed with the array)."""
    cdef double *ptr

    def __dealloc__(self):
        if self.ptr != NULL:
            lattio_gauge_free(self.ptr)
            self.ptr = NULL


cdef dict gauge_info_dict(lattio_gauge_info *g):
    return {
        "format": lattio_gauge_format_name(g.format).decode(),
        "dims": tuple(int(g.dims[k]) for k in range(4)),
        "precision": g.precision, "little_endian": bool(g.little_endian), "rows": g.rows,
        "data_offset": int(g.data_offset), "data_length": int(g.data_length),
        "checksum_kind": g.checksum_kind, "has_checksum": bool(g.has_checksum),
        "stored": (int(g.stored[0]), int(g.stored[1])),
        "computed": (int(g.computed[0]), int(g.computed[1])),
        "header_plaquette": g.plaquette if g.has_plaquette else None,
        "header_link_trace": g.link_trace if g.has_link_trace else None,
        "problem": g.problem.decode("utf-8", "replace"),
    }


def gauge_read(path):
    """Serial read of a whole gauge configuration (any format but HDF5).
    Returns (status, info, u): u is (lt, lz, ly, lx, 4, 3, 3) complex128 in
    ILDG order, filled also when the status is ERR_CHECKSUM (the caller
    decides); any other failure raises."""
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef lattio_gauge_info g
    cdef double *u = NULL
    cdef int rc
    memset(&g, 0, sizeof(g))
    with nogil:
        rc = lattio_gauge_read(cp, &g, &u)
    if rc != 0 and (rc != ERR_CHECKSUM or u == NULL):
        err = status_error(rc, path)
        if g.problem[0]:
            err.detail = g.problem.decode("utf-8", "replace") + (": " + err.detail if err.detail else "")
        if u != NULL:
            lattio_gauge_free(u)
        raise err
    cdef _CBuffer owner = _CBuffer()
    owner.ptr = u
    cdef cnp.npy_intp n = <cnp.npy_intp>(g.volume * 36)
    cdef cnp.ndarray arr = cnp.PyArray_SimpleNewFromData(1, &n, cnp.NPY_COMPLEX128, <void *>u)
    cnp.set_array_base(arr, owner)
    dims = tuple(int(g.dims[k]) for k in range(4))
    return rc, gauge_info_dict(&g), arr.reshape(dims[::-1] + (4, 3, 3))


def gauge_stats(cnp.ndarray u):
    """(plaquette, link trace, unitarity) of a whole (T, Z, Y, X, 4, 3, 3)
    complex128 C-contiguous gauge field."""
    cdef uint64_t dims[4]
    cdef lattio_gauge_stats s
    cdef int rc
    for k in range(4):
        dims[k] = u.shape[3 - k]
    cdef const double *up = <const double *>data_of(u)
    with nogil:
        rc = lattio_gauge_stats_compute(up, dims, &s)
    check(rc, "gauge observables")
    return s.plaquette, s.link_trace, s.unitarity


def gauge_stats_mpi(comm, glob, lo, count, cnp.ndarray local):
    """Collective: (plaquette, link trace, unitarity) of a distributed gauge field."""
    cdef lattio_layout l
    cdef lattio_gauge_stats s
    cdef MPI_Comm c = as_comm(comm)
    cdef int rc
    make_layout(&l, glob, lo, count, 576)
    cdef const double *p = <const double *>data_of(local)
    with nogil:
        rc = lattio_gauge_stats_mpi(c, &l, p, &s)
    check(rc, "gauge observables")
    return s.plaquette, s.link_trace, s.unitarity


def gauge_check_header(dict info, double plaquette, double link_trace):
    """0 when the header's plaquette / link trace (if any) agree, else the status."""
    cdef lattio_gauge_info g
    cdef lattio_gauge_stats s
    memset(&g, 0, sizeof(g))
    hp, ht = info.get("header_plaquette"), info.get("header_link_trace")
    g.has_plaquette = hp is not None
    g.plaquette = hp if hp is not None else 0.0
    g.has_link_trace = ht is not None
    g.link_trace = ht if ht is not None else 0.0
    s.plaquette = plaquette
    s.link_trace = link_trace
    s.unitarity = 0
    return lattio_gauge_check_header(&g, &s)


def gauge_write(path, str fmt, cnp.ndarray u, int precision, dict meta):
    """Serial write of a whole gauge field u ((T, Z, Y, X, 4, 3, 3) complex128,
    C-contiguous) in format fmt (ildg, scidac, nersc, milc, openqcd); the file
    is written under a temporary name and renamed."""
    names = {"ildg": 1, "scidac": 2, "nersc": 3, "milc": 4, "openqcd": 5}
    cdef int f = names[fmt]
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef lattio_gauge_write_options o
    lattio_gauge_write_options_default(&o, f)
    o.precision = precision
    cdef bytes lfn = opt_bytes(meta.get("lfn"), "lfn")
    cdef bytes label = opt_bytes(meta.get("label"), "label")
    cdef bytes fx = opt_bytes(meta.get("file_xml"), "file_xml")
    cdef bytes rx = opt_bytes(meta.get("record_xml"), "record_xml")
    cdef bytes date = opt_bytes(meta.get("date"), "date")
    o.lfn, o.label, o.file_xml, o.record_xml, o.date = cstr(lfn), cstr(label), cstr(fx), cstr(rx), cstr(date)
    if meta.get("nersc_rows") is not None:
        o.nersc_rows = int(meta["nersc_rows"])
    if meta.get("little_endian") is not None:
        o.little_endian = 1 if meta["little_endian"] else 0
    cdef uint64_t dims[4]
    for k in range(4):
        dims[k] = u.shape[3 - k]
    cdef const double *d = <const double *>data_of(u)
    cdef int rc
    with nogil:
        rc = lattio_gauge_write(cp, f, &o, dims, d)
    check(rc, path)


def lime_records(path):
    """Every record of a LIME file as dicts (message, record, offset, type,
    length, padding, mb, me, data_offset), like `lattio info --json`."""
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef lattio_lime_reader *r = NULL
    cdef lattio_record_info ri
    cdef int rc
    check(lattio_lime_reader_open(p, &r), path)
    out = []
    message, record = 0, 0
    try:
        while True:
            with nogil:
                rc = lattio_lime_reader_next(r, &ri)
            if rc == -110:  # ERR_EOF
                break
            check(rc, path)
            if ri.mb or message == 0:
                message += 1
                record = 0
            record += 1
            out.append({"message": message, "record": record, "offset": int(ri.offset),
                        "data_offset": int(ri.data_offset),
                        "type": ri.type.decode("utf-8", "backslashreplace"), "length": int(ri.length),
                        "padding": int(ri.padding), "mb": bool(ri.mb), "me": bool(ri.me)})
    finally:
        lattio_lime_reader_close(r)
    return out


cdef dict field_info_dict(lattio_field_info *fi):
    return {
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
    }


def lime_fields(path):
    """The fields (binary records with their metadata) of a LIME file."""
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef lattio_lime_reader *r = NULL
    cdef lattio_field_info fi
    cdef int n = 0, rc
    check(lattio_lime_reader_open(p, &r), path)
    out = []
    try:
        check(lattio_field_count(r, &n), path)
        for i in range(n):
            with nogil:
                rc = lattio_field_info_read(r, i, &fi)
            check(rc, "%s: field %d" % (path, i))
            out.append(field_info_dict(&fi))
            lattio_field_info_free(&fi)
    finally:
        lattio_lime_reader_close(r)
    return out


def field_verify(path, int index, bint values=False):
    """Field `index` read once, serially: (status, computed sums, stored sums
    or None, the exception of a failure or None, and with `values` its
    reals as native doubles in file order, else None)."""
    cdef bytes p = fspath(path)
    cdef lattio_lime_reader *r = NULL
    cdef lattio_field_info fi
    cdef lattio_scidac_sum s
    cdef int rc
    cdef uint64_t n = 0
    cdef double *buf = NULL
    cdef cnp.ndarray out = None
    memset(&fi, 0, sizeof(fi))
    memset(&s, 0, sizeof(s))
    check(lattio_lime_reader_open(p, &r), path)
    try:
        with nogil:
            rc = lattio_field_info_read(r, index, &fi)
        if rc == 0:
            if values:
                n = fi.volume * fi.typesize * fi.datacount // (<uint64_t>fi.precision // 8)
                out = np.empty(n, dtype=np.float64)
                buf = <double *>data_of(out)
            with nogil:
                rc = lattio_field_read_double(r, &fi, buf, n, &s)
        stored = (int(fi.stored.suma), int(fi.stored.sumb)) if fi.has_checksum else None
        err = status_error(rc, path) if rc != 0 else None
    finally:
        lattio_field_info_free(&fi)
        lattio_lime_reader_close(r)
    return rc, (int(s.suma), int(s.sumb)), stored, err, out


cdef int prepare(lattio_layout *l, lattio_field_desc *d, int kind, int mem_format, int disk_format,
                 uint64_t elements, glob, lo, count) except -1:
    """This rank's layout (array-axis order, mem_format reals per site) and
    a field descriptor with the library's defaults."""
    make_layout(l, glob, lo, count, elements * (4 if mem_format == REAL_F32 else 8))
    lattio_field_desc_default(d, kind, mem_format, disk_format, elements)
    return 0


def field_read(comm, path, int index, int kind, int mem_format, uint64_t elements, glob, lo, count,
               cnp.ndarray out, bint verify):
    """Collective: field `index` of a LIME file into out (this rank's box,
    C order, mem_format reals).  Returns (status, checksum state, computed)."""
    cdef MPI_Comm c = as_comm(comm)
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef lattio_layout l
    cdef lattio_field_desc d
    cdef lattio_field_read_info info
    cdef lattio_options o
    cdef lattio_file *f = NULL
    cdef int rc
    prepare(&l, &d, kind, mem_format, REAL_F64_BE, elements, glob, lo, count)
    d.skip_checksum = 0 if verify else 1
    lattio_options_default(&o)
    memset(&info, 0, sizeof(info))
    cdef void *buf = data_of(out)
    with nogil:
        rc = lattio_open(c, cp, MODE_READ, MPI_INFO_NULL, &o, &f)
    check(rc, path)
    with nogil:
        rc = lattio_field_read(f, index, &d, &l, buf, &info)
    err = status_error(rc, path) if rc != 0 else None
    lattio_field_info_free(&info.field)
    close_after(f, err, path)
    return CHECKSUM_STATES.get(info.checksum, "unknown"), (int(info.computed.suma), int(info.computed.sumb))


cdef int fill_meta(lattio_field_desc *d, dict meta, list keep) except -1:
    for key in ("lfn", "file_xml", "record_xml", "date", "datatype"):
        keep.append(opt_bytes(meta.get(key), key))
    d.lfn, d.file_xml, d.record_xml, d.date = cstr(keep[0]), cstr(keep[1]), cstr(keep[2]), cstr(keep[3])
    if keep[4] is not None:
        d.datatype = cstr(keep[4])
    return 0


def field_write(comm, path, int kind, int mem_format, int disk_format, uint64_t elements,
                uint64_t datacount, int colors, int spins, dict meta, glob, lo, count,
                cnp.ndarray local, bint verify=True):
    """Collective: write this rank's box of a field as a SciDAC/ILDG record
    set into a new LIME file (temporary name, renamed at close when every
    rank succeeded); the data is re-read and its checksum compared."""
    cdef MPI_Comm c = as_comm(comm)
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef lattio_layout l
    cdef lattio_field_desc d
    cdef lattio_options o
    cdef lattio_file *f = NULL
    cdef int rc
    keep = []
    prepare(&l, &d, kind, mem_format, disk_format, elements, glob, lo, count)
    d.datacount = datacount
    if colors:
        d.colors = colors
    if spins:
        d.spins = spins
    fill_meta(&d, meta, keep)
    d.verify = 1 if verify else 0
    d.verify_retries = 1
    lattio_options_default(&o)
    cdef const void *buf = data_of(local)
    with nogil:
        rc = lattio_open(c, cp, MODE_CREATE, MPI_INFO_NULL, &o, &f)
    check(rc, path)
    with nogil:
        rc = lattio_field_write(f, &d, &l, buf, NULL)
    close_after(f, status_error(rc, path) if rc != 0 else None, path)


def h5_list(comm, path):
    """Collective: the lattice fields of an HDF5 file, as dicts."""
    cdef MPI_Comm c = as_comm(comm)
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef int n = 0, m = 0, rc
    with nogil:
        rc = lattio_h5_list(c, cp, 4, NULL, 0, &n)
    check(rc, path)
    cdef lattio_h5_entry *e = <lattio_h5_entry *>malloc(max(n, 1) * sizeof(lattio_h5_entry))
    if e == NULL:
        raise MemoryError()
    try:
        with nogil:
            rc = lattio_h5_list(c, cp, 4, e, n, &m)
        check(rc, path)
        out = []
        for i in range(min(n, m)):
            out.append(h5_entry_dict(&e[i]))
        return out
    finally:
        free(e)


cdef dict h5_entry_dict(lattio_h5_entry *e):
    return {"path": e.path.decode("utf-8", "backslashreplace"),
            "layout": H5_LAYOUT_NAMES.get(e.layout, "unknown"), "gauge": bool(e.gauge),
            "dims": tuple(int(e.dims[k]) for k in range(e.nd)),
            "elements": int(e.elements), "precision": e.precision,
            "byte_order": "big" if e.big_endian else "little",
            "checksum": {1: "scidac", 2: "sha256"}.get(e.checksum, "none")}


def h5_find(comm, target):
    """Collective: the lattice field at target ("FILE:/PATH", soft links inside
    the file followed, as every reader follows them), as a dict."""
    cdef MPI_Comm c = as_comm(comm)
    cdef bytes p = fspath(target)
    cdef const char *cp = p
    cdef lattio_h5_entry e
    cdef int rc
    with nogil:
        rc = lattio_h5_find(c, cp, 4, &e)
    check(rc, target)
    return h5_entry_dict(&e)


def h5_read(comm, target, int mem_format, uint64_t elements, glob, lo, count, cnp.ndarray out,
            bint verify):
    """Collective: the HDF5 field at target into out.  Returns (checksum state, metadata)."""
    cdef MPI_Comm c = as_comm(comm)
    cdef bytes p = fspath(target)
    cdef const char *cp = p
    cdef lattio_layout l
    cdef lattio_field_desc d
    cdef lattio_field_read_info info
    cdef lattio_h5_options o
    cdef int rc
    prepare(&l, &d, FIELD_ILDG_GAUGE if elements == 72 else FIELD_GENERIC, mem_format, REAL_F64_BE, elements, glob, lo, count)
    d.skip_checksum = 0 if verify else 1
    lattio_h5_options_default(&o)
    o.layout = 0
    memset(&info, 0, sizeof(info))
    cdef void *buf = data_of(out)
    with nogil:
        rc = lattio_h5_read(c, cp, &d, &l, buf, &o, &info, NULL)
    meta = field_info_dict(&info.field) if rc == 0 else None
    lattio_field_info_free(&info.field)
    check(rc, target)
    return CHECKSUM_STATES.get(info.checksum, "unknown"), meta


def h5_write(comm, target, int kind, int mem_format, int disk_format, uint64_t elements,
             uint64_t datacount, dict meta, str layout, bint append, glob, lo, count,
             cnp.ndarray local, bint verify=True):
    """Collective: write this rank's box of a field to an HDF5 target
    (FILE or FILE:/PATH) in the QDP++ or Qlua layout, verified."""
    cdef MPI_Comm c = as_comm(comm)
    cdef bytes p = fspath(target)
    cdef const char *cp = p
    cdef lattio_layout l
    cdef lattio_field_desc d
    cdef lattio_h5_options o
    cdef int rc
    keep = []
    prepare(&l, &d, kind, mem_format, disk_format, elements, glob, lo, count)
    d.datacount = datacount
    fill_meta(&d, meta, keep)
    d.verify = 1 if verify else 0
    d.verify_retries = 1
    lattio_h5_options_default(&o)
    o.layout = H5_LAYOUTS[layout]
    o.append = 1 if append else 0
    cdef const void *buf = data_of(local)
    with nogil:
        rc = lattio_h5_write(c, cp, &d, &l, buf, &o, NULL, NULL)
    check(rc, target)
