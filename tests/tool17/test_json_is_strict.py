#!/usr/bin/env python3
"""Case 6: every --json output parses with a strict JSON parser (no NaN or
Infinity) on damaged and hostile inputs: verify of a gauge field whose
numbers are NaN/inf prints null and names them in "nonfinite"; info of
hostile type strings; container dump."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool"))
import json
import struct
import toolutil as tu


def strict(b, what):
    def bad(c):
        raise ValueError("non-standard constant %s" % c)
    try:
        return json.loads(b, parse_constant=bad)
    except ValueError as e:
        tu.check(False, "%s: not strict JSON (%s): %r" % (what, e, b[:200]))
        return None


def main():
    data = bytearray(tu.read(tu.data_path("unity.lime")))
    start = 920 + 144  # unity.lime's binary record
    for i, v in enumerate((float("nan"), float("inf"), -float("inf"))):
        d = bytearray(data)
        d[start + 16 * i:start + 16 * i + 8] = struct.pack(">d", v)
        tu.write("bad%d.lime" % i, bytes(d))
        p = tu.run(["verify", "--json", "bad%d.lime" % i])
        tu.check_eq(p.returncode, 1, "damaged field fails verify")
        doc = strict(p.stdout, "verify --json %d" % i)  # one document per file
        doc = doc[0] if doc else None
        if doc:
            tu.check(doc["plaquette"] is None and "plaquette" in doc["nonfinite"], "plaquette null %r" % doc)
            tu.check(not doc["ok"], "not ok")
    for name in ("unity.lime", "t_qio.intel-scalar.lime", "t_nersc.cfg"):
        p = tu.run(["verify", "--json", tu.data_path(name)])
        doc = strict(p.stdout, "verify --json " + name)
        doc = doc[0] if doc else None
        tu.check(doc is not None and doc["ok"] and doc.get("nonfinite", []) == [], "%s ok" % name)
    hostile = tu.make_lime([(b"\x1b[2Jok\n\"q\\", b"a", 1, 0), (b"t\x7f\xff", b"b", 0, 1)])
    tu.write("h.lime", hostile)
    doc = strict(tu.run(["info", "--json", "h.lime"]).stdout, "info --json hostile")
    tu.check(doc is not None and doc["records"][0]["type"] == "\x1b[2Jok\n\"q\\", "type round trip")
    tu.finish()


tu.scratch()
main()
