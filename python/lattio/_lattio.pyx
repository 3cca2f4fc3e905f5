# cython: language_level=3, boundscheck=False, wraparound=False, embedsignature=True
"""Parallel binding of liblattio (lattio.h with MPI) for the ``lattio``
package: collective LIME field reads and writes, HDF5, distributed gauge
observables.  A communicator arrives as an mpi4py object and is handed to
C through its Fortran handle (``MPI_Comm_f2c``), so building this module
needs MPI alone; mpi4py is imported by whoever passes a communicator.
Loading this module loads the MPI library but initialises nothing.

Every function here is a thin call into the C library, with the GIL
released.  The public API is in ``lattio.api``; nothing here is meant to be
called by users.
"""
include "_common.pxi"

cdef extern from "mpi.h" nogil:
    ctypedef struct MPI_Comm:
        pass
    ctypedef struct MPI_Info:
        pass
    ctypedef int MPI_Fint
    MPI_Comm MPI_COMM_SELF
    MPI_Info MPI_INFO_NULL
    MPI_Comm MPI_Comm_f2c(MPI_Fint handle)
    int MPI_Initialized(int *flag)
    int MPI_Finalized(int *flag)

cdef extern from "lattio.h" nogil:
    ctypedef struct lattio_field_write_info:
        lattio_scidac_sum sum

    ctypedef struct lattio_options:
        int durable

    ctypedef struct lattio_h5_options:
        int layout
        int transport
        int append

    ctypedef struct lattio_file:
        pass

    void lattio_options_default(lattio_options *opt)
    int lattio_open(MPI_Comm comm, const char *path, int mode, MPI_Info info,
                    const lattio_options *opt, lattio_file **out)
    int lattio_close(lattio_file *f)
    int lattio_field_write(lattio_file *f, const lattio_field_desc *d, const lattio_layout *l,
                           const void *local, lattio_field_write_info *out)
    int lattio_volumes_read(MPI_Comm comm, const char *base, int index, const lattio_field_desc *d,
                            const lattio_layout *l, void *local, lattio_field_read_info *info)
    int lattio_volumes_write(MPI_Comm comm, const char *base, int volfmt, const lattio_field_desc *d,
                             const lattio_layout *l, int n, const void *const *locals,
                             lattio_field_write_info *out)
    int lattio_field_read(lattio_file *f, int index, const lattio_field_desc *d,
                          const lattio_layout *l, void *local, lattio_field_read_info *info)
    int lattio_gauge_stats_mpi(MPI_Comm comm, const lattio_layout *l, const double *local,
                               lattio_gauge_stats *out)
    void lattio_h5_options_default(lattio_h5_options *o)
    int lattio_h5_write_fields(MPI_Comm comm, const char *target, const lattio_field_desc *d,
                               const lattio_layout *l, int n, const void *const *locals,
                               const lattio_h5_options *o, lattio_field_write_info *out, void *h5)
    int lattio_h5_read(MPI_Comm comm, const char *target, const lattio_field_desc *d,
                       const lattio_layout *l, void *local, const lattio_h5_options *o,
                       lattio_field_read_info *info, void *h5)
    int lattio_h5_list(MPI_Comm comm, const char *path, int nd, lattio_h5_entry *out, int max,
                       int *count)
    int lattio_h5_find(MPI_Comm comm, const char *target, int nd, lattio_h5_entry *e)


cdef MPI_Comm as_comm(comm) except *:
    """The C handle of an mpi4py communicator (None: MPI_COMM_SELF); MPI
    must be initialised (mpi4py's import does it)."""
    cdef int up = 0, down = 0
    MPI_Initialized(&up)
    MPI_Finalized(&down)
    if not up or down:
        raise errors.MPIError(-400, "ERR_MPI", "MPI call failed",
                              "MPI is %s: HDF5 and communicators need MPI initialised (mpi4py.rc.initialize = False? "
                              "call MPI.Init())" % ("finalized" if down else "not initialised"))
    if comm is None:
        return MPI_COMM_SELF
    from mpi4py import MPI
    if not isinstance(comm, MPI.Comm):
        raise TypeError("comm must be an mpi4py communicator, not %s" % type(comm).__name__)
    if comm == MPI.COMM_NULL:
        raise ValueError("comm is MPI.COMM_NULL")
    return MPI_Comm_f2c(<MPI_Fint>comm.py2f())

