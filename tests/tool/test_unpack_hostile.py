#!/usr/bin/env python3
"""Hostile record types ('/', '..', blanks, control and high bytes, quotes,
backslashes, empty) never make `lattio unpack` write outside DIR; file names
are sanitised; the list keeps the real types so pack rebuilds the file."""
import os
import toolutil as tu

TYPES = [b"../../escape", b"a/b/c", b"..", b"/abs/path", b"sp ace", b"ctl\x01\x1f", b"",
         b"back\\slash", b'"', b'""', b"hi\xff\x80", b"x" * 127, b"ok-type"]


def tree(top):
    out = set()
    for root, dirs, files in os.walk(top):
        for f in files + dirs:
            out.add(os.path.relpath(os.path.join(root, f), top))
    return out


def main():
    os.mkdir("work")
    recs = [(t, b"payload %d" % i, True, True) for i, t in enumerate(TYPES)]
    data = tu.make_lime(recs)
    tu.write("work/hostile.lime", data)
    before = tree(".")
    p = tu.run(["unpack", "hostile.lime", "out/D"], cwd="work")
    tu.check_eq(p.returncode, 0, "unpack exit")
    after = tree(".")
    new = sorted(after - before)
    tu.check(all(n.startswith("work/out") for n in new), "nothing outside DIR: %r" % new)
    names = sorted(os.listdir("work/out/D"))
    tu.check_eq(len(names), len(TYPES) + 1, "one file per record plus the list")
    for n in names:
        tu.check(all(c.isalnum() or c in "._+-" for c in n), "sanitised name %r" % n)
        tu.check(os.path.isfile(os.path.join("work/out/D", n)), "regular file %r" % n)
    tu.check("msg01.rec01..._.._escape" in names, "../../escape sanitised")
    tu.check("msg03.rec01..." in names, ".. kept as a plain name")
    tu.check("msg07.rec01." in names, "empty type")
    for i in range(len(TYPES)):
        hits = [n for n in names if n.startswith("msg%02d.rec01." % (i + 1))]
        tu.check(len(hits) == 1 and tu.read(os.path.join("work/out/D", hits[0])) == b"payload %d" % i,
                 "payload of record %d" % (i + 1))
    lst = tu.read("work/out/D/pack.list")
    tu.check(b" ../../escape\n" in lst and b" sp\\x20ace\n" in lst and b' ""\n' in lst
             and b" \\x22\\x22\n" in lst and b" hi\\xff\\x80\n" in lst, "list keeps escaped real types")
    p = tu.run(["pack", "work/out/D/pack.list", "rebuilt.lime"])
    tu.check_eq(p.returncode, 0, "pack exit")
    tu.check(tu.read("rebuilt.lime") == data, "hostile file round trip byte-identical")
    # a symlink planted where a payload file goes is not followed
    os.mkdir("s")
    os.symlink(os.path.abspath("victim"), "s/msg13.rec01.ok-type")
    p = tu.run(["unpack", "work/hostile.lime", "s"])
    tu.check(p.returncode == 1 and not os.path.exists("victim"), "symlink not followed")
    tu.finish()


tu.scratch()
main()
