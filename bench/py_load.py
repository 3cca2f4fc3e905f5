#!/usr/bin/env python3
"""Python front end against plain NumPy on the same bytes, in one run.

    python bench/py_load.py [--dims T,Z,Y,X] [--reps N] [--dir DIR] [--json FILE]
    mpirun -np 2 python bench/py_load.py ...   (adds the per-rank parallel load)

A random double gauge field (default 64x32x32x32, 1.2 GB) is saved as ILDG
with lattio.save, then, alternating in each repetition:
  load     lattio.load(path) with SciDAC checksum verification
  fromfile numpy.fromfile of the binary record + byte swap to native (no check)
  save     lattio.save (conversion, checksum, re-read verification, rename)
  save_nv  lattio.save(verify=False)
  tofile   ndarray.tofile of the same big-endian bytes (no conversion, no check)
           over the previous file (opened with O_TRUNC: its pages are freed first)
  tofile_new   the same bytes with tofile into a new name beside the previous
           file, then os.replace: the crash-safe write save does (temporary name,
           rename), so both copies are in memory at once as in save
  swap_tofile  astype('>c16').tofile: what NumPy needs to write the ILDG payload
  load_serial, save_serial   load and save as a process that never initialised
           MPI makes them: the MPI-free module lattio._core (this benchmark
           initialised MPI, so load and save run on MPI_COMM_SELF)
and under mpirun the per-rank time of lattio.load(comm=COMM_WORLD).
Figures are medians of wall times; ratios are what matters (shared VMs).
Each case starts after os.sync() and the cases' order rotates with the
repetition; files stay in the page cache (reads hit it).
"""
import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time

import numpy as np
from mpi4py import MPI

import lattio


def timed(fn):
    os.sync()  # every case starts from a written-back page cache
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def serially(fn):
    """fn() with the serial module, as in a process without MPI."""
    keep = lattio._mpi._initialised
    lattio._mpi._initialised = lambda: None
    try:
        return fn()
    finally:
        lattio._mpi._initialised = keep


def replace_with(array, path):
    """tofile into a new name beside `path`, then os.replace (crash-safe)."""
    tmp = path + ".new"
    array.tofile(tmp)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dims", default="64,32,32,32", help="T,Z,Y,X")
    ap.add_argument("--reps", type=int, default=6)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    dims = tuple(int(x) for x in a.dims.split(","))
    d = comm.bcast(tempfile.mkdtemp(prefix="lattio-pybench-", dir=a.dir) if rank == 0 else None, root=0)
    path, raw = os.path.join(d, "u.ildg"), os.path.join(d, "u.raw")
    times = {k: [] for k in ("load", "fromfile", "save", "save_nv", "tofile", "tofile_new", "swap_tofile",
                             "load_serial", "save_serial", "load_mpi")}
    u = None
    if rank == 0:
        rng = np.random.default_rng(1)
        u = rng.standard_normal(dims + (4, 3, 3, 2)).view(np.complex128)[..., 0]
        u = np.ascontiguousarray(u)
        lattio.save(path, u)
        rec = next(r for r in lattio.info(path) if r["type"] == "ildg-binary-data")
        offset, nbytes = rec["data_offset"], rec["length"]
        be = u.astype(">c16")
    comm.Barrier()
    for rep in range(a.reps):
        if rank == 0 and size == 1:
            cases = [("load", lambda: lattio.load(path)),
                     ("fromfile", lambda: np.fromfile(path, dtype=">c16", count=nbytes // 16,
                                                      offset=offset).astype("<c16")),
                     ("save", lambda: lattio.save(path, u)),
                     ("save_nv", lambda: lattio.save(path, u, verify=False)),
                     ("tofile", lambda: be.tofile(raw)),
                     ("tofile_new", lambda: replace_with(be, raw)),
                     ("swap_tofile", lambda: u.astype(">c16").tofile(raw)),
                     ("load_serial", lambda: serially(lambda: lattio.load(path))),
                     ("save_serial", lambda: serially(lambda: lattio.save(path, u)))]
            k = rep % len(cases)  # the order rotates: no case always follows another
            for name, fn in cases[k:] + cases[:k]:
                times[name].append(timed(fn))
        comm.Barrier()
        if size > 1:
            t = timed(lambda: lattio.load(path, comm=comm))
            times["load_mpi"].append(comm.allreduce(t, op=MPI.MAX))
    if rank == 0:
        med = {k: statistics.median(v) for k, v in times.items() if v}
        gb = 16 * 36 * int(np.prod(dims)) / 1e9
        res = {"machine": "%s, %d CPUs, %s" % (platform.node(), os.cpu_count(), platform.platform()),
               "ranks": size, "dims": dims, "gbytes": gb, "reps": a.reps, "median_s": med}
        if size == 1:
            res["ratios"] = {"load/fromfile+swap": med["load"] / med["fromfile"],
                             "save/tofile": med["save"] / med["tofile"],
                             "save(verify=False)/tofile": med["save_nv"] / med["tofile"],
                             "save/tofile_new": med["save"] / med["tofile_new"],
                             "save(verify=False)/tofile_new": med["save_nv"] / med["tofile_new"],
                             "save/(byte swap+tofile)": med["save"] / med["swap_tofile"],
                             "load_serial/fromfile+swap": med["load_serial"] / med["fromfile"],
                             "save_serial/tofile_new": med["save_serial"] / med["tofile_new"]}
        print("# lattio Python bench: %s lattice, %.2f GB double, %d rank(s), %d reps; page cache" %
              ("x".join(map(str, dims)), gb, size, a.reps))
        for k, v in med.items():
            print("%-10s %8.3f s  %7.0f MB/s" % (k, v, gb * 1e3 / v))
        for k, v in res.get("ratios", {}).items():
            print("ratio %-26s %.2f" % (k, v))
        if a.json:
            with open(a.json, "w") as f:
                json.dump(res, f, indent=1)
        for p in (path, raw):
            if os.path.exists(p):
                os.unlink(p)
        os.rmdir(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
