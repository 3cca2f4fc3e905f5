#!/usr/bin/env python3
"""`lattio convert` chains: t_nersc.cfg to ILDG reproduces t_dprec_ildg's
plaquette to 1e-7 (typed in); ILDG -> NERSC 3x3 -> ILDG keeps the binary
payload bit for bit (64 and 32 bits); ILDG -> openQCD -> ILDG in double;
64 -> 32 -> 64 within single rounding (values checked here with struct);
MILC and SciDAC outputs verify; the ILDG output's record set is QIO's."""
import struct
from fieldutil import tu, verify_json

DPREC = tu.data_path("t_dprec_ildg.lime")
SAMPLE = tu.data_path("lat.sample.l4444.ildg")


def convert(*args):
    p = tu.run(["convert"] + list(args))
    tu.check(p.returncode == 0, "convert %s: %r" % (args, p.stderr))
    return p


def binary(path):
    recs = tu.parse_lime(tu.read(path))
    return [r["payload"] for r in recs if r["type"] in (b"ildg-binary-data", b"scidac-binary-data")][0]


def main():
    convert(tu.data_path("t_nersc.cfg"), "n.lime")
    _, data = verify_json(["n.lime"])
    tu.check(abs(data[0]["plaquette"] - 0.038242289410) < 1e-7, "NERSC -> ILDG plaquette")
    tu.check_eq(data[0]["precision"], 32, "NERSC -> ILDG keeps 32 bits")
    types = [r["type"] for r in tu.parse_lime(tu.read("n.lime"))]
    tu.check_eq(types, [b"scidac-private-file-xml", b"scidac-file-xml", b"scidac-private-record-xml",
                        b"scidac-record-xml", b"ildg-format", b"ildg-data-lfn", b"ildg-binary-data",
                        b"scidac-checksum"], "QIO record set")
    for src, prec in ((DPREC, "64"), (SAMPLE, "32")):
        convert(src, "m.nersc", "--to", "nersc", "--nersc-rows", "3", "--precision", prec)
        tu.check(b"DATATYPE = 4D_SU3_GAUGE_3x3\n" in tu.read("m.nersc")[:2000], "3x3 header")
        convert("m.nersc", "back.lime")
        tu.check(binary("back.lime") == binary(src), "ILDG -> NERSC -> ILDG payload %s" % prec)
    convert(DPREC, "o.oq", "--to", "openqcd")
    convert("o.oq", "o.lime")
    tu.check(binary("o.lime") == binary(DPREC), "ILDG -> openQCD -> ILDG payload")
    convert(DPREC, "s.lime", "--precision", "32")
    convert("s.lime", "d.lime", "--precision", "64")
    orig = struct.unpack(">%dd" % (256 * 72), binary(DPREC))
    back = struct.unpack(">%dd" % (256 * 72), binary("d.lime"))
    single = [struct.unpack("f", struct.pack("f", x))[0] for x in orig]
    tu.check(back == tuple(single), "64 -> 32 -> 64 is one rounding to single")
    convert(SAMPLE, "x.milc", "--to", "milc")
    convert("x.milc", "x.scidac", "--to", "scidac")
    p, data = verify_json(["o.oq", "x.milc", "x.scidac", "m.nersc"])
    tu.check_eq(p.returncode, 0, "outputs verify")
    tu.check_eq([d["format"] for d in data], ["openqcd", "milc", "scidac", "nersc"], "formats")
    tu.check(abs(data[1]["plaquette"] - 0.594850158947) < 1e-12, "MILC plaquette")
    tu.check(binary("x.scidac") == binary(SAMPLE), "MILC -> SciDAC payload = original ILDG payload")
    tu.finish()


tu.scratch()
main()
