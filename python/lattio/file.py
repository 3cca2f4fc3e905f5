"""lattio.open: a lattice file's fields with their metadata, read whole or in part.

    >>> with lattio.open("cfg.ildg") as f:
    ...     u = f.fields[0]                     # a Field: shape, dtype, metadata
    ...     u.metadata["record"]                # the record XML as a dict
    ...     slab = u[2:4]                       # timeslices 2 and 3, only their bytes read
    ...     whole = u.read()                    # the whole field, checksum verified

Fields are numbered from 0 in file order (``lattio.load(index=)`` takes the
same numbers); records from 1 in file order, as ``lattio info`` and
:func:`lattio.memmap` number them.  A whole read is :func:`lattio.load`'s
(checksums and header observables verified); a part read (indexing) reads
only the bytes of the sites asked for, through a memory map of the file
(HDF5: h5py's hyperslab reads), and cannot verify a checksum that covers the
whole field: it returns a :class:`Part`, an array whose ``verified`` is
False.
"""
from __future__ import annotations

import os
import re
import struct
import xml.etree.ElementTree as ET
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _core
from .api import (_h5_fields, _h5_site, _lime_format, _numbered_records, _path, _site_of, _typed_site, _value_code,
                  load)
from .errors import FormatError

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
    whose ``verified`` is False (a checksum covers a whole field)."""

    verified: bool = False

    def __array_finalize__(self, obj: Any) -> None:
        self.verified = False


def _xml_dict(text: Optional[str]) -> Optional[Dict[str, Any]]:
    """An XML document as nested dicts ({tag: text or dict}, repeated tags
    as lists), None when it is not XML.  Python's expat resolves no external
    entity and bounds entity expansion."""
    if not text or "<" not in text:
        return None
    try:
        root = ET.fromstring(text.strip().strip("\0"))
    except (ET.ParseError, ValueError):
        return None

    def conv(e):
        if len(e) == 0:
            return (e.text or "").strip()
        out: Dict[str, Any] = {}
        for c in e:
            tag = c.tag.split("}")[-1]
            v = conv(c)
            if tag in out:
                out[tag] = out[tag] if isinstance(out[tag], list) else [out[tag]]
                out[tag].append(v)
            else:
                out[tag] = v
        return out

    return {root.tag.split("}")[-1]: conv(root)}


def _text_dict(text: Optional[str]) -> Optional[Dict[str, Any]]:
    """A record of XML (nested dicts) or of "key = value" lines (tmLQCD's
    xlf-info: plaquette, trajectory nr, beta, ...) as a dict; None else."""
    xml = _xml_dict(text)
    if xml is not None or not text:
        return xml
    pairs = [line.split("=", 1) for line in text.splitlines() if "=" in line]
    return {k.strip(): _number(v.strip().strip('"')) for k, v in pairs} or None


def _number(text: str) -> Union[int, float, str]:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


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
        if self.format == "hdf5":
            return load("%s:%s" % (self.file.path, self.name), verify=verify, dtype=dtype)
        index = self.index if self.format in ("ildg", "scidac", "lime") or "volumes" in self._disk else None
        return load(self.file.path, verify=verify, dtype=dtype, index=index)

    def __getitem__(self, key: Any) -> Part:
        """A part of the field by NumPy basic indexing (integers, slices,
        Ellipsis); only the bytes of the sites asked for are read.  Not
        verified (see :class:`Part`)."""
        self.file._check_open()
        key = key if isinstance(key, tuple) else (key,)
        for k in key:
            if not (k is Ellipsis or isinstance(k, (slice, int, np.integer))) or isinstance(k, bool):
                raise TypeError("a field takes integers, slices and Ellipsis, not %r" % (k,))
        out = _read_part(self, key)
        return np.asarray(out).view(Part)


class File:
    """An open lattice file (:func:`lattio.open`): ``path``, ``format``
    (``"ildg"``, ``"scidac"``, ``"lime"`` for LIME without a SciDAC field,
    ``"nersc"``, ``"milc"``, ``"openqcd"``, ``"hdf5"``), ``fields`` (a list
    of :class:`Field`), ``records`` (LIME: every record as a dict, numbered
    from 1) and ``metadata`` (the file's own: texts and XML as dicts)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._open = True
        self.records: List[Dict[str, Any]] = []
        self.metadata: Dict[str, Any] = {}
        if _core.volumes_probe(path):  # a QIO volume set by its base name
            self.fields = _volume_fields(self)
            return
        fmt = _core.detect(path)
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
        """Forget the file (it is opened per read; nothing stays open)."""
        self._open = False

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


def open(path: Union[str, "os.PathLike[str]"]) -> File:  # noqa: A001 (lattio.open, like io.open)
    """Open the lattice file at ``path`` (str or path-like) of any supported
    format: its fields with shape, dtype, precision, checksum kind and
    metadata; each read whole
    (:meth:`Field.read`, verified) or in part (``field[t0:t1]``, a box;
    only those bytes are read).  A context manager.

    Raises the errors of :func:`lattio.load` (``FileNotFoundError``,
    :class:`lattio.FormatError`, ...); a file holding no lattice field opens
    with an empty ``fields`` list."""
    return File(_path(path))


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
              "scidac-checksum": "checksum"}


