# cython: language_level=3, boundscheck=False, wraparound=False, embedsignature=True
"""Serial binding of liblattio-serial (lattio.h without MPI) for the
``lattio`` package: every LIME and header format read and written in one
process, with no MPI library loaded.

Every function here is a thin call into the C library: the I/O, byte-order
and precision conversion and checksums run in C, straight into or out of
NumPy buffers, with the GIL released.  The public API is in ``lattio.api``;
nothing here is meant to be called by users.
"""
include "_common.pxi"

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
        "colors": g.colors or 3,
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
    Returns (status, info, u): u is (lt, lz, ly, lx, 4, N, N) complex128 in
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
    nc = g.colors or 3
    cdef cnp.npy_intp n = <cnp.npy_intp>(g.volume * 4 * nc * nc)
    cdef cnp.ndarray arr = cnp.PyArray_SimpleNewFromData(1, &n, cnp.NPY_COMPLEX128, <void *>u)
    cnp.set_array_base(arr, owner)
    dims = tuple(int(g.dims[k]) for k in range(4))
    return rc, gauge_info_dict(&g), arr.reshape(dims[::-1] + (4, nc, nc))


def gauge_stats(cnp.ndarray u):
    """(plaquette, link trace, unitarity) of a whole (T, Z, Y, X, 4, N, N)
    complex128 C-contiguous SU(N) gauge field (Re tr / N)."""
    cdef uint64_t dims[4]
    cdef lattio_gauge_stats s
    cdef int rc, nc = u.shape[6]
    for k in range(4):
        dims[k] = u.shape[3 - k]
    cdef const double *up = <const double *>data_of(u)
    with nogil:
        rc = lattio_gauge_stats_compute_nc(up, dims, nc, &s)
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
    """Serial write of a whole SU(N) gauge field u ((T, Z, Y, X, 4, N, N)
    complex128, C-contiguous) in format fmt (ildg, scidac, nersc, milc,
    openqcd, hirep); the file is written under a temporary name and renamed."""
    names = {"ildg": 1, "scidac": 2, "nersc": 3, "milc": 4, "openqcd": 5, "hirep": 7}
    cdef int f = names[fmt]
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef lattio_gauge_write_options o
    lattio_gauge_write_options_default(&o, f)
    o.precision = precision
    o.colors = u.shape[6]
    cdef bytes lfn = opt_bytes(meta.get("lfn"), "lfn")
    cdef bytes label = opt_bytes(meta.get("label"), "label")
    cdef bytes fx = opt_bytes(meta.get("file_xml"), "file_xml")
    cdef bytes rx = opt_bytes(meta.get("record_xml"), "record_xml")
    cdef bytes date = opt_bytes(meta.get("date"), "date")
    cdef bytes header = opt_bytes(meta.get("header"), "header")
    o.lfn, o.label, o.file_xml, o.record_xml, o.date = cstr(lfn), cstr(label), cstr(fx), cstr(rx), cstr(date)
    o.nersc_header = cstr(header)
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


def info(path, int flags=0):
    """lattio_info_file: the library's listing of a LIME file or a QIO volume
    set (flags: 1 the records' text, 2 every field) as its report's dict
    (``lattio info --json``'s object).  A file that cannot be listed whole
    raises (the status of where it stopped)."""
    import json
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef lattio_info_report rep
    cdef char *js = NULL
    cdef int rc
    lattio_info_report_init(&rep)
    try:
        with nogil:
            rc = lattio_info_file(cp, flags, &rep)
        check(rc, path)
        check(lattio_info_report_json(&rep, &js), path)
        return json.loads(js.decode("utf-8"))
    finally:
        free(js)
        lattio_info_report_free(&rep)


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


def volumes_probe(path):
    """True when `path` names a QIO volume set (PATH.vol0000 or
    DIR/vol0000/NAME exists) and is no file itself."""
    cdef bytes p = fspath(path)
    return bool(lattio_volumes_probe(p))


