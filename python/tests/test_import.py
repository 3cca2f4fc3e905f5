"""Serial use starts no MPI: `import lattio` and serial load/save/verify of
LIME and header formats run on the MPI-free extension (lattio._core); no
mpi4py, no MPI library in the process, no MPI daemon.  HDF5 and
communicators bring MPI in (where the package has its MPI module: an
install without MPI has no such path to test).  Measured in fresh
interpreters."""
import importlib.util
import os
import subprocess
import sys

import pytest

from conftest import data

def _parallel_hdf5():
    import lattio
    return importlib.util.find_spec("lattio._lattio") is not None and "parallel" in lattio.build_info()["library"]


needs_parallel_hdf5 = pytest.mark.skipif(not _parallel_hdf5(), reason="this install writes no HDF5 (docs/install.md)")

PROBE = r"""
import os, sys, time
t = time.perf_counter()
import lattio
dt = time.perf_counter() - t
print("%.3f" % dt)
u = lattio.load(sys.argv[1])
v = lattio.load(sys.argv[2])
lattio.save(sys.argv[3], u, format="scidac")
assert lattio.verify(sys.argv[3])["ok"]
maps = open("/proc/self/maps").read()
children = os.listdir("/proc/self/task")
print("mpi4py" in sys.modules, "lattio._lattio" in sys.modules, "libmpi" in maps)
"""

H5_PROBE = r"""
import sys
import numpy as np
import lattio
u = np.zeros((2, 2, 2, 2, 4, 3, 3), np.complex128)
u[..., range(3), range(3)] = 1
lattio.save(sys.argv[1], u, format="hdf5")
print("mpi4py" in sys.modules, "libmpi" in open("/proc/self/maps").read())
"""


def run(probe, *args):
    p = subprocess.run([sys.executable, "-c", probe, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=120)
    assert p.returncode == 0, p.stderr.decode()
    return p.stdout.decode().split("\n")


def test_serial_use_starts_no_mpi(tmp_path):
    lines = run(PROBE, data("t_dprec_ildg.lime"), data("t_nersc.cfg"), str(tmp_path / "u.scidac"))
    seconds = float(lines[0])
    print("import lattio: %.3f s" % seconds)
    assert lines[1] == "False False False", lines[1]  # no mpi4py, no MPI extension, no libmpi mapped
    assert seconds < 0.2, "import lattio took %.3f s" % seconds


@needs_parallel_hdf5
def test_hdf5_brings_mpi_in(tmp_path):
    assert run(H5_PROBE, str(tmp_path / "u.h5"))[0] == "True True"
    assert os.path.getsize(tmp_path / "u.h5") > 0


UNINIT_PROBE = r"""
import sys
import mpi4py
mpi4py.rc.initialize = False        # a program that keeps MPI to itself
import lattio
from mpi4py import MPI
u = lattio.load(sys.argv[1])        # serial: fine without MPI
for call in (lambda: lattio.save(sys.argv[2], u), lambda: lattio.load(sys.argv[1], comm=MPI.COMM_WORLD)):
    try:
        call()
        print("no error")
    except lattio.MPIError as e:
        print("MPIError", "not initialised" in str(e))
print(MPI.Is_initialized())
"""


@needs_parallel_hdf5
def test_mpi_not_initialised_is_an_exception_not_an_abort(tmp_path):
    """With mpi4py.rc.initialize = False, HDF5 and a communicator raise
    MPIError; the process is not killed by MPI (it used to be)."""
    pytest.importorskip("mpi4py")
    lines = run(UNINIT_PROBE, data("unity.lime"), str(tmp_path / "u.h5"))
    assert lines[:3] == ["MPIError True", "MPIError True", "False"], lines
