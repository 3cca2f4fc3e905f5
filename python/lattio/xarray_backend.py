"""The xarray backend: ``xr.open_dataset(path, engine="lattio")``.

Registered through the ``xarray.backends`` entry point (pyproject.toml).
Every field of the file (:func:`lattio.open`) becomes a variable with
named dimensions (``t, z, y, x, mu, row, col`` for a gauge field; see
:data:`lattio.file.AXES`), the file's and field's metadata as attributes,
and lazy loading: nothing is read when the dataset is opened; indexing
reads the sites asked for (a timeslice reads a timeslice), and reading a
whole variable is :func:`lattio.load`'s verified read.  With ``chunks``
(e.g. ``{"t": 1}``) the variables are dask arrays, one read per chunk; the
first chunk read of a field verifies its checksum once (streamed), so a
damaged file raises :class:`lattio.ChecksumError` from ``compute()``.
``verify=False`` (``xr.open_dataset(..., engine="lattio", verify=False)``)
is the explicit opt-out.  ``ds.close()`` (and ``with``) releases the file.

    >>> ds = xr.open_mfdataset(paths, engine="lattio", combine="nested",
    ...                        concat_dim="config", chunks={"t": 1})
"""
from __future__ import annotations

import os
import re
from typing import Any, Dict, Iterable, Optional, Tuple

import numpy as np
import xarray as xr
from xarray.backends import BackendArray, BackendEntrypoint
from xarray.core import indexing

from ._formats import SUFFIXES, _path
from .file import Field, File

__all__ = ["LattioBackendEntrypoint", "LattioArray"]


class LattioArray(BackendArray):
    """One field, read on demand (``reads`` counts the reads, for tests)."""

    reads = 0

    def __init__(self, field: Field) -> None:
        self.field = field
        self.shape = field.shape
        self.dtype = field.dtype

    def __getitem__(self, key: indexing.ExplicitIndexer) -> np.ndarray:
        return indexing.explicit_indexing_adapter(key, self.shape, indexing.IndexingSupport.BASIC, self._read)

    def _read(self, key: Tuple[Any, ...]) -> np.ndarray:
        type(self).reads += 1
        whole = all(isinstance(k, slice) and k.indices(n) == (0, n, 1) for k, n in zip(key, self.shape))
        if whole:
            return self.field.read()  # the verified read
        return np.asarray(self.field[key])


def _attrs(meta: Dict[str, Any], prefix: str = "") -> Dict[str, Any]:
    """Metadata flattened to attributes xarray writers take: str, int,
    float (nested dicts as "a.b" keys, lists joined)."""
    out: Dict[str, Any] = {}
    for k, v in meta.items():
        key = prefix + str(k)
        if isinstance(v, dict):
            out.update(_attrs(v, key + "."))
        elif isinstance(v, (list, tuple)):
            out[key] = " ".join(str(x) for x in v)
        elif isinstance(v, (bool, np.bool_)):
            out[key] = int(v)
        elif isinstance(v, (str, int, float, np.integer, np.floating)):
            out[key] = v
        elif isinstance(v, np.ndarray):
            out[key] = v.tobytes().hex() if v.dtype == np.uint8 else v
    return out


def _names(fields: Iterable[Field]) -> Dict[int, str]:
    names: Dict[int, str] = {}
    taken: set = set()
    for f in fields:
        base = f.name.strip("/").replace("/", "_") if f.format == "hdf5" else (
            f.kind if f.kind != "field" else "field_%d" % f.index)  # gauge, propagator, fermion, ...
        name, n = base or "field", 1
        while name in taken:
            name, n = "%s_%d" % (base, n), n + 1
        taken.add(name)
        names[f.index] = name
    return names


def dataset(file: File, drop_variables: Optional[Iterable[str]] = None) -> xr.Dataset:
    """The lazy dataset of an open :class:`lattio.File`."""
    drop = set(drop_variables or ())
    names = _names(file.fields)
    variables = {}
    for f in file.fields:
        name = names[f.index]
        if name in drop:
            continue
        # the table's axis names (mu, spin_sink, color_source, ...) as they are;
        # an untyped field's s0, s1, ... are its own
        dims = tuple("%s_%s" % (name, d) if re.fullmatch(r"s\d+", d) else d for d in f.dims)
        attrs = {"lattio_format": f.format, "lattio_field": f.index, "precision": f.precision,
                 "checksum": f.checksum, "kind": f.kind}
        attrs.update(_attrs(f.metadata))
        data = indexing.LazilyIndexedArray(LattioArray(f))
        # a timeslice is the unit of the file's layout (contiguous in LIME):
        # chunks={} reads one per chunk, chunks="auto" as many as fill dask's chunk size
        variables[name] = xr.Variable(dims, data, attrs, encoding={"preferred_chunks": {"t": 1}})
    coords = {}
    if any(f.kind == "gauge" for f in file.fields):
        coords["mu"] = ("mu", np.array(["x", "y", "z", "t"]))
    attrs = {"lattio_format": file.format, "source": file.path}
    attrs.update(_attrs(file.metadata))
    return xr.Dataset(variables, coords=coords, attrs=attrs)


class LattioBackendEntrypoint(BackendEntrypoint):
    """``engine="lattio"``: ILDG, SciDAC, LIME, NERSC, MILC, openQCD and
    HDF5 (QDP++ and Qlua layouts) lattice files."""

    description = "Lattice QCD files (ILDG, SciDAC, NERSC, MILC, openQCD, HDF5) through lattio"
    url = "https://github.com/lattio/lattio/blob/main/docs/python.md"
    open_dataset_parameters = ("filename_or_obj", "drop_variables", "verify")

    def open_dataset(self, filename_or_obj: Any, *, drop_variables: Optional[Iterable[str]] = None,
                     verify: bool = True) -> xr.Dataset:
        """The file's fields as lazy variables (see the module's docstring)."""
        file = File(_path(filename_or_obj), verify=verify)
        ds = dataset(file, drop_variables)
        ds.set_close(file.close)
        return ds

    def guess_can_open(self, filename_or_obj: Any) -> bool:
        """True for a path whose suffix is one of lattio's (save's suffixes)."""
        try:
            path = os.fspath(filename_or_obj)
        except TypeError:
            return False
        return isinstance(path, str) and os.path.splitext(path)[1].lower() in set(SUFFIXES) - {".h5", ".hdf5"}
