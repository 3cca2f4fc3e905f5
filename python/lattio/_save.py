"""lattio.save: NumPy arrays into any format, serially or collectively,
written under a temporary name and re-read before the rename.
"""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any, Dict, NamedTuple, Optional, Sequence, Union

import numpy as np

from . import _core
from ._grid import blocks, box, grid_of, same_everywhere
from ._formats import FIELD_TYPES, FORMATS, PathLike, _MAX_COLORS, _SU3_ONLY, _is_gauge, _path, format_of
from . import _mpi
from ._mpi import _agreed, _comm, _parallel

if TYPE_CHECKING:
    from mpi4py import MPI

__all__ = ["save"]


# One vocabulary for reading and saving (docs/python.md, "Metadata keys"):
# the keys lattio.open(...).metadata and Field.metadata give are the keys
# save takes.  Written: what a file carries besides its data, in the
# writer's names; the same under the reader's other names; derived: what
# the writer makes afresh from the array (dimensions, precision, checksums,
# the private and format records, observables, the parsed views of text
# that is written): accepted and not needed.
_META_KEYS = {"lfn", "file_xml", "record_xml", "date", "label", "datatype", "nersc_rows", "little_endian", "header"}
_META_SAME = {"file_text": "file_xml", "record_text": "record_xml", "lfn_text": "lfn", "scidac_date": "date",
              "scidac_datatype": "datatype", "ensemble": "label", "time_stamp": "label"}
_META_DERIVED = {"file", "record", "private_file", "private_file_text", "private_record", "private_record_text",
                 "ildg_format", "ildg_format_text", "scidac_colors", "scidac_spins", "scidac_typesize",
                 "scidac_datacount", "scidac_recordtype", "plaquette", "link_trace", "checksum", "checksum_text",
                 "layout", "attributes", "record_types",
                 # tmLQCD's description of its binary records: lattio's own records describe the field
                 "etmc_propagator_format", "etmc_propagator_format_text", "etmc_source_format",
                 "etmc_source_format_text"}
# Other writers' text records written back into LIME files, each a message
# of its own at the start of the file: the reader's key and its LIME type
# (tmLQCD's; any other writer's through the reader's ``record_types``).
_OTHER_TYPES = {"xlf_info": "xlf-info", "inverter_info": "inverter-info", "propagator_type": "propagator-type",
                "gauge_checksum_copy": "gauge-scidac-checksum-copy", "gauge_lfn_copy": "gauge-ildg-data-lfn-copy"}
# NERSC header keys lattio computes from the data (the rest of a header is written back)
_NERSC_COMPUTED = {"HDR_VERSION", "DATATYPE", "STORAGE_FORMAT", "DIMENSION_1", "DIMENSION_2", "DIMENSION_3",
                   "DIMENSION_4", "LINK_TRACE", "PLAQUETTE", "CHECKSUM", "FLOATING_POINT"}


# --- save ------------------------------------------------------------------

def _check_colors(array, gauge):
    """A gauge field's shape (T, Z, Y, X, 4, N, N) with N outside 2 .. 16
    is refused, not stored as an untyped field that reads back flattened."""
    if not gauge and array.ndim == 7 and array.shape[4] == 4 and array.shape[5] == array.shape[6] \
            and array.dtype.kind == "c":
        raise ValueError("array shape %r is an SU(%d) gauge field: lattio stores SU(N) for N = 2 .. %d (an untyped "
                         "field of this size: reshape it to (T, Z, Y, X, %d))"
                         % (array.shape, array.shape[5], _MAX_COLORS, 4 * array.shape[5] ** 2))


