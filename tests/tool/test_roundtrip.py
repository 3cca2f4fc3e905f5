#!/usr/bin/env python3
"""`lattio unpack F D && lattio pack D/pack.list G` gives G byte-identical to
F for every real LIME file; the unpacked files hold the payloads sliced
independently, named msgNN.recNN.TYPE; the default directory is F.contents;
pack works from another working directory (paths relative to the list)."""
import os
import shutil
import toolutil as tu


def main():
    for name in tu.LIME_FILES:
        path = tu.data_path(name)
        data = tu.read(path)
        recs = tu.parse_lime(data)
        d = "u_" + name
        p = tu.run(["unpack", path, d])
        tu.check_eq(p.returncode, 0, "unpack %s" % name)
        tu.check_eq(p.stderr, b"", "unpack %s stderr" % name)
        files = sorted(f for f in os.listdir(d) if f != "pack.list")
        tu.check_eq(len(files), len(recs), "%s file count" % name)
        msg = rec = 0
        for i, r in enumerate(recs):
            if r["mb"] or i == 0:
                msg, rec = msg + 1, 0
            rec += 1
            fn = os.path.join(d, "msg%02d.rec%02d.%s" % (msg, rec, r["type"].decode()))
            tu.check(os.path.exists(fn) and tu.read(fn) == r["payload"], "%s payload %s" % (name, fn))
        os.mkdir("elsewhere_" + name)
        p = tu.run(["pack", os.path.abspath(os.path.join(d, "pack.list")), "packed.lime"],
                   cwd="elsewhere_" + name)
        tu.check_eq(p.returncode, 0, "pack %s" % name)
        tu.check(tu.read(os.path.join("elsewhere_" + name, "packed.lime")) == data,
                 "%s round trip byte-identical" % name)
    # default directory FILE.contents next to the file, list usable by pack
    shutil.copy(tu.data_path("lime_writer_test1.lime"), "w.lime")
    p = tu.run(["unpack", "w.lime"])
    tu.check_eq(p.returncode, 0, "unpack default dir")
    tu.check_eq(tu.read("w.lime.contents/pack.list"),
                b"msg01.rec01.lime-test-text1 lime-test-text1\nmsg01.rec02.lime-test-text1 lime-test-text1\n\n"
                b"msg02.rec01.lime-test-text1 lime-test-text1\nmsg02.rec02.lime-test-text2 lime-test-text2\n\n"
                b"msg03.rec01.lime-test-text3 lime-test-text3\n", "list file contents")
    p = tu.run(["pack", "w.lime.contents/pack.list", "w2.lime"])
    tu.check(p.returncode == 0 and tu.read("w2.lime") == tu.read("w.lime"), "default dir round trip")
    # a hand-written lime_pack list: blank lines make messages
    tu.write("a.txt", b"first")
    tu.write("b.txt", b"second!!")
    tu.write("c.txt", b"")
    tu.write("my.list", b"a.txt type-a\nb.txt   type-b extra-field\n\n\nc.txt type-c\n")
    p = tu.run(["pack", "my.list", "h.lime"])
    tu.check_eq(p.returncode, 0, "pack hand list")
    want = tu.make_lime([(b"type-a", b"first", True, False), (b"type-b", b"second!!", False, True),
                         (b"type-c", b"", True, True)])
    tu.check(tu.read("h.lime") == want, "hand list packed as lime_pack would")
    tu.write("bad.list", b"a.txt\n")
    p = tu.run(["pack", "bad.list", "bad.lime"])
    tu.check(p.returncode == 1 and b"line 1 has only one entry" in p.stderr, "one-entry line rejected")
    p = tu.run(["pack", "my.list"])
    tu.check_eq(p.returncode, 2, "pack without OUT")
    p = tu.run(["unpack"])
    tu.check_eq(p.returncode, 2, "unpack without FILE")
    tu.finish()


tu.scratch()
main()
