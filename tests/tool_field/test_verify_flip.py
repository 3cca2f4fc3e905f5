#!/usr/bin/env python3
"""A one-byte change anywhere in a binary record (several positions, every
gauge file and each of t_qio's three records) makes `lattio verify` exit 1
naming the record; in NERSC link data it names the header CHECKSUM."""
import json
from fieldutil import tu

TARGETS = {  # file: [(record number, payload offset, length)]
    "unity.lime": [(3, 920 + 144, 147456)],
    "t_dprec_ildg.lime": [(7, 1936 + 144, 147456)],
    "lat.sample.l4444.ildg": [(7, 2184 + 144, 73728)],
    "t_qio.intel-scalar.lime": [(5, 1256 + 144, 4096), (9, 6480 + 144, 36864),
                                (13, 44472 + 144, 147456)],
}


def flipped(data, pos):
    b = bytearray(data)
    b[pos] ^= 0x01
    return bytes(b)


def main():
    for name, recs in TARGETS.items():
        data = tu.read(tu.data_path(name))
        for rec, start, length in recs:
            for rel in (0, 1, length // 3, length // 2 + 5, length - 1):
                tu.write("f.lime", flipped(data, start + rel))
                p = tu.run(["verify", "f.lime"])
                out = p.stdout.decode()
                what = "%s record %d byte %d" % (name, rec, rel)
                tu.check_eq(p.returncode, 1, what + " exit")
                tu.check("record %d (" % rec in out and "(ERR_CHECKSUM)" in out, what + " named: " + out)
                tu.check(out.endswith("f.lime: FAILED\n"), what + " FAILED line")
                q = tu.run(["verify", "--json", "f.lime"])
                obj = json.loads(q.stdout.decode())[0]
                bad = [r["record"] for r in obj["binary_records"] if not r["ok"]]
                tu.check_eq(bad, [rec], what + " json")
    data = tu.read(tu.data_path("t_nersc.cfg"))
    for pos in (586, 586 + 1000, len(data) - 1):
        tu.write("f.nersc", flipped(data, pos))
        p = tu.run(["verify", "f.nersc"])
        tu.check(p.returncode == 1 and b"NERSC header CHECKSUM 717938df" in p.stdout,
                 "NERSC byte %d: %r" % (pos, p.stdout))
    tu.finish()


tu.scratch()
main()
