#!/usr/bin/env python3
"""Case 4: a command that fails leaves the previous OUT byte-identical and no
temporary behind (extract -o, container cat -o, convert, unpack), and one
that succeeds replaces OUT whole; a symlink at OUT is not replaced."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool"))
import toolutil as tu


def temporaries():
    return sorted(f for f in os.listdir(".") if ".lattio-tmp." in f or ".lattio-convert." in f)


def main():
    data = tu.read(tu.data_path("unity.lime"))
    tu.write("in.lime", data)
    tu.write("out", b"previous output")
    # fails after the output was opened: the record is cut short in the input
    tu.write("cut.lime", data[:920 + 144 + 1000])
    p = tu.run(["extract", "cut.lime", "--record", "3", "-o", "out"])
    tu.check(p.returncode == 1, "extract from a cut record fails %r" % p.stderr)
    tu.check_eq(tu.read("out"), b"previous output", "extract failure: previous OUT intact")
    tu.check_eq(temporaries(), [], "extract failure: no temporary")
    p = tu.run(["extract", "in.lime", "--record", "1", "-o", "out"])
    tu.check(p.returncode == 0 and tu.read("out") == tu.parse_lime(data)[0]["payload"], "extract success replaces")
    tu.write("out", b"previous output")
    p = tu.run(["convert", "cut.lime", "out", "--to", "nersc"])
    tu.check(p.returncode == 1, "convert of a cut file fails")
    tu.check_eq(tu.read("out"), b"previous output", "convert failure: previous OUT intact")
    tu.check_eq(temporaries(), [], "convert failure: no temporary")
    os.symlink("victim", "link")
    p = tu.run(["extract", "in.lime", "--record", "1", "-o", "link"])
    tu.check(p.returncode == 1 and b"symbolic link" in p.stderr and not os.path.exists("victim"),
             "symlink output refused")
    tu.finish()


tu.scratch()
main()
