#!/usr/bin/env python3
"""N-to-M: for N = 1..4 a separate mpirun with N ranks writes the 6x5x8x7
lattice of 72-byte sites (n_to_m.c); the whole file must equal the image
Python computes here (two LIME records, sites in t,z,y,x order, each site's
bytes derived from its coordinates); then for M = 1..4 a separate mpirun
with M ranks and another decomposition reads it and checks every site.
--io selects Open MPI's MPI-IO component (ompio, or its ROMIO: romio321 in 4.1, romio341 in 5.0) or 'default'."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool_mpi"))
import mpiutil as mu  # noqa: E402
import toolutil as tu  # noqa: E402

G = (6, 5, 8, 7)  # x, y, z, t
SITE = 72


def site(x, y, z, t):
    head = b"".join(v.to_bytes(2, "big") for v in (x, y, z, t))
    return head + bytes((37 * x + 11 * y + 5 * z + 3 * t + 29 * k + 7) % 256 for k in range(8, SITE))


def image():
    lattice = b"".join(site(x, y, z, t) for t in range(G[3]) for z in range(G[2])
                       for y in range(G[1]) for x in range(G[0]))
    return tu.make_lime([(b"n_to_m-meta", b"6 5 8 7", True, False),
                         (b"n_to_m-lattice", lattice, False, True)])


def main():
    opt = mu.options("--prog", "--io")
    env = {"OMPI_MCA_io": opt.io} if opt.io and opt.io != "default" else {}
    want = image()
    tu.check_eq(len(want), 152 + 144 + 6 * 5 * 8 * 7 * SITE, "image size")
    for n in range(1, 5):
        name = "lat.n%d.lime" % n
        p = mu.run_mpi(opt, n, ["write", name], prog=opt.prog, env=env)
        tu.check_eq(p.returncode, 0, "write with %d ranks: %r" % (n, p.stderr[-2000:]))
        tu.check(os.path.exists(name) and tu.read(name) == want,
                 "file written by %d ranks equals the Python image" % n)
        for m in range(1, 5):
            p = mu.run_mpi(opt, m, ["read", name], prog=opt.prog, env=env)
            tu.check_eq(p.returncode, 0, "N=%d M=%d read: %r" % (n, m, p.stderr[-2000:]))
        os.remove(name)
    tu.finish()


tu.scratch()
main()
