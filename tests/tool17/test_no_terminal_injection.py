#!/usr/bin/env python3
"""Case 8: check, verify, info and convert never print a byte taken from the
file that a terminal would interpret (escape sequences, newlines, CR): such
bytes in record types and payload text come out as \\xNN, so a hostile file
cannot forge "ok" lines."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool"))
import toolutil as tu

EVIL = "\x1b[1A\rx.lime: ok\n"


def clean(b):
    return all(c == 0x0a or 0x20 <= c < 0x7f for c in b)


def main():
    lime = tu.make_lime([(EVIL.encode(), b"<xml>\x1b[2J</xml>", 1, 0), (b"ildg-format", b"\r\x1b]0;t\x07", 0, 1)])
    tu.write("x.lime", lime)
    for cmd in (["check", "x.lime"], ["verify", "x.lime"], ["info", "x.lime"], ["convert", "x.lime", "o", "--to", "nersc"]):
        p = tu.run(cmd)
        out = p.stdout + p.stderr
        tu.check(clean(out), "%s prints raw control bytes: %r" % (cmd[0], out))
        tu.check(b"x.lime: ok\n" not in p.stdout.replace(b"\\x", b""), "%s: no forged ok line" % cmd[0])
    p = tu.run(["info", "x.lime"])
    tu.check(b"\\x1b[1A\\x0dx.lime: ok\\x0a" in p.stdout, "type escaped %r" % p.stdout)
    tu.finish()


tu.scratch()
main()
