#!/usr/bin/env python3
"""Case 5: a killed writer's temporary says who made it; `lattio check` and
`info` mention stale temporaries beside PATH; `lattio clean PATH` removes
those whose writer is provably gone (this host, dead process), keeps a
running writer's, another host's and old-style names, and `--dry-run`
removes nothing."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool"))
import os
import socket
import subprocess
import time
import toolutil as tu


def host():
    h = socket.gethostname().split(".")[0]
    return "".join(c if c.isalnum() or c == "-" else "_" for c in h)[:63] or "unknown"


def dead_pid():
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


def main():
    data = tu.read(tu.data_path("unity.lime"))
    tu.write("f.lime", data)
    now = int(time.time())
    gone = "f.lime.lattio-tmp.%s.%d.%d.abc" % (host(), dead_pid(), now)
    alive = "f.lime.lattio-tmp.%s.%d.%d.def" % (host(), os.getpid(), now)
    foreign = "f.lime.lattio-tmp.otherhost.%d.%d.123" % (dead_pid(), now)
    old = "f.lime.lattio-tmp.12345.7"
    for n in (gone, alive, foreign, old):
        tu.write(n, b"x" * 100)
    for cmd in (["check", "f.lime"], ["info", "f.lime"]):
        p = tu.run(cmd)
        tu.check_eq(p.returncode, 0, "%s exit" % cmd[0])
        tu.check_eq(p.stderr.count(b"note: stale temporary"), 4, "%s notes %r" % (cmd[0], p.stderr))
        tu.check(b"writer gone" in p.stderr, "%s names the dead writer" % cmd[0])
    p = tu.run(["clean", "--dry-run", "f.lime"])
    tu.check(p.returncode == 0 and all(os.path.exists(n) for n in (gone, alive, foreign, old)), "dry run keeps all")
    p = tu.run(["clean", "f.lime"])
    tu.check_eq(p.returncode, 0, "clean exit")
    tu.check(not os.path.exists(gone), "dead writer's temporary removed")
    tu.check(all(os.path.exists(n) for n in (alive, foreign, old)), "the others kept")
    tu.check(b"removed" in p.stdout and p.stdout.count(b": kept") == 3, "clean report %r" % p.stdout)
    tu.check(tu.read("f.lime") == data, "PATH untouched")
    # a real writer's name parses: made by this command, then refused and removed
    p = tu.run(["clean", "nosuchdir/f.lime"])
    tu.check_eq(p.returncode, 1, "clean of a missing directory fails")
    tu.check_eq(tu.run(["clean"]).returncode, 2, "usage")
    tu.finish()


tu.scratch()
main()
