"""Damaged files raise their specific exceptions; bad arguments raise
ValueError/TypeError before any file is touched."""
import errno
import os
import shutil

import numpy as np
import pytest

import lattio
from conftest import data


def copy(tmp_path, name):
    dst = str(tmp_path / name)
    shutil.copy(data(name), dst)
    return dst


def flip(path, offset):
    with open(path, "r+b") as f:
        f.seek(offset)
        b = f.read(1)
        f.seek(offset)
        f.write(bytes([b[0] ^ 0x04]))


def test_checksum_error_names_record_and_sums(tmp_path):
    path = copy(tmp_path, "t_dprec_ildg.lime")
    flip(path, 1936 + 144 + 5000)  # inside ildg-binary-data
    with pytest.raises(lattio.ChecksumError) as e:
        lattio.load(path)
    err = e.value
    assert err.name == "ERR_CHECKSUM" and err.status == -300
    assert "ildg-binary-data" in err.detail or "1936" in err.detail, err.detail
    assert "e6ca40a6" in err.detail and "59cdeef1" in err.detail  # the stored sums, and the computed
    assert isinstance(err, lattio.LattioError)
    u = lattio.load(path, verify=False)  # the caller may still look
    assert u.shape == (4, 4, 4, 4, 4, 3, 3)
    rep = lattio.verify(path)
    assert not rep["ok"] and rep["fields"][0]["ok"] is False
    assert rep["fields"][0]["stored"] == ["e6ca40a6", "59cdeef1"]


def test_nersc_checksum_and_plaquette(tmp_path):
    path = copy(tmp_path, "t_nersc.cfg")
    flip(path, 586 + 1000)
    with pytest.raises(lattio.ChecksumError) as e:
        lattio.load(path)
    assert e.value.name == "ERR_CHECKSUM" and "717938df" in e.value.detail
    assert not lattio.verify(path)["ok"]


def test_truncated_and_foreign(tmp_path):
    path = copy(tmp_path, "lat.sample.l4444.ildg")
    with open(path, "r+b") as f:
        f.truncate(40000)
    with pytest.raises(lattio.FormatError):
        lattio.load(path)
    junk = str(tmp_path / "junk.bin")
    with open(junk, "wb") as f:
        f.write(b"GRIB" + bytes(500))
    with pytest.raises(lattio.FormatError) as e:
        lattio.load(junk)
    assert e.value.name == "ERR_UNKNOWN_FORMAT"
    with pytest.raises(lattio.FormatError):
        lattio.info(junk)


def test_missing_file(tmp_path):
    with pytest.raises(lattio.LattioIOError) as e:
        lattio.load(str(tmp_path / "nope.lime"))
    assert isinstance(e.value, OSError) and e.value.name == "ERR_OPEN"
    with pytest.raises(lattio.LattioIOError):
        lattio.save(str(tmp_path / "no" / "dir" / "u.ildg"), np.zeros((2, 2, 2, 2, 4, 3, 3), np.complex128))
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("call", ["load", "info", "verify", "memmap", "load_h5"])
def test_errors_fit_python(tmp_path, call):
    """The system's reason is Python's: a missing file is FileNotFoundError,
    a directory IsADirectoryError, a file in the path NotADirectoryError,
    each with errno and the path, and still a lattio.LattioIOError."""
    fn = getattr(lattio, call.replace("_h5", ""))
    suffix = ".h5" if call == "load_h5" else ".lime"
    (tmp_path / "plain").write_bytes(b"x")
    cases = [(tmp_path / ("nope" + suffix), FileNotFoundError, errno.ENOENT),
             (tmp_path / "plain" / ("x" + suffix), NotADirectoryError, errno.ENOTDIR)]
    if call != "load_h5":
        cases.append((tmp_path, IsADirectoryError, errno.EISDIR))
    for path, exc, num in cases:
        with pytest.raises(exc) as e:
            fn(str(path))
        assert isinstance(e.value, lattio.LattioIOError), type(e.value)
        assert e.value.errno == num and e.value.strerror == os.strerror(num)
        assert e.value.filename == str(path)


def test_directory_output_is_a_directory_error(tmp_path, su3):
    with pytest.raises(IsADirectoryError) as e:
        lattio.save(str(tmp_path), su3)
    assert e.value.name == "ERR_NOT_REGULAR" and e.value.errno == errno.EISDIR


def test_io_errors_pickle_with_errno():
    import pickle

    e = lattio.errors.from_status(-101, "ERR_OPEN", "cannot open file", "", "f.lime", errno.ENOENT)
    again = pickle.loads(pickle.dumps(e))
    assert type(again) is type(e) and isinstance(again, FileNotFoundError)
    assert again.errno == errno.ENOENT and again.filename == "f.lime" and str(again) == str(e)


@pytest.mark.parametrize("fmt", ["ildg", "nersc", "hdf5"])
def test_output_must_be_a_regular_file(tmp_path, su3, fmt):
    """A FIFO, a directory or a symbolic link at the output is never replaced."""
    fifo, d, link = tmp_path / "fifo", tmp_path / "dir", tmp_path / "link"
    os.mkfifo(fifo)
    d.mkdir()
    (tmp_path / "victim").write_bytes(b"kept")
    link.symlink_to(tmp_path / "victim")
    for out in (fifo, d, link):
        with pytest.raises(lattio.LattioIOError) as e:
            lattio.save(str(out), su3, format=fmt)
        assert e.value.name == "ERR_NOT_REGULAR", e.value
    assert fifo.is_fifo() and d.is_dir() and link.is_symlink()
    assert (tmp_path / "victim").read_bytes() == b"kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir", "fifo", "link", "victim"]


