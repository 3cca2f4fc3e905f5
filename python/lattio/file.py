"""lattio.open: a lattice file's fields with their metadata, read whole or in part.

    >>> with lattio.open("cfg.ildg") as f:
    ...     u = f.fields[0]                     # a Field: shape, dtype, metadata
    ...     u.metadata["record"]                # the record XML as a dict
    ...     slab = u[2:4]                       # timeslices 2 and 3, only their bytes read
    ...     whole = u.read()                    # the whole field, checksum verified

Fields are numbered from 0 in file order (``lattio.load(index=)`` takes the
same numbers); records from 1 in file order, as ``lattio info`` and
:func:`lattio.memmap` number them.  A whole read is :func:`lattio.load`'s
(checksums and header observables verified).  A part read (indexing) reads
only the bytes of the sites asked for, through a memory map of the file
(HDF5: h5py's hyperslab reads); the first part read of a field verifies the
field's checksum once, streamed through the library (the same check as
:func:`lattio.load`), and every part of a field that did not verify raises
:class:`lattio.ChecksumError`.  The returned :class:`Part` says
``verified``; ``lattio.open(path, verify=False)`` is the explicit opt-out
(parts then say ``verified`` False).

An open file holds the file it opened: a file renamed over its path
afterwards is not read, and one truncated under it raises
:class:`lattio.FormatError` (``ERR_TRUNCATED_PAYLOAD``) before a part is
mapped.  A truncation racing with a read of a mapped part can still end the
process with SIGBUS, as with any memory map (:func:`lattio.memmap` too).
"""
from __future__ import annotations

import os
import re
import struct
import threading
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._meta import _text_dict
from ._formats import _h5_site, _lime_format, _numbered_records, _path, _site_of, _typed_site, _value_code
from ._load import load
from ._headers import _hirep, _milc, _nersc, _openqcd
from ._parts import _read_part
from ._mpi import _h5_fields
from .errors import FormatError, LattioError

__all__ = ["open", "File", "Field", "Part", "AXES"]

#: Axis names of a field's array, slowest first: the lattice (t, z, y, x)
#: then the site: a gauge field's link direction and matrix indices; a field
#: of the library's field-type table (:data:`lattio.FIELD_TYPES`, one table
#: for C, the command and Python) its datum's axes, after a ``datum`` axis
#: when a site holds several (datacount > 1); other fields ``s0, s1, ...``.
AXES: Dict[str, Tuple[str, ...]] = {"gauge": ("t", "z", "y", "x", "mu", "row", "col")}
AXES.update({t["name"]: ("t", "z", "y", "x") + t["axes"] for t in _core.field_types()})
_LATTICE = ("t", "z", "y", "x")


class Part(np.ndarray):
    """A part of a field read by indexing a :class:`Field`: a NumPy array
    whose ``verified`` says whether the field's checksum was verified
    (False with ``verify=False``, or when the file stores none)."""

    verified: bool = False

    def __array_finalize__(self, obj: Any) -> None:
        self.verified = False


