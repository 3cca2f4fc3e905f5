#!/usr/bin/env python3
"""Issue 17, case 9: under mpirun, an I/O error while `lattio verify` reads a
field in parallel is reported as an I/O error with the system's reason,
never as damage (no checksum line, no "checksum FAILED") and never hidden by
a serial re-read that prints "ok".  The fault comes from the interposer of
tests/fault (libfault_preload.so, LD_PRELOAD), armed from the environment:
the first MPI-IO read of rank 0 or of rank 1 fails (MPI_ERR_IO), or is
short inside the file.  The same for an HDF5 file (issue 28, "I/O is I/O"):
whichever MPI-IO read of rank 1 fails -- HDF5's superblock, an object
header, the data -- verify reports ERR_READ on every rank, never damage."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool_mpi"))
import mpiutil as mu  # noqa: E402
import toolutil as tu  # noqa: E402


def verify(opt, fault, extra=()):
    env = {}
    if fault:
        rank, mode = fault
        env = {"LD_PRELOAD": opt.preload, "FAULT_RANK": str(rank), "FAULT_CALL": "1", "FAULT_MODE": mode,
               # the faults are in read calls: the mapped strategy (the
               # default on one node) reads the page cache without any
               "LATTIO_STRATEGY": "independent"}
    return mu.run_mpi(opt, 2, ["verify"] + list(extra) + [tu.data_path("unity.lime")], env=env)


def hdf5_reads(opt):
    """Rank 1's k-th MPI-IO read fails, for k = 1, 2, ... until a k beyond
    its last read lets verify pass.  (Rank 0's are left out but for its
    first: HDF5 1.10.8 reads metadata collectively on rank 0 and, when that
    read fails, skips the broadcast the others wait in -- a hang inside
    HDF5, fixed upstream by HDFGroup/hdf5#1183.)"""
    p = subprocess.run([tu.LATTIO, "convert", tu.data_path("unity.lime"), "u.h5", "--to", "hdf5"],
                       capture_output=True, env=mu.serial_env())
    if p.returncode != 0 and b"ERR_HDF5_UNAVAILABLE" in p.stderr:
        return
    tu.check_eq(p.returncode, 0, "converted to HDF5")
    faults = [(0, 1)] + [(1, k) for k in list(range(1, 12)) + list(range(12, 400, 4))]
    failed = 0
    for rank, k in faults:
        env = {"LD_PRELOAD": opt.preload, "FAULT_RANK": str(rank), "FAULT_CALL": str(k), "FAULT_MODE": "mpiread"}
        p = mu.run_mpi(opt, 2, ["verify", "u.h5"], env=env)
        if p.returncode == 0 and rank == 1:
            break
        failed += 1
        what = "HDF5, rank %d, read %d" % (rank, k)
        tu.check_eq(p.returncode, 1, "%s: verify fails" % what)
        tu.check(b"(ERR_READ)" in p.stdout, "%s: ERR_READ: %r" % (what, p.stdout[-400:]))
        tu.check(b"ERR_HDF5" not in p.stdout and b"ERR_CHECKSUM" not in p.stdout, "%s: not damage" % what)
    else:
        tu.check(False, "HDF5: some read beyond rank 1's last lets verify pass")
    tu.check(failed > 10, "HDF5: more than 10 reads of rank 1 made to fail (%d)" % failed)


def main():
    opt = mu.options("--preload")
    p = verify(opt, None)
    tu.check(p.returncode == 0 and p.stdout.endswith(b": ok\n"), "no fault: ok (%r)" % p.stdout[-200:])
    for fault in ((0, "mpiread"), (1, "mpiread"), (1, "short")):
        what = "rank %d, %s" % fault
        p = verify(opt, fault)
        out = p.stdout
        tu.check_eq(p.returncode, 1, "%s: verify fails" % what)
        tu.check(b"not read (I/O error)" in out, "%s: the record is reported unread: %r" % (what, out))
        tu.check(b"read failed (ERR_READ)" in out, "%s: ERR_READ: %r" % (what, out))
        tu.check(b"checksum" not in out and b"ERR_CHECKSUM" not in out, "%s: not reported as damage" % what)
        tu.check(out.endswith(b": FAILED\n"), "%s: not hidden by a serial re-read" % what)
        if fault[1] == "mpiread":
            tu.check(b"Input/output error" in out, "%s: the system's reason: %r" % (what, out))
        p = verify(opt, fault, ["--json"])
        d = json.loads(p.stdout.decode(), parse_constant=lambda c: 1 / 0)[0]
        rec = d["binary_records"][0]
        tu.check(rec["read"] is False and rec["ok"] is False and not d["ok"], "%s: JSON says unread" % what)
        tu.check(any("ERR_READ" in s for s in d["problems"]), "%s: JSON problem ERR_READ" % what)
    hdf5_reads(opt)
    tu.finish()


tu.scratch()
main()
