"""load, save, info, verify, memmap: lattice files as NumPy arrays.

Arrays are in array-axis order (T, Z, Y, X, ...): x fastest, as every
format in the community stores sites.  A gauge field is
``(T, Z, Y, X, 4, 3, 3)`` complex, links ``mu = x, y, z, t`` (ILDG order),
3x3 matrices row-major.  All conversion and checksumming happens in the C
library, in the NumPy buffer, with the GIL released.
"""
from __future__ import annotations

import os
import re
import sys
from typing import TYPE_CHECKING, Any, Dict, List, NamedTuple, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._grid import agree, blocks, box, grid_of, same_everywhere
from .errors import ChecksumError, FormatError, MPIError, from_status

if TYPE_CHECKING:
    from mpi4py import MPI

__all__ = ["load", "load_fields", "save", "info", "verify", "memmap", "format_of", "FORMATS", "SUFFIXES", "FIELD_TYPES"]

#: A path to a file (HDF5 also ``"FILE:/object"``).
PathLike = Union[str, "os.PathLike[str]"]

FORMATS = ("ildg", "scidac", "nersc", "milc", "openqcd", "hdf5", "hirep")
#: The library's field types (src/field/types.c): name -> stem (QIO's
#: datatype USQCD_<F|D><Nc>_<stem>), kinds (S spin, C colour axes), complex,
#: axes (the datum's axis names, the ones lattio.open and xarray give).
FIELD_TYPES: Dict[str, Dict[str, Any]] = {t["name"]: t for t in _core.field_types()}
_MAX_COLORS = 16  # LATTIO_GAUGE_MAX_COLORS
_SU3_ONLY = ("milc", "openqcd")  # formats that hold SU(3) gauge fields only


def _is_gauge(array) -> bool:
    """An SU(N) gauge field's shape: (T, Z, Y, X, 4, N, N), N = 2 .. 16."""
    return array.ndim == 7 and array.shape[4] == 4 and array.shape[5] == array.shape[6] \
        and 2 <= array.shape[5] <= _MAX_COLORS
_META_KEYS = {"lfn", "file_xml", "record_xml", "date", "label", "datatype", "nersc_rows", "little_endian"}
_UNITARITY_TOL = 1e-5  # LATTIO_GAUGE_UNITARITY_TOL


# --- helpers ---------------------------------------------------------------

def _path(path, what="path"):
    try:
        return os.fsdecode(os.fspath(path))  # bytes paths as the file system names them
    except TypeError:
        raise TypeError("%s must be a str or os.PathLike, not %s" % (what, type(path).__name__)) from None


def _h5_split(target):
    """(file, object path or None) of an HDF5 target, by the library's rule:
    a target naming an existing file whole is that file; else FILE:/PATH."""
    if os.path.exists(target) or ":/" not in target:
        return target, None
    i = target.rindex(":/")
    return target[:i], target[i + 1:]


#: The format a path's suffix names (save's default); any other suffix: ILDG.
SUFFIXES = {".ildg": "ildg", ".lime": "ildg", ".scidac": "scidac", ".nersc": "nersc", ".milc": "milc",
            ".openqcd": "openqcd", ".oqcd": "openqcd", ".h5": "hdf5", ".hdf5": "hdf5", ".hirep": "hirep"}


def format_of(path: PathLike) -> str:
    """The format :func:`save` writes to ``path`` when not told: from the
    suffix of the file (of FILE in ``FILE:/object``), by :data:`SUFFIXES`;
    ``"ildg"`` for any other suffix."""
    target = _path(path)
    file = _h5_split(target)[0]
    return SUFFIXES.get(os.path.splitext(file)[1].lower(), "ildg")


def _comm(comm):
    """comm, checked: None or an mpi4py communicator (mpi4py is imported
    by whoever made one, so it is looked up, never imported, here)."""
    if comm is None:
        return None
    mpi = sys.modules.get("mpi4py.MPI")
    if mpi is None or not isinstance(comm, mpi.Comm):
        raise TypeError("comm must be an mpi4py communicator, not %s" % type(comm).__name__)
    _parallel()
    if not mpi.Is_initialized() or mpi.Is_finalized():  # before any call on comm, which would abort
        raise MPIError(-400, "ERR_MPI", "MPI call failed", "MPI is %s: a communicator needs MPI initialised "
                       "(mpi4py.rc.initialize = False? call MPI.Init())" % (
                           "finalized" if mpi.Is_finalized() else "not initialised"))
    return comm


def _initialised():
    """The MPI module when this process has initialised MPI already (then
    calls without a communicator run on MPI_COMM_SELF with the library's
    tuned strategies: a helper thread converts while another writes), else
    None: the serial module, which loads no MPI."""
    mpi = sys.modules.get("mpi4py.MPI")
    if mpi is None or not mpi.Is_initialized() or mpi.Is_finalized():
        return None
    try:
        from . import _lattio
    except ImportError:
        return None
    return _lattio


def _parallel():
    """The MPI extension module (lattio._lattio), for communicators and HDF5.
    Importing it loads the MPI library; mpi4py.MPI is imported too, which
    initialises MPI unless the program did."""
    try:
        from . import _lattio
    except ImportError as e:
        raise MPIError(-404, "ERR_UNSUPPORTED_MPI", "operation not supported",
                       "this lattio was built without MPI (%s): communicators and HDF5 need the MPI "
                       "build (pip install '.[mpi]' on a machine with MPI, docs/python.md)" % e) from None
    try:
        import mpi4py.MPI  # noqa: F401  (MPI_Init unless initialised)
    except ImportError:
        raise MPIError(-404, "ERR_UNSUPPORTED_MPI", "operation not supported",
                       "mpi4py is not installed: communicators and HDF5 need it (pip install 'lattio[mpi]')") from None
    return _lattio


def _on_root(comm, fn):
    """fn() on rank 0 of comm (every process when comm is None); its result
    or its exception on every rank."""
    if comm is None or comm.Get_size() == 1:
        return fn()
    result, error = None, None
    if comm.Get_rank() == 0:
        try:
            result = fn()
        except Exception as e:  # shared with the other ranks, raised everywhere
            error = e
    result, error = comm.bcast((result, error), root=0)
    if error is not None:
        raise error
    return result


def _complex_dtype(dtype, precision, what):
    if dtype is None:
        return np.dtype(np.complex64 if precision == 32 else np.complex128)
    dt = np.dtype(dtype)
    if dt not in (np.dtype(np.complex64), np.dtype(np.complex128)):
        raise ValueError("%s: dtype must be complex64 or complex128, not %s" % (what, dt))
    return dt