class Field:
    """One lattice field of a file.

    Attributes: ``index`` (0-based in the file), ``name``, ``format``,
    ``kind`` (a key of :data:`lattio.file.AXES`, or ``"field"``),
    ``shape`` and ``dtype`` (what :meth:`read` returns at the file's
    precision), ``dims`` (axis names), ``precision`` (32/64), ``checksum``
    (``"scidac"``, ``"nersc"``, ``"milc"``, ``"sha256"`` or ``"none"``),
    ``record`` (LIME: the binary record's 1-based number) and ``metadata``
    (a dict: the file's texts as text and, where they are XML, as dicts)."""

    def __init__(self, file: "File", index: int, *, name: str, kind: str, shape: Tuple[int, ...],
                 dtype: np.dtype, precision: int, checksum: str, metadata: Dict[str, Any],
                 record: Optional[int] = None, disk: Optional[Dict[str, Any]] = None) -> None:
        self.file, self.index, self.name, self.kind = file, index, name, kind
        self.format = file.format
        self.shape, self.dtype, self.precision = tuple(shape), np.dtype(dtype), precision
        self.checksum, self.metadata, self.record = checksum, metadata, record
        self._disk = disk or {}
        self._lock = threading.Lock()
        self._verdict: Optional[Tuple[bool, Optional[Exception]]] = None  # (verified, the failure)
        names: Optional[Tuple[str, ...]] = AXES.get(kind)
        if names is not None and len(names) + 1 == len(self.shape):
            names = names[:4] + ("datum",) + names[4:]
        if names is None or len(names) != len(self.shape):
            names = _LATTICE + tuple("s%d" % i for i in range(len(self.shape) - 4))
        self.dims: Tuple[str, ...] = names

    def __repr__(self) -> str:
        return "<lattio.Field %d %r %s %s %s, checksum %s>" % (
            self.index, self.name, self.format, self.shape, self.dtype, self.checksum)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize

    def read(self, *, verify: bool = True, dtype: Optional[npt.DTypeLike] = None) -> np.ndarray:
        """The whole field, as :func:`lattio.load` reads it (checksum and a
        header's plaquette verified unless ``verify=False``)."""
        self.file._check_open()
        with self.file._named():
            if self.format == "hdf5":
                return load("%s:%s" % (self.file._src, self.name), verify=verify, dtype=dtype)
            index = self.index if self.format in ("ildg", "scidac", "lime") or "volumes" in self._disk else None
            return load(self.file._src, verify=verify, dtype=dtype, index=index)

    def __getitem__(self, key: Any) -> Part:
        """A part of the field by NumPy basic indexing (integers, slices,
        Ellipsis); only the bytes of the sites asked for are read, after the
        field's checksum was verified once (see :class:`Part`)."""
        self.file._check_open()
        key = key if isinstance(key, tuple) else (key,)
        for k in key:
            if not (k is Ellipsis or isinstance(k, (slice, int, np.integer))) or isinstance(k, bool):
                raise TypeError("a field takes integers, slices and Ellipsis, not %r" % (k,))
        verified = self._verified()
        with self.file._named():
            out = np.asarray(_read_part(self, key)).view(Part)
        out.verified = verified
        return out

    def _verified(self) -> bool:
        """The field's checksum verified once per open (streamed by the
        library; thread-safe: dask reads chunks from several threads).
        True when it holds, False when not asked for or none is stored;
        a failure raises, now and at every later part read."""
        if not self.file.verify:
            return False
        with self._lock:
            if self._verdict is None:
                try:
                    with self.file._named():
                        self._verdict = (_verify_field(self), None)
                except LattioError as e:
                    self._verdict = (False, e)
        ok, err = self._verdict
        if err is not None:
            raise err
        return ok


class File:
    """An open lattice file (:func:`lattio.open`): ``path``, ``format``
    (``"ildg"``, ``"scidac"``, ``"lime"`` for LIME without a SciDAC field,
    ``"nersc"``, ``"milc"``, ``"openqcd"``, ``"hdf5"``), ``fields`` (a list
    of :class:`Field`), ``records`` (LIME: every record as a dict, numbered
    from 1) and ``metadata`` (the file's own: texts and XML as dicts)."""

    def __init__(self, path: str, verify: bool = True) -> None:
        self.path = path
        self.verify = bool(verify)
        self._open = True
        self._fh: Any = None
        self._src = path  # what the readers open: the held file's /proc/self/fd name where there is one
        self.records: List[Dict[str, Any]] = []
        self.metadata: Dict[str, Any] = {}
        if _core.volumes_probe(path):  # a QIO volume set by its base name
            self.fields = _volume_fields(self)
            return
        fmt = _core.detect(path)  # raises for what cannot be opened
        self._hold()
        try:
            with self._named():
                self._describe(fmt)
        except BaseException:
            self.close()
            raise

    def _hold(self) -> None:
        """Open the file and keep it: every later read goes to this file,
        whatever is renamed over the path (Linux: through /proc/self/fd)."""
        self._fh = _bopen(self.path)
        proc = "/proc/self/fd/%d" % self._fh.fileno()
        try:
            if os.path.samestat(os.stat(proc), os.fstat(self._fh.fileno())):
                self._src = proc
        except OSError:
            pass

    def _named(self) -> "_Named":
        return _Named(self)

    def _describe(self, fmt: str) -> None:
        if fmt == "hdf5":
            self.format = "hdf5"
            self.fields = _hdf5_fields(self)
        elif fmt in ("ildg", "scidac"):
            self.fields = _lime_fields(self)
        else:
            self.format = fmt
            self.fields = [_header_field(self)]

    def __repr__(self) -> str:
        return "<lattio.File %r %s, %d field(s)>" % (self.path, self.format, len(self.fields))

    def __enter__(self) -> "File":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Release the file (reads afterwards raise ValueError)."""
        self._open = False
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def _size(self) -> int:
        """The held file's size now."""
        return os.fstat(self._fh.fileno()).st_size if self._fh is not None else os.path.getsize(self._src)

    def _check_open(self) -> None:
        if not self._open:
            raise ValueError("I/O operation on a closed lattio.File (%s)" % self.path)

    def __len__(self) -> int:
        return len(self.fields)

    def __getitem__(self, key: Union[int, str]) -> Field:
        """A field by index or by name."""
        if isinstance(key, str):
            for f in self.fields:
                if f.name == key:
                    return f
            raise KeyError(key)
        return self.fields[key]

    def __iter__(self):
        return iter(self.fields)


