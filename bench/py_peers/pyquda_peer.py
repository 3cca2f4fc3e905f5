"""lattio.load against PyQUDA's ILDG reader (pyquda_io.readILDGGauge, SciDAC
checksum checked) on one 1.2 GB double ILDG file written by lattio.save, in
one process, alternating, medians.

PyQUDA's pip package needs QUDA to build; its I/O part is pure Python
(pyquda_io and pyquda_comm, from the CLQCD/PyQUDA repository), run here
from a directory on PYTHONPATH:
    git clone https://github.com/CLQCD/PyQUDA; mkdir site
    cp -r PyQUDA/pyquda_io PyQUDA/pyquda_core/pyquda_comm site/
    PYTHONPATH=site python bench/py_peers/pyquda_peer.py [--reps N] [--dir D]
Both results are native complex128 arrays of the same links (PyQUDA's
axes are (4, T, Z, Y, X, 3, 3); the check transposes a view, untimed)."""
import argparse
import os
import statistics
import tempfile
import time

import numpy as np

import lattio
import pyquda_io


def timed(fn):
    os.sync()
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dims", default="64,32,32,32", help="T,Z,Y,X")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--dir", default=None)
    a = ap.parse_args()
    dims = tuple(int(x) for x in a.dims.split(","))
    d = tempfile.mkdtemp(prefix="lattio-pyquda-", dir=a.dir)
    path = os.path.join(d, "u.ildg")
    rng = np.random.default_rng(3)
    u = np.ascontiguousarray(rng.standard_normal(dims + (4, 3, 3, 2)).view(np.complex128)[..., 0])
    lattio.save(path, u)
    del u
    pyquda_io.init(None, list(reversed(dims)))
    times = {"lattio": [], "pyquda": []}
    first = {}
    for rep in range(a.reps):
        order = ["lattio", "pyquda"] if rep % 2 == 0 else ["pyquda", "lattio"]
        for name in order:
            if name == "lattio":
                t, x = timed(lambda: lattio.load(path))
            else:
                t, (_, x) = timed(lambda: pyquda_io.readILDGGauge(path, checksum=True))
                x = x.transpose(1, 2, 3, 4, 0, 5, 6)
            times[name].append(t)
            if rep == 0:
                first[name] = x
            del x
        if rep == 0:
            same = bool(np.array_equal(first["lattio"], first["pyquda"]))
            first.clear()
    os.unlink(path)
    os.rmdir(d)
    med = {k: statistics.median(times[k]) for k in ("lattio", "pyquda")}
    print("# %s double ILDG, %.2f GB, %d reps, 1 process; seconds" %
          ("x".join(map(str, dims)), 16 * 36 * np.prod(dims) / 1e9, a.reps))
    for k in ("lattio", "pyquda"):
        print("%-7s %s  median %.3f" % (k, " ".join("%.3f" % t for t in times[k]), med[k]))
    print("same links: %s" % same)
    print("ratio lattio/pyquda %.2f" % (med["lattio"] / med["pyquda"]))


if __name__ == "__main__":
    main()