@pytest.mark.parametrize("fmt", ["ildg", "scidac", "hdf5"])
def test_metadata_beyond_what_readers_take(tmp_path, su3, fmt):
    """A writer never publishes what its own reader refuses: XML over the
    readers' 16 MiB is refused before anything is written."""
    path = tmp_path / ("u." + fmt)
    with pytest.raises(lattio.ArgumentError) as e:
        lattio.save(str(path), su3, format=fmt, metadata={"file_xml": "<x>" + "y" * ((16 << 20) - 7) + "</x>"})
    assert e.value.name == "ERR_ARG" and "16777216" in e.value.detail
    assert os.listdir(tmp_path) == []
    if fmt == "hdf5":  # HDF5 keeps attributes in the object header: 64 KiB at most, refused by HDF5 itself
        with pytest.raises(lattio.HDF5Error):
            lattio.save(str(path), su3, format=fmt, metadata={"file_xml": "<x>" + "y" * (1 << 16) + "</x>"})
        assert os.listdir(tmp_path) == []
        return
    lattio.save(str(path), su3, format=fmt, metadata={"file_xml": "<x>" + "y" * ((16 << 20) - 8) + "</x>"})
    assert lattio.load(str(path)).shape == su3.shape


def test_hdf5_errors(tmp_path, su3):
    path = str(tmp_path / "u.h5")
    lattio.save(path, su3, format="hdf5")
    with pytest.raises(lattio.HDF5Error) as e:
        lattio.load(path + ":/nothing/here")
    assert e.value.name == "ERR_HDF5_NOT_FOUND"
    with pytest.raises(lattio.HDF5Error):  # the object exists already
        lattio.save(path, su3, format="hdf5", append=True)


@pytest.mark.parametrize("bad,exc", [
    (lambda u: u.real.copy(), ValueError),                                        # real, not complex
    (lambda u: u[::2], ValueError),                                               # not contiguous
    (lambda u: u[..., 0], ValueError),                                            # wrong shape
    (lambda u: u.tolist(), TypeError),                                            # not an array
])
def test_bad_arrays(tmp_path, su3, bad, exc):
    with pytest.raises(exc):
        lattio.save(str(tmp_path / "u.ildg"), bad(su3))
    assert os.listdir(tmp_path) == []


def test_bad_arguments(tmp_path, su3):
    p = str(tmp_path / "u.ildg")
    for kw in ({"format": "grib"}, {"precision": 16}, {"metadata": {"colour": 3}}, {"layout": "chroma"}):
        with pytest.raises(ValueError):
            lattio.save(p, su3, **kw)
    with pytest.raises(TypeError):
        lattio.save(p, su3, comm="world")
    with pytest.raises(TypeError):
        lattio.save(42, su3)
    with pytest.raises(ValueError):
        lattio.save(p, su3, metadata={"lfn": "a\0b"})
    assert os.listdir(tmp_path) == []
    lattio.save(p, su3)
    with pytest.raises(ValueError):
        lattio.load(p, dtype=np.int32)
    with pytest.raises(ValueError):
        lattio.load(p, index=3)
    with pytest.raises(ValueError):
        lattio.local_box((4, 4, 4, 4), None, grid=(2, 1, 1, 1))


def test_error_groups():
    groups = {-1: lattio.ArgumentError, -101: lattio.LattioIOError, -203: lattio.FormatError,
              -300: lattio.ChecksumError, -401: lattio.MPIError, -600: lattio.ContainerError,
              -700: lattio.HDF5Error}
    for status, cls in groups.items():
        e = lattio.errors.from_status(status, "ERR_X", "msg", "detail", "f")
        assert type(e) is cls and str(e) == "f: msg (ERR_X): detail"


def test_errors_that_fit_python(tmp_path):
    """A wrong type is a TypeError; an I/O error's text carries the system's
    reason; a file of several lattice fields is not read as its first
    without an index; SU(N) outside 2..16 is refused, not flattened."""
    u = lattio.load(data("lat.sample.l4444.ildg"))
    with pytest.raises(TypeError):
        lattio.save(str(tmp_path / "m.ildg"), u, metadata=42)
    with pytest.raises(FileNotFoundError) as e:
        lattio.load(str(tmp_path / "missing.ildg"))
    assert "No such file or directory" in str(e.value) and "missing.ildg" in str(e.value)
    a = np.zeros((2, 2, 2, 2, 3), np.complex64)
    multi = str(tmp_path / "two.scidac")
    lattio.save(multi, [a, a + 1], format="scidac")
    with pytest.raises(ValueError) as e:
        lattio.load(multi)
    assert "2 lattice fields" in str(e.value) and "load_fields" in str(e.value)
    assert np.array_equal(lattio.load(multi, index=1), a + 1)
    for n in (1, 17):
        for fmt in ("scidac", "hdf5", "ildg"):
            with pytest.raises(ValueError) as e:
                lattio.save(str(tmp_path / ("su%d.%s" % (n, fmt))), np.zeros((2, 2, 2, 2, 4, n, n), np.complex128),
                            format=fmt)
            assert "SU(%d)" % n in str(e.value)
