#!/usr/bin/env python3
"""Started without an MPI launcher, `lattio` never calls MPI_Init (fast and
safe on login nodes): with Open MPI told to use a point-to-point component
that does not exist (OMPI_MCA_pml), any MPI_Init fails, yet info, check and
extract work; the control run, with a launcher variable (PMI_RANK) set, does
initialise MPI and so fails.  Open MPI only (argument --flavor)."""
import os
import sys
import toolutil as tu

LAUNCHER_VARS = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "MPI_LOCALNRANKS")


def main():
    flavor = sys.argv[sys.argv.index("--flavor") + 1] if "--flavor" in sys.argv else "openmpi"
    if flavor != "openmpi":
        print("skipped: the broken-component trick needs Open MPI")
        tu.finish()
    for v in LAUNCHER_VARS:
        os.environ.pop(v, None)
    broken = {"OMPI_MCA_pml": "lattio_no_such_component"}
    u = tu.data_path("unity.lime")
    p = tu.run(["check", u], env=broken)
    tu.check_eq((p.returncode, p.stdout), (0, (u + ": ok, 4 records\n").encode()), "check")
    p = tu.run(["info", u], env=broken)
    tu.check(p.returncode == 0 and p.stdout.count(b"Message:") == 4, "info")
    p = tu.run(["extract", u, "--record", "1"], env=broken)
    want = tu.parse_lime(tu.read(u))[0]["payload"]
    tu.check_eq((p.returncode, p.stdout), (0, want), "extract")
    control = dict(broken, PMI_RANK="0")
    p = tu.run(["check", u], env=control)
    tu.check(p.returncode != 0 and not p.stdout, "control: MPI_Init is called under a launcher")
    tu.finish()


tu.scratch()
main()
