"""lattio: lattice QCD files as NumPy arrays, serial or in parallel with mpi4py.

    >>> import lattio
    >>> u = lattio.load("cfg.ildg")              # (T, Z, Y, X, 4, 3, 3) complex
    >>> lattio.verify("cfg.ildg")["plaquette"]
    >>> lattio.save("cfg.nersc", u, format="nersc")

Every format of the C library (ILDG, SciDAC, NERSC, MILC, openQCD, HDF5 in
the QDP++ and Qlua layouts), read and written by it: byte order, precision
and checksums are handled in C, in the arrays' memory, with the GIL
released.  Under ``mpirun``, pass an mpi4py communicator (``comm=``): each
rank reads or writes its own block collectively, and every rank raises the
same exception when any rank fails.
"""
import os as _os

# Before mpi4py initialises MPI: keep Open MPI's lockedfile shared-file-pointer
# component out of MPI_File_open (it hangs the open across nodes on GlusterFS
# and NFS; lattio never uses shared file pointers).  A user's own setting wins;
# where MPI was initialised before this import, the library raises MPIError
# (ERR_MPI_SHAREDFP) instead of hanging.
_os.environ.setdefault("OMPI_MCA_sharedfp", "^lockedfile")

from .errors import (ArgumentError, ChecksumError, ContainerError, FormatError, HDF5Error,  # noqa: F401
                     LattioError, LattioIOError, MPIError, RankArgumentError)

__all__ = ["load", "load_fields", "save", "open", "info", "verify", "convert", "memmap", "format_of", "local_box", "gauge",
           "build_info", "FORMATS", "FIELD_TYPES",
           "LattioError",
           "ArgumentError", "LattioIOError", "FormatError", "ChecksumError", "MPIError",
           "RankArgumentError", "ContainerError", "HDF5Error"]

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what type checkers see; at run time __getattr__ below loads them
    from ._grid import local_box  # noqa: F401
    from .api import (FIELD_TYPES, FORMATS, build_info, convert, format_of, info, load, load_fields,  # noqa: F401
                      memmap, save, verify)
    from .file import open  # noqa: F401
    from . import gauge  # noqa: F401

# What needs a C extension is imported at its first use, not by `import
# lattio`.  Serial calls use the MPI-free lattio._core; only a communicator
# or an HDF5 file brings in lattio._lattio and mpi4py (which initialises MPI).
_FROM_API = ("load", "load_fields", "save", "info", "verify", "convert", "memmap", "format_of", "build_info", "FORMATS",
             "FIELD_TYPES")
_SUBMODULES = ("api", "file", "gauge", "_formats", "_load", "_save", "_report", "_convert", "_mpi", "_grid", "_core", "_lattio")


def __getattr__(name):
    import importlib

    if name in _FROM_API:
        return getattr(importlib.import_module(".api", __name__), name)
    if name in ("open", "File", "Field", "Part"):
        return getattr(importlib.import_module(".file", __name__), name)
    if name == "local_box":
        return importlib.import_module("._grid", __name__).local_box
    if name == "__version__":
        return importlib.import_module("._core", __name__).version()
    if name in _SUBMODULES:
        return importlib.import_module("." + name, __name__)
    raise AttributeError("module 'lattio' has no attribute %r" % name)


def __dir__():
    return sorted(set(globals()) | set(__all__) | {"__version__"})
