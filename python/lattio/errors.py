"""Exceptions of the lattio package.

Every failure of the C library is a :class:`LattioError` carrying the
library's status: its number (``status``), its name (``name``, e.g.
``"ERR_CHECKSUM"``), the library's message and, where the library has more
to say, ``detail`` (which record, which checksums, what the system said).
The subclasses group the statuses the way ``lattio.h`` does, so a caller can
catch what it can handle::

    try:
        u = lattio.load("cfg.lime")
    except lattio.ChecksumError as e:
        print("damaged:", e.detail)

Bad arguments (wrong shape, dtype, a non-contiguous array, an unknown
format) raise ``ValueError`` or ``TypeError`` before any file is touched.
"""

import errno as _errno
import os as _os

__all__ = ["LattioError", "ArgumentError", "LattioIOError", "FormatError", "ChecksumError",
           "MPIError", "RankArgumentError", "ContainerError", "HDF5Error", "LattioFileNotFoundError",
           "LattioIsADirectoryError", "LattioNotADirectoryError", "LattioPermissionError",
           "LattioFileExistsError", "from_status"]


class LattioError(Exception):
    """A status of the lattio C library (base of every lattio exception).

    Attributes: ``status`` (negative int), ``name`` (e.g. ``"ERR_OPEN"``),
    ``message`` (the library's wording), ``detail`` (more: the record,
    both checksums, the system's reason; may be empty), ``what`` (the file
    or operation concerned)."""

    def __init__(self, status, name, message, detail="", what=""):
        self.status, self.name, self.message, self.detail, self.what = status, name, message, detail, what
        super().__init__(str(self))

    def __str__(self):
        where = "%s: " % self.what if self.what else ""
        more = ": %s" % self.detail if self.detail else ""
        return "%s%s (%s)%s" % (where, self.message, self.name, more)

    def __reduce__(self):  # picklable, so mpi4py can send it between ranks
        return (type(self), (self.status, self.name, self.message, self.detail, self.what))


class ArgumentError(LattioError, ValueError):
    """The library refused an argument or a state (ERR_ARG .. ERR_PENDING, -1..-99)."""


class LattioIOError(LattioError, OSError):
    """Opening, reading, writing, syncing or renaming failed (-100..-199).

    As an :class:`OSError` it carries ``errno`` and ``strerror`` (the
    system's reason, when the library knows it; else None) and ``filename``
    (the file concerned).  The common reasons raise the matching built-in
    subclass too: :class:`FileNotFoundError`, :class:`IsADirectoryError`,
    :class:`NotADirectoryError`, :class:`PermissionError`,
    :class:`FileExistsError`."""

    def __init__(self, status, name, message, detail="", what="", err=0):
        LattioError.__init__(self, status, name, message, detail, what)
        self.errno, self.strerror = (err, _os.strerror(err)) if err else (None, None)
        self.filename = what or None

    def __str__(self):
        """As LattioError's, with the system's reason (strerror) when the
        library knows it and the detail does not say it already."""
        text = LattioError.__str__(self)
        if self.strerror and self.strerror not in text:
            text += ": %s" % self.strerror
        return text

    def __reduce__(self):
        return (type(self), (self.status, self.name, self.message, self.detail, self.what, self.errno or 0))


class LattioFileNotFoundError(LattioIOError, FileNotFoundError):
    """The file (or a directory on its path) does not exist (ENOENT)."""


class LattioIsADirectoryError(LattioIOError, IsADirectoryError):
    """A file was expected, the path names a directory (EISDIR)."""


class LattioNotADirectoryError(LattioIOError, NotADirectoryError):
    """A component of the path is not a directory (ENOTDIR)."""


class LattioPermissionError(LattioIOError, PermissionError):
    """The system refused access (EACCES, EPERM)."""


class LattioFileExistsError(LattioIOError, FileExistsError):
    """The file exists where a new one was to be made (EEXIST)."""


_BY_ERRNO = {_errno.ENOENT: LattioFileNotFoundError, _errno.EISDIR: LattioIsADirectoryError,
             _errno.ENOTDIR: LattioNotADirectoryError, _errno.EACCES: LattioPermissionError,
             _errno.EPERM: LattioPermissionError, _errno.EEXIST: LattioFileExistsError}


class FormatError(LattioError):
    """The file is not what it claims: LIME structure, metadata, foreign
    headers, unknown formats (-200..-299)."""


class ChecksumError(LattioError):
    """The data fails its checksum, verification, plaquette or unitarity
    check (-300..-399); ``detail`` names the record and both checksums."""


class MPIError(LattioError):
    """An MPI or MPI-IO call failed, or the ranks disagreed (-400..-599)."""


class RankArgumentError(MPIError, ValueError):
    """The ranks of a collective call passed different arguments
    (ERR_RANK_ARG); ``detail`` names the first that differs.  Raised on
    every rank, before anything is read or written."""


class ContainerError(LattioError):
    """A task-local container is damaged or inconsistent (-600..-699)."""


class HDF5Error(LattioError):
    """HDF5 failed or the object is not a lattice field lattio knows (-700..-799)."""


_GROUPS = [(-99, ArgumentError), (-199, LattioIOError), (-299, FormatError), (-399, ChecksumError),
           (-599, MPIError), (-699, ContainerError), (-799, HDF5Error)]


def from_status(status, name, message, detail="", what="", err=0):
    """The exception object (of the status's group; for I/O statuses with a
    known system reason ``err``, of the matching OSError subclass too) for a
    library status."""
    what = str(what) if what else ""
    if status == -500:
        return RankArgumentError(status, name, message, detail, what)
    if -199 <= status <= -100:
        return _BY_ERRNO.get(err, LattioIOError)(status, name, message, detail, what, err)
    cls = LattioError
    for lowest, group in _GROUPS:
        if status >= lowest:
            cls = group
            break
    return cls(status, name, message, detail, what)