def open(path: Union[str, "os.PathLike[str]"], *, verify: bool = True) -> File:  # noqa: A001 (like io.open)
    """Open the lattice file at ``path`` (str or path-like) of any supported
    format: its fields with shape, dtype, precision, checksum kind and
    metadata; each read whole
    (:meth:`Field.read`, verified) or in part (``field[t0:t1]``, a box;
    only those bytes are read, the field's checksum verified once per open
    first; ``verify=False`` skips that).  The file stays open until
    :meth:`File.close` (a context manager).

    Raises the errors of :func:`lattio.load` (``FileNotFoundError``,
    :class:`lattio.FormatError`, ...); a file holding no lattice field opens
    with an empty ``fields`` list."""
    return File(_path(path), verify=verify)


class _Named:
    """Errors raised while reading a held file name the user's path, not
    /proc/self/fd/N."""

    def __init__(self, file: File) -> None:
        self.file = file

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, e: Any, tb: Any) -> None:
        src, path = self.file._src, self.file.path
        if isinstance(e, LattioError) and src != path:
            e.what = str(e.what).replace(src, path)
            e.detail = str(e.detail).replace(src, path)
            if isinstance(e, OSError) and e.filename:
                e.filename = str(e.filename).replace(src, path)
            e.args = (str(e),)


def _verify_field(field: Field) -> bool:
    """Field's checksum through the library (LIME: streamed, the record
    alone; other formats: lattio.load's verified read).  True when a stored
    checksum holds, False when there is none; raises when it does not."""
    src = field.file._src
    if field.format in ("ildg", "scidac", "lime") and "volumes" not in field._disk:
        rc, _computed, stored, err, _ = _core.field_verify(src, field.index)
        if err is not None:
            raise err
        return stored is not None
    if "volumes" in field._disk:
        return True  # parts come from a whole read, verified (_read_part)
    field.read(verify=True)
    return field.checksum != "none"


# --- LIME ------------------------------------------------------------------

def _bopen(path: str):
    import builtins  # this module's open is lattio.open
    return builtins.open(path, "rb")


def _payload(path: str, rec: Dict[str, Any], limit: int = 16 << 20) -> Optional[str]:
    """A metadata record's text (None beyond `limit` bytes: not metadata)."""
    if rec["length"] > limit:
        return None
    with _bopen(path) as f:
        f.seek(rec["data_offset"])
        return f.read(rec["length"]).rstrip(b"\0").decode("utf-8", "replace")


