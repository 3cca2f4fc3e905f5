"""The package as `pip install` builds it without MPI (the `laptop` and
`bare` shapes of tests/python/wheel_shapes.py, which run this file against
each install): only the serial extension and the serial command, linked
with no MPI, libdeflate or libcrypto (a serial libhdf5 at most), read and
write every LIME and header format with verified checksums (the built-in
CRC-32 against the real files' stored sums), and say clearly what needs
the MPI build."""
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import data, expected

SITE = os.environ.get("LATTIO_SERIAL_SITE")
pytestmark = pytest.mark.skipif(not SITE, reason="run by tests/python/wheel_shapes.py (laptop, bare)")


@pytest.fixture(scope="module")
def lattio():
    import lattio as mod
    assert os.path.dirname(os.path.dirname(mod.__file__)) == SITE, mod.__file__
    return mod


def test_only_the_serial_extension_is_installed(lattio):
    pkg = os.path.join(SITE, "lattio")
    names = os.listdir(pkg)
    assert any(n.startswith("_core.") and n.endswith(".so") for n in names)
    assert not any(n.startswith("_lattio.") and n.endswith(".so") for n in names)
    so = next(os.path.join(pkg, n) for n in names if n.startswith("_core."))
    for f in (so, os.path.join(pkg, "bin", "lattio")):  # the extension and the serial command
        # what lattio links itself (NEEDED; libhdf5's own dependencies aside)
        dyn = subprocess.run(["readelf", "-d", f], stdout=subprocess.PIPE, check=True).stdout.decode()
        libs = " ".join(ln.split("[")[1].split("]")[0] for ln in dyn.splitlines() if "(NEEDED)" in ln)
        for lib in ("libmpi", "libdeflate", "libcrypto", "libhdf5_openmpi", "libhdf5_mpich"):
            assert lib not in libs, (f, libs)
        assert "libhdf5" not in libs.replace("libhdf5_serial", ""), (f, libs)


def test_real_files_verify_with_the_built_in_crc(lattio):
    _, sums = expected()
    checked = 0
    for (name, n), (suma, sumb) in sums.items():
        if not os.path.exists(data(name)):
            continue
        rep = lattio.verify(data(name))
        assert rep["fields"][n]["stored"] == [suma, sumb], (name, rep)
        assert rep["fields"][n]["computed"] == [suma, sumb], (name, rep)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("fmt", ["ildg", "scidac", "nersc", "milc", "openqcd"])
def test_every_lime_and_header_format_round_trips(lattio, tmp_path, fmt):
    u = lattio.load(data("t_dprec_ildg.lime"))
    path = str(tmp_path / ("u." + fmt))
    lattio.save(path, u, format=fmt)
    back = lattio.load(path)
    tol = 1e-6 if fmt == "milc" else 1e-14
    assert np.allclose(back, u, atol=tol)
    assert lattio.verify(path)["ok"]


def test_generic_field_round_trips(lattio, tmp_path):
    rng = np.random.default_rng(3)
    f = (rng.standard_normal((4, 2, 2, 6, 12)) + 1j * rng.standard_normal((4, 2, 2, 6, 12))).astype(np.complex64)
    lattio.save(str(tmp_path / "f.scidac"), f)
    assert np.array_equal(lattio.load(str(tmp_path / "f.scidac")), f)


def test_what_needs_mpi_says_so(lattio, tmp_path):
    u = lattio.load(data("t_dprec_ildg.lime"))
    with pytest.raises(lattio.MPIError) as e:
        lattio.save(str(tmp_path / "u.h5"), u)
    assert "built without MPI" in str(e.value)
    assert not os.path.exists(tmp_path / "u.h5")
    p = subprocess.run([sys.executable, "-m", "lattio", "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode == 0 and b"verify" in p.stdout, p.stdout + p.stderr
    p = subprocess.run([sys.executable, "-m", "lattio", "bench"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode == 1 and b"needs the MPI build" in p.stderr, p.stderr
