"""Every read path verified, or visibly not (issue 42, item 3).

lattio.open's part reads verify the field's checksum once per open (and
raise ChecksumError for every part of a field that does not verify); the
handle holds the file it opened (a file renamed over the path is not read;
one cut under it raises a lattio error, not numpy's); xarray's chunked and
multi-file reads go through the same check, so compute() raises; verify=False
is the explicit opt-out and its parts say so."""
import os
import shutil

import numpy as np
import pytest

import lattio
from conftest import data, parse_lime

FILES = ["lat.sample.l4444.ildg", "t_nersc.cfg", "t_qio.intel-scalar.lime"]


def damaged(tmp_path, name="lat.sample.l4444.ildg"):
    """A copy of a real file with one byte of its (first) field flipped."""
    raw = bytearray(open(data(name), "rb").read())
    recs = [(t, at, p) for t, at, p in parse_lime(bytes(raw)) if t.endswith("binary-data")] if raw[:4] == \
        b"\x45\x67\x89\xab" else [("", len(raw) - 1000, b"x")]
    raw[recs[0][1] + 100] ^= 0x04
    out = tmp_path / ("bad_" + name)
    out.write_bytes(bytes(raw))
    return str(out)


@pytest.mark.parametrize("name", FILES)
def test_parts_are_verified_once(name):
    with lattio.open(data(name)) as f:
        for field in f.fields:
            part = field[1]
            assert part.verified is True, (name, field)
            assert np.array_equal(part, lattio.load(data(name), index=field.index)[1]
                                  if f.format in ("ildg", "scidac") else lattio.load(data(name))[1])
            assert field._verdict == (True, None)


@pytest.mark.parametrize("name", ["lat.sample.l4444.ildg", "t_nersc.cfg"])
def test_damaged_parts_raise(tmp_path, name):
    bad = damaged(tmp_path, name)
    with lattio.open(bad) as f:
        with pytest.raises(lattio.ChecksumError):
            f.fields[0][2]
        with pytest.raises(lattio.ChecksumError):  # every part, not only the first
            f.fields[0][0, 0]
        assert bad in str(f.fields[0]._verdict[1]) and "/proc/self" not in str(f.fields[0]._verdict[1])
    with lattio.open(bad, verify=False) as f:
        part = f.fields[0][2]
        assert part.verified is False and part.shape == f.fields[0].shape[1:]


def test_the_handle_holds_its_file(tmp_path):
    path = tmp_path / "cfg.ildg"
    shutil.copy(data("lat.sample.l4444.ildg"), path)
    want = lattio.load(str(path))
    with lattio.open(str(path)) as f:
        assert np.array_equal(f.fields[0][0], want[0])
        other = tmp_path / "other.ildg"
        lattio.save(str(other), np.conj(want), format="ildg")  # another configuration, same size
        os.replace(other, path)  # renamed over the open file's path
        assert np.array_equal(f.fields[0][3], want[3])  # still the file it opened
        assert np.array_equal(f.fields[0].read(), want)
    assert not np.array_equal(lattio.load(str(path)), want)


def test_cut_under_the_handle(tmp_path):
    path = tmp_path / "cfg.ildg"
    shutil.copy(data("lat.sample.l4444.ildg"), path)
    with lattio.open(str(path)) as f:
        f.fields[0][0]
        os.truncate(path, 3000)
        with pytest.raises(lattio.FormatError) as e:
            f.fields[0][3]
        assert e.value.name == "ERR_TRUNCATED_PAYLOAD" and str(path) in str(e.value)


def test_closed_file_refuses():
    f = lattio.open(data("lat.sample.l4444.ildg"))
    f.close()
    with pytest.raises(ValueError):
        f.fields[0][0]


@pytest.fixture
def xr():
    pytest.importorskip("dask.array")
    return pytest.importorskip("xarray")


def test_xarray_chunks_raise_on_a_damaged_file(tmp_path, xr):
    bad = damaged(tmp_path)
    ds = xr.open_dataset(bad, engine="lattio", chunks={"t": 1})
    with pytest.raises(lattio.ChecksumError):
        ds["gauge"].mean().compute()
    ds.close()
    with xr.open_dataset(bad, engine="lattio", chunks={"t": 1}, verify=False) as ds:
        assert np.isfinite(abs(ds["gauge"]).mean().compute())


def test_xarray_ensemble_with_one_damaged_member(tmp_path, xr):
    good = []
    for k in range(3):
        p = tmp_path / ("cfg%d.ildg" % k)
        shutil.copy(data("lat.sample.l4444.ildg"), p)
        good.append(str(p))
    with xr.open_mfdataset(good, engine="lattio", combine="nested", concat_dim="config", chunks={"t": 1}) as ds:
        m = ds["gauge"].real.mean().compute()
        assert abs(float(m) - float(lattio.load(good[0]).real.mean())) < 1e-6
    with xr.open_mfdataset(good[:2] + [damaged(tmp_path)], engine="lattio", combine="nested",
                           concat_dim="config", chunks={"t": 1}) as ds:
        with pytest.raises(lattio.ChecksumError):
            ds["gauge"].real.mean().compute()