_XML_TYPES = {"ildg-format": "ildg_format", "scidac-private-file-xml": "private_file",
              "scidac-file-xml": "file", "scidac-private-record-xml": "private_record",
              "scidac-record-xml": "record", "ildg-data-lfn": "lfn", "xlf-info": "xlf_info",
              "scidac-checksum": "checksum",
              # tmLQCD's propagators and sources (docs/format.md, "tmLQCD")
              "propagator-type": "propagator_type", "inverter-info": "inverter_info",
              "etmc-propagator-format": "etmc_propagator_format", "etmc-source-format": "etmc_source_format",
              "gauge-scidac-checksum-copy": "gauge_checksum_copy", "gauge-ildg-data-lfn-copy": "gauge_lfn_copy"}
_PLAIN_TEXT = ("lfn", "propagator_type", "gauge_lfn_copy")  # records whose text is the value


def _other_key(rtype: str) -> Optional[str]:
    """The key of a text record of another writer (Grid's FieldMetaData, ...):
    its type, characters other than letters, digits and _ as _."""
    key = re.sub(r"[^0-9A-Za-z_]", "_", rtype)
    return key if key and key not in _XML_TYPES.values() and not key.endswith("_text") else None


def _is_text(text: str) -> bool:
    """Text, not a binary payload: no NUL, few replaced or control characters."""
    if "\0" in text:
        return False
    bad = sum(1 for c in text if c == "\ufffd" or (ord(c) < 32 and c not in "\n\r\t"))
    return bad <= len(text) // 100


def _lime_fields(file: File) -> List[Field]:
    recs = _numbered_records(file._src)
    file.records = recs
    infos = _core.lime_fields(file._src)
    binary = {r["offset"]: r["number"] for r in recs}
    file.format = _lime_format(recs)
    texts: Dict[str, Any] = {}
    fields: List[Field] = []
    start = 0
    site: Tuple[int, ...]
    for fi in infos:
        number = binary[fi["offset"]]
        meta: Dict[str, Any] = {}
        mine = recs[start:number - 1]  # the records since the previous binary record
        if fi["etmc_record"] and fi["etmc_record"] <= start:  # tmLQCD's second flavour: its format record
            mine = [recs[fi["etmc_record"] - 1]] + mine
        for r in mine:
            key = _XML_TYPES.get(r["type"]) or _other_key(r["type"])
            text = _payload(file._src, r) if key is not None else None
            if key is None or text is None or (key not in _XML_TYPES.values() and not _is_text(text)):
                continue
            meta[key + "_text"] = text
            meta[key] = text if key in _PLAIN_TEXT else _text_dict(text)
            if key not in _XML_TYPES.values():  # another writer's: its LIME type, for save to write it back
                meta.setdefault("record_types", {})[key] = r["type"]
            if key in ("private_file", "file") and key not in texts:
                texts[key], texts[key + "_text"] = meta[key], text
        start = number
        if fi["has_private_record"]:  # the SciDAC record's values; none invented for others
            for k in ("datatype", "date", "colors", "spins", "typesize", "datacount", "recordtype"):
                meta.setdefault("scidac_" + k, fi[k])
        site, cplx = _site_of(fi)
        prec = fi["precision"]
        kind = _kind_of(fi)
        code = _value_code(prec, cplx)
        fields.append(Field(file, fi["index"], name="field %d" % fi["index"], kind=kind,
                            shape=tuple(fi["dims"][::-1]) + site, dtype=np.dtype(code), precision=prec,
                            checksum="scidac" if fi["has_checksum"] else "none", metadata=meta, record=number,
                            disk={"offset": fi["data_offset"], "dtype": np.dtype(">" + code)}))
    file.metadata = texts
    return fields