def _lime_fields(file: File) -> List[Field]:
    recs = _numbered_records(file.path)
    file.records = recs
    infos = _core.lime_fields(file.path)
    binary = {r["offset"]: r["number"] for r in recs}
    file.format = _lime_format(recs)
    texts: Dict[str, Any] = {}
    fields: List[Field] = []
    start = 0
    site: Tuple[int, ...]
    for fi in infos:
        number = binary[fi["offset"]]
        meta: Dict[str, Any] = {}
        for r in recs[start:number - 1]:  # the records since the previous binary record
            key = _XML_TYPES.get(r["type"])
            if key is None:
                continue
            text = _payload(file.path, r)
            meta[key + "_text"] = text
            meta[key] = text if key == "lfn" else _text_dict(text)
            if key in ("private_file", "file") and key not in texts:
                texts[key], texts[key + "_text"] = meta[key], text
        start = number
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
    size = os.path.getsize(file.path)
    with _bopen(file.path) as f:
        head = f.read(1 << 16)
    parse = {"nersc": _nersc, "milc": _milc, "openqcd": _openqcd, "hirep": _hirep}[file.format]
    try:
        meta, dims, disk, checksum = parse(head, size)
    except (ValueError, KeyError, struct.error) as e:
        _core.gauge_read(file.path)  # the library's own, specific error
        raise FormatError(-201, "ERR_BAD_HEADER", "bad header", str(e), file.path) from None
    file.metadata = meta
    prec, nc = disk["precision"], disk.get("colors", 3)
    return Field(file, 0, name="gauge", kind="gauge", shape=tuple(dims[::-1]) + (4, nc, nc),
                 dtype=np.dtype(np.complex64 if prec == 32 else np.complex128), precision=prec,
                 checksum=checksum, metadata=meta, disk=disk)


def _expect(size: int, want: int, what: str) -> None:
    if size != want:
        raise ValueError("%s: the file has %d bytes, its header says %d" % (what, size, want))


