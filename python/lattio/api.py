"""load, save, info, verify, convert, memmap: lattice files as NumPy arrays.

Arrays are in array-axis order (T, Z, Y, X, ...): x fastest, as every
format in the community stores sites.  A gauge field is
``(T, Z, Y, X, 4, 3, 3)`` complex, links ``mu = x, y, z, t`` (ILDG order),
3x3 matrices row-major.  All conversion and checksumming happens in the C
library, in the NumPy buffer, with the GIL released.

The calls live in one module per concern: :mod:`lattio._formats` (names,
formats, sites), :mod:`lattio._load`, :mod:`lattio._save`,
:mod:`lattio._report` (info, verify, memmap), :mod:`lattio._convert` and :mod:`lattio._mpi`
(communicators); this module gathers the public ones.
"""
from ._formats import FIELD_TYPES, FORMATS, SUFFIXES, PathLike, format_of
from ._load import load, load_fields
from ._convert import convert
from ._report import build_info, info, memmap, verify
from ._save import save

__all__ = ["load", "load_fields", "save", "info", "verify", "convert", "memmap", "format_of", "FORMATS", "SUFFIXES", "FIELD_TYPES",
           "PathLike"]
