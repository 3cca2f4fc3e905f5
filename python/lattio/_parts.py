"""Part reads of lattio.open: a box of a field's sites read from the file
the handle holds (a memory map, checked against the file's size first;
HDF5 through h5py's hyperslabs), only the bytes of the sites asked for.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Tuple, Union

import numpy as np

from .errors import from_status
from ._load import load

if TYPE_CHECKING:
    from .file import Field


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


def _mapped(field: Field, shape: Tuple[int, ...]) -> np.memmap:
    """The field's bytes on disk as a read-only memory map of the held
    file, after checking the file still holds them (a file truncated under
    the handle raises a lattio error, not numpy's)."""
    d = field._disk
    need = d["offset"] + int(np.prod(shape, dtype=np.int64)) * d["dtype"].itemsize
    size = field.file._size()
    if size < need:
        raise from_status(-203, "ERR_TRUNCATED_PAYLOAD", "file ends inside a record payload",
                          "%d bytes, the field ends at byte %d: the file was cut after it was opened" % (size, need),
                          field.file._src)
    fh = field.file._fh if field.file._fh is not None else field.file._src
    return np.memmap(fh, dtype=d["dtype"], mode="r", offset=d["offset"], shape=shape)


def _read_part(field: Field, key: tuple) -> np.ndarray:
    lat, site = _lattice_key(key, field.shape)
    d = field._disk
    if field.format == "hdf5":
        out = _h5_part(field, lat)
    elif "volumes" in d:
        out = load(field.file._src, index=field.index, verify=field.file.verify)[lat]
    elif "openqcd" in d:
        out = _openqcd_part(field, lat)
    elif "hirep" in d:  # sites t, x, y, z (z fastest), links t, x, y, z
        t, z, y, x = field.shape[:4]
        mm = _mapped(field, (t, x, y, z) + field.shape[4:])
        part = np.asarray(mm.transpose(0, 3, 2, 1, 4, 5, 6)[lat])  # only these pages are read
        del mm
        out = part[..., [1, 2, 3, 0], :, :].astype(field.dtype)
    else:
        nc = field.shape[6] if field.kind == "gauge" else 0
        rows = d.get("rows", nc)
        disk_shape = field.shape[:4] + ((4, rows, nc) if field.kind == "gauge" else field.shape[4:])
        mm = _mapped(field, disk_shape)
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
    mm = _mapped(field, (nt, half, 8, 3, 3))
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
    with h5py.File(field.file._src, "r") as h:
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
