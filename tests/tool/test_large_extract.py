#!/usr/bin/env python3
"""A sparse LIME file with a 1 GiB record (plus a small record after it):
`lattio extract --record 1 -o` gives a file of the right size whose sampled
bytes and SHA-256 match those computed from the source file by Python."""
import hashlib
import os
import toolutil as tu

GIB = 1 << 30
SAMPLES = {0: b"BEGIN", 12345678: b"middle", GIB // 2 + 3: b"half", GIB - 3: b"END"}


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


def main():
    with open("big.lime", "wb") as f:
        f.write(tu.lime_header(b"big-record", GIB, True, False))
        for off, b in SAMPLES.items():
            f.seek(144 + off)
            f.write(b)
        f.seek(144 + GIB)  # no padding: 2^30 is a multiple of 8
        f.write(tu.lime_header(b"tail", 4, False, True) + b"tail" + b"\0" * 4)
    try:
        p = tu.run(["extract", "big.lime", "--record", "1", "-o", "big.out"])
        tu.check_eq(p.returncode, 0, "extract exit (%r)" % p.stderr)
        tu.check_eq(os.path.getsize("big.out"), GIB, "size")
        with open("big.out", "rb") as f:
            for off, b in SAMPLES.items():
                f.seek(off)
                tu.check_eq(f.read(len(b)), b, "byte sample at %d" % off)
        tu.check_eq(sha256_range("big.out", 0, GIB), sha256_range("big.lime", 144, GIB), "sha256")
        p = tu.run(["extract", "big.lime", "--type", "tail"])
        tu.check_eq(p.stdout, b"tail", "record after the big one")
    finally:
        for f in ("big.lime", "big.out"):
            if os.path.exists(f):
                os.remove(f)
    tu.finish()


tu.scratch()
main()
