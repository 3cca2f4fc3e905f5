"""lattio.convert: the library's conversion (``lattio_convert``), the one
``lattio convert`` runs, with its report.
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

from . import _core
from .errors import from_status
from ._formats import PathLike, _h5_split, _path
from ._mpi import _comm, _initialised, _parallel

__all__ = ["convert"]

_FORMAT_CODES = {"ildg": 1, "scidac": 2, "nersc": 3, "milc": 4, "openqcd": 5, "hdf5": 6, "hirep": 7}
_LAYOUTS = {"qdp": 1, "qlua": 2}
_VOLUMES = {"multi": 1, "part": 2, "partdir": 3}


def _choice(table: Dict[str, int], value: Optional[str], what: str) -> int:
    if value is None:
        return 0
    if not isinstance(value, str):
        raise TypeError("%s must be a str, not %s" % (what, type(value).__name__))
    if value not in table:
        raise ValueError("unknown %s %r (%s)" % (what, value, ", ".join(table)))
    return table[value]


def _grid(value: Optional[Sequence[int]], what: str) -> tuple:
    if value is None:
        return ()
    if isinstance(value, (str, bytes)) or not all(isinstance(g, int) and not isinstance(g, bool) for g in value):
        raise TypeError("%s must be a sequence of ints, x first" % what)
    if not 1 <= len(value) <= 8 or any(g < 1 for g in value):
        raise ValueError("%s must hold 1 to 8 positive extents, x first: %r" % (what, tuple(value)))
    return tuple(value)


def _options(to, precision, nersc_rows, layout, path, volumes, grid, io_grid) -> Dict[str, Any]:
    """The keyword arguments as the library's options (checked here, where
    Python's own exceptions fit: TypeError, ValueError)."""
    opts = {"format": _choice(_FORMAT_CODES, to, "format"), "h5_layout": _choice(_LAYOUTS, layout, "layout"),
            "volfmt": _choice(_VOLUMES, volumes, "volumes"), "grid": _grid(grid, "grid"),
            "io_grid": _grid(io_grid, "io_grid")}
    if precision not in (None, 32, 64):
        raise ValueError("precision must be 32 or 64, not %r" % (precision,))
    if nersc_rows not in (2, 3):
        raise ValueError("nersc_rows must be 2 or 3, not %r" % (nersc_rows,))
    if path is not None and (not isinstance(path, str) or not path.startswith("/") or len(path) > 255):
        raise ValueError("path must be an HDF5 object path starting with '/' (at most 255 bytes): %r" % (path,))
    if (layout or path) and to != "hdf5":
        raise ValueError("layout and path apply to to='hdf5'")
    if opts["volfmt"] and (to is not None or not opts["grid"]):
        raise ValueError("volumes splits the file as it is: give grid, not to")
    if (grid or io_grid) and not opts["volfmt"]:
        raise ValueError("grid and io_grid apply to volumes=")
    if io_grid and len(io_grid) != len(grid or ()):
        raise ValueError("io_grid needs as many extents as grid")
    opts.update(precision=precision or 0, nersc_rows=nersc_rows, h5_path=path)
    return opts


def _raise_for(rep: Dict[str, Any]) -> None:
    """The exception of a failed conversion: the first problem's status,
    every problem in its detail, the path at fault as ``what``."""
    problems = rep.get("problems") or []
    first = problems[0] if problems else {"path": rep["out"], "text": rep["status"]}
    detail = "; ".join("%s: %s" % (p["path"], p["text"]) for p in problems) or rep["status"]
    raise from_status(rep["code"], rep["status"], "conversion failed", detail, first["path"])


def convert(src: PathLike, dst: PathLike, *, to: Optional[str] = None, precision: Optional[int] = None,
            nersc_rows: int = 3, layout: Optional[str] = None, path: Optional[str] = None,
            volumes: Optional[str] = None, grid: Optional[Sequence[int]] = None,
            io_grid: Optional[Sequence[int]] = None, comm: Any = None) -> Dict[str, Any]:
    """Convert a lattice file: the C library's conversion, ``lattio convert``'s.

    ``src`` is verified first (its format detected from the content);
    ``dst`` is written under a temporary name beside it, read back,
    verified and compared with ``src`` (a gauge field: every link and the
    plaquette within ``dst``'s precision; other fields: every value), and
    only then renamed to ``dst``.  What it does follows ``src``:

    - a gauge configuration (ILDG, SciDAC, NERSC, MILC, openQCD, HiRep,
      HDF5): to ``to`` (``"ildg"`` default, ``"scidac"``, ``"nersc"``,
      ``"milc"``, ``"openqcd"``, ``"hirep"``, ``"hdf5"``) at ``precision``
      (32 or 64; default ``src``'s), NERSC with ``nersc_rows`` (2 or 3),
      HDF5 in ``layout`` (``"qdp"`` default or ``"qlua"``) at object
      ``path`` (default ``"/lattice"``);
    - a file of other fields (SciDAC/QIO propagators, eigenvector sets, an
      HDF5 file or group): every field, to ``to="scidac"`` or ``"hdf5"``;
    - a QIO volume set (``src`` its base name) without ``to``: joined into
      one file; ``volumes="multi"``, ``"part"`` or ``"partdir"`` with
      ``grid`` (nodes per dimension, x first) and ``io_grid``: the single
      file ``src`` split into the set ``dst``, published as one unit.

    ``comm`` (an mpi4py communicator): collective, every rank reads and
    writes its slab (HDF5 and files of fields always use the MPI library,
    on ``MPI_COMM_SELF`` without ``comm``).

    Returns the library's report (``lattio convert --json``'s object):
    ``ok``, ``kind`` (``gauge``, ``fields``, ``join``, ``split``),
    ``in_format``, ``out_format``, ``precision``, ``fields``, ``max_diff``
    (largest difference of ``dst`` from ``src``), ``in_check`` and
    ``out_check`` (the verifications, :func:`lattio.verify`'s report),
    ``warnings`` (what of ``src``'s metadata ``dst``'s format cannot hold:
    other writers' records such as tmLQCD's xlf-info, NERSC header lines),
    ``objects`` (HDF5: each field's object in ``src`` and ``dst``).  A
    failed conversion raises the :class:`lattio.LattioError` of its first
    problem (``ChecksumError`` for a damaged ``src``, ``LattioIOError``
    for what cannot be opened or written, ``ArgumentError`` for an output
    that is one of the inputs, ...), ``what`` the path at fault and every
    problem in ``detail``; ``dst`` is then as it was before."""
    src, dst = _path(src), _path(dst)
    file, _ = _h5_split(src)
    if not _core.volumes_probe(src):
        _core.detect(file)  # what cannot be opened raises FileNotFoundError, IsADirectoryError, ...
    opts = _options(to, precision, nersc_rows, layout, path, volumes, grid, io_grid)
    comm = _comm(comm)
    if comm is not None:
        rep = _parallel().convert(comm, src, dst, opts)
        rep = comm.bcast(rep, root=0)  # the report is complete on rank 0
    elif _core.convert_needs_mpi(src, opts) or _initialised() is not None:
        rep = _parallel().convert(None, src, dst, opts)
    else:
        rep = _core.convert(src, dst, opts)
    if not rep["ok"]:
        _raise_for(rep)
    return rep