def volumes_fields(path):
    """The fields of a QIO volume set (volume 0's binary records), its
    volumes checked as they open."""
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef lattio_volumes *v = NULL
    cdef lattio_volumes_info vi
    cdef lattio_field_info fi
    cdef int rc
    with nogil:
        rc = lattio_volumes_open(cp, &v)
    check(rc, path)
    out = []
    try:
        check(lattio_volumes_describe(v, &vi), path)
        for i in range(vi.fields):
            check(lattio_volumes_field_info(v, i, &fi), "%s: field %d" % (path, i))
            out.append(field_info_dict(&fi))
            lattio_field_info_free(&fi)
    finally:
        lattio_volumes_close(v)
    return out


def volumes_split(path, base, int volfmt, grid):
    """Split the single file `path` into the QIO volume set `base`: a volume
    per node of `grid` (nodes per dimension, x first)."""
    cdef bytes p = fspath(path), b = fspath(base)
    cdef const char *cp = p
    cdef const char *cb = b
    cdef lattio_volumes_plan plan
    cdef int rc
    memset(&plan, 0, sizeof(plan))
    plan.volfmt = volfmt
    plan.nd = len(grid)
    for k, g in enumerate(grid):
        plan.grid[k] = g
    with nogil:
        rc = lattio_volumes_split(cp, cb, &plan)
    check(rc, base)


cdef str read_state(int rc, int has_checksum, bint verify, path):
    """A serial read's status: raised (a checksum mismatch only when
    `verify`), else how its checksum was treated."""
    if rc != 0 and not (rc == ERR_CHECKSUM and not verify):
        raise status_error(rc, path)
    return "skipped" if not verify else "verified" if has_checksum else "missing"


def volumes_read(path, int index, int mem_format, cnp.ndarray out, bint verify):
    """Field `index` of a QIO volume set, whole, into out (as field_read):
    every volume's part placed by its site list, the checksum over all of
    them.  Returns (checksum state, computed sums)."""
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef lattio_volumes *v = NULL
    cdef lattio_field_info fi
    cdef lattio_scidac_sum s
    cdef int rc
    cdef uint64_t n = <uint64_t>out.size * (2 if out.dtype.kind == "c" else 1)
    cdef void *buf = data_of(out)
    memset(&s, 0, sizeof(s))
    memset(&fi, 0, sizeof(fi))
    with nogil:
        rc = lattio_volumes_open(cp, &v)
    check(rc, path)
    try:
        check(lattio_volumes_field_info(v, index, &fi), path)
        with nogil:
            rc = lattio_volumes_read_values(v, index, mem_format, buf, n, &s)
        state = read_state(rc, fi.has_checksum, verify, path)
    finally:
        lattio_field_info_free(&fi)
        lattio_volumes_close(v)
    return state, (int(s.suma), int(s.sumb))


cdef int open_field(bytes p, path, int index, lattio_lime_reader **r, lattio_field_info *fi) except? -9999:
    """A reader on p (raises when the file cannot be opened) and field
    `index`'s description into fi; the description's status (the caller
    closes *r and frees fi in any case)."""
    cdef int rc
    memset(fi, 0, sizeof(fi[0]))
    check(lattio_lime_reader_open(p, r), path)
    with nogil:
        rc = lattio_field_info_read(r[0], index, fi)
    return rc


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
    memset(&s, 0, sizeof(s))
    rc = open_field(p, path, index, &r, &fi)
    try:
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



def field_read(path, int index, int mem_format, cnp.ndarray out, bint verify):
    """Field `index` of a LIME file, whole, into out (C-contiguous, file
    order, mem_format reals: REAL_F32 or REAL_F64), read serially with its
    SciDAC checksum computed on the way.  A mismatch raises when `verify`.
    Returns (checksum state, computed sums)."""
    cdef bytes p = fspath(path)
    cdef lattio_lime_reader *r = NULL
    cdef lattio_field_info fi
    cdef lattio_scidac_sum s
    cdef int rc
    cdef uint64_t n = <uint64_t>out.size * (2 if out.dtype.kind == "c" else 1)
    cdef void *buf = data_of(out)
    memset(&s, 0, sizeof(s))
    rc = open_field(p, path, index, &r, &fi)
    try:
        check(rc, path)
        with nogil:
            rc = lattio_field_read_values(r, &fi, mem_format, buf, n, &s)
        state = read_state(rc, fi.has_checksum, verify, path)
    finally:
        lattio_field_info_free(&fi)
        lattio_lime_reader_close(r)
    return state, (int(s.suma), int(s.sumb))


