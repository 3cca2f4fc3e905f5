#!/usr/bin/env python3
"""Started without an MPI launcher, `lattio` never calls MPI_Init (fast and
safe on login nodes): with Open MPI told to use a point-to-point component
that does not exist (OMPI_MCA_pml), any MPI_Init fails, yet info, check and
extract work, and on HDF5 files of both layouts info, check, verify and
convert to ILDG (the library's MPI-free HDF5 reading), with the verdict
`lattio verify` prints under a launcher; the control run, with a launcher
variable (PMI_RANK) set, does initialise MPI and so fails.  Open MPI only
(argument --flavor)."""
import os
import sys
import subprocess
import toolutil as tu

MPIRUN = ["mpirun", "--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])

LAUNCHER_VARS = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "MPI_LOCALNRANKS")


def hdf5_without_mpi(u, broken):
    """HDF5 files (written by lattio with MPI) listed, checked, verified
    and converted without it, with the verdict a launched run prints."""
    tu.check_eq(tu.run(["convert", tu.data_path("t_dprec_ildg.lime"), "qdp.h5", "--to", "hdf5"]).returncode, 0,
                "setup: QDP++ file")
    tu.check_eq(tu.run(["convert", u, "qlua.h5", "--to", "hdf5", "--layout", "qlua"]).returncode, 0,
                "setup: Qlua file")
    for name, layout in (("qdp.h5", b"qdp layout"), ("qlua.h5", b"qlua layout")):
        p = tu.run(["info", name], env=broken)
        tu.check(p.returncode == 0 and layout in p.stdout and b"SU(3) gauge field" in p.stdout, "info " + name)
        p = tu.run(["check", name], env=broken)
        tu.check_eq((p.returncode, p.stdout), (0, (name + ": ok, HDF5, 1 lattice field\n").encode()), "check " + name)
        serial = tu.run(["verify", name], env=broken)
        tu.check(serial.returncode == 0 and b": ok" in serial.stdout and b"plaquette" in serial.stdout,
                 "verify " + name + ": " + repr(serial.stdout + serial.stderr))
        launched = subprocess.run(MPIRUN + ["-n", "2", tu.LATTIO, "verify", name], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, timeout=600)
        tu.check_eq((launched.returncode, launched.stdout), (0, serial.stdout), "verify " + name + " under mpirun -n 2")
        p = tu.run(["convert", name, name + ".lime"], env=broken)
        tu.check(p.returncode == 0, "convert " + name + ": " + repr(p.stderr))
        back = tu.run(["verify", name + ".lime"], env=broken)
        plaq = [ln.split(b"plaquette")[1].split(b",")[0] for ln in (serial.stdout + back.stdout).splitlines()
                if b"plaquette" in ln]
        tu.check(len(plaq) == 2 and plaq[0] == plaq[1], "convert " + name + ": the plaquette kept " + repr(plaq))
    p = tu.run(["convert", "qdp.h5", "again.h5", "--to", "hdf5"], env=broken)
    tu.check(p.returncode != 0 and not os.path.exists("again.h5"), "control: writing HDF5 starts MPI")


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
    hdf5_without_mpi(u, broken)
    control = dict(broken, PMI_RANK="0")
    p = tu.run(["check", u], env=control)
    tu.check(p.returncode != 0 and not p.stdout, "control: MPI_Init is called under a launcher")
    tu.finish()


tu.scratch()
main()
