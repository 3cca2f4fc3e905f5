#!/usr/bin/env python3
"""Golden outputs: `lattio info`, `lattio info --json` or `lattio check`
(argv[1] = info | info-json | check) on every real file must print exactly
the checked-in stdout and exit with the recorded code."""
import difflib
import os
import sys
import toolutil as tu

ARGS = {"info": ["info"], "info-json": ["info", "--json"], "check": ["check"]}


def main():
    mode = sys.argv[1]
    entries = 0
    with open(os.path.join(tu.GOLDEN, "MANIFEST")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            m, name, rc, out = line.split()
            if m != mode:
                continue
            entries += 1
            want = tu.read(os.path.join(tu.GOLDEN, out))
            p = tu.run(ARGS[mode] + [name], cwd=tu.DATA)
            tu.check_eq(p.returncode, int(rc), "%s %s exit code" % (mode, name))
            if not tu.check(p.stdout == want, "%s %s stdout differs from golden/%s" % (mode, name, out)):
                sys.stderr.writelines(difflib.unified_diff(
                    want.decode("latin-1").splitlines(True), p.stdout.decode("latin-1").splitlines(True),
                    "golden", "lattio"))
            if int(rc) != 0:
                err = p.stderr.decode("latin-1")
                if mode != "check":
                    tu.check(err.count("\n") == 1 and err.startswith("lattio info: %s: " % name),
                             "%s %s: one error line naming the file, got %r" % (mode, name, err))
            else:
                tu.check_eq(p.stderr, b"", "%s %s stderr" % (mode, name))
    tu.check(entries >= 6, "manifest has entries for %s" % mode)
    tu.finish()


main()
