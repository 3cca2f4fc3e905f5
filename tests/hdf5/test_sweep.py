#!/usr/bin/env python3
"""The HDF5 damage sweep: the base files (sweep_files.py), then every
variant of each (sweep.c) in one process, under a timeout; its outcome
counts are printed.  SWEEP_STRIDE=N takes every N-th byte (quicker)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tool_mpi"))
import mpiutil as mu  # noqa: E402


def main():
    opt = mu.options("--prog")
    files = subprocess.run([sys.executable, os.path.join(HERE, "sweep_files.py"), "base"], check=True,
                           capture_output=True, text=True).stdout.split()
    stride = os.environ.get("SWEEP_STRIDE", "1")
    p = subprocess.run(mu.launcher(opt, 1) + [opt.prog, "--stride", stride] + files, timeout=1500,
                       capture_output=True, env=mu.serial_env())
    sys.stdout.write(p.stdout.decode(errors="replace"))
    sys.stderr.write(p.stderr[-20000:].decode(errors="replace"))
    if p.returncode != 0 and os.path.exists("sweep.current"):
        sys.stderr.write("the variant being tried: " + open("sweep.current").read())
    sys.exit(p.returncode)


main()
