#!/usr/bin/env python3
"""`lattio info` text equals an independent Python model of C-LIME's
lime_contents output, for every real LIME file and for a synthetic file with
the edge cases: 7-bit payload with a NUL inside (printed up to the NUL),
high-bit byte ([Binary data]), 63999 and 64000 byte records (the limit),
an empty record, a first record without MB (still message 1); and the JSON
data field follows the same rule."""
import json
import toolutil as tu


def esc(b, keep=b""):
    """lattio escapes bytes a terminal would interpret (and the backslash) as \\xNN."""
    return "".join(chr(c) if (0x20 <= c < 0x7f and c != 0x5c) or c in keep else "\\x%02x" % c for c in b)


def model(recs):
    out = []
    msg = rec = 0
    for i, r in enumerate(recs):
        if r["mb"] or i == 0:
            msg += 1
            rec = 0
        rec += 1
        out.append("\n\nMessage:        %d\nRecord:         %d\nType:           %s\n"
                   "Data Length:    %d\nPadding Length: %d\nMB flag:        %d\nME flag:        %d\n"
                   % (msg, rec, esc(r["type"]), r["length"], r["padding"],
                      r["mb"], r["me"]))
        if r["length"] >= 64000:
            out.append("Data:           [Long record skipped]\n")
        elif any(b & 0x80 for b in r["payload"]):
            out.append("Data:           [Binary data]\n")
        else:
            out.append('Data:           "%s" \n' % esc(r["payload"].split(b"\0")[0], b"\n\t"))
    return "".join(out).encode("latin-1")


def compare(path, cwd=None):
    recs = tu.parse_lime(tu.read(path))
    p = tu.run(["info", path], cwd=cwd)
    tu.check_eq(p.returncode, 0, "info %s exit" % path)
    tu.check(p.stdout == model(recs), "info %s equals the lime_contents model" % path)
    p = tu.run(["info", "--json", path], cwd=cwd)
    doc = json.loads(p.stdout)
    for r, j in zip(recs, doc["records"]):
        if r["length"] < 64000 and not any(b & 0x80 for b in r["payload"]):
            tu.check_eq(j["data"], r["payload"].split(b"\0")[0].decode("ascii"), "json data")
        else:
            tu.check_eq(j["data"], None, "json data null")
    tu.check_eq(len(doc["records"]), len(recs), "json record count")


def main():
    for name in tu.LIME_FILES:
        compare(tu.data_path(name))
    synthetic = [
        (b"no-mb-first", b"abc\0def", False, False),
        (b"ctl", b"tab\there \"q\" back\\slash\x01\x7f", False, True),
        (b"high", b"caf\xc3\xa9", True, False),
        (b"empty", b"", False, False),
        (b"len63999", b"x" * 63999, False, False),
        (b"len64000", b"y" * 64000, False, True),
        (b"bin7", bytes(range(0, 128)) * 3, True, True),
    ]
    tu.write("synthetic.lime", tu.make_lime(synthetic))
    compare("synthetic.lime")
    out = tu.run(["info", "synthetic.lime"]).stdout.decode("latin-1")
    tu.check('Data:           "abc" \n' in out, "payload printed up to its NUL")
    tu.check("Message:        1\nRecord:         2\nType:           ctl" in out, "first message numbering")
    tu.check("Type:           len63999" in out and '"' + "x" * 63999 + '" ' in out, "63999 shown")
    tu.check("Type:           len64000" in out, "64000 listed")
    doc = json.loads(tu.run(["info", "--json", "synthetic.lime"]).stdout)
    tu.check_eq(doc["records"][1]["data"], "tab\there \"q\" back\\slash\x01\x7f", "json escapes")
    tu.check_eq(doc["records"][5]["data"], None, "64000 bytes: no data")
    tu.finish()


tu.scratch()
main()
