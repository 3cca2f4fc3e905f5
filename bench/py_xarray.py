#!/usr/bin/env python3
"""xarray and dask on lattio against lattio.load, in one run.

    python bench/py_xarray.py [--dims T,Z,Y,X] [--files N] [--reps N] [--dir DIR]

One field: lattio.load(path) against xr.open_dataset(path, engine="lattio")
read whole (eager: the same verified read) and with chunks={"t": 1} (dask:
one part read per timeslice, computed with dask's threads), and k
timeslices (--k) through dask (isel on the chunked dataset) against a hand
loop of k part reads of lattio.open, each verified.  Many files:
N configurations read with lattio.load in a loop (and stacked into one
array with np.stack, which the combined dataset is) against
xr.open_mfdataset(..., combine="nested", concat_dim="config") read whole,
eager and with chunks={"t": 1} (each field's checksum verified once per
open, streamed, as every chunked read is; and with verify=False, the
opt-out, to show what the check costs), with chunks="auto" (the backend's
preferred chunks, timeslices, grown to dask's chunk size), and dask's floor:
the same t-chunked graph over the arrays already in memory (no file read),
what dask costs by itself for chunks that small.  Medians of wall times, the cases' order
rotating; files in the page cache.  Ratios against lattio.load are what
matter (shared VMs)."""
import argparse
import os
import platform
import statistics
import tempfile
import time

import numpy as np
import xarray as xr

import lattio


def values(ds):
    """The gauge variable's values, the dataset closed (its files released)."""
    with ds:
        return ds["gauge"].values


def reduce_np(u):
    """An analysis of one configuration: the mean real part of the links
    per timeslice and direction (an eager loop applies it per file)."""
    return u.real.mean(axis=(1, 2, 3, 5, 6))


def reduce_xr(ds):
    """The same analysis of the whole ensemble through xarray and dask."""
    with ds:
        return ds["gauge"].real.mean(dim=("z", "y", "x", "row", "col")).values


def dask_floor(fields, ts_chunk):
    """What dask alone costs for the ensemble with these t chunks: the same
    graph shape (a chunk per file and timeslice, stacked, computed with
    dask's threads) over arrays already in memory: no file is read."""
    import dask.array as da
    dask_floor.calls = getattr(dask_floor, "calls", 0) + 1
    parts = [da.from_array(u, chunks=(ts_chunk,) + u.shape[1:], name="floor-%d-%d" % (dask_floor.calls, i))
             for i, u in enumerate(fields)]
    return da.stack(parts).compute()


def dask_reduce_floor(fields, ts_chunk):
    """The analysis through dask alone: the same t-chunked graph and
    reduction over the arrays in memory, no file read."""
    import dask.array as da
    dask_reduce_floor.calls = getattr(dask_reduce_floor, "calls", 0) + 1
    parts = [da.from_array(u, chunks=(ts_chunk,) + u.shape[1:], name="rfloor-%d-%d" % (dask_reduce_floor.calls, i))
             for i, u in enumerate(fields)]
    return da.stack(parts).real.mean(axis=(2, 3, 4, 6, 7)).compute()


