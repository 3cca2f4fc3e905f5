#!/usr/bin/env python3
"""A sparse LIME file with a 3 GiB record (made with truncate, headers and
sample bytes written by Python, a small record after it): `lattio extract
--record 1 -o` under mpirun -n NP writes a file whose size and SHA-256 equal
the serial extract's and the SHA-256 Python computes over the source bytes;
the small record after the big one extracts correctly in parallel too.
File offsets beyond 2^31 are exercised by both ranks' slices."""
import hashlib
import os
import mpiutil as mu
import toolutil as tu

GIB = 1 << 30
LENGTH = 3 * GIB + 12345  # not a multiple of the 1 MiB slice unit nor of 8
SAMPLES = {0: b"BEGIN", (1 << 31) - 2: b"across-2^31", 3 * GIB // 2 + 1: b"middle",
           (1537 << 20) - 5: b"rank boundary", LENGTH - 3: b"END"}  # np 2: 1537 MiB + 1536 MiB


def sha256_range(path, off, n):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        f.seek(off)
        while n:
            b = f.read(min(n, 16 << 20))
            if not b:
                break
            h.update(b)
            n -= len(b)
    return h.hexdigest()


def make_file():
    pad = (8 - LENGTH % 8) % 8
    tail_at = 144 + LENGTH + pad
    with open("big.lime", "wb") as f:
        f.truncate(tail_at)
        f.write(tu.lime_header(b"big-record", LENGTH, True, False))
        for off, b in SAMPLES.items():
            f.seek(144 + off)
            f.write(b)
        f.seek(tail_at)
        f.write(tu.lime_header(b"tail", 4, False, True) + b"tail" + b"\0" * 4)


def main():
    opt = mu.options()
    make_file()
    try:
        want = sha256_range("big.lime", 144, LENGTH)
        s = mu.run_serial(["extract", "big.lime", "--record", "1", "-o", "serial.out"])
        tu.check_eq(s.returncode, 0, "serial extract (%r)" % s.stderr)
        tu.check_eq(os.path.getsize("serial.out"), LENGTH, "serial size")
        tu.check_eq(sha256_range("serial.out", 0, LENGTH), want, "serial sha256")
        os.remove("serial.out")
        m = mu.run_mpi(opt, opt.np, ["extract", "big.lime", "--record", "1", "-o", "mpi.out"])
        tu.check_eq((m.returncode, m.stdout, m.stderr), (0, b"", b""), "mpi extract")
        tu.check_eq(os.path.getsize("mpi.out"), LENGTH, "mpi size")
        with open("mpi.out", "rb") as f:
            for off, b in SAMPLES.items():
                f.seek(off)
                tu.check_eq(f.read(len(b)), b, "byte sample at %d" % off)
        tu.check_eq(sha256_range("mpi.out", 0, LENGTH), want, "mpi sha256")
        tu.check_eq(mu.temporaries(), [], "no temporaries")
        m = mu.run_mpi(opt, opt.np, ["extract", "big.lime", "--type", "tail", "-o", "tail.out"])
        tu.check(m.returncode == 0 and tu.read("tail.out") == b"tail", "record after the big one")
    finally:
        for f in ("big.lime", "serial.out", "mpi.out"):
            if os.path.exists(f):
                os.remove(f)
    tu.finish()


tu.scratch()
main()
