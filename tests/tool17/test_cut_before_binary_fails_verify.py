#!/usr/bin/env python3
"""Case 7: a file cut at the record boundary just before its binary record
(metadata announcing a field that is not there) fails `lattio verify`,
naming the announcing record, for every real LIME gauge file."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool"))
import toolutil as tu

FILES = ("unity.lime", "t_dprec_ildg.lime", "lat.sample.l4444.ildg", "t_qio.intel-scalar.lime")


def main():
    for name in FILES:
        data = tu.read(tu.data_path(name))
        recs = tu.parse_lime(data)
        first_binary = next(r for r in recs if r["type"] in (b"ildg-binary-data", b"scidac-binary-data"))
        tu.write("cut.lime", data[:first_binary["offset"]])
        p = tu.run(["verify", "cut.lime"])
        tu.check_eq(p.returncode, 1, "%s cut before its binary record: exit" % name)
        tu.check(b"announces a lattice field" in p.stdout and b"FAILED" in p.stdout, "%s: %r" % (name, p.stdout))
        tu.check_eq(tu.run(["verify", tu.data_path(name)]).returncode, 0, "%s whole: ok" % name)
    tu.finish()


tu.scratch()
main()
