"""A container in several physical files (ct_writer with NFILES: PATH,
PATH.000001, ...) through `lattio container`: dump lists the files and their
task ranges, split and cat read every task's bytes (the pattern computed
here), defrag keeps the files and the ranges, a missing member is its own
error."""
import os

import ctutil as ct
import toolutil as tu

CAP, ALIGN = 960, 1024


def main():
    opt = ct.options()
    nfiles = 2
    tu.scratch()
    p = ct.run_writer(opt, opt.np, ["write", "c.ltc", CAP, ALIGN, 0, "-", nfiles])
    tu.check_eq(p.returncode, 0, "writer exit status (stderr %r)" % p.stderr)
    tu.check(os.path.exists("c.ltc") and os.path.exists("c.ltc.000001"), "two physical files")
    sizes = [ct.size_of(t, CAP) for t in range(opt.np)]
    d = ct.dump_json("c.ltc")
    tu.check_eq(d["files"], nfiles, "dump: files")
    firsts = [f * opt.np // nfiles + (1 if (f * opt.np) % nfiles else 0) for f in range(nfiles)]
    tu.check_eq([f["first_task"] for f in d["physical_files"]], firsts, "dump: task ranges")
    tu.check_eq([s["bytes"] for s in d["streams"]], sizes, "dump: sizes")
    tu.check_eq([s["file"] for s in d["streams"]],
                [max(f for f in range(nfiles) if firsts[f] <= t) for t in range(opt.np)], "dump: file of each task")
    tu.check_eq(d["file_size"], os.path.getsize("c.ltc") + os.path.getsize("c.ltc.000001"), "dump: bytes of both files")
    os.mkdir("s")
    p = ct.lattio(["container", "split", "c.ltc", "s/t"])
    tu.check_eq(p.returncode, 0, "split (stderr %r)" % p.stderr)
    for t in range(opt.np):
        with open("s/t.%d" % t, "rb") as f:
            tu.check(f.read() == ct.pattern(t, sizes[t]), "split: task %d" % t)
    p = ct.lattio(["container", "cat", "c.ltc"])
    tu.check(p.returncode == 0 and p.stdout == b"".join(ct.pattern(t, sizes[t]) for t in range(opt.np)), "cat")
    p = ct.lattio(["container", "defrag", "c.ltc", "d.ltc"])
    tu.check_eq(p.returncode, 0, "defrag (stderr %r)" % p.stderr)
    tu.check(os.path.exists("d.ltc.000001"), "defrag keeps the second file")
    e = ct.dump_json("d.ltc")
    tu.check_eq([f["first_task"] for f in e["physical_files"]], firsts, "defrag keeps the ranges")
    tu.check_eq(e["blocks"], 1, "defrag: one block")
    tu.check_eq([s["bytes"] for s in e["streams"]], sizes, "defrag: sizes")
    tu.check_eq(ct.temporaries(), [], "no temporaries")
    os.rename("c.ltc.000001", "moved")
    p = ct.lattio(["container", "dump", "c.ltc"])
    tu.check_eq(p.returncode, 1, "missing member: exit 1")
    tu.check(b"c.ltc: " in p.stderr and b"ERR_CONTAINER_MEMBER" in p.stderr, "missing member: %r" % p.stderr)
    tu.finish()


main()