cdef int close_after(lattio_file *f, err, what) except -1:
    """Collective: close f, then raise err (the call's error, taken before
    the close) or else the close's own."""
    cdef int rc
    with nogil:
        rc = lattio_close(f)
    if err is not None:
        raise err
    return check(rc, what)


def gauge_stats_mpi(comm, glob, lo, count, cnp.ndarray local):
    """Collective: (plaquette, link trace, unitarity) of a distributed gauge field."""
    cdef lattio_layout l
    cdef lattio_gauge_stats s
    cdef MPI_Comm c = as_comm(comm)
    cdef int rc
    make_layout(&l, glob, lo, count, 64 * local.shape[6] * local.shape[6])
    cdef const double *p = <const double *>data_of(local)
    with nogil:
        rc = lattio_gauge_stats_mpi(c, &l, p, &s)
    check(rc, "gauge observables")
    return s.plaquette, s.link_trace, s.unitarity


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


def volumes_read(comm, path, int index, int kind, int mem_format, uint64_t elements, glob, lo, count,
                 cnp.ndarray out, bint verify):
    """Collective: field `index` of a QIO volume set into out (this rank's
    box): the ranks share the volumes and send each site to its owner.
    Returns (checksum state, computed)."""
    cdef MPI_Comm c = as_comm(comm)
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef lattio_layout l
    cdef lattio_field_desc d
    cdef lattio_field_read_info info
    cdef int rc
    prepare(&l, &d, kind, mem_format, REAL_F64_BE, elements, glob, lo, count)
    d.skip_checksum = 0 if verify else 1
    memset(&info, 0, sizeof(info))
    cdef void *buf = data_of(out)
    with nogil:
        rc = lattio_volumes_read(c, cp, index, &d, &l, buf, &info)
    lattio_field_info_free(&info.field)
    check(rc, path)
    return CHECKSUM_STATES.get(info.checksum, "unknown"), (int(info.computed.suma), int(info.computed.sumb))


def field_write(comm, path, int kind, int mem_format, int disk_format, uint64_t elements,
                uint64_t datacount, int colors, int spins, dict meta, glob, lo, count,
                list local, bint verify=True):
    """Collective: write this rank's box of each field of `local` (a list
    of arrays) as SciDAC/ILDG record sets, one after the other, into a new
    LIME file (temporary name, renamed at close when every rank
    succeeded); each binary record is re-read and its checksum compared."""
    cdef MPI_Comm c = as_comm(comm)
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef lattio_layout l
    cdef lattio_field_desc d
    cdef lattio_options o
    cdef lattio_file *f = NULL
    cdef int rc
    keep = []
    describe_write(&l, &d, kind, mem_format, disk_format, elements, datacount, colors, spins, meta, keep,
                   glob, lo, count, verify)
    d.verify_retries = 1
    lattio_options_default(&o)
    cdef const void *buf
    with nogil:
        rc = lattio_open(c, cp, MODE_CREATE, MPI_INFO_NULL, &o, &f)
    check(rc, path)
    for a in local:  # collective: every rank has the same count and the same status after each
        buf = data_of(a)
        with nogil:
            rc = lattio_field_write(f, &d, &l, buf, NULL)
        if rc != 0:
            break
    close_after(f, status_error(rc, path) if rc != 0 else None, path)


def volumes_write(comm, path, int volfmt, int kind, int mem_format, int disk_format, uint64_t elements,
                  uint64_t datacount, int colors, int spins, dict meta, glob, lo, count, list local,
                  bint verify=True):
    """Collective: write this rank's box of each field of `local` as the
    QIO volume set `path` (volfmt 1: a volume per rank, 2/3: per node),
    every volume renamed into place when all are complete."""
    cdef MPI_Comm c = as_comm(comm)
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef lattio_layout l
    cdef lattio_field_desc d
    cdef int rc, n = len(local)
    keep = []
    describe_write(&l, &d, kind, mem_format, disk_format, elements, datacount, colors, spins, meta, keep,
                   glob, lo, count, verify)
    cdef const void **bufs = <const void **>malloc(max(n, 1) * sizeof(void *))
    if bufs == NULL:
        raise MemoryError()
    try:
        for i, a in enumerate(local):
            bufs[i] = data_of(a)
        with nogil:
            rc = lattio_volumes_write(c, cp, volfmt, &d, &l, n, bufs, NULL)
    finally:
        free(bufs)
    check(rc, path)


