"""`import lattio` starts no MPI: the package's exceptions and the command
need no MPI, and the C extension (with mpi4py, which initialises MPI) is
imported at the first call that needs it.  Measured in a fresh interpreter."""
import subprocess
import sys

PROBE = r"""
import sys, time
t = time.perf_counter()
import lattio
dt = time.perf_counter() - t
assert issubclass(lattio.LattioIOError, OSError)
print("%.3f" % dt, "mpi4py" in sys.modules, "lattio._lattio" in sys.modules)
lattio.load
print("mpi4py" in sys.modules)
"""


def test_import_starts_no_mpi():
    p = subprocess.run([sys.executable, "-c", PROBE], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    assert p.returncode == 0, p.stderr
    first, second = p.stdout.decode().split("\n")[:2]
    seconds, mpi, ext = first.split()
    print("import lattio: %s s" % seconds)
    assert (mpi, ext) == ("False", "False"), first
    assert second == "True"  # the first use of the API brings the extension (and MPI) in
    assert float(seconds) < 0.2, "import lattio took %s s" % seconds