def _check_array(array, fmt, parallel=False):
    if not isinstance(array, np.ndarray):
        raise TypeError("array must be a numpy.ndarray, not %s" % type(array).__name__)
    if not array.flags.c_contiguous:
        raise ValueError("array is not C-contiguous (use numpy.ascontiguousarray)")
    if not array.dtype.isnative:
        raise ValueError("array must be in native byte order, not %s" % array.dtype)
    gauge = _is_gauge(array)
    _check_colors(array, gauge)
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
        What :func:`lattio.open` reads is what save writes (one vocabulary:
        ``save(q, load(p), metadata=open(p).fields[0].metadata)`` writes
        ``p``'s metadata records back): ``lfn`` (ildg-data-lfn),
        ``file_text`` and ``record_text`` (SciDAC user XML, verbatim; also
        ``file_xml``, ``record_xml``), ``date`` (``scidac_date``),
        ``datatype`` (``scidac_datatype``; SciDAC/HDF5 datatype of a
        non-gauge field), ``label`` (``ensemble``: NERSC ensemble label;
        ``time_stamp``: MILC's), ``header`` (NERSC: the header dict; every
        key lattio does not compute is written back), ``nersc_rows`` (2 or
        3), ``little_endian`` (NERSC, MILC).  Keys the writer derives from
        the array (``private_record``, ``ildg_format``, ``plaquette``, the
        parsed ``file`` and ``record``, ...) are accepted; a record lattio
        does not write is a ValueError naming it.
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
    if metadata is not None and not isinstance(metadata, dict):
        raise TypeError("metadata must be a dict, not %s" % type(metadata).__name__)
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
    _check_volumes(volumes, format, comm, grid)
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


def _check_volumes(volumes, format, comm, grid):
    """save's volumes= against the format, comm and grid."""
    if volumes is None:
        return
    if volumes not in _VOLFMT or format not in ("ildg", "scidac"):
        raise ValueError("volumes=%r: 'multi', 'part' or 'partdir' of an ILDG or SciDAC save, not %s"
                         % (volumes, format))
    if comm is None and (grid is None or len(grid) != 4):
        raise ValueError("volumes= without comm needs grid=(pt, pz, py, px): how the lattice is cut into volumes")


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
    if how.meta.get("other"):
        raise ValueError("metadata records %s are other writers' LIME records: lattio writes them into single "
                         "files, not QIO volume sets" % ", ".join(t for t, _ in how.meta["other"]))
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
                             colors)  # a typed field's colours too: a propagator is QDP++'s .Propagator<P>3
    elif where.comm is None and _mpi._initialised() is None:
        _core.field_write(path, kind, mem, disk, elements, datacount, colors, spins, meta, where.glob, arrays,
                          bool(how.verify))
    else:
        par = _parallel() if where.comm is not None else _mpi._initialised()
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
    array = _one_of_many(array, format, parallel)
    gauge = _check_array(array, format, parallel)
    precision = _stored_precision(precision, format, array.dtype)
    meta = _checked_metadata(metadata)
    if meta.get("other") and format not in ("ildg", "scidac"):
        raise ValueError("metadata records %s are other writers' LIME records: lattio writes them into ILDG and "
                         "SciDAC files, not %s" % (", ".join(t for t, _ in meta["other"]), format))
    if layout not in ("qdp", "qlua"):
        raise ValueError("layout must be 'qdp' or 'qlua', not %r" % (layout,))
    if field is not None and (field not in FIELD_TYPES or gauge or format not in ("scidac", "hdf5")):
        raise ValueError("field %r: one of %s, for SciDAC and HDF5 fields that are not gauge fields"
                         % (field, ", ".join(FIELD_TYPES)))
    site, cplx = array.shape[4:], array.dtype.kind == "c"
    if field is None and not gauge and format in ("scidac", "hdf5"):
        field = _field_of(meta, site, cplx)
    typed = _typed(site, cplx, field, precision) if field is not None else None  # else ValueError
    return path, gauge, _Storage(format, precision, meta, layout, append, verify, typed)


def _one_of_many(array, format, parallel):
    """A list of fields checked (one shape and dtype, a multi-field
    format) and its first returned; a single array as it is."""
    if not isinstance(array, list):
        return array
    for i, a in enumerate(array):
        _check_array(a, format, parallel)
        if format not in ("scidac", "hdf5"):
            raise ValueError("a list of fields is saved as SciDAC or HDF5, not %s" % format)
        if (a.shape, a.dtype) != (array[0].shape, array[0].dtype):
            raise ValueError("field %d is %s %r, field 0 %s %r: the fields of a file share shape and dtype"
                             % (i, a.dtype, a.shape, array[0].dtype, array[0].shape))
    if not array:
        raise ValueError("the list of fields to save is empty")
    return array[0]


def _stored_precision(precision, format, dtype):
    """The stored precision: asked for (32 or 64, as the format allows), or
    the array's (openQCD: 64, MILC: 32)."""
    if precision not in (None, 32, 64):
        raise ValueError("precision must be 32 or 64, not %r" % (precision,))
    if format == "openqcd" and precision == 32:
        raise ValueError("openQCD files are always 64-bit")
    if format == "milc" and precision == 64:
        raise ValueError("MILC files (version 5) are always 32-bit")
    if precision is not None:
        return precision
    single = dtype in (np.dtype(np.complex64), np.dtype(np.float32))
    return 64 if format == "openqcd" else 32 if single or format == "milc" else 64


