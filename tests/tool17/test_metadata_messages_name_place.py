#!/usr/bin/env python3
"""Case 10: a message about damaged metadata names the record and the XML
element, and a header number is printed as the file stores it.

- Every single-byte change of unity.lime's ildg-format payload that makes
  `lattio verify` fail on the metadata names "ildg-format record 2 at byte
  408" and, when an element is at fault, the element (<lx>, <precision>...).
- Two pinned cases: a letter in <lx>, precision 74.
- A MILC file whose x extent is -4 is reported as -4, not 4294967292."""
import os
import re
import struct
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool"))
import toolutil as tu

PLACE = b"ildg-format record 2 at byte 408"


def verify(path):
    p = tu.run(["verify", path])
    return p.returncode, p.stdout + p.stderr


def pinned(data):
    i = data.find(b"<lx>") + 4
    tu.write("lx.lime", data[:i] + b"x" + data[i + 1:])
    rc, out = verify("lx.lime")
    tu.check(rc == 1 and PLACE + b": element <lx> is malformed" in out, "letter in <lx>: %r" % out)
    i = data.find(b"<precision>") + len(b"<precision>")
    tu.write("prec.lime", data[:i] + b"7" + data[i + 1:])
    rc, out = verify("prec.lime")
    tu.check(rc == 1 and PLACE + b": element <precision> is 74, not 32 or 64" in out,
             "precision 74: %r" % out)


def sweep(data):
    recs = tu.parse_lime(data)
    fmt = recs[1]
    tu.check_eq(fmt["type"], b"ildg-format", "record 2 of unity.lime")
    start = 408 + 144
    failed = named = elements = 0
    for k in range(len(fmt["payload"])):
        for v in (0x20, 0x39, 0x78):  # space, '9', 'x': each changes text, digits or tags
            at = start + k
            if data[at] == v:
                continue
            tu.write("m.lime", data[:at] + bytes([v]) + data[at + 1:])
            rc, out = verify("m.lime")
            if rc == 0 or b"metadata:" not in out:
                continue
            failed += 1
            named += PLACE in out
            elements += re.search(rb"element <[a-z]+>", out) is not None
    tu.check(failed > 100, "the sweep damaged the metadata (%d failures)" % failed)
    tu.check_eq(named, failed, "every metadata failure names the record")
    tu.check(elements > failed // 2, "most name the element (%d of %d)" % (elements, failed))


def milc_negative():
    p = tu.run(["convert", tu.data_path("unity.lime"), "u.milc", "--to", "milc"])
    tu.check_eq(p.returncode, 0, "convert to MILC (%r)" % p.stderr)
    m = bytearray(tu.read("u.milc"))
    little = struct.unpack("<i", m[:4])[0] == 20103
    m[4:8] = struct.pack("<i" if little else ">i", -4)
    tu.write("neg.milc", bytes(m))
    rc, out = verify("neg.milc")
    tu.check(rc == 1 and b"dimension x is -4" in out and b"4294967292" not in out,
             "negative MILC extent printed signed: %r" % out)


def main():
    data = tu.read(tu.data_path("unity.lime"))
    pinned(data)
    sweep(data)
    milc_negative()
    tu.finish()


tu.scratch()
main()
