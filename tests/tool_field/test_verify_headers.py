#!/usr/bin/env python3
"""Corrupt headers each give a specific message and exit 1: NERSC with a
wrong CHECKSUM or a plaquette far from the data's, MILC with a bad magic,
truncated NERSC / MILC / LIME files, a file of no known format."""
import struct
from fieldutil import tu


def verify(path):
    p = tu.run(["verify", path])
    return p.returncode, p.stdout.decode()


def main():
    nersc = tu.read(tu.data_path("t_nersc.cfg"))
    tu.write("bad.nersc", nersc.replace(b"CHECKSUM = 717938df", b"CHECKSUM = 00000001"))
    rc, out = verify("bad.nersc")
    tu.check(rc == 1 and "NERSC header CHECKSUM 00000001, computed 717938df (ERR_CHECKSUM)" in out,
             "NERSC bad checksum: " + out)
    tu.write("plaq.nersc", nersc.replace(b"PLAQUETTE = 0.0382422893", b"PLAQUETTE = 0.0392422893"))
    rc, out = verify("plaq.nersc")
    tu.check(rc == 1 and "differs from the header's 0.039242289300 (ERR_PLAQUETTE)" in out,
             "NERSC plaquette: " + out)
    tu.write("trunc.nersc", nersc[:-10])
    rc, out = verify("trunc.nersc")
    tu.check(rc == 1 and "file truncated" in out and "ERR_TRUNCATED_PAYLOAD" in out,
             "NERSC truncated: " + out)
    tu.write("nohdr.nersc", nersc[:400])
    rc, out = verify("nohdr.nersc")
    tu.check(rc == 1 and "no END_HEADER" in out, "NERSC without END_HEADER: " + out)
    p = tu.run(["convert", tu.data_path("lat.sample.l4444.ildg"), "ok.milc", "--to", "milc"])
    tu.check_eq(p.returncode, 0, "make a MILC file")
    milc = tu.read("ok.milc")
    tu.check_eq(struct.unpack("<i", milc[:4])[0], 20103, "MILC magic little-endian")
    tu.write("magic.milc", struct.pack("<i", 20104) + milc[4:])
    rc, out = verify("magic.milc")
    tu.check(rc == 1 and "file format not recognised (ERR_UNKNOWN_FORMAT)" in out, "MILC magic: " + out)
    tu.write("trunc.milc", milc[:-4])
    rc, out = verify("trunc.milc")
    tu.check(rc == 1 and "MILC: 73724 bytes of link data, the header implies 73728" in out,
             "MILC truncated: " + out)
    tu.write("sum.milc", milc[:88] + b"\0\0\0\0" + milc[92:])
    rc, out = verify("sum.milc")
    tu.check(rc == 1 and "MILC checksums sum29 0" in out, "MILC sum29: " + out)
    lime = tu.read(tu.data_path("t_dprec_ildg.lime"))
    tu.write("trunc.lime", lime[:100000])
    rc, out = verify("trunc.lime")
    tu.check(rc == 1 and "record 7 at offset 1936: record 'ildg-binary-data' declares 147456 payload bytes" in out
             and "(ERR_LENGTH_BEYOND_EOF)" in out, "LIME truncated: " + out)
    tu.write("junk", b"\x01\x02\x03 no lattice here" * 10)
    rc, out = verify("junk")
    tu.check(rc == 1 and "junk: file format not recognised (ERR_UNKNOWN_FORMAT)" in out, "junk: " + out)
    p = tu.run(["verify"])
    tu.check(p.returncode == 2 and b"missing FILE" in p.stderr, "no file: usage")
    p = tu.run(["verify", "--frob", "x"])
    tu.check_eq(p.returncode, 2, "unknown option")
    tu.finish()


tu.scratch()
main()
