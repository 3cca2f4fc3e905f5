#!/usr/bin/env python3
"""A writer appending a field to an HDF5 file, killed (SIGKILL, a test
hook) after its data are written and before its rename: the file is byte
for byte what it was, h5py reads its first field unchanged and finds no
second one, `lattio verify` passes it, and the killed writer's temporary
(the copy it appended to) is left beside it for `lattio clean`, which
removes it."""
import glob
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tool_mpi"))
import mpiutil as mu  # noqa: E402
import toolutil as tu  # noqa: E402

import h5py  # noqa: E402
import numpy as np  # noqa: E402


def main():
    opt = mu.options("--prog")
    tu.scratch()
    p = mu.run_mpi(opt, opt.np, ["prepare"], prog=opt.prog)
    tu.check_eq(p.returncode, 0, "prepare: k.h5 with /first (%s)" % p.stderr.decode()[-300:])
    before = tu.read("k.h5")
    with h5py.File("k.h5", "r") as f:
        first = f["first"][...]
    p = mu.run_mpi(opt, opt.np, ["kill"], prog=opt.prog)
    tu.check(p.returncode != 0, "the appending writer was killed (exit %d)" % p.returncode)
    tu.check(tu.read("k.h5") == before, "k.h5 is byte for byte what it was")
    with h5py.File("k.h5", "r") as f:
        tu.check("second" not in f, "no second field")
        tu.check(np.array_equal(f["first"][...], first), "the first field unchanged")
    v = mu.run_serial(["verify", "--json", "k.h5"])
    rep = json.loads(v.stdout.decode())[0]
    recs = rep["binary_records"]
    tu.check(len(recs) == 1 and recs[0]["type"] == "/first" and recs[0]["ok"],
             "lattio verify: /first alone, its checksum ok (%r)" % recs)
    # the test field is random numbers, not SU(3): unitarity is its one problem
    tu.check(all("ERR_UNITARITY" in p for p in rep["problems"]), "no other problem: %r" % rep["problems"])
    left = glob.glob("k.h5.lattio-tmp.*")
    tu.check_eq(len(left), 1, "the killed writer's temporary is left: %r" % left)
    # the launcher returns when one rank died; the others may still be going
    # down, and lattio clean keeps the temporary of a live writer
    for name in left:
        pid = int(name.split(".")[-3])
        for _ in range(300):
            if not os.path.exists("/proc/%d" % pid):
                break
            time.sleep(0.1)
    c = mu.run_serial(["clean", "k.h5"])
    tu.check_eq(c.returncode, 0, "lattio clean k.h5")
    tu.check_eq(glob.glob("k.h5.lattio-tmp.*"), [], "lattio clean removed it")
    tu.finish()


if __name__ == "__main__":
    main()
