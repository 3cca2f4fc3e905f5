"""save writes the format its path's suffix names when format is not given
(ILDG for any other suffix; an explicit format wins), and takes an array of
either byte order: a big-endian one (a memmap of a file) writes the same
bytes as its native copy."""
import numpy as np
import pytest

import lattio
from conftest import data, read_bytes


@pytest.mark.parametrize("name,fmt", [
    ("cfg.ildg", "ildg"), ("cfg.lime", "ildg"), ("cfg.scidac", "scidac"), ("cfg.nersc", "nersc"),
    ("cfg.milc", "milc"), ("cfg.openqcd", "openqcd"), ("cfg.h5", "hdf5"), ("CFG.HDF5", "hdf5"),
    ("cfg.h5:/cfg/U", "hdf5"), ("cfg.dat", "ildg"), ("cfg", "ildg")])
def test_format_of(name, fmt):
    assert lattio.format_of(name) == fmt


@pytest.mark.parametrize("name,fmt", [("u.nersc", "nersc"), ("u.milc", "milc"), ("u.openqcd", "openqcd"),
                                      ("u.scidac", "scidac"), ("u.h5", "hdf5"), ("u.cfg", "ildg")])
def test_save_follows_the_suffix(tmp_path, name, fmt):
    u = lattio.load(data("lat.sample.l4444.ildg"))
    path = str(tmp_path / name)
    lattio.save(path, u)
    types = [r["type"] for r in lattio.info(path)] if fmt in ("ildg", "scidac") else []
    if fmt == "scidac":
        assert "scidac-binary-data" in types and "ildg-format" not in types
    elif fmt == "ildg":
        assert "ildg-format" in types
    assert lattio.verify(path)["format"] == fmt
    np.testing.assert_allclose(lattio.load(path), u, rtol=0, atol=1e-6)


def test_explicit_format_wins(tmp_path):
    u = lattio.load(data("lat.sample.l4444.ildg"))
    path = str(tmp_path / "u.nersc")
    lattio.save(path, u, format="ildg")
    assert lattio.verify(path)["format"] == "ildg"


def test_any_byte_order(tmp_path):
    m = lattio.memmap(data("t_dprec_ildg.lime"))  # big-endian, straight from the file
    assert m.dtype.byteorder == ">"
    native = np.ascontiguousarray(m, dtype=m.dtype.newbyteorder("="))
    a, b = str(tmp_path / "from_memmap.ildg"), str(tmp_path / "from_native.ildg")
    lattio.save(a, m, metadata={"date": "fixed"})
    lattio.save(b, native, metadata={"date": "fixed"})
    assert read_bytes(a) == read_bytes(b)
    assert np.array_equal(lattio.load(a), native)
