"""lattio.load and lattio.load_fields: fields as NumPy arrays, serially or
each rank its block, checksums verified.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, Sequence

import numpy as np
import numpy.typing as npt

from . import _core
from ._grid import blocks, box, grid_of, same_everywhere
from .errors import from_status
from ._formats import (PathLike, _complex_dtype, _h5_entry, _h5_group, _h5_site, _h5_split, _path, _pick_field,
                      _real_dtype, _site_of, _typed_site)
from . import _mpi
from ._mpi import _agreed, _block, _comm, _h5_fields, _h5_serial, _on_root, _parallel

if TYPE_CHECKING:
    from mpi4py import MPI

__all__ = ["load", "load_fields"]


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
        default: the file's gauge field or its one lattice field (several:
        ``ValueError`` naming them), a tmLQCD propagator file's 12
        components as one propagator.

    Returns
    -------
    numpy.ndarray
        A gauge field: ``(T, Z, Y, X, 4, 3, 3)``, links in ILDG order
        (mu = x, y, z, t).  Other SciDAC fields: ``(T, Z, Y, X) + site``
        where the site shape follows the datatype (ColorMatrix: (3, 3);
        datacount > 1 adds a leading axis; other types: complex or real
        components).  A tmLQCD propagator file (12 one-flavour components
        after etmc-propagator-format records, component is*3+ic for source
        spin is and colour ic): ``(T, Z, Y, X, 4, 4, 3, 3)``, axes spin_sink,
        spin_source, color_sink, color_source.  Native byte order.  With
        ``comm``: this rank's block.

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
        fields = _on_root(comm, lambda: _core.lime_fields(path))
        if index is None and _tmlqcd_propagator(fields):
            return _load_tmlqcd_propagator(path, comm, grid, verify, dtype, fields)
        return _load_lime(path, comm, grid, verify, dtype, index, fields=fields)
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
        entries = _h5_group(_h5_fields(comm, file, None), obj, path)
        return [_load_h5("%s:%s" % (file, e["path"]), comm, grid, verify, dtype) for e in entries]
    if fmt in ("ildg", "scidac"):
        fields = _on_root(comm, lambda: _core.lime_fields(path))
        return [_load_lime(path, comm, grid, verify, dtype, f["index"]) for f in fields if f["recordtype"] == 0]
    return [_load_plain(path, comm, grid, verify, dtype)]


def _tmlqcd_propagator(fields) -> bool:
    """A tmLQCD propagator file: 12 one-flavour Dirac fermions described by
    etmc-propagator-format records, alike, one per source spin and colour."""
    lattice = [f for f in fields if f["recordtype"] == 0]
    return len(lattice) == 12 and all(
        f["etmc_record"] and f["etmc_flavours"] == 1 and f["field_type"] == "fermion" and
        (f["dims"], f["precision"]) == (lattice[0]["dims"], lattice[0]["precision"]) for f in lattice)


def _load_tmlqcd_propagator(path, comm, grid, verify, dtype, fields):
    """The 12 components of a tmLQCD propagator (component is*3+ic holds
    the sink fermion of source spin is and colour ic) as one
    (T, Z, Y, X, spin_sink, spin_source, color_sink, color_source) array,
    the axes of the field-type table's propagator; each component checked
    against its own checksum."""
    parts = [_load_lime(path, comm, grid, verify, dtype, i, fields=fields) for i in range(12)]
    a = np.stack(parts)  # (is*3+ic, T, Z, Y, X, spin_sink, color_sink)
    a = a.reshape((4, 3) + a.shape[1:])
    return np.ascontiguousarray(a.transpose(2, 3, 4, 5, 6, 0, 7, 1))


def _load_lime(path, comm, grid, verify, dtype, index, volumes=False, fields=None):
    """A field of a LIME file, or of a QIO volume set (``volumes``);
    ``fields`` the file's listing when the caller has it (every rank)."""
    if fields is None:
        fields = _on_root(comm, lambda: (_core.volumes_fields if volumes else _core.lime_fields)(path))

    def setup():
        fi = _pick_field(fields, index, path)
        site, cplx = _site_of(fi)
        dt = _complex_dtype(dtype, fi["precision"], "load") if cplx else _real_dtype(dtype, fi["precision"])
        glob, lo, count = _block(comm, grid, fi["dims"][::-1])
        return fi, dt, glob, lo, count, np.empty(count + site, dtype=dt)

    fi, dt, glob, lo, count, out = _agreed(comm, setup)
    mem = _core.REAL_F32 if dt in (np.dtype(np.complex64), np.dtype(np.float32)) else _core.REAL_F64
    par = _parallel() if comm is not None else _mpi._initialised()
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
    target = "%s:%s" % (file, e["path"])
    if _h5_serial(comm):
        _state, meta = _core.h5_read(target, mem, n, glob, out, verify)
    else:
        _state, meta = _parallel().h5_read(comm, target, mem, n, glob, lo, count, out, verify)
    site = _typed_site(meta, n, out.dtype.kind == "c") if meta and not e["gauge"] else None
    return out.reshape(out.shape[:4] + site) if site is not None else out