def field_write(path, int kind, int mem_format, int disk_format, uint64_t elements, uint64_t datacount,
                int colors, int spins, dict meta, glob, list values, bint verify=True):
    """Whole fields (values: a list of C-contiguous arrays in array-axis
    order, mem_format reals) written serially as ILDG/SciDAC record sets in
    one file (several: QIO's multi-record file), the ones the parallel
    writer writes; under a temporary name, renamed when complete (with
    verify: after each binary record was read back and its checksum
    compared)."""
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef lattio_layout l
    cdef lattio_field_desc d
    cdef int rc, n = len(values)
    keep = []
    describe_write(&l, &d, kind, mem_format, disk_format, elements, datacount, colors, spins, meta, keep,
                   glob, (0,) * len(glob), glob, verify)
    cdef const void **bufs = data_pointers(values)
    try:
        with nogil:
            rc = lattio_fields_write_serial(cp, &d, &l, n, bufs)
    finally:
        free(bufs)
    check(rc, path)


def verify(path):
    """lattio_verify_file: the library's verification of a LIME, NERSC,
    MILC, openQCD or HiRep file or a QIO volume set, as its report's dict
    (``lattio verify --json``'s object)."""
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef lattio_verify_report *rep = new_report()
    with nogil:
        lattio_verify_file(cp, rep, NULL)
    return report_dict(rep, path)


def h5_is_target(path):
    """True when path names an HDF5 file: "FILE" or "FILE:/PATH"."""
    cdef bytes p = fspath(path)
    return bool(lattio_h5_is_target(p))


def convert_needs_mpi(src, dict opts):
    """lattio_convert_needs_mpi: converting src needs the MPI library (HDF5,
    a file of fields other than one gauge configuration)."""
    cdef bytes p = fspath(src)
    cdef bytes hp = opts["h5_path"].encode() if opts.get("h5_path") else None
    cdef lattio_convert_options o
    convert_options(&o, opts, hp)
    return bool(lattio_convert_needs_mpi(p, &o))


cdef int convert_alone(void *arg, const char *inp, const char *out, const lattio_convert_options *o,
                       lattio_convert_report *rep) noexcept nogil:
    return lattio_convert_file(inp, out, o, rep)


def convert(src, dst, dict opts):
    """lattio_convert_file: the library's conversion by this process alone,
    as its report's dict (``lattio convert --json``'s object)."""
    return run_convert(convert_alone, NULL, src, dst, opts)


def h5_available():
    """True where this library reads HDF5 without MPI (a serial libhdf5 in
    a build without MPI: docs/install.md)."""
    return bool(lattio_h5_serial_available())


cdef int serial_list(void *arg, const char *path, lattio_h5_entry *out, int max, int *count) noexcept nogil:
    return lattio_h5_list_serial(path, 4, out, max, count)


cdef int serial_find(void *arg, const char *target, lattio_h5_entry *e) noexcept nogil:
    return lattio_h5_find_serial(target, 4, e)


cdef int serial_read(void *arg, const char *target, const lattio_field_desc *d, const lattio_layout *l,
                     void *values, lattio_field_read_info *info) noexcept nogil:
    return lattio_h5_read_serial(target, d, l, values, info)


def h5_list(path):
    """The lattice fields of an HDF5 file, as dicts (lattio_h5_list_serial)."""
    return h5_list_with(serial_list, NULL, path)


def h5_find(target):
    """The lattice field at target ("FILE:/PATH"), as a dict (lattio_h5_find_serial)."""
    return h5_find_with(serial_find, NULL, target)


def h5_read(target, int mem_format, uint64_t elements, glob, cnp.ndarray out, bint verify):
    """The whole HDF5 field at target into out (lattio_h5_read_serial).
    Returns (checksum state, metadata)."""
    return h5_read_with(serial_read, NULL, target, mem_format, elements, glob, (0,) * len(glob), glob, out, verify)
