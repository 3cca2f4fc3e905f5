#!/usr/bin/env python3
"""The Python package in a few lines (make demo runs it, serially and under
mpirun): load a real configuration with its checksum verified, its
plaquette with NumPy, save it as NERSC, load that back, and under mpirun
each rank's block.  Usage: session.py DATA_DIR OUT_DIR"""
import os
import sys

import numpy as np
from mpi4py import MPI

import lattio

data, out = sys.argv[1], sys.argv[2]
comm = MPI.COMM_WORLD
src = os.path.join(data, "lat.sample.l4444.ildg")
if comm.Get_size() == 1:
    u = lattio.load(src)
    print("loaded", src, u.shape, u.dtype)
    ux, uy = u[..., 0, :, :], u[..., 1, :, :]
    pxy = np.einsum("...ij,...jk,...lk,...il->...", ux, np.roll(uy, -1, axis=3),
                    np.roll(ux, -1, axis=2).conj(), uy.conj()).real.mean() / 3
    rep = lattio.verify(src)
    print("x-y plaquette (NumPy) %.10f; all planes (lattio.verify) %.10f; checksum %s" %
          (pxy, rep["plaquette"], " ".join(rep["fields"][0]["computed"])))
    dst = os.path.join(out, "from_python.nersc")
    lattio.save(dst, u, format="nersc")
    print("saved", dst, "- loads back equal:", np.array_equal(lattio.load(dst), u))
else:
    mine = lattio.load(src, comm=comm)
    start, stop = lattio.local_box((4, 4, 4, 4), comm)
    lines = comm.gather("rank %d of %d: block %s..%s, shape %s, verified"
                        % (comm.Get_rank(), comm.Get_size(), start, stop, mine.shape), root=0)
    if comm.Get_rank() == 0:
        print("\n".join(lines))
