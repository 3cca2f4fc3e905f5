#!/usr/bin/env python3
"""`lattio convert` writes nothing when IN fails verification (an existing
OUT stays as it was, no temporary file is left), refuses files without a
gauge field to a gauge-only format, and exits 2 on unusable arguments."""
import os
from fieldutil import tu


def main():
    lime = bytearray(tu.read(tu.data_path("t_dprec_ildg.lime")))
    lime[1936 + 144 + 999] ^= 0x40
    tu.write("bad.lime", bytes(lime))
    tu.write("out.lime", b"previous contents")
    p = tu.run(["convert", "bad.lime", "out.lime"])
    tu.check_eq(p.returncode, 1, "corrupt IN exit")
    tu.check(b"lattio convert: bad.lime: record 7 (ildg-binary-data)" in p.stderr, "names the record: %r" % p.stderr)
    tu.check_eq(tu.read("out.lime"), b"previous contents", "OUT untouched")
    tu.check_eq(sorted(os.listdir(".")), ["bad.lime", "out.lime"], "no temporary files")
    p = tu.run(["convert", tu.data_path("t_qio.intel-scalar.lime"), "q.lime"])
    tu.check(p.returncode == 1 and b"not one gauge configuration: convert to scidac or hdf5" in p.stderr,
             "non-gauge IN to ILDG: %r" % p.stderr)
    tu.check(not os.path.exists("q.lime"), "no OUT for fields to ILDG")
    p = tu.run(["convert", tu.data_path("unity.lime"), "odd.oq", "--to", "openqcd"])
    tu.check_eq(p.returncode, 0, "unity to openQCD")
    for args in (["x"], ["a", "b", "c"], ["a", "b", "--to", "grib"], ["a", "b", "--precision", "16"],
                 ["a", "b", "--nersc-rows", "4"], ["a", "b", "--to"], ["a", "b", "--frob"]):
        p = tu.run(["convert"] + args)
        tu.check(p.returncode == 2 and b"try 'lattio convert --help'" in p.stderr, "usage %s" % args)
    p = tu.run(["convert", "missing", "o"])
    tu.check(p.returncode == 1 and b"cannot open file" in p.stderr, "missing IN")
    tu.check(not os.path.exists("o"), "no OUT for a missing IN")
    tu.finish()


tu.scratch()
main()
