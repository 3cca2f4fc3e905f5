"""The package as `pip install` built it on one machine shape
(tests/python/wheel_shapes.py builds the wheel with the shape's missing
development packages hidden, installs it and runs this file against it;
LATTIO_SHAPE names the shape).  Asserted: the build holds what the shape
allows and says so (lattio.build_info(), `lattio --version`); the command
is installed in every shape; HDF5 fields of both layouts read with their
checksums verified (equal to the ILDG file they were converted from, a
damaged copy refused) wherever the build has HDF5, without MPI where it
reads HDF5 on a serial libhdf5; the command's serial operations (info,
check, verify, convert from HDF5) run and never start MPI; a shape
without HDF5 refuses an HDF5 file by name."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from conftest import data

SHAPE = os.environ.get("LATTIO_SHAPE")
SITE = os.environ.get("LATTIO_SHAPE_SITE")
pytestmark = pytest.mark.skipif(not SHAPE, reason="run by tests/python/wheel_shapes.py")
HDF5 = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data", "hdf5")
H5_FILES = [("t_dprec_qdp.h5", "qdp"), ("t_dprec_qlua.h5", "qlua")]

# shape: (MPI module, what the library line says of HDF5, HDF5 read without MPI)
EXPECT = {
    "laptop": (False, "serial", True),
    "bare": (False, "no HDF5", False),
    "mpi-no-phdf5": (True, "serial", True),
    "full": (True, "parallel", False),
    "sdist": (True, "parallel", False),
}


@pytest.fixture(scope="module")
def lattio():
    import lattio as mod
    assert os.path.dirname(os.path.dirname(os.path.abspath(mod.__file__))) == os.path.abspath(SITE), mod.__file__
    return mod


def run(args, **kw):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300, **kw)


def has_hdf5(info):
    return info["hdf5_read"] is not None


def test_the_build_says_what_it_holds(lattio):
    info = lattio.build_info()
    p = run([sys.executable, "-m", "lattio", "--version"])
    assert p.returncode == 0 and info["library"].encode() in p.stdout, (p.stdout, info)
    if SHAPE not in EXPECT:  # wrappers-hidden: CMake's choice, said either way
        assert info["mpi"] == info["library"].startswith("MPI"), info
        return
    mpi, hdf5, without_mpi = EXPECT[SHAPE]
    assert info["mpi"] is mpi and info["library"].startswith("MPI" if mpi else "no MPI"), info
    assert hdf5 in info["library"], info
    assert (info["hdf5_read"] == "without MPI") is without_mpi, info
    if SHAPE == "laptop":
        assert "CRC-32 built-in" in info["library"] and "no SHA-256" in info["library"], info


def test_the_command_is_installed(lattio):
    info = lattio.build_info()
    assert info["command"] and os.path.dirname(info["command"]).startswith(os.path.abspath(SITE)), info
    p = run([info["command"], "verify", data("t_dprec_ildg.lime")])
    assert p.returncode == 0 and p.stdout.rstrip().endswith(b": ok"), p.stdout + p.stderr


@pytest.mark.parametrize("name,layout", H5_FILES)
def test_hdf5_read_with_checksums(lattio, name, layout):
    path = os.path.join(HDF5, name)
    if not has_hdf5(lattio.build_info()):
        with pytest.raises(lattio.LattioError) as e:
            lattio.load(path)
        assert "HDF5" in str(e.value), str(e.value)
        return
    ref = lattio.load(data("t_dprec_ildg.lime"))
    if layout == "qlua" and "no SHA-256" in lattio.build_info()["library"]:
        with pytest.raises(lattio.LattioError) as e:  # never an unverified read unasked
            lattio.load(path)
        assert "libcrypto" in str(e.value), str(e.value)
        assert np.array_equal(lattio.load(path, verify=False), ref)
        return
    u = lattio.load(path)
    assert u.shape == ref.shape and np.array_equal(u, ref)
    rep = lattio.verify(path)
    assert rep["ok"] and rep["fields"][0]["layout"] == layout, rep
    assert abs(rep["plaquette"] - lattio.verify(data("t_dprec_ildg.lime"))["plaquette"]) < 1e-14, rep


@pytest.mark.parametrize("name,layout", H5_FILES)
def test_damaged_hdf5_is_refused(lattio, tmp_path, name, layout):
    if not has_hdf5(lattio.build_info()):
        pytest.skip("this shape has no HDF5 (test_hdf5_read_with_checksums checks its refusal)")
    if layout == "qlua" and "no SHA-256" in lattio.build_info()["library"]:
        pytest.skip("no libcrypto: Qlua files are refused unless read without verifying")
    h5py = pytest.importorskip("h5py")
    src = os.path.join(HDF5, name)
    with h5py.File(src, "r") as h:  # where the first dataset's raw bytes are
        ds = h["/cfg/U"] if layout == "qdp" else h["/gauge/0"]
        at = ds.id.get_offset() + ds.id.get_storage_size() // 2
    raw = bytearray(open(src, "rb").read())
    raw[at] ^= 0x01
    bad = tmp_path / name
    bad.write_bytes(bytes(raw))
    with pytest.raises(lattio.ChecksumError):
        lattio.load(str(bad))
    assert not lattio.verify(str(bad))["ok"]


def test_command_serial_operations_start_no_mpi(lattio, tmp_path):
    """info, check, verify and convert of HDF5 with a broken MPI (any
    MPI_Init would fail) and no launcher."""
    info = lattio.build_info()
    env = dict(os.environ, OMPI_MCA_pml="lattio_no_such_component")
    for v in ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "MPI_LOCALNRANKS"):
        env.pop(v, None)
    cmd = info["command"]
    for name, layout in H5_FILES:
        path = os.path.join(HDF5, name)
        if layout == "qlua" and "no SHA-256" in info["library"]:
            continue  # refused unless read without verifying (test_hdf5_read_with_checksums)
        p = run([cmd, "verify", path], env=env)
        if not has_hdf5(info):
            assert p.returncode == 1 and b"HDF5" in p.stdout + p.stderr, p.stdout + p.stderr
            continue
        assert p.returncode == 0 and p.stdout.rstrip().endswith(b": ok"), p.stdout + p.stderr
        p = run([cmd, "info", path], env=env)
        assert p.returncode == 0 and (layout + " layout").encode() in p.stdout, p.stdout + p.stderr
        p = run([cmd, "check", path], env=env)
        assert p.returncode == 0, p.stdout + p.stderr
        out = str(tmp_path / (name + ".ildg"))
        p = run([cmd, "convert", path, out], env=env)
        assert p.returncode == 0, p.stdout + p.stderr
        assert np.array_equal(lattio.load(out), lattio.load(data("t_dprec_ildg.lime")))


def test_what_needs_mpi_is_refused_by_name(lattio, tmp_path):
    if lattio.build_info()["mpi"]:
        pytest.skip("this shape has the MPI module")
    u = lattio.load(data("t_dprec_ildg.lime"))
    with pytest.raises(lattio.LattioError) as e:
        lattio.save(str(tmp_path / "u.h5"), u)
    assert "MPI" in str(e.value) or "HDF5" in str(e.value), str(e.value)
    assert not os.path.exists(str(tmp_path / "u.h5"))
    p = run([lattio.build_info()["command"], "bench"])
    assert p.returncode == 1 and b"MPI build" in p.stderr, p.stderr


def test_no_shared_library_of_a_hidden_package_is_needed(lattio):
    """ldd of the extensions and the command: nothing missing (the wheel
    links lattio statically and only the system's shared libraries)."""
    if not shutil.which("ldd"):
        pytest.skip("no ldd")
    pkg = os.path.join(SITE, "lattio")
    files = [os.path.join(pkg, n) for n in os.listdir(pkg) if n.endswith(".so")]
    files.append(lattio.build_info()["command"])
    for f in files:
        out = run(["ldd", f]).stdout.decode()
        assert "not found" not in out, (f, out)