def _nersc(head: bytes, size: int):
    end = head.find(b"END_HEADER")
    if not head.startswith(b"BEGIN_HEADER") or end < 0:
        raise ValueError("NERSC: no BEGIN_HEADER ... END_HEADER in the first 64 KiB")
    nl = head.find(b"\n", end)
    offset = (nl if nl >= 0 else len(head)) + 1
    header: Dict[str, Any] = {}
    for line in head[:end].decode("ascii", "replace").splitlines()[1:]:
        if "=" in line:
            k, v = line.split("=", 1)
            header[k.strip()] = _number(v.strip())
    dims = tuple(int(header["DIMENSION_%d" % d]) for d in (1, 2, 3, 4))
    fp = str(header.get("FLOATING_POINT", "IEEE64BIG")).upper()
    prec = 32 if "32" in fp else 64
    little = "LITTLE" in fp
    datatype = str(header.get("DATATYPE", "4D_SU3_GAUGE")).upper()
    su = re.fullmatch(r"4D_SU(\d+)_GAUGE_(\d+)X(\d+)", datatype)
    if datatype == "4D_SU3_GAUGE":
        rows, nc = 2, 3
    elif su and su.group(1) == su.group(2) == su.group(3):
        rows = nc = int(su.group(1))
    else:
        raise ValueError("NERSC: DATATYPE %s" % datatype)
    if min(dims) < 1:
        raise ValueError("NERSC: dimensions %r" % (dims,))
    volume = int(np.prod(dims, dtype=np.int64))
    _expect(size, offset + volume * 4 * rows * nc * 2 * (prec // 8), "NERSC")
    code = ("<" if little else ">") + _value_code(prec, True)
    meta = {"header": header, "plaquette": header.get("PLAQUETTE"), "link_trace": header.get("LINK_TRACE"),
            "ensemble": header.get("ENSEMBLE_LABEL", header.get("ENSEMBLE_ID"))}
    return meta, dims, {"offset": offset, "dtype": np.dtype(code), "rows": rows, "colors": nc,
                        "precision": prec}, "nersc"


def _milc(head: bytes, size: int):
    little = struct.unpack(">i", head[:4])[0] != 20103
    e = "<" if little else ">"
    magic, x, y, z, t = struct.unpack(e + "5i", head[:20])
    if magic != 20103:
        raise ValueError("MILC: magic %d" % magic)
    stamp = head[20:84].rstrip(b"\0").decode("ascii", "replace")
    order, sum29, sum31 = struct.unpack(e + "iII", head[84:96])
    dims = (x, y, z, t)
    if min(dims) < 1:
        raise ValueError("MILC: dimensions %r" % (dims,))
    _expect(size, 96 + int(np.prod(dims, dtype=np.int64)) * 288, "MILC")
    header = {"magic": magic, "dims": dims, "time_stamp": stamp, "order": order, "sum29": "%08x" % sum29,
              "sum31": "%08x" % sum31, "byte_order": "little" if little else "big"}
    return ({"header": header, "time_stamp": stamp}, dims,
            {"offset": 96, "dtype": np.dtype(e + "c8"), "rows": 3, "precision": 32}, "milc")


def _openqcd(head: bytes, size: int):
    n0, n1, n2, n3 = struct.unpack("<4i", head[:16])
    plaq = struct.unpack("<d", head[16:24])[0]
    dims = (n1, n2, n3, n0)  # x, y, z, t
    if min(dims) < 2 or any(d % 2 for d in dims):
        raise ValueError("openQCD: dimensions %r" % (dims,))
    _expect(size, 24 + int(np.prod(dims, dtype=np.int64)) // 2 * 8 * 144, "openQCD")
    header = {"dims_txyz": (n0, n1, n2, n3), "plaquette_sum": plaq}
    return ({"header": header, "plaquette": plaq / 3.0}, dims,
            {"offset": 24, "dtype": np.dtype("<c16"), "rows": 3, "precision": 64, "openqcd": (n0, n1, n2, n3)},
            "none")


def _hirep(head: bytes, size: int):
    ng, t, x, y, z = struct.unpack(">5i", head[:20])
    plaq = struct.unpack(">d", head[20:28])[0]
    dims = (x, y, z, t)
    if not 2 <= ng <= 16 or min(dims) < 1:
        raise ValueError("HiRep: NG %d, dimensions %r" % (ng, dims))
    _expect(size, 28 + int(np.prod(dims, dtype=np.int64)) * 4 * ng * ng * 16, "HiRep")
    header = {"NG": ng, "dims_txyz": (t, x, y, z), "plaquette": plaq}
    return ({"header": header, "plaquette": plaq}, dims,
            {"offset": 28, "dtype": np.dtype(">c16"), "rows": ng, "colors": ng, "precision": 64, "hirep": True},
            "none")


# --- HDF5 ------------------------------------------------------------------

def _hdf5_fields(file: File) -> List[Field]:
    fields = []
    for i, e in enumerate(_h5_fields(None, file.path, None)):
        n = e["elements"]
        site, cplx = _h5_site(e)
        kind = "gauge" if e["gauge"] else "field"
        prec = e["precision"]
        meta = {"layout": e["layout"], "attributes": _h5_attributes(file.path, e["path"])}
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


# --- part reads --------------------------------------------------------------

def _lattice_key(key: tuple, shape: Tuple[int, ...]) -> Tuple[tuple, tuple]:
    """The key split into its lattice part (4 slices/ints) and the site part."""
    if sum(k is Ellipsis for k in key) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if Ellipsis in key:
        i = key.index(Ellipsis)
        key = key[:i] + (slice(None),) * (len(shape) - len(key) + 1) + key[i + 1:]
    if len(key) > len(shape):
        raise IndexError("too many indices for a field of %d dimensions" % len(shape))
    key = key + (slice(None),) * (len(shape) - len(key))
    for k, n in zip(key, shape):
        if not isinstance(k, slice) and not -n <= int(k) < n:
            raise IndexError("index %d is out of bounds for an axis of %d" % (int(k), n))
    return key[:4], key[4:]


def _read_part(field: Field, key: tuple) -> np.ndarray:
    lat, site = _lattice_key(key, field.shape)
    d = field._disk
    if field.format == "hdf5":
        out = _h5_part(field, lat)
    elif "volumes" in d:
        out = load(field.file.path, index=field.index, verify=False)[lat]
    elif "openqcd" in d:
        out = _openqcd_part(field, lat)
    elif "hirep" in d:  # sites t, x, y, z (z fastest), links t, x, y, z
        t, z, y, x = field.shape[:4]
        mm = np.memmap(field.file.path, dtype=d["dtype"], mode="r", offset=d["offset"],
                       shape=(t, x, y, z) + field.shape[4:])
        part = np.asarray(mm.transpose(0, 3, 2, 1, 4, 5, 6)[lat])  # only these pages are read
        del mm
        out = part[..., [1, 2, 3, 0], :, :].astype(field.dtype)
    else:
        nc = field.shape[6] if field.kind == "gauge" else 0
        rows = d.get("rows", nc)
        disk_shape = field.shape[:4] + ((4, rows, nc) if field.kind == "gauge" else field.shape[4:])
        mm = np.memmap(field.file.path, dtype=d["dtype"], mode="r", offset=d["offset"], shape=disk_shape)
        part = np.asarray(mm[lat])  # only these pages are read
        del mm
        if rows == 2 and nc == 3:  # the third row as the library makes it: conj(row0 x row1), in double
            part = part.astype(np.complex128)
            third = np.conj(np.cross(part[..., 0, :], part[..., 1, :]))
            part = np.concatenate([part, third[..., None, :]], axis=-2)
        out = part.astype(field.dtype)
    out = np.asarray(out[(Ellipsis,) + site] if site else out)
    return out if out.flags.c_contiguous else out.copy()  # (ascontiguousarray makes 0-d 1-d)


def _openqcd_part(field: Field, lat: tuple) -> np.ndarray:
    """openQCD stores, for every odd site (t, x, y, z) in the order
    z + N3*(y + N2*(x + N1*t)), its 8 links +t, -t, +x, -x, +y, -y, +z, -z
    (-d: U_d(site - d)).  The links of timeslice t are at the odd sites of
    timeslices t and t + 1: only those slabs are read."""
    nt, nx, ny, nz = field._disk["openqcd"]
    half = nx * ny * nz // 2
    mm = np.memmap(field.file.path, dtype=field._disk["dtype"], mode="r", offset=field._disk["offset"],
                   shape=(nt, half, 8, 3, 3))
    ts = np.arange(nt)[lat[0]]
    want = np.atleast_1d(ts)
    slabs: Dict[int, np.ndarray] = {}
    x, y = np.meshgrid(np.arange(nx), np.arange(ny), indexing="ij")
    for t in np.unique(np.concatenate([want, (want + 1) % nt])):
        full = np.zeros((nx, ny, nz, 8, 3, 3), np.complex128)  # odd sites of timeslice t at (x, y, z)
        z = ((t + x + y + 1) % 2)[..., None] + 2 * np.arange(nz // 2)
        full[x[..., None], y[..., None], z] = np.asarray(mm[t]).reshape(nx, ny, nz // 2, 8, 3, 3)
        slabs[int(t)] = full
    del mm
    out = np.empty((len(want), nz, ny, nx, 4, 3, 3), np.complex128)
    odd0 = (x[..., None] + y[..., None] + np.arange(nz)) % 2
    for i, t in enumerate(want):
        here, nxt = slabs[int(t)], slabs[(int(t) + 1) % nt]
        odd = (odd0 + t) % 2 == 1
        backward = (nxt[..., 1, :, :], np.roll(here[..., 3, :, :], -1, axis=0),
                    np.roll(here[..., 5, :, :], -1, axis=1), np.roll(here[..., 7, :, :], -1, axis=2))
        for d, mu in ((0, 3), (1, 0), (2, 1), (3, 2)):  # openQCD direction -> ILDG mu
            links: np.ndarray = np.where(odd[..., None, None], here[..., 2 * d, :, :], backward[d])
            out[i, ..., mu, :, :] = links.transpose(2, 1, 0, 3, 4)
    out = out if np.ndim(ts) else out[0]
    return out[(slice(None),) * int(np.ndim(ts)) + tuple(lat[1:])].astype(field.dtype)


def _h5_part(field: Field, lat: tuple) -> np.ndarray:
    try:
        import h5py
    except ImportError:
        return field.read(verify=False)[lat]
    real = np.dtype(field._disk["real"])
    lat, flip = _forward(lat, field.shape[:4])
    with h5py.File(field.file.path, "r") as h:
        obj = h[field.name]
        qlua = field._disk["layout"] == "qlua"  # Qlua's datasets run x, y, z, t
        if isinstance(obj, h5py.Group):  # Qlua: one dataset per link direction
            parts = [_h5_values(obj[str(mu)], lat, real, qlua) for mu in range(4)]
            vals = np.stack(parts, axis=-2)
        else:
            vals = _h5_values(obj, lat, real, qlua)
    keep = vals.shape[:_lattice_ndim(lat)]
    vals = np.ascontiguousarray(vals.astype(real.newbyteorder("=")))
    if field.dtype.kind == "c":
        vals = vals.view(field.dtype)
    return vals.reshape(keep + field.shape[4:])[flip]


def _forward(lat: tuple, shape: Tuple[int, ...]) -> Tuple[tuple, tuple]:
    """lat with every slice of negative step made positive (h5py reads
    only those), and the slicing that reverses them afterwards."""
    fwd: List[Union[slice, int]] = []
    flip: List[slice] = []
    for k, n in zip(lat, shape):
        if isinstance(k, slice):
            start, stop, step = k.indices(n)
            if step < 0:
                idx = range(start, stop, step)
                if len(idx) == 0:
                    fwd.append(slice(0, 0))
                else:
                    fwd.append(slice(idx[-1], idx[0] + 1, -step))
                flip.append(slice(None, None, -1))
            else:
                fwd.append(slice(start, stop, step))
                flip.append(slice(None))
        else:
            fwd.append(int(k) % n)
    return tuple(fwd), tuple(flip)


def _lattice_ndim(lat: tuple) -> int:
    return sum(isinstance(k, slice) for k in lat)


def _h5_values(ds: Any, lat: tuple, real: np.dtype, reverse: bool) -> np.ndarray:
    """The dataset's sites at lat (t, z, y, x) as reals (one trailing
    axis); reverse: the dataset's lattice axes run x, y, z, t."""
    key = lat[::-1] if reverse else lat
    raw = np.asarray(ds[key + (slice(None),) * (ds.ndim - 4)])
    m = _lattice_ndim(lat)
    raw = np.ascontiguousarray(raw).view(np.uint8).view(real).reshape(raw.shape[:m] + (-1,))
    if reverse:
        raw = raw.transpose(tuple(range(m))[::-1] + (m,))
    return raw
