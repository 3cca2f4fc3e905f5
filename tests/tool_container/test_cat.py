"""`lattio container cat`: every stream in task order, one task's (--task),
one chunk (--block, of one task or of every task), to standard output or
-o OUT, binary-safe; compared with the pattern computed here."""
import ctutil as ct
import toolutil as tu

CAP, ALIGN = 960, 1024


def cat(args):
    p = ct.lattio(["container", "cat", "c.ltc"] + args)
    tu.check_eq(p.returncode, 0, "cat %s exit status (stderr %r)" % (args, p.stderr))
    return p.stdout


def main():
    opt = ct.options()
    tu.scratch()
    p = ct.run_writer(opt, opt.np, ["write", "c.ltc", CAP, ALIGN])
    tu.check_eq(p.returncode, 0, "writer exit status (stderr %r)" % p.stderr)
    streams = [ct.pattern(t, ct.size_of(t, CAP)) for t in range(opt.np)]
    tu.check(cat([]) == b"".join(streams), "cat: all streams in task order")
    for t in range(opt.np):
        tu.check(cat(["--task", t]) == streams[t], "cat --task %d" % t)
        nblocks = max(1, (len(streams[t]) + CAP - 1) // CAP)
        for b in range(nblocks):
            got = cat(["--task=%d" % t, "--block", b])
            tu.check(got == streams[t][b * CAP:(b + 1) * CAP], "cat --task %d --block %d" % (t, b))
        p = ct.lattio(["container", "cat", "c.ltc", "--task", t, "--block", nblocks])
        tu.check_eq(p.returncode, 1, "block beyond task %d's stream" % t)
        tu.check(b"c.ltc: task %d has %d block(s)" % (t, nblocks) in p.stderr, "message %r" % p.stderr)
    for b in range(6):
        want = b"".join(s[b * CAP:(b + 1) * CAP] for s in streams)
        if b < max(max(1, (len(s) + CAP - 1) // CAP) for s in streams):
            tu.check(cat(["--block", b]) == want, "cat --block %d (every task)" % b)
    tu.check(cat(["-o", "all.bin"]) == b"", "cat -o writes nothing to stdout")
    with open("all.bin", "rb") as f:
        tu.check(f.read() == b"".join(streams), "cat -o all.bin")
    p = ct.lattio(["container", "cat", "c.ltc", "--task", opt.np])
    tu.check_eq(p.returncode, 1, "cat --task beyond the tasks")
    tu.check(b"c.ltc: no task %d" % opt.np in p.stderr, "message names the task: %r" % p.stderr)
    p = ct.lattio(["container", "cat", "c.ltc", "--task", "x"])
    tu.check_eq(p.returncode, 2, "cat --task x is a usage error")
    tu.finish()


main()
