"""The package's side of MPI: communicators (mpi4py's), the MPI extension
module (imported at first use), calls made on rank 0 and shared, one
status everywhere, a rank's block.
"""
from __future__ import annotations

import sys

from ._grid import agree, box, grid_of
from .errors import HDF5Error, MPIError


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


def _block(comm, grid, extents):
    """(global, lo, count) of this rank's block (the whole lattice without comm)."""
    extents = tuple(int(e) for e in extents)
    if comm is None:
        return extents, (0,) * len(extents), extents
    dims, coords = grid_of(comm, len(extents), grid)
    lo, count = box(extents, dims, coords)
    return extents, lo, count


def _h5_serial(comm) -> bool:
    """HDF5 read on this process without MPI: no communicator, and a
    library that reads HDF5 on a serial libhdf5 (a build without MPI).
    Raises HDF5Error where HDF5 cannot be read at all (no serial libhdf5
    and no MPI module)."""
    import importlib.util

    from . import _core
    if comm is None and _core.h5_available():
        return True
    if importlib.util.find_spec("lattio._lattio") is None:
        raise HDF5Error(-701, "ERR_HDF5_UNAVAILABLE", "HDF5 unavailable",
                        "this lattio was built without HDF5 (%s): install libhdf5-dev (or MPI with parallel "
                        "HDF5) and reinstall, docs/install.md" % _core.build_info())
    return False


def _h5_fields(comm, file, obj):
    """The fields a reader of FILE (obj None) or of FILE:obj (soft links
    inside the file followed, the library's rule) sees."""
    if _h5_serial(comm):
        from . import _core
        return _core.h5_list(file) if obj is None else [_core.h5_find("%s:%s" % (file, obj))]
    par = _parallel()
    return par.h5_list(comm, file) if obj is None else [par.h5_find(comm, "%s:%s" % (file, obj))]
