"""Multi-field files: a list of fields saved as SciDAC is QIO's
multi-record file (read here with an independent LIME parser: the file's
two header records once, then four records per field, each binary record
the field's own big-endian bytes with its own SciDAC checksum computed here
with zlib); as HDF5, one dataset per field (read here with h5py); both come
back with load_fields and load(index=...), a real multi-field file too;
lists that do not make one file are refused before anything is written."""
import os
import re

import numpy as np
import pytest

import lattio
from conftest import data, parse_lime, scidac_sums

SHAPE = (4, 2, 2, 6)


def fermions(n, dtype=np.complex128, seed=3):
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal(SHAPE + (4, 3)) + 1j * rng.standard_normal(SHAPE + (4, 3))).astype(dtype)
            for _ in range(n)]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_scidac_multi_record_bytes(tmp_path, dtype):
    vs = fermions(3, dtype)
    path = str(tmp_path / "evecs.lime")
    lattio.save(path, vs, format="scidac", field="fermion")
    recs = parse_lime(open(path, "rb").read())
    types = [t for t, _, _ in recs]
    per_field = ["scidac-private-record-xml", "scidac-record-xml", "scidac-binary-data", "scidac-checksum"]
    assert types == ["scidac-private-file-xml", "scidac-file-xml"] + per_field * 3
    binaries = [p for t, _, p in recs if t == "scidac-binary-data"]
    checksums = [p for t, _, p in recs if t == "scidac-checksum"]
    site = 4 * 3 * np.dtype(dtype).itemsize
    for v, b, c in zip(vs, binaries, checksums):
        assert b == v.astype(v.dtype.newbyteorder(">")).tobytes()
        want = tuple(int(x, 16) for x in scidac_sums(b, site))
        text = c.decode()
        got = tuple(int(re.search("<%s>([0-9a-fA-F]+)</%s>" % (k, k), text).group(1), 16) for k in ("suma", "sumb"))
        assert got == want
    back = lattio.load_fields(path)
    assert len(back) == 3 and all(np.array_equal(x, y) and x.shape == SHAPE + (4, 3) for x, y in zip(vs, back))
    assert np.array_equal(lattio.load(path, index=1), vs[1])
    rep = lattio.verify(path)
    assert rep["ok"] and len(rep["fields"]) == 3


@pytest.mark.parametrize("layout", ["qdp", "qlua"])
def test_hdf5_one_dataset_per_field(tmp_path, layout):
    h5py = pytest.importorskip("h5py")
    vs = fermions(3)
    path = str(tmp_path / "evecs.h5")
    lattio.save(path + ":/evecs", vs, format="hdf5", layout=layout, field="fermion")
    with h5py.File(path, "r") as f:
        assert sorted(f["evecs"].keys()) == ["field0", "field1", "field2"]
        for i, v in enumerate(vs):
            raw = f["evecs/field%d" % i][()]
            if layout == "qlua":  # [Lx][Ly][Lz][Lt] of [4] of [3] compound (r, i): h5py gives complex
                got = raw.transpose(3, 2, 1, 0, 4, 5)
            else:  # [Lt][Lz][Ly][Lx][24] little-endian reals
                got = raw.view(np.complex128)
            assert np.array_equal(got.reshape(SHAPE + (4, 3)), v)
    back = lattio.load_fields(path + ":/evecs")
    assert all(np.array_equal(x, y) for x, y in zip(vs, back))
    assert np.array_equal(lattio.load(path + ":/evecs/field2"), vs[2])
    assert len(lattio.load_fields(path)) == 3


def test_natural_order(tmp_path):
    """Twelve fields come back as field0 .. field11, not field0, field1, field10."""
    pytest.importorskip("h5py")
    vs = [np.full(SHAPE, float(i)) for i in range(12)]
    path = str(tmp_path / "many.h5")
    lattio.save(path, vs, format="hdf5")
    assert [float(a[0, 0, 0, 0]) for a in lattio.load_fields(path)] == [float(i) for i in range(12)]


def test_real_file_fields():
    """QDP++'s t_qio file: three fields of different sizes, each with its checksum."""
    fields = lattio.load_fields(data("t_qio.intel-scalar.lime"))
    assert [f.shape for f in fields] == [(8, 4, 4, 4), (8, 4, 4, 4, 9), (8, 4, 4, 4, 4, 9)]
    assert all(f.dtype == np.complex64 for f in fields)
    assert len(lattio.load_fields(data("t_nersc.cfg"))) == 1


def test_lists_refused(tmp_path, su3):
    path = str(tmp_path / "x.lime")
    vs = fermions(2)
    with pytest.raises(ValueError, match="share shape and dtype"):
        lattio.save(path, [vs[0], vs[1][:2]], format="scidac")
    with pytest.raises(ValueError, match="share shape and dtype"):
        lattio.save(path, [vs[0], vs[1].astype(np.complex64)], format="scidac")
    with pytest.raises(ValueError, match="SciDAC or HDF5"):
        lattio.save(path, [su3, su3], format="nersc")
    with pytest.raises(ValueError, match="empty"):
        lattio.save(path, [], format="scidac")
    with pytest.raises(TypeError):
        lattio.save(path, [vs[0], "not an array"], format="scidac")
    assert not os.path.exists(path)


def test_missing_group(tmp_path):
    pytest.importorskip("h5py")
    path = str(tmp_path / "one.h5")
    lattio.save(path + ":/a/b", fermions(1)[0], format="hdf5")
    with pytest.raises(lattio.HDF5Error) as e:
        lattio.load_fields(path + ":/nothing")
    assert e.value.name == "ERR_HDF5_NOT_FOUND"