def _field_of(meta, site, cplx):
    """The field type of an untyped save: the metadata's datatype when it is
    one of the table's, a propagator's shape, else None."""
    if meta.get("datatype"):
        return _core.field_type_of(meta["datatype"])
    if cplx and len(site) == 4 and site[:2] == (4, 4) and site[2] == site[3]:
        return "propagator"
    return None


def _other_record(key, value, metadata, types):
    """(LIME type, text) of another writer's record under `key` (its text,
    ``KEY_text``, or a plain text ``KEY``); (None, None) for the parsed view
    of one whose text is given too; None when `key` is no such record."""
    base = key[:-5] if key.endswith("_text") else key
    rtype = types.get(base) or _OTHER_TYPES.get(base)
    if rtype is None:
        return None
    if key.endswith("_text") or (base + "_text" not in metadata and isinstance(value, str)):
        return rtype, value
    if base + "_text" not in metadata:  # a parsed view alone: its text cannot be made back
        raise ValueError("metadata %r is the parsed view of the %s record: give its text as %r"
                         % (key, rtype, base + "_text"))
    return None, None


def _canonical_metadata(metadata):
    """The metadata in the writer's names: the reader's other names mapped,
    derived keys dropped, other writers' records gathered under ``other``
    (a list of (LIME type, text)), unknown keys refused (ValueError naming
    them)."""
    meta, unknown, other = {}, [], {}
    metadata = dict(metadata or {})
    types = metadata.get("record_types") or {}
    if not isinstance(types, dict):
        raise ValueError("metadata record_types must be a dict of keys and LIME types, not %s"
                         % type(types).__name__)
    for key, value in metadata.items():
        if key in _META_DERIVED:
            continue
        name = _META_SAME.get(key, key)
        rec = _other_record(key, value, metadata, types) if name not in _META_KEYS else None
        if rec is not None:
            if rec[0] is not None:
                other[rec[0]] = rec[1]
        elif name not in _META_KEYS:
            unknown.append(key)
        elif name not in meta or key == name:  # the writer's own name wins over another name of it
            meta[name] = value
    if unknown:
        raise ValueError("metadata keys %s are not written by lattio.save (written: %s; the reader's names of "
                         "these and the keys derived from the data are accepted too; docs/python.md, "
                         "\"Metadata keys\")" % (sorted(unknown), ", ".join(sorted(_META_KEYS))))
    if other:
        meta["other"] = list(other.items())
    return meta


def _nersc_header_text(header):
    """A NERSC header dict (lattio.open's ``header``) as the KEY = VALUE
    lines the writer takes, the keys it computes left out."""
    if not isinstance(header, dict):
        raise ValueError("metadata header must be a dict of NERSC header keys, not %s" % type(header).__name__)
    lines = []
    for key, value in header.items():  # NERSC's KEY = VALUE lines (MILC's and openQCD's headers are derived)
        if not isinstance(key, str) or not re.fullmatch(r"[A-Z][A-Z0-9_]*", key) or key in _NERSC_COMPUTED:
            continue
        text = value if isinstance(value, str) else repr(value) if isinstance(value, float) else str(value)
        if "\n" in text or "\0" in text:
            raise ValueError("metadata header %r must be one line of text" % key)
        lines.append("%s = %s" % (key, text))
    return "\n".join(lines)


def _checked_metadata(metadata):
    meta = _canonical_metadata(metadata)
    for key, value in meta.items():  # checked here, on every rank, not in the collective call
        if key == "nersc_rows":
            if value not in (None, 2, 3):
                raise ValueError("metadata nersc_rows must be 2 or 3, not %r" % (value,))
        elif key == "little_endian":
            if value not in (None, True, False):
                raise ValueError("metadata little_endian must be a bool, not %r" % (value,))
        elif key == "header":
            meta[key] = _nersc_header_text(value) if value is not None else None
        elif key == "other":
            for rtype, text in value:
                if not isinstance(rtype, str) or "\0" in rtype:
                    raise ValueError("metadata record_types: a LIME type is text without NUL bytes, not %r" % (rtype,))
                if not isinstance(text, str) or "\0" in text:
                    raise ValueError("metadata: the %s record must be text without NUL bytes" % rtype)
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