def _real_dtype(dtype, precision):
    if dtype is None:
        return np.dtype(np.float32 if precision == 32 else np.float64)
    dt = np.dtype(dtype)
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise ValueError("load: a real field's dtype must be float32 or float64, not %s" % dt)
    return dt


def _agreed(comm, fn):
    """fn() on every rank; when it raises on any rank, every rank raises
    (the first failing rank's exception), so no rank is left waiting."""
    result, err = None, None
    try:
        result = fn()
    except Exception as e:
        err = e
    agree(comm, err)
    return result


def _site_of(fi):
    """(site shape, complex?) of a LIME field, as the C library's
    lattio_field_site_of gives it from the SciDAC metadata: a gauge field's
    (4, 3, 3); a field of the field-type table its datum's axes (spin before
    colour, sink before source), after an array axis when datacount > 1;
    others by their reals per datum."""
    if fi["site"] is None:
        raise FormatError(-4, "ERR_UNSUPPORTED", "operation not supported",
                          "field %d holds %s data, not 32/64-bit reals" % (fi["index"], fi["precision_code"]))
    return tuple(fi["site"]), fi["complex"]


def _pick_field(fields, index, what):
    if not fields:
        raise FormatError(-5, "ERR_NOT_FOUND", "no record of the requested type", "no lattice field", what)
    if index is None:
        lattice = [f for f in fields if f["recordtype"] == 0] or fields
        gauge = [f for f in lattice if f["kind"] in (_core.FIELD_ILDG_GAUGE, _core.FIELD_SU3_GAUGE)]
        return gauge[0] if gauge else lattice[0]
    if not isinstance(index, (int, np.integer)) or not 0 <= index < len(fields):
        raise ValueError("index %r: the file has %d field(s)" % (index, len(fields)))
    f = fields[int(index)]
    if f["recordtype"] != 0:
        raise ValueError("index %d: %s, not a lattice field (SciDAC recordtype %d)"
                         % (index, "global data" if f["recordtype"] == 1 else "a subset of the lattice",
                            f["recordtype"]))
    return f


