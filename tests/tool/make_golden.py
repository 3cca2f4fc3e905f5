#!/usr/bin/env python3
"""Regenerate tests/tool/golden from the current `lattio` (not a test).

usage: LATTIO_BIN=build/bin LATTIO_TESTDATA=tests/data/real python3 tests/tool/make_golden.py

Writes golden/<file>.<mode>.out and golden/MANIFEST (mode file exit-code).
Every regenerated file must be re-read against EXPECTED.md and the
lime_contents format before it is committed."""
import os
import toolutil as tu

MODES = {"info": ["info"], "info-json": ["info", "--json"], "check": ["check"]}


def main():
    os.makedirs(tu.GOLDEN, exist_ok=True)
    lines = []
    for mode, args in MODES.items():
        for name in tu.ALL_FILES:
            p = tu.run(args + [name], cwd=tu.DATA)
            out = "%s.%s.out" % (name, mode)
            tu.write(os.path.join(tu.GOLDEN, out), p.stdout)
            lines.append("%s %s %d %s\n" % (mode, name, p.returncode, out))
    with open(os.path.join(tu.GOLDEN, "MANIFEST"), "w") as f:
        f.write("# mode file exit-code stdout-file; run in LATTIO_TESTDATA with the file's name\n")
        f.writelines(lines)


if __name__ == "__main__":
    main()