def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dims", default="32,16,16,16", help="T,Z,Y,X of each field")
    ap.add_argument("--files", type=int, default=20)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--k", type=int, default=3, help="timeslices read by hand and through dask")
    a = ap.parse_args()
    dims = tuple(int(x) for x in a.dims.split(","))
    d = tempfile.mkdtemp(prefix="lattio-xrbench-", dir=a.dir)
    rng = np.random.default_rng(2)
    paths = []
    for n in range(a.files):
        u = rng.standard_normal(dims + (4, 3, 3, 2)).view(np.complex128)[..., 0]
        p = os.path.join(d, "cfg.%03d.ildg" % n)
        lattio.save(p, np.ascontiguousarray(u), verify=False)
        paths.append(p)
    one = paths[0]
    fields = [lattio.load(p) for p in paths]  # in memory, for the floor
    ts = list(range(0, dims[0], max(1, dims[0] // a.k)))[:a.k]  # k timeslices spread over t

    def hand_slices():
        with lattio.open(one) as f:
            return [np.asarray(f[0][t]) for t in ts]

    cases = [
        ("load", lambda: lattio.load(one)),
        ("xr_eager", lambda: values(xr.open_dataset(one, engine="lattio"))),
        ("xr_dask_t1", lambda: values(xr.open_dataset(one, engine="lattio", chunks={"t": 1}))),
        ("slices_%d_hand" % a.k, hand_slices),
        ("slices_%d_dask" % a.k, lambda: values(xr.open_dataset(one, engine="lattio", chunks={"t": 1}).isel(t=ts))),
        ("load_%d" % a.files, lambda: [lattio.load(p) for p in paths]),
        ("stack_%d" % a.files, lambda: np.stack([lattio.load(p) for p in paths])),
        ("mf_eager_%d" % a.files, lambda: values(xr.open_mfdataset(paths, engine="lattio", combine="nested",
                                                                    concat_dim="config", chunks=None))),
        ("mf_dask_t1_%d" % a.files, lambda: values(xr.open_mfdataset(paths, engine="lattio", combine="nested",
                                                                      concat_dim="config", chunks={"t": 1}))),
        ("mf_dask_t1_unverified_%d" % a.files, lambda: values(xr.open_mfdataset(
            paths, engine="lattio", combine="nested", concat_dim="config", chunks={"t": 1}, verify=False))),
        ("mf_dask_auto_%d" % a.files, lambda: values(xr.open_mfdataset(paths, engine="lattio", combine="nested",
                                                                        concat_dim="config", chunks="auto"))),
        ("reduce_loop_%d" % a.files, lambda: np.stack([reduce_np(lattio.load(p)) for p in paths])),
        ("reduce_dask_t1_%d" % a.files, lambda: reduce_xr(xr.open_mfdataset(
            paths, engine="lattio", combine="nested", concat_dim="config", chunks={"t": 1}))),
        ("reduce_dask_auto_%d" % a.files, lambda: reduce_xr(xr.open_mfdataset(
            paths, engine="lattio", combine="nested", concat_dim="config", chunks="auto"))),
        ("reduce_floor_t1_%d" % a.files, lambda: dask_reduce_floor(fields, ts_chunk=1)),
        ("dask_floor_t1_%d" % a.files, lambda: dask_floor(fields, ts_chunk=1)),
    ]
    times = {k: [] for k, _ in cases}
    for rep in range(a.reps):
        k = rep % len(cases)
        for name, fn in cases[k:] + cases[:k]:
            times[name].append(timed(fn))
    med = {k: statistics.median(v) for k, v in times.items()}
    gb = 576 * int(np.prod(dims)) / 1e9
    print("# bench/py_xarray.py: %s, %d CPUs; field %s (%.3f GB double), %d files, %d reps; xarray %s" % (
        platform.node(), os.cpu_count(), "x".join(map(str, dims)), gb, a.files, a.reps, xr.__version__))
    for k, v in med.items():
        print("%-16s %8.4f s" % (k, v))
    print("ratio xr_eager/load           %.2f" % (med["xr_eager"] / med["load"]))
    print("ratio xr_dask_t1/load         %.2f" % (med["xr_dask_t1"] / med["load"]))
    print("ratio slices_%d dask/hand      %.2f" % (a.k, med["slices_%d_dask" % a.k] / med["slices_%d_hand" % a.k]))
    for case in ("mf_eager", "mf_dask_t1", "mf_dask_t1_unverified", "mf_dask_auto", "dask_floor_t1"):
        for base in ("load", "stack"):
            print("ratio %-36s %.2f" % ("%s/%s" % (case, base), med["%s_%d" % (case, a.files)] /
                                       med["%s_%d" % (base, a.files)]))
    n = a.files
    for case in ("reduce_dask_t1", "reduce_dask_auto", "reduce_floor_t1"):
        print("ratio %-36s %.2f" % ("%s/reduce_loop" % case, med["%s_%d" % (case, n)] / med["reduce_loop_%d" % n]))
    for p in paths:
        os.unlink(p)
    os.rmdir(d)


if __name__ == "__main__":
    main()
