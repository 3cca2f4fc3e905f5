"""`lattio container split`: one file per task, PREFIX.<task> zero-padded to
the width of the largest task number, each byte-identical to what the task
wrote (the pattern is computed here, independently of the writer)."""
import os

import ctutil as ct
import toolutil as tu

CAP, ALIGN = 960, 1024


def main():
    opt = ct.options()
    tu.scratch()
    p = ct.run_writer(opt, opt.np, ["write", "c.ltc", CAP, ALIGN])
    tu.check_eq(p.returncode, 0, "writer exit status (stderr %r)" % p.stderr)
    os.mkdir("out")
    p = ct.lattio(["container", "split", "c.ltc", "out/part"])
    tu.check_eq(p.returncode, 0, "split exit status (stderr %r)" % p.stderr)
    width = len(str(opt.np - 1))
    want = sorted("part.%0*d" % (width, t) for t in range(opt.np))
    tu.check_eq(sorted(os.listdir("out")), want, "files written")
    for t in range(opt.np):
        name = os.path.join("out", "part.%0*d" % (width, t))
        with open(name, "rb") as f:
            got = f.read()
        tu.check_eq(len(got), ct.size_of(t, CAP), "size of " + name)
        tu.check(got == ct.pattern(t, ct.size_of(t, CAP)), name + " holds task's bytes")
        tu.check(name.encode() in p.stdout, "listing names " + name)
    # A split of an unfinished container needs --recover.
    with open("c.ltc", "rb") as f:
        data = f.read()
    with open("cut.ltc", "wb") as f:
        f.write(data[:-64])
    p = ct.lattio(["container", "split", "cut.ltc", "cut"])
    tu.check_eq(p.returncode, 1, "split of a container without footer fails")
    tu.check(b"cut.ltc: container incomplete" in p.stderr, "message names file and problem: %r" % p.stderr)
    p = ct.lattio(["container", "split", "--recover", "cut.ltc", "cut"])
    tu.check_eq(p.returncode, 0, "split --recover works (stderr %r)" % p.stderr)
    for t in range(opt.np):
        with open("cut.%0*d" % (width, t), "rb") as f:
            got = f.read()
        n = ct.size_of(t, CAP)
        # Without the footer every chunk is still there with its FINAL trailer.
        tu.check(got == ct.pattern(t, n), "recovered split of task %d" % t)
    tu.finish()


main()