def _value_code(precision, cplx):
    """The NumPy type code of one stored value: "c8", "c16", "f4", "f8"."""
    return ("c%d" if cplx else "f%d") % ((precision // 8) * (2 if cplx else 1))


def _numbered_records(path):
    """A LIME file's records, each with its 1-based `number` in the file
    (the one numbering of info(), memmap(), lattio.open and the command)."""
    recs = _core.lime_records(path)
    for n, r in enumerate(recs, 1):
        r["number"] = n
    return recs


def _lime_format(recs):
    """ildg, scidac, or lime (neither's records) by a LIME file's records."""
    types = {r["type"] for r in recs}
    return ("ildg" if "ildg-format" in types else
            "scidac" if types & {"scidac-binary-data", "scidac-private-file-xml"} else "lime")


def _block(comm, grid, extents):
    """(global, lo, count) of this rank's block (the whole lattice without comm)."""
    extents = tuple(int(e) for e in extents)
    if comm is None:
        return extents, (0,) * len(extents), extents
    dims, coords = grid_of(comm, len(extents), grid)
    lo, count = box(extents, dims, coords)
    return extents, lo, count


# --- load ------------------------------------------------------------------

def load(path: PathLike, *, comm: Optional["MPI.Comm"] = None, grid: Optional[Sequence[int]] = None, verify: bool = True,
         dtype: Optional[npt.DTypeLike] = None, index: Optional[int] = None) -> np.ndarray:
    """Read a lattice field into a NumPy array.

    Parameters
    ----------
    path : str or os.PathLike
        An ILDG, SciDAC, NERSC, MILC or openQCD file (format found from its
        content), a QIO multifile or partfile volume set by its base name
        (``BASE`` for ``BASE.vol0000``, ... or ``DIR/vol0000/NAME``: every
        volume checked, the checksum over all of them; with ``comm`` the
        ranks share the volumes), or an HDF5 file in the QDP++ or Qlua layout (``FILE`` or
        ``FILE:/path/in/file``; ``FILE`` alone reads its one gauge field, or
        its one field, and raises ``ValueError`` naming them when there are
        several).
    comm : mpi4py.MPI.Comm, optional
        Read in parallel: each rank gets its own block.  A Cartesian
        communicator's dimensions are the grid, in array-axis order
        (t, z, y, x); with a plain one, ``grid`` (default: a balanced grid,
        ``MPI.Compute_dims``).  Blocks follow the library's split rule (see
        :func:`lattio.local_box`).  Collective: every rank raises the same
        exception when anything fails on any rank.
    grid : sequence of int, optional
        (pt, pz, py, px) for a plain communicator.
    verify : bool
        Compare the stored checksum (SciDAC, NERSC, MILC, HDF5 suma/sumb or
        .sha256) and a header's plaquette / link trace (NERSC, openQCD);
        failures raise :class:`lattio.ChecksumError`.
    dtype : numpy dtype, optional
        complex64 or complex128 (float32/float64 for real fields); default:
        the file's precision.
    index : int, optional
        Which field of a LIME file (0-based among its binary records);
        default: the first gauge field, else the first field.

    Returns
    -------
    numpy.ndarray
        A gauge field: ``(T, Z, Y, X, 4, 3, 3)``, links in ILDG order
        (mu = x, y, z, t).  Other SciDAC fields: ``(T, Z, Y, X) + site``
        where the site shape follows the datatype (ColorMatrix: (3, 3);
        datacount > 1 adds a leading axis; other types: complex or real
        components).  Native byte order.  With ``comm``: this rank's block.

    Raises
    ------
    ChecksumError, FormatError, LattioIOError, MPIError, HDF5Error
        (subclasses of :class:`lattio.LattioError`), ``ValueError`` /
        ``TypeError`` for bad arguments.
    """
    path = _path(path)
    comm = _comm(comm)
    same_everywhere(comm, [("path", path), ("verify", verify), ("dtype", dtype), ("index", index),
                           ("grid", None if grid is None else tuple(grid))])
    if _on_root(comm, lambda: _core.volumes_probe(path)):
        return _load_lime(path, comm, grid, verify, dtype, index, volumes=True)
    fmt = _on_root(comm, lambda: _core.detect(_h5_split(path)[0]))
    if fmt == "hdf5":
        return _load_h5(path, comm, grid, verify, dtype)
    if fmt in ("ildg", "scidac"):
        return _load_lime(path, comm, grid, verify, dtype, index)
    if index not in (None, 0):
        raise ValueError("index: a %s file holds one field" % fmt)
    return _load_plain(path, comm, grid, verify, dtype)


def load_fields(path: PathLike, *, comm: Optional["MPI.Comm"] = None, grid: Optional[Sequence[int]] = None,
                verify: bool = True, dtype: Optional[npt.DTypeLike] = None) -> List[np.ndarray]:
    """Read every field of a file: a multi-field file as a list of arrays.

    A SciDAC/QIO multi-record file (an eigenvector set, the sources of a
    propagator) or volume set gives one array per lattice field, in file
    order (each checked against its own checksum; global data and subset
    records are left out); an HDF5 ``FILE`` every lattice field
    in it, ``FILE:/path`` the field at ``path`` or every field under the
    group ``path`` (:func:`save`'s ``path/field0``, ``path/field1``, ...),
    in name order with numbers compared as numbers; a single-field format a
    list of one.  ``comm``, ``grid``, ``verify`` and ``dtype`` are
    :func:`load`'s, applied to each field; collective with ``comm``.

    Raises
    ------
    The exceptions of :func:`load`; ``HDF5Error`` (ERR_HDF5_NOT_FOUND) when
    ``path`` holds no lattice field.
    """
    path = _path(path)
    comm = _comm(comm)
    same_everywhere(comm, [("path", path), ("verify", verify), ("dtype", dtype),
                           ("grid", None if grid is None else tuple(grid))])
    if _on_root(comm, lambda: _core.volumes_probe(path)):
        fields = _on_root(comm, lambda: _core.volumes_fields(path))
        return [_load_lime(path, comm, grid, verify, dtype, f["index"], volumes=True)
                for f in fields if f["recordtype"] == 0]
    fmt = _on_root(comm, lambda: _core.detect(_h5_split(path)[0]))
    if fmt == "hdf5":
        file, obj = _h5_split(path)
        entries = _h5_group(_parallel().h5_list(comm, file), obj, path)
        return [_load_h5("%s:%s" % (file, e["path"]), comm, grid, verify, dtype) for e in entries]
    if fmt in ("ildg", "scidac"):
        fields = _on_root(comm, lambda: _core.lime_fields(path))
        return [_load_lime(path, comm, grid, verify, dtype, f["index"]) for f in fields if f["recordtype"] == 0]
    return [_load_plain(path, comm, grid, verify, dtype)]


def _h5_group(entries, obj, what):
    """The fields at obj or under the group obj (all when obj is None), in
    natural name order; none is ERR_HDF5_NOT_FOUND."""
    def key(e):
        return [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", e["path"])]
    base = None if obj is None else "/" + obj.strip("/")
    picked = [e for e in entries if base is None or base == "/" or e["path"] == base
              or e["path"].startswith(base + "/")]
    if not picked:
        raise from_status(-702, "ERR_HDF5_NOT_FOUND", "no such object in the HDF5 file",
                          "no lattice field %s" % ("in the file" if obj is None else "at or under " + obj), what)
    return sorted(picked, key=key)


def _load_lime(path, comm, grid, verify, dtype, index, volumes=False):
    """A field of a LIME file, or of a QIO volume set (``volumes``)."""
    fields = _on_root(comm, lambda: (_core.volumes_fields if volumes else _core.lime_fields)(path))

    def setup():
        fi = _pick_field(fields, index, path)
        site, cplx = _site_of(fi)
        dt = _complex_dtype(dtype, fi["precision"], "load") if cplx else _real_dtype(dtype, fi["precision"])
        glob, lo, count = _block(comm, grid, fi["dims"][::-1])
        return fi, dt, glob, lo, count, np.empty(count + site, dtype=dt)

    fi, dt, glob, lo, count, out = _agreed(comm, setup)
    mem = _core.REAL_F32 if dt in (np.dtype(np.complex64), np.dtype(np.float32)) else _core.REAL_F64
    par = _parallel() if comm is not None else _initialised()
    if par is None:
        (_core.volumes_read if volumes else _core.field_read)(path, fi["index"], mem, out, verify)
        return out
    elements = fi["typesize"] * fi["datacount"] // (fi["precision"] // 8)
    read = par.volumes_read if volumes else par.field_read
    read(comm, path, fi["index"], fi["kind"], mem, elements, glob, lo, count, out, verify)
    return out


def _load_plain(path, comm, grid, verify, dtype):
    """NERSC, MILC, openQCD: rank 0 reads the file (these formats have no
    parallel layout worth addressing) and sends each rank its block."""
    def read():
        rc, g, u = _core.gauge_read(path)
        if verify:
            _check_plain(path, rc, g, u)
        return g, u

    if comm is None or comm.Get_size() == 1:
        g, u = read()
        dt = _complex_dtype(dtype, g["precision"], "load")
        return u if dt == u.dtype else u.astype(dt)
    g, u, err = None, None, None
    if comm.Get_rank() == 0:
        try:
            g, u = read()
        except Exception as e:  # raised on every rank below
            err = e
    err, g = comm.bcast((err, g), root=0)
    if err is not None:
        raise err
    site = (4, g["colors"], g["colors"])

    def setup():
        dims, coords = grid_of(comm, 4, grid)
        return _complex_dtype(dtype, g["precision"], "load"), dims, coords

    dt, dims, coords = _agreed(comm, setup)
    extents = g["dims"][::-1]
    if comm.Get_rank() == 0:
        for r, _lo, _cnt, sl in blocks(comm, dims, extents):
            blk = np.ascontiguousarray(u[sl], dtype=dt)
            if r == 0:
                mine = blk
            else:
                comm.Send(blk, dest=r, tag=77)
        return mine
    _lo, cnt = box(extents, dims, coords)
    mine = np.empty(cnt + site, dtype=dt)
    comm.Recv(mine, source=0, tag=77)
    return mine


def _check_plain(path, rc, g, u, stats=None):
    """A NERSC/MILC checksum, a header's plaquette and link trace (stats:
    the field's (plaquette, link trace, unitarity) when already computed)."""
    if rc == _core.ERR_CHECKSUM:
        raise from_status(rc, "ERR_CHECKSUM", "checksum mismatch",
                          "%s checksum stored %s, computed %s" % (
                              g["format"], " ".join("%08x" % s for s in g["stored"]),
                              " ".join("%08x" % s for s in g["computed"])), path)
    if g["header_plaquette"] is not None or g["header_link_trace"] is not None:
        plaq, trace, _ = stats if stats is not None else _core.gauge_stats(u)
        st = _core.gauge_check_header(g, plaq, trace)
        if st != 0:
            raise from_status(st, "ERR_PLAQUETTE", "plaquette differs from the header's value",
                              "header plaquette %r link trace %r, computed %.12f %.12f" % (
                                  g["header_plaquette"], g["header_link_trace"], plaq, trace), path)


def _h5_entry(entries, obj, what):
    if obj is not None:
        for e in entries:
            if e["path"] == obj:
                return e
        raise from_status(-702, "ERR_HDF5_NOT_FOUND", "no such object in the HDF5 file", obj, what)
    if not entries:
        raise from_status(-702, "ERR_HDF5_NOT_FOUND", "no such object in the HDF5 file",
                          "no lattice field in the file", what)
    gauge = [e for e in entries if e["gauge"]]
    pick = gauge if gauge else entries
    if len(pick) > 1:  # not a guess: say which there are
        raise ValueError("%s holds %d %s (%s): name one as FILE:/path (lattio.open lists them)" % (
            what, len(pick), "gauge fields" if gauge else "lattice fields", ", ".join(e["path"] for e in pick)))
    return pick[0]


def _h5_fields(comm, file, obj):
    """The fields a reader of FILE (obj None) or of FILE:obj (soft links
    inside the file followed, the library's rule) sees."""
    par = _parallel()
    return par.h5_list(comm, file) if obj is None else [par.h5_find(comm, "%s:%s" % (file, obj))]


def _load_h5(path, comm, grid, verify, dtype):
    file, obj = _h5_split(path)
    entries = _h5_fields(comm, file, obj)
    obj = None  # the entry found is the object asked for (its hard path)

    def setup():
        e = _h5_entry(entries, obj, path)
        n = e["elements"]
        site, cplx = _h5_site(e, dtype is None or np.dtype(dtype).kind == "c")
        dt = _complex_dtype(dtype, e["precision"], "load") if cplx else _real_dtype(dtype, e["precision"])
        glob, lo, count = _block(comm, grid, e["dims"][::-1])
        return e, n, dt, glob, lo, count, np.empty(count + site, dtype=dt)

    e, n, dt, glob, lo, count, out = _agreed(comm, setup)
    mem = _core.REAL_F32 if dt in (np.dtype(np.complex64), np.dtype(np.float32)) else _core.REAL_F64
    _state, meta = _parallel().h5_read(comm, "%s:%s" % (file, e["path"]), mem, n, glob, lo, count, out, verify)
    site = _typed_site(meta, n, out.dtype.kind == "c") if meta and not e["gauge"] else None
    return out.reshape(out.shape[:4] + site) if site is not None else out


def _h5_site(e, complex_ok=True):
    """(site shape, complex?) of an HDF5 field by its reals per site: a
    gauge field's (4, 3, 3); an even count as complex numbers (unless
    complex_ok is False), else reals."""
    n = e["elements"]
    if e["gauge"]:
        n = e.get("colors") or 3
        return (4, n, n), True
    if n % 2 == 0 and complex_ok:
        return ((n // 2,) if n > 2 else ()), True
    return ((n,) if n > 1 else ()), False


def _type_datum(meta):
    """(datum shape, complex?) of a field whose metadata (datatype, colors,
    spins, precision: a LIME field's description or an HDF5 field's SciDAC
    attributes) name a type of the table; None for any other."""
    name = _core.field_type_of(meta.get("datatype") or "")
    if name is None or meta.get("precision") not in (32, 64):
        return None
    kinds = FIELD_TYPES[name]["kinds"]
    shape, _, _ = _core.field_type_datum(name, meta.get("colors", 0) if "C" in kinds else 0,
                                         meta.get("spins", 0) if "S" in kinds else 0, meta["precision"])
    return tuple(shape), FIELD_TYPES[name]["complex"]


def _typed_site(meta, reals, cplx):
    """The site shape of `reals` reals per site that the metadata's type
    gives (after an array axis when they hold several datums); None when
    the metadata name no type of the table or the reals do not fit it."""
    t = _type_datum(meta)
    if t is None or t[1] != cplx:
        return None
    per = int(np.prod(t[0], dtype=np.int64)) * (2 if cplx else 1)
    dc = reals // per if per and reals % per == 0 else 0
    if dc < 1:
        return None
    return ((dc,) if dc > 1 else ()) + t[0]


# --- save ------------------------------------------------------------------

def _check_array(array, fmt, parallel=False):
    if not isinstance(array, np.ndarray):
        raise TypeError("array must be a numpy.ndarray, not %s" % type(array).__name__)
    if not array.flags.c_contiguous:
        raise ValueError("array is not C-contiguous (use numpy.ascontiguousarray)")
    if not array.dtype.isnative:
        raise ValueError("array must be in native byte order, not %s" % array.dtype)
    gauge = _is_gauge(array)
    if fmt in ("ildg", "nersc", "milc", "openqcd", "hirep") and not gauge:
        raise ValueError("%s stores gauge fields: array shape must be (T, Z, Y, X, 4, N, N), not %r"
                         % (fmt, array.shape))
    if gauge and array.shape[5] != 3 and fmt in _SU3_ONLY:
        raise ValueError("%s stores SU(3) gauge fields, not SU(%d) (ILDG, SciDAC, NERSC, HiRep and HDF5 hold any N)"
                         % (fmt, array.shape[5]))
    if array.ndim < 4:
        raise ValueError("array shape %r: a 4-D lattice (T, Z, Y, X, ...) is needed" % (array.shape,))
    kinds = (np.complex64, np.complex128) if gauge else (np.complex64, np.complex128, np.float32, np.float64)
    if array.dtype not in [np.dtype(k) for k in kinds]:
        raise ValueError("array dtype %s: %s needed" % (array.dtype, " or ".join(np.dtype(k).name for k in kinds)))
    # with a communicator a rank's block may be empty (more ranks than sites
    # along a dimension: load returns such blocks); its site never is
    if any(n == 0 for n in array.shape[4:]) or (array.size == 0 and not parallel):
        raise ValueError("array shape %r is empty" % (array.shape,))
    return gauge


def _global_shape(comm, grid, local_shape):
    """The whole lattice from the ranks' blocks (collective); each block must
    be the one the split rule gives its rank."""
    nd = 4
    mine, err = None, None
    try:
        dims, coords = grid_of(comm, nd, grid)
        mine = (coords, tuple(local_shape[:nd]), tuple(local_shape[nd:]))
    except Exception as e:
        err = e
    shared = comm.allgather((mine, err))
    errs = [e for _, e in shared if e is not None]
    if errs:
        raise errs[0]
    blocks = [b for b, _ in shared]
    if len({b[0] for b in blocks}) != len(blocks):
        raise ValueError("two ranks have the same grid coordinates")
    glob = []
    for d in range(nd):
        ext = {}
        for c, s, _ in blocks:
            ext[c[d]] = s[d]
        if sorted(ext) != list(range(dims[d])):
            raise ValueError("the ranks' blocks do not cover grid dimension %d" % d)
        glob.append(sum(ext.values()))
        if glob[-1] == 0:
            raise ValueError("the ranks' blocks hold no site along dimension %d" % d)
    if len({b[2] for b in blocks}) != 1:
        raise ValueError("the ranks' arrays have different site shapes")
    for c, s, _ in blocks:
        lo, cnt = box(glob, dims, c)
        if tuple(cnt) != s:
            raise ValueError("block %r at grid coordinates %r is not the split rule's %r of lattice %r"
                             % (s, c, cnt, tuple(glob)))
    lo, cnt = box(glob, dims, coords)
    return tuple(glob), lo, cnt


def save(path: PathLike, array: Union[np.ndarray, Sequence[np.ndarray]], *, format: Optional[str] = None, precision: Optional[int] = None,
         metadata: Optional[Dict[str, Any]] = None, verify: bool = True, comm: Optional["MPI.Comm"] = None,
         grid: Optional[Sequence[int]] = None, layout: str = "qdp", append: bool = False,
         field: Optional[str] = None, volumes: Optional[str] = None) -> None:
    """Write a lattice field, crash-safe, with the community's records and checksums.

    Parameters
    ----------
    path : str or os.PathLike
        The file (HDF5: ``FILE`` or ``FILE:/path/in/file``).  It is written
        under a temporary name and renamed when complete and verified, so a
        failure leaves a previous file untouched.
    array : numpy.ndarray, or a list or tuple of them
        C-contiguous, any byte order (converted).  Gauge fields ``(T, Z, Y, X, 4, 3,
        3)`` complex64/complex128 (ILDG link order); SciDAC and HDF5 also take
        any ``(T, Z, Y, X) + site`` complex or real array.  With ``comm``:
        this rank's block, as :func:`lattio.local_box` gives it.  A list
        (an eigenvector set, a multi-source propagator) of arrays of one
        shape and dtype is a multi-field file, written in one pass: SciDAC,
        QIO's multi-record file (each field its own record set and
        checksum; :func:`load_fields` or ``load(..., index=i)`` reads
        them); HDF5, one dataset per field, ``PATH/field0``,
        ``PATH/field1``, ...

    How it is stored:

    format : str, optional
        ``ildg``, ``scidac``, ``nersc``, ``milc``, ``openqcd`` or ``hdf5``;
        default: from the path's suffix (:func:`format_of`), ILDG for any other.
    precision : 32 or 64, optional
        Stored precision; default: the array's (openQCD: always 64, MILC:
        always 32).
    metadata : dict, optional
        ``lfn`` (ildg-data-lfn), ``file_xml`` and ``record_xml`` (SciDAC user
        XML, verbatim), ``date``, ``label`` (NERSC ensemble label, MILC time
        stamp), ``datatype`` (SciDAC/HDF5 datatype of a non-gauge field),
        ``nersc_rows`` (2 or 3), ``little_endian`` (NERSC, MILC).
    verify : bool
        ILDG, SciDAC, HDF5: re-read the data before the rename and compare
        its checksum with the one written (a mismatch is rewritten once,
        then :class:`lattio.ChecksumError`, ERR_VERIFY).

    Where it comes from (parallel saves):

    comm, grid :
        As for :func:`lattio.load`; collective.  NERSC, MILC and openQCD
        files are gathered to rank 0 and written there.

    volumes : str, optional
        ILDG and SciDAC: write a QIO volume set named ``path``
        (``path.vol0000``, ...; format.md 5.5) instead of one file:
        ``"multi"`` (with ``comm``: a volume per rank), ``"part"`` (a volume
        per node; ``"partdir"``: each in ``volKKKK/``).  Without ``comm``,
        ``grid`` (nodes per dimension, (pt, pz, py, px)) says how the
        lattice is cut, a volume per node.  :func:`load` reads the set.

    HDF5 only:

    layout : str
        HDF5: ``qdp`` (QDP++/Chroma) or ``qlua``.
    append : bool
        HDF5: add the field to an existing file (the object must not exist).

    What the field is (SciDAC and HDF5):

    field : str, optional
        A type of the library's field-type table (:data:`lattio.FIELD_TYPES`:
        ``colormatrix``, ``colorvector``, ``fermion``, ``propagator``,
        ``staggered_propagator``, ``complex``, ``real``): the array's site is
        one datum of it (its axes, e.g. ``(spin, spin, colour, colour)`` for a
        propagator) or an array of them (a leading axis: datacount), and the
        file gets QIO's datatype (``USQCD_D3_DiracPropagator``), colors,
        spins, typesize and datacount.  Default: the type of
        ``metadata["datatype"]`` when it is one of the table's, else
        ``propagator`` for a ``(..., 4, 4, N, N)`` complex array, else an
        untyped field.  A site that does not fit its type is refused
        (ERR_FIELD_TYPESIZE).

    The ILDG and SciDAC record sets are the ones ``lattio convert`` writes
    (scidac-checksum included).
    """
    comm = _comm(comm)
    if format is None and isinstance(path, (str, bytes, os.PathLike)):
        format = format_of(path)
    many = isinstance(array, (list, tuple))
    arrays = [_native(a) for a in (array if many else [array])]
    first = arrays[0] if arrays else None
    same_everywhere(comm, [("path", path), ("format", format), ("precision", precision),
                           ("fields", len(arrays) if many else None),
                           ("dtype", getattr(first, "dtype", None)), ("site shape", getattr(first, "shape", ())[4:]),
                           ("metadata", sorted((metadata or {}).items())), ("layout", layout), ("append", append),
                           ("verify", verify), ("grid", None if grid is None else tuple(grid)), ("field", field),
                           ("volumes", volumes)])
    if volumes is not None and (volumes not in _VOLFMT or format not in ("ildg", "scidac")):
        raise ValueError("volumes=%r: 'multi', 'part' or 'partdir' of an ILDG or SciDAC save, not %s"
                         % (volumes, format))
    if volumes is not None and comm is None and (grid is None or len(grid) != 4):
        raise ValueError("volumes= without comm needs grid=(pt, pz, py, px): how the lattice is cut into volumes")
    path, gauge, how = _agreed(
        comm, lambda: _save_args(path, arrays if many else first, format, precision, metadata,
                                 (layout, append, verify, field), comm is not None))
    where = _placement(comm, grid, first)
    if format == "openqcd" and any(n % 2 for n in where.glob):
        raise ValueError("openQCD needs even extents, not %r" % (where.glob,))
    if format in ("nersc", "milc", "openqcd", "hirep"):
        return _save_plain(path, first, how, where)
    if volumes is not None:
        return _save_volumes(path, arrays, gauge, how, where, volumes)
    return _save_field(path, arrays, gauge, how, where)


def _native(array):
    """A native-byte-order view or copy of an array (anything else as it is,
    for _check_array to refuse)."""
    if isinstance(array, np.ndarray) and not array.dtype.isnative:
        return array.astype(array.dtype.newbyteorder("="))
    return array


class _Storage(NamedTuple):
    """How save stores a field: the format and precision, its metadata, and
    HDF5's layout and append; verify: re-read before the rename."""
    format: str
    precision: int
    meta: dict
    layout: str
    append: bool
    verify: bool
    typed: Optional[tuple] = None  # (datacount, colors, spins, datatype) of a field of the type table


class _Placement(NamedTuple):
    """Where this rank's block sits: comm (None: a serial save) and grid, the
    lattice's extents glob (T, Z, Y, X), the block's start lo and extent."""
    comm: object
    grid: object
    glob: tuple
    lo: tuple
    extent: tuple


def _placement(comm, grid, array):
    if comm is None:
        glob = tuple(array.shape[:4])
        return _Placement(None, grid, glob, (0, 0, 0, 0), glob)
    return _Placement(comm, grid, *_global_shape(comm, grid, array.shape))


_VOLFMT = {"multi": 1, "part": 2, "partdir": 3}


def _save_volumes(path, arrays, gauge, how, where, volumes):
    """A QIO volume set: in parallel, a volume per rank or node; serially,
    the single file written beside the set and split by the node grid."""
    if where.comm is not None:
        args = _field_args(arrays[0], gauge, how)
        _parallel().volumes_write(where.comm, path, _VOLFMT[volumes], *args, where.glob, where.lo, where.extent,
                                  arrays, bool(how.verify))
        return
    single = path + ".lattio-single"
    try:
        _save_field(single, arrays, gauge, how, where)
        _core.volumes_split(single, path, _VOLFMT[volumes], [int(g) for g in where.grid][::-1])
    finally:
        if os.path.exists(single):
            os.remove(single)


def _field_args(array, gauge, how):
    """kind, memory and disk formats, reals per site, datacount, colors,
    spins and metadata of a field save writes."""
    single = array.dtype in (np.dtype(np.complex64), np.dtype(np.float32))
    site = array.shape[4:]
    cplx = array.dtype.kind == "c"
    elements = int(np.prod(site, dtype=np.int64)) * (2 if cplx else 1)
    mem = _core.REAL_F32 if single else _core.REAL_F64
    disk = _core.REAL_F32_BE if how.precision == 32 else _core.REAL_F64_BE
    meta = dict(how.meta)
    if gauge:
        kind = _core.FIELD_ILDG_GAUGE if how.format in ("ildg", "hdf5") else _core.FIELD_SU3_GAUGE
        datacount, colors, spins = 4, int(site[1]), 0
    else:
        kind, colors, spins = _core.FIELD_GENERIC, 0, 0
        datacount = int(site[0]) if len(site) >= 2 else 1
        if how.typed is not None:
            datacount, colors, spins, datatype = how.typed
            meta.setdefault("datatype", datatype)
        if "datatype" not in meta:
            meta["datatype"] = "lattio_%s_%s" % ("F" if how.precision == 32 else "D", "complex" if cplx else "real")
    return kind, mem, disk, elements, datacount, colors, spins, meta


def _save_field(path, arrays, gauge, how, where):
    """ILDG, SciDAC and HDF5: the fields' descriptor, then the collective
    write of every rank's block of each by the C library."""
    kind, mem, disk, elements, datacount, colors, spins, meta = _field_args(arrays[0], gauge, how)
    if how.format == "hdf5":
        _parallel().h5_write(where.comm, path, kind, mem, disk, elements, datacount, meta, how.layout,
                             bool(how.append), where.glob, where.lo, where.extent, arrays, bool(how.verify),
                             colors if gauge else 0)
    elif where.comm is None and _initialised() is None:
        _core.field_write(path, kind, mem, disk, elements, datacount, colors, spins, meta, where.glob, arrays,
                          bool(how.verify))
    else:
        par = _parallel() if where.comm is not None else _initialised()
        par.field_write(where.comm, path, kind, mem, disk, elements, datacount, colors, spins, meta,
                        where.glob, where.lo, where.extent, arrays, bool(how.verify))


def _typed(site, cplx, field, precision):
    """(datacount, colors, spins, datatype) of a site of field type `field`:
    one datum, or datacount of them on a leading axis."""
    t = FIELD_TYPES[field]
    kinds = t["kinds"]
    for lead in (0, 1):
        datum = tuple(site[lead:])
        if len(datum) != len(kinds) or (lead and len(site) < 1):
            continue
        colors = datum[kinds.index("C")] if "C" in kinds else 0
        spins = datum[kinds.index("S")] if "S" in kinds else 0
        if all(n == (spins if k == "S" else colors) for n, k in zip(datum, kinds)) and cplx == t["complex"]:
            shape, _, datatype = _core.field_type_datum(field, colors, spins, precision)
            if shape == datum:
                return (int(site[0]) if lead else 1), colors, spins, datatype
    raise ValueError("a %s site is %s%s (%s), optionally after an array axis; not %r" % (
        field, "complex " if t["complex"] else "real ", " x ".join(t["axes"]) or "a number",
        "spins: S, colours: C = " + (kinds or "-"), tuple(site) if cplx == t["complex"] else
        ("a %s array" % ("complex" if cplx else "real"))))


def _save_args(path, array, format, precision, metadata, hdf5, parallel=False):
    """save's arguments checked, locally, before any file is touched: the
    path, whether the array is a gauge field, and the _Storage.  hdf5 is
    (layout, append, verify, field)."""
    layout, append, verify, field = hdf5
    path = _path(path)
    if format not in FORMATS:
        raise ValueError("format %r: one of %s" % (format, ", ".join(FORMATS)))
    if isinstance(array, list):  # several fields: one shape and dtype, in a multi-field format
        for i, a in enumerate(array):
            _check_array(a, format, parallel)
            if format not in ("scidac", "hdf5"):
                raise ValueError("a list of fields is saved as SciDAC or HDF5, not %s" % format)
            if (a.shape, a.dtype) != (array[0].shape, array[0].dtype):
                raise ValueError("field %d is %s %r, field 0 %s %r: the fields of a file share shape and dtype"
                                 % (i, a.dtype, a.shape, array[0].dtype, array[0].shape))
        if not array:
            raise ValueError("the list of fields to save is empty")
        array = array[0]
    gauge = _check_array(array, format, parallel)
    if precision not in (None, 32, 64):
        raise ValueError("precision must be 32 or 64, not %r" % (precision,))
    if format == "openqcd" and precision == 32:
        raise ValueError("openQCD files are always 64-bit")
    if format == "milc" and precision == 64:
        raise ValueError("MILC files (version 5) are always 32-bit")
    meta = _checked_metadata(metadata)
    if layout not in ("qdp", "qlua"):
        raise ValueError("layout must be 'qdp' or 'qlua', not %r" % (layout,))
    single = array.dtype in (np.dtype(np.complex64), np.dtype(np.float32))
    if precision is None:
        precision = 64 if format == "openqcd" else 32 if single or format == "milc" else 64
    if field is not None and (field not in FIELD_TYPES or gauge or format not in ("scidac", "hdf5")):
        raise ValueError("field %r: one of %s, for SciDAC and HDF5 fields that are not gauge fields"
                         % (field, ", ".join(FIELD_TYPES)))
    site, cplx = array.shape[4:], array.dtype.kind == "c"
    if field is None and not gauge and format in ("scidac", "hdf5"):
        if meta.get("datatype"):  # a datatype of the table says what the site is
            field = _core.field_type_of(meta["datatype"])
        elif cplx and len(site) == 4 and site[:2] == (4, 4) and site[2] == site[3]:
            field = "propagator"
    typed = _typed(site, cplx, field, precision) if field is not None else None  # else ValueError
    return path, gauge, _Storage(format, precision, meta, layout, append, verify, typed)


def _checked_metadata(metadata):
    meta = dict(metadata or {})
    unknown = set(meta) - _META_KEYS
    if unknown:
        raise ValueError("metadata keys %s unknown (known: %s)" % (sorted(unknown), ", ".join(sorted(_META_KEYS))))
    for key, value in meta.items():  # checked here, on every rank, not in the collective call
        if key == "nersc_rows":
            if value not in (None, 2, 3):
                raise ValueError("metadata nersc_rows must be 2 or 3, not %r" % (value,))
        elif key == "little_endian":
            if value not in (None, True, False):
                raise ValueError("metadata little_endian must be a bool, not %r" % (value,))
        elif value is not None and (not isinstance(value, (str, bytes)) or
                                    ("\0" in value if isinstance(value, str) else b"\0" in value)):
            raise ValueError("metadata %r must be text without NUL bytes" % key)
    return meta


def _save_plain(path, array, how, where):
    """NERSC, MILC, openQCD: no parallel layout; the blocks gathered to rank
    0, which writes the file (everyone learns the outcome)."""
    comm, fmt, precision, meta = where.comm, how.format, how.precision, how.meta
    if comm is None or comm.Get_size() == 1:
        _core.gauge_write(path, fmt, np.ascontiguousarray(array, dtype=np.complex128), precision, meta)
        return
    dims, coords = grid_of(comm, 4, where.grid)
    whole, err = None, None
    if comm.Get_rank() == 0:
        whole = np.empty(where.glob + array.shape[4:], dtype=np.complex128)
        for r, _lo, cnt, sl in blocks(comm, dims, where.glob):
            if r == 0:
                whole[sl] = array
            else:
                blk = np.empty(cnt + array.shape[4:], dtype=array.dtype)
                comm.Recv(blk, source=r, tag=78)
                whole[sl] = blk
        try:
            _core.gauge_write(path, fmt, whole, precision, meta)
        except Exception as e:
            err = e
    else:
        comm.Send(array, dest=0, tag=78)
    err = comm.bcast(err, root=0)
    if err is not None:
        raise err


def info(path: PathLike) -> List[Dict[str, Any]]:
    """The records of a LIME file, or the lattice fields of an HDF5 file.

    LIME: a list of dicts, one per record, in file order: ``number`` (the
    record's 1-based number in the file, as ``lattio info``, ``lattio
    verify``, :func:`memmap` and :class:`lattio.File` number records),
    ``message`` and ``record`` (its message, and its place in that message,
    from 1: LIME's own structure), ``offset`` (of
    the header), ``data_offset``, ``type``, ``length``, ``padding``, ``mb``,
    ``me``.  HDF5: one dict per lattice field: ``path``, ``layout``,
    ``gauge``, ``dims`` (x fastest), ``elements``, ``precision``,
    ``byte_order``, ``checksum``.  NERSC, MILC and openQCD: one dict:
    ``format``, ``dims`` (x fastest), ``precision``, ``checksum``,
    ``data_offset``, ``length`` and the ``header`` as a dict.  Other files
    raise :class:`lattio.FormatError`."""
    path = _path(path)
    file, _ = _h5_split(path)
    fmt = _core.detect(file) if os.path.isfile(file) else None
    if fmt == "hdf5":
        return _parallel().h5_list(None, file)
    if fmt in ("nersc", "milc", "openqcd", "hirep"):
        from .file import File
        f = File(file)
        g = f.fields[0]
        return [{"format": fmt, "dims": g.shape[:4][::-1], "precision": g.precision, "checksum": g.checksum,
                 "data_offset": g._disk["offset"], "length": os.path.getsize(file) - g._disk["offset"],
                 "header": f.metadata.get("header", {})}]
    return _numbered_records(path)


def verify(path: PathLike) -> Dict[str, Any]:
    """Verify a file: every field's checksum and a gauge field's observables.

    Returns a dict like ``lattio verify --json``: ``file``, ``format``
    (``ildg``, ``scidac``, ``lime`` for a LIME file without either's
    records, ``nersc``, ``milc``, ``openqcd``, ``hdf5``), ``ok`` (everything
    holds; False for a file with no lattice field), ``fields`` (per binary record or dataset:
    ``type``/``path``, ``offset``, ``length``, ``stored`` and ``computed``
    checksums as hex strings, ``ok``), for a gauge field ``plaquette``
    (Re tr U_p / 3), ``link_trace`` (Re tr U / 3) and ``unitarity``
    (max |U^+U - 1|), and ``problems`` / ``warnings`` in words.  A file
    that cannot be opened or has no known format raises."""
    path = _path(path)
    file, _ = _h5_split(path)
    fmt = _core.detect(file)
    rep = {"file": path, "format": fmt, "ok": True, "fields": [], "problems": [], "warnings": []}
    u, g, rc = None, None, 0
    if fmt in ("ildg", "scidac"):
        rep["format"] = _lime_format(_core.lime_records(path))
        u = _verify_lime(path, rep)
        if not rep["fields"]:
            rep["problems"].append("no lattice field: no ildg-binary-data or scidac-binary-data record "
                                   "(ERR_NOT_FOUND)")
    elif fmt == "hdf5":
        u = _verify_h5(path, rep)
    else:
        rc, g, u = _core.gauge_read(path)
        rep["fields"].append({"type": fmt, "offset": g["data_offset"], "length": g["data_length"],
                              "stored": _hex(g["stored"]) if g["has_checksum"] else None,
                              "computed": _hex(g["computed"]) if g["has_checksum"] else None,
                              "ok": rc == 0})
        if not g["has_checksum"]:
            rep["warnings"].append("no stored checksum (%s): the plaquette is the check" % fmt)
    if u is not None:
        plaq, trace, unit = _core.gauge_stats(np.ascontiguousarray(u, dtype=np.complex128))
        rep.update(plaquette=plaq, link_trace=trace, unitarity=unit)
        if g is not None:
            try:
                _check_plain(path, rc, g, u, (plaq, trace, unit))
            except ChecksumError as e:
                rep["problems"].append(str(e))
        if not unit <= _UNITARITY_TOL:
            rep["problems"].append("links not unitary: max |U^+U - 1| = %.3g (ERR_UNITARITY)" % unit)
    rep["ok"] = not rep["problems"]
    return rep


def _hex(s):
    return ["%08x" % v for v in s] if s is not None else None


def _verify_lime(path, rep):
    """Every field's checksum; the first gauge field's links come from the
    same single read (returned, None when there is none)."""
    fields = _core.lime_fields(path)
    gauge = [f for f in fields if f["kind"] in (_core.FIELD_ILDG_GAUGE, _core.FIELD_SU3_GAUGE)]
    first = gauge[0]["index"] if gauge else None
    u = None
    for fi in fields:
        rc, computed, stored, err, values = _core.field_verify(path, fi["index"], fi["index"] == first)
        rep["fields"].append({"type": fi["type"], "offset": fi["offset"], "length": fi["length"],
                              "stored": _hex(stored), "computed": _hex(computed), "ok": rc == 0 and stored is not None})
        if rc != 0:
            rep["problems"].append(str(err))
        elif stored is None:
            rep["warnings"].append("%s at offset %d: no scidac-checksum" % (fi["type"], fi["offset"]))
        if values is not None and rc in (0, _core.ERR_CHECKSUM):  # a damaged field is still measured
            u = values.view(np.complex128).reshape(tuple(fi["dims"][::-1]) + tuple(fi["site"]))
    return u


def _verify_h5(path, rep):
    file, obj = _h5_split(path)
    u = None
    entries = _h5_fields(None, file, obj)
    for e in entries:
        entry = {"path": e["path"], "layout": e["layout"], "checksum": e["checksum"], "ok": False}
        try:
            a = load("%s:%s" % (file, e["path"]), verify=True, dtype=np.complex128 if e["gauge"] else None)
            entry["ok"] = e["checksum"] != "none"
            if e["checksum"] == "none":
                rep["warnings"].append("%s: no stored checksum" % e["path"])
            if e["gauge"] and u is None:
                u = a
        except ChecksumError as err:
            rep["problems"].append(str(err))
        rep["fields"].append(entry)
    if obj is not None and not rep["fields"]:
        rep["problems"].append("no lattice field at %s (ERR_HDF5_NOT_FOUND)" % obj)
    return u


def memmap(path: PathLike, record: Union[int, str, None] = None) -> np.ndarray:
    """A read-only ``numpy.memmap`` of a LIME record's payload, zero copy.

    ``path``: a LIME file (ILDG, SciDAC, any record set; ``str`` or
    path-like).  ``record``: None (the first gauge field's binary record, else the
    first field's), an int (the record's 1-based number in the file, as
    ``lattio verify`` numbers them) or a str (the first record of that
    type).  A field's binary record gets its on-disk dtype (``'>c16'``,
    ``'>c8'``, ``'>f8'``, ``'>f4'``) and the shape :func:`lattio.load`
    gives (``(T, Z, Y, X, 4, 3, 3)`` for a gauge field); any other record
    is bytes (``uint8``).  NERSC and MILC files: their links with the
    on-disk dtype, ``(T, Z, Y, X, 4, rows, 3)`` (a two-row NERSC file keeps
    its two rows; ``lattio.open`` rebuilds the third); ``record`` must be
    None or 1.  openQCD stores links at odd sites only: use
    :func:`lattio.open`.  No checksum is verified: this is for quick looks
    at huge files (``lattio.verify`` checks them)."""
    path = _path(path)
    if _core.detect(path) in ("nersc", "milc"):
        return _memmap_plain(path, record)
    recs = _core.lime_records(path)
    fields = _core.lime_fields(path)
    if record is None:
        target = _pick_field(fields, None, path)["offset"]
    elif isinstance(record, (int, np.integer)) and not isinstance(record, bool):
        if not 1 <= record <= len(recs):
            raise ValueError("record %d: the file has %d records" % (record, len(recs)))
        target = recs[int(record) - 1]["offset"]
    elif isinstance(record, str):
        hits = [r for r in recs if r["type"] == record]
        if not hits:
            raise FormatError(-5, "ERR_NOT_FOUND", "no record of the requested type", record, path)
        target = hits[0]["offset"]
    else:
        raise TypeError("record must be None, an int or a str, not %s" % type(record).__name__)
    rec = next(r for r in recs if r["offset"] == target)
    fi = next((f for f in fields if f["offset"] == target), None)
    if fi is not None:
        site, cplx = _site_of(fi)
        shape = tuple(fi["dims"][::-1]) + site
        return np.memmap(path, dtype=np.dtype(">" + _value_code(fi["precision"], cplx)), mode="r", offset=rec["data_offset"], shape=shape)
    if rec["length"] == 0:
        return np.empty(0, dtype=np.uint8)
    return np.memmap(path, dtype=np.uint8, mode="r", offset=rec["data_offset"], shape=(rec["length"],))


def _memmap_plain(path, record):
    from .file import File
    if record not in (None, 1):
        raise ValueError("record %r: a %s file holds one field (record 1)" % (record, _core.detect(path)))
    g = File(path).fields[0]
    d = g._disk
    return np.memmap(path, dtype=d["dtype"], mode="r", offset=d["offset"], shape=g.shape[:4] + (4, d["rows"], 3))
