#!/usr/bin/env python3
"""Case 3: `lattio extract F ... -o F` (and cat, convert, unpack, pack) refuse
an output that is one of the inputs (same device and inode, also through
another name) with a clear error, and F is left byte-identical."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool"))
import toolutil as tu


def main():
    data = tu.read(tu.data_path("unity.lime"))
    tu.write("f.lime", data)
    os.link("f.lime", "hard.lime")
    for out in ("f.lime", "./f.lime", "hard.lime"):
        p = tu.run(["extract", "f.lime", "--record", "1", "-o", out])
        tu.check_eq(p.returncode, 1, "extract -o %s exit" % out)
        tu.check(b"is the same file as the input" in p.stderr, "extract -o %s message %r" % (out, p.stderr))
        tu.check(tu.read("f.lime") == data, "extract -o %s: input intact" % out)
    p = tu.run(["convert", "f.lime", "f.lime", "--to", "nersc"])
    tu.check(p.returncode == 1 and b"is the same file as the input" in p.stderr, "convert IN IN %r" % p.stderr)
    tu.check(tu.read("f.lime") == data, "convert: input intact")
    os.mkdir("dir")
    p = tu.run(["convert", "f.lime", "dir", "--to", "nersc"])
    tu.check(p.returncode == 1 and b"is a directory" in p.stderr and p.stdout == b"",
             "convert into a directory: refused before any work, no success line %r" % p.stdout)
    tu.check_eq(os.listdir("dir"), [], "nothing written into the directory")
    tu.check_eq(sorted(f for f in os.listdir(".") if "lattio-" in f), [], "no temporary left")
    tu.finish()


tu.scratch()
main()
