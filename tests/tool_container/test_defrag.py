"""`lattio container defrag`: a new container with every stream preserved
(compared with the pattern computed here), contiguous (one block by
default, or the chunk size asked for), never larger than the input; the
output appears only when complete; the input is untouched."""
import hashlib
import os

import ctutil as ct
import toolutil as tu

CAP, ALIGN = 960, 1024


def check_streams(path, np, what):
    for t in range(np):
        p = ct.lattio(["container", "cat", path, "--task", t])
        tu.check(p.returncode == 0 and p.stdout == ct.pattern(t, ct.size_of(t, CAP)),
                 "%s: task %d preserved" % (what, t))


def main():
    opt = ct.options()
    tu.scratch()
    p = ct.run_writer(opt, opt.np, ["write", "c.ltc", CAP, ALIGN])
    tu.check_eq(p.returncode, 0, "writer exit status (stderr %r)" % p.stderr)
    with open("c.ltc", "rb") as f:
        before = hashlib.sha256(f.read()).hexdigest()
    p = ct.lattio(["container", "defrag", "c.ltc", "d.ltc"])
    tu.check_eq(p.returncode, 0, "defrag exit status (stderr %r)" % p.stderr)
    tu.check(b"verified" in p.stdout, "defrag reports verification")
    check_streams("d.ltc", opt.np, "defrag")
    largest = max(ct.size_of(t, CAP) for t in range(opt.np))
    d = ct.dump_json("d.ltc")
    tu.check_eq(d["blocks"], 1, "default defrag: one block")
    tu.check(d["chunk"] >= largest, "chunk holds the largest stream")
    tu.check_eq(d["align"], ALIGN, "alignment kept")
    tu.check(d["complete"], "defragmented container complete")
    # Exact size: header block, one chunk per task, footer.
    stride = (largest + 64 + ALIGN - 1) // ALIGN * ALIGN
    tu.check_eq(os.path.getsize("d.ltc"), ALIGN + opt.np * stride + 64, "defrag size on disk")
    tu.check(os.path.getsize("d.ltc") <= os.path.getsize("c.ltc"), "defrag is not larger")
    with open("c.ltc", "rb") as f:
        tu.check_eq(hashlib.sha256(f.read()).hexdigest(), before, "input untouched")
    tu.check_eq(ct.temporaries(), [], "no temporary left")
    # --chunk: the given capacity (rounded up to whole aligned blocks).
    p = ct.lattio(["container", "defrag", "c.ltc", "e.ltc", "--chunk", 2 * CAP + 64])
    tu.check_eq(p.returncode, 0, "defrag --chunk exit status (stderr %r)" % p.stderr)
    e = ct.dump_json("e.ltc")
    tu.check_eq(e["chunk"], 2 * ALIGN - 64, "defrag --chunk: capacity")
    check_streams("e.ltc", opt.np, "defrag --chunk")
    sizes = {s["task"]: s["bytes"] for s in e["streams"]}
    tu.check_eq(sizes, {t: ct.size_of(t, CAP) for t in range(opt.np)}, "defrag --chunk sizes")
    # Failures leave no output and no temporary.
    p = ct.lattio(["container", "defrag", "c.ltc", "nodir/x.ltc"])
    tu.check_eq(p.returncode, 1, "defrag into a missing directory fails")
    tu.check(b"nodir/x.ltc" in p.stderr, "message names the output: %r" % p.stderr)
    p = ct.lattio(["container", "defrag", "c.ltc", "f.ltc", "--chunk", "0"])
    tu.check_eq(p.returncode, 2, "--chunk 0 is a usage error")
    tu.check(not os.path.exists("f.ltc"), "no output after a usage error")
    tu.check_eq(ct.temporaries(), [], "no temporary left after failures")
    tu.finish()


main()
