"""64 tasks (mpirun --oversubscribe -np 64) into one container with a small
chunk: read back serially (split, compared with the pattern computed here)
and in parallel at other task counts (3 and 5 ranks, each checking the
streams of tasks rank, rank + size, ...)."""
import os

import ctutil as ct
import toolutil as tu

CAP, ALIGN = 448, 512
NT = 64


def main():
    opt = ct.options()
    tu.scratch()
    p = ct.run_writer(opt, NT, ["write", "c.ltc", CAP, ALIGN], timeout=900)
    tu.check_eq(p.returncode, 0, "64-task writer exit status (stderr %r)" % p.stderr[-2000:])
    d = ct.dump_json("c.ltc")
    sizes = [ct.size_of(t, CAP) for t in range(NT)]
    tu.check_eq(d["tasks"], NT, "tasks")
    tu.check_eq([s["bytes"] for s in d["streams"]], sizes, "sizes of the 64 streams")
    tu.check_eq(d["blocks"], 6, "blocks (the largest stream: 5 chunks + 123 bytes)")
    os.mkdir("split")
    p = ct.lattio(["container", "split", "c.ltc", "split/t"])
    tu.check_eq(p.returncode, 0, "split exit status")
    for t in range(NT):
        with open("split/t.%02d" % t, "rb") as f:
            tu.check(f.read() == ct.pattern(t, sizes[t]), "serial read of task %d" % t)
    for np in (3, 5):
        p = ct.run_writer(opt, np, ["read", "c.ltc", CAP])
        tu.check_eq(p.returncode, 0, "parallel read at %d ranks (stderr %r)" % (np, p.stderr))
    tu.finish()


main()