def _volume_fields(file: File) -> List[Field]:
    """The lattice fields of a QIO volume set (volume 0's metadata; every
    volume checked as the set opens).  A part read reads the whole field,
    unverified, and slices it: a volume holds scattered sites."""
    infos = [fi for fi in _core.volumes_fields(file.path) if fi["recordtype"] == 0]
    file.format = "ildg" if any(fi["type"] == "ildg-binary-data" for fi in infos) else "scidac"
    fields: List[Field] = []
    for fi in infos:
        meta: Dict[str, Any] = {"lfn": fi["lfn"], "file_text": fi["file_xml"], "file": _text_dict(fi["file_xml"]),
                                "record_text": fi["record_xml"], "record": _text_dict(fi["record_xml"])}
        for k in ("datatype", "date", "colors", "spins", "typesize", "datacount", "recordtype"):
            meta["scidac_" + k] = fi[k]
        site, cplx = _site_of(fi)
        fields.append(Field(file, fi["index"], name="field %d" % fi["index"], kind=_kind_of(fi),
                            shape=tuple(fi["dims"][::-1]) + site, dtype=np.dtype(_value_code(fi["precision"], cplx)),
                            precision=fi["precision"], checksum="scidac" if fi["has_checksum"] else "none",
                            metadata=meta, disk={"volumes": True}))
    if infos:
        file.metadata = {"file": fields[0].metadata["file"], "file_text": infos[0]["file_xml"]}
    return fields


def _kind_of(fi: Dict[str, Any]) -> str:
    if fi["kind"] in (_core.FIELD_ILDG_GAUGE, _core.FIELD_SU3_GAUGE):
        return "gauge"
    return _core.field_type_of(fi["datatype"]) or "field"


# --- NERSC, MILC, openQCD: headers read here, validated by the sizes -------

def _header_field(file: File) -> Field:
    size = file._size()
    with _bopen(file._src) as f:
        head = f.read(1 << 16)
    parse = {"nersc": _nersc, "milc": _milc, "openqcd": _openqcd, "hirep": _hirep}[file.format]
    try:
        meta, dims, disk, checksum = parse(head, size)
    except (ValueError, KeyError, struct.error) as e:
        _core.gauge_read(file._src)  # the library's own, specific error
        raise FormatError(-201, "ERR_BAD_HEADER", "bad header", str(e), file.path) from None
    file.metadata = meta
    prec, nc = disk["precision"], disk.get("colors", 3)
    return Field(file, 0, name="gauge", kind="gauge", shape=tuple(dims[::-1]) + (4, nc, nc),
                 dtype=np.dtype(np.complex64 if prec == 32 else np.complex128), precision=prec,
                 checksum=checksum, metadata=meta, disk=disk)


# --- HDF5 ------------------------------------------------------------------

def _hdf5_fields(file: File) -> List[Field]:
    fields = []
    for i, e in enumerate(_h5_fields(None, file._src, None)):
        n = e["elements"]
        site, cplx = _h5_site(e)
        kind = "gauge" if e["gauge"] else e.get("type") or "field"
        prec = e["precision"]
        meta = {"layout": e["layout"], "attributes": _h5_attributes(file._src, e["path"])}
        attrs = meta["attributes"]
        typed = None if e["gauge"] else _typed_site(
            {"datatype": str(attrs.get("scidac_datatype", "")), "colors": int(attrs.get("scidac_colors", 0) or 0),
             "spins": int(attrs.get("scidac_spins", 0) or 0), "precision": prec}, n, cplx)
        if typed is not None:
            site, kind = typed, _core.field_type_of(str(attrs["scidac_datatype"])) or "field"
        fields.append(Field(file, i, name=e["path"], kind=kind, shape=tuple(e["dims"][::-1]) + site,
                            dtype=np.dtype(_value_code(prec, cplx)), precision=prec, checksum=e["checksum"],
                            metadata=meta,
                            disk={"layout": e["layout"], "real": ("<" if e["byte_order"] == "little" else ">")
                                  + ("f4" if prec == 32 else "f8")}))
    return fields


def _h5_attributes(path: str, obj: str) -> Dict[str, Any]:
    """The object's HDF5 attributes (with h5py; {} without it)."""
    try:
        import h5py
    except ImportError:
        return {}
    out: Dict[str, Any] = {}
    with h5py.File(path, "r") as h:
        for k, v in h[obj].attrs.items():
            if isinstance(v, bytes):
                v = v.decode("utf-8", "replace")
            elif isinstance(v, np.ndarray) and v.size == 1:
                v = v.reshape(()).item()
            out[k] = v.decode("utf-8", "replace") if isinstance(v, bytes) else v
    return out
