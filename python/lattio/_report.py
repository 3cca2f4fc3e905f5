"""lattio.info, lattio.verify and lattio.memmap: what a file holds, the
library's verdict on it, a record's payload mapped.
"""
from __future__ import annotations

import os
from typing import Any, Dict, List, Union

import numpy as np

from . import _core
from .errors import FormatError
from ._formats import PathLike, _h5_split, _numbered_records, _path, _pick_field, _site_of, _value_code
from ._mpi import _h5_fields, _h5_serial, _parallel

__all__ = ["info", "verify", "memmap"]


def info(path: PathLike) -> List[Dict[str, Any]]:
    """The records of a LIME file, or the lattice fields of an HDF5 file.

    LIME: a list of dicts, one per record, in file order: ``number`` (the
    record's 1-based number in the file, as ``lattio info``, ``lattio
    verify``, :func:`memmap` and :class:`lattio.File` number records),
    ``message`` and ``record`` (its message, and its place in that message,
    from 1: LIME's own structure), ``offset`` (of
    the header), ``data_offset``, ``type``, ``length``, ``padding``, ``mb``,
    ``me``, ``data`` (the payload as text where ``lattio info`` shows it:
    shorter than 64000 bytes, no byte >= 0x80; else None): the C library's
    listing (``lattio_info_file``), the one ``lattio info --json`` prints.
    A QIO volume set (``path`` its base name): one dict per field
    (``index``, ``type``, ``datatype``, ``precision``, ``shape``, ``axes``,
    ``checksum``, ...), as ``lattio info --fields``.  HDF5: one dict per lattice field: ``path``, ``layout``,
    ``gauge``, ``dims`` (x fastest), ``elements``, ``precision``,
    ``byte_order``, ``checksum``.  NERSC, MILC and openQCD: one dict:
    ``format``, ``dims`` (x fastest), ``precision``, ``checksum``,
    ``data_offset``, ``length`` and the ``header`` as a dict.  Other files
    raise :class:`lattio.FormatError`."""
    path = _path(path)
    file, _ = _h5_split(path)
    fmt = _core.detect(file) if os.path.isfile(file) else None
    if fmt == "hdf5":
        return _h5_fields(None, file, None)
    if fmt in ("nersc", "milc", "openqcd", "hirep"):
        from .file import File
        f = File(file)
        g = f.fields[0]
        return [{"format": fmt, "dims": g.shape[:4][::-1], "precision": g.precision, "checksum": g.checksum,
                 "data_offset": g._disk["offset"], "length": os.path.getsize(file) - g._disk["offset"],
                 "header": f.metadata.get("header", {})}]
    if _core.volumes_probe(path):
        return _core.info(path, 2)["fields"]
    return _numbered_records(path, text=True)


def verify(path: PathLike) -> Dict[str, Any]:
    """Verify a file: every field's checksum and a gauge field's observables.

    The verdict is the C library's (``lattio_verify_file``, or
    ``lattio_verify`` for HDF5), the same as ``lattio verify``'s.  Returns
    a dict: ``file``, ``format`` (``ildg``, ``scidac``, ``lime`` for a
    LIME file without either's records, ``nersc``, ``milc``, ``openqcd``,
    ``hirep``, ``hdf5``), ``ok`` (everything holds), ``status`` (the
    library's status name of the first problem, ``"OK"`` when none),
    ``fields`` (per binary record, volume-set field or dataset: ``type``
    (HDF5: ``path``), ``record``, ``offset``, ``length``, ``stored`` and
    ``computed`` checksums as lists of two hex strings (``stored`` None
    when the file stores none), ``ok``), for a gauge field ``plaquette``
    (Re tr U_p / N), ``link_trace`` (Re tr U / N) and ``unitarity`` (max
    |U^+U - 1|), and ``problems`` / ``warnings`` in words; ``report``
    holds the library's report whole (``lattio verify --json``'s object).
    A file that cannot be opened (:class:`FileNotFoundError`,
    :class:`IsADirectoryError`, ... : :class:`lattio.LattioIOError`) or has
    no known format (:class:`lattio.FormatError`) raises; every other
    failure is a problem of the report."""
    path = _path(path)
    file, _ = _h5_split(path)
    volumes = _core.volumes_probe(path)
    if not volumes:
        _core.detect(file)  # a file that cannot be opened or has no known format raises
    if volumes or not _core.h5_is_target(path) or _h5_serial(None):
        rep = _core.verify(path)  # HDF5 too where the library reads it without MPI
    else:
        rep = _parallel().verify(None, path)
    return _verify_dict(path, rep)


def _hex_pair(r, prefix):
    return [r[prefix + "suma"], r[prefix + "sumb"]] if prefix + "suma" in r else None


def _verify_dict(path, rep):
    """The library's verification report as lattio.verify's dict."""
    hdf5 = rep["format"] == "hdf5" or "hdf5_layout" in rep
    fields = []
    for r in rep["binary_records"]:
        f = {"path" if hdf5 else "type": r["type"], "record": r["record"], "offset": r["offset"],
             "length": r["length"], "stored": _hex_pair(r, "stored_"), "computed": _hex_pair(r, ""),
             "ok": r["ok"]}
        if hdf5:
            f["layout"] = rep.get("hdf5_layout")
        fields.append(f)
    out = {"file": path, "format": rep["format"], "ok": rep["ok"], "status": rep["status"], "fields": fields,
           "problems": rep["problems"], "warnings": rep["warnings"], "report": rep}
    for key in ("plaquette", "link_trace", "unitarity"):
        if key in rep:
            out[key] = float("nan") if rep[key] is None else rep[key]
    return out


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
    at huge files (``lattio.verify`` checks them).  As with any memory map,
    a file cut (truncated) while the map is in use ends the process with
    SIGBUS when a page beyond the new end is touched: map files nobody is
    rewriting, or use :func:`lattio.open`, which checks the size first."""
    path = _path(path)
    if _core.detect(path) in ("nersc", "milc"):
        return _memmap_plain(path, record)
    recs = _numbered_records(path)
    fields = _core.lime_fields(path)
    if record is None:
        target = _pick_field(fields, None, path, first=True)["offset"]
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


def build_info() -> Dict[str, Any]:
    """What this installation of lattio holds (docs/install.md):
    ``library`` (the C library's build in one line: MPI, HDF5, CRC-32,
    SHA-256), ``mpi`` (the MPI module is installed: communicators, HDF5
    writes), ``hdf5_read`` (HDF5 files read here: ``"without MPI"`` on a
    serial libhdf5, ``"with MPI"`` through the MPI module, or ``None``),
    ``command`` (the ``lattio`` command's path, ``None`` without it).

        >>> lattio.build_info()["hdf5_read"]
        'with MPI'
    """
    import importlib.util

    from .__main__ import command_path

    mpi = importlib.util.find_spec("lattio._lattio") is not None
    library = _core.build_info()
    hdf5 = "without MPI" if _core.h5_available() else "with MPI" if mpi and "parallel" in library else None
    try:
        cmd: Any = command_path()
    except FileNotFoundError:
        cmd = None
    return {"library": library, "mpi": mpi, "hdf5_read": hdf5, "command": cmd}
