"""The package as `pip install` builds it without MPI (tests/python/
serial_install.sh makes that install and runs this file against it):
only the serial extension, linked with no MPI, libdeflate or libcrypto,
reads and writes every LIME and header format with verified checksums (the
built-in CRC-32 against the real files' stored sums), and says clearly
what needs the MPI build."""
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import data, expected

SITE = os.environ.get("LATTIO_SERIAL_SITE")
pytestmark = pytest.mark.skipif(not SITE, reason="run by tests/python/serial_install.sh")


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
    assert not os.path.exists(os.path.join(pkg, "bin", "lattio"))
    so = next(os.path.join(pkg, n) for n in names if n.startswith("_core."))
    libs = subprocess.run(["ldd", so], stdout=subprocess.PIPE, check=True).stdout.decode()
    for lib in ("libmpi", "libdeflate", "libcrypto", "libhdf5"):
        assert lib not in libs, libs


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
    p = subprocess.run([sys.executable, "-m", "lattio", "--help"], stderr=subprocess.PIPE,
                       env=dict(os.environ, PATH="/usr/bin:/bin"))
    assert p.returncode == 127 and b"needs the MPI build" in p.stderr
