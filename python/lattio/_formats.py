"""Names, formats and sites: what every reader and writer of the package
shares.  A path's format (``format_of``), the suffixes, the field-type
table, the site shape of a field's description, record numbering, HDF5
entries as sites.
"""
from __future__ import annotations

import os
import re
from typing import Any, Dict, Union

import numpy as np

from . import _core
from .errors import FormatError, from_status

__all__ = ["FORMATS", "FIELD_TYPES", "SUFFIXES", "format_of"]


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


def _pick_field(fields, index, what, first=False):
    """The field `index` names; without one the file's gauge field or its
    only lattice field (several: ValueError naming them, unless `first`:
    the first gauge field, else the first field)."""
    if not fields:
        raise FormatError(-5, "ERR_NOT_FOUND", "no record of the requested type", "no lattice field", what)
    if index is None:
        lattice = [f for f in fields if f["recordtype"] == 0] or fields
        gauge = [f for f in lattice if f["kind"] in (_core.FIELD_ILDG_GAUGE, _core.FIELD_SU3_GAUGE)]
        if len(gauge) == 1 or len(lattice) == 1 or first:
            return gauge[0] if gauge else lattice[0]
        raise ValueError("%s holds %d lattice fields (%s): pass index= (0 .. %d) or read them all with "
                         "lattio.load_fields" % (what, len(lattice), ", ".join(
                             "%d: %s" % (f["index"], f["datatype"] or f["type"]) for f in lattice), len(fields) - 1))
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


def _numbered_records(path, text=False):
    """A LIME file's records, each with its 1-based `number` in the file:
    the library's listing (lattio_info_file), the one `lattio info` prints
    and memmap(), lattio.open and the command number records by."""
    return _core.info(path, 1 if text else 0)["records"]


def _lime_format(recs):
    """ildg, scidac, or lime (neither's records) by a LIME file's records."""
    types = {r["type"] for r in recs}
    return ("ildg" if "ildg-format" in types else
            "scidac" if types & {"scidac-binary-data", "scidac-private-file-xml"} else "lime")


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


def _h5_site(e, complex_ok=True):
    """(site shape, complex?) of an HDF5 field by its reals per site: a
    gauge field's (4, 3, 3); the datum of the field type its element type
    spells (QDP++'s .Propagator<P>3: (4, 4, 3, 3)); an even count as complex
    numbers (unless complex_ok is False), else reals."""
    n = e["elements"]
    if e["gauge"]:
        n = e.get("colors") or 3
        return (4, n, n), True
    t = e.get("type")
    if t and complex_ok:
        kinds = FIELD_TYPES[t]["kinds"]
        shape, _, _ = _core.field_type_datum(t, e["type_colors"] if "C" in kinds else 0, 4 if "S" in kinds else 0,
                                             e["precision"])
        if 2 * int(np.prod(shape, dtype=np.int64)) == n:
            return tuple(shape), True
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