cdef int comm_list(void *arg, const char *path, lattio_h5_entry *out, int max, int *count) noexcept nogil:
    return lattio_h5_list((<MPI_Comm *>arg)[0], path, 4, out, max, count)


cdef int comm_find(void *arg, const char *target, lattio_h5_entry *e) noexcept nogil:
    return lattio_h5_find((<MPI_Comm *>arg)[0], target, 4, e)


cdef int comm_read(void *arg, const char *target, const lattio_field_desc *d, const lattio_layout *l,
                   void *values, lattio_field_read_info *info) noexcept nogil:
    cdef lattio_h5_options o
    lattio_h5_options_default(&o)
    o.layout = 0
    return lattio_h5_read((<MPI_Comm *>arg)[0], target, d, l, values, &o, info, NULL)


def h5_list(comm, path):
    """Collective: the lattice fields of an HDF5 file, as dicts."""
    cdef MPI_Comm c = as_comm(comm)
    return h5_list_with(comm_list, &c, path)


def h5_find(comm, target):
    """Collective: the lattice field at target ("FILE:/PATH", soft links inside
    the file followed, as every reader follows them), as a dict."""
    cdef MPI_Comm c = as_comm(comm)
    return h5_find_with(comm_find, &c, target)


def h5_read(comm, target, int mem_format, uint64_t elements, glob, lo, count, cnp.ndarray out,
            bint verify):
    """Collective: the HDF5 field at target into out.  Returns (checksum state, metadata)."""
    cdef MPI_Comm c = as_comm(comm)
    return h5_read_with(comm_read, &c, target, mem_format, elements, glob, lo, count, out, verify)


def h5_write(comm, target, int kind, int mem_format, int disk_format, uint64_t elements,
             uint64_t datacount, dict meta, str layout, bint append, glob, lo, count,
             list local, bint verify=True, int colors=0):
    """Collective: write this rank's box of each field of `local` (a list of
    arrays) to an HDF5 target (FILE or FILE:/PATH; several fields:
    PATH/field<i>) in the QDP++ or Qlua layout, verified."""
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
    if colors:
        d.colors = colors
    fill_meta(&d, meta, keep)
    d.verify = 1 if verify else 0
    d.verify_retries = 1
    lattio_h5_options_default(&o)
    o.layout = H5_LAYOUTS[layout]
    o.append = 1 if append else 0
    cdef int n = len(local)
    cdef const void **bufs = data_pointers(local)
    try:
        with nogil:
            rc = lattio_h5_write_fields(c, cp, &d, &l, n, bufs, &o, NULL, NULL)
    finally:
        free(bufs)
    check(rc, target)


cdef extern from "lattio.h" nogil:
    int lattio_verify(MPI_Comm comm, const char *path, lattio_verify_report *rep, lattio_layout *gl,
                      double **glocal)
    int lattio_convert(MPI_Comm comm, const char *inp, const char *out, const lattio_convert_options *o,
                       lattio_convert_report *rep)


cdef int convert_on(void *arg, const char *inp, const char *out, const lattio_convert_options *o,
                    lattio_convert_report *rep) noexcept nogil:
    return lattio_convert((<MPI_Comm *>arg)[0], inp, out, o, rep)


def convert(comm, src, dst, dict opts):
    """Collective: lattio_convert as its report's dict (complete on rank 0)."""
    cdef MPI_Comm c = as_comm(comm)
    return run_convert(convert_on, &c, src, dst, opts)


def verify(comm, path):
    """Collective: lattio_verify of any file (HDF5 included) as its
    report's dict (complete on rank 0)."""
    cdef MPI_Comm c = as_comm(comm)
    cdef bytes p = fspath(path)
    cdef const char *cp = p
    cdef lattio_verify_report *rep = new_report()
    with nogil:
        lattio_verify(c, cp, rep, NULL, NULL)
    return report_dict(rep, path)
