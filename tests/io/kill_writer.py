#!/usr/bin/env python3
"""A parallel write killed with SIGKILL part-way never damages the previous
file.  OUT.lime is first written (small, good) by `kill_writer small` on 2
ranks; then `kill_writer large` on 2 ranks starts replacing it with a big new
version; once it has written records (a temporary OUT.lime.lattio-tmp.* is
growing) the driver SIGKILLs both rank processes and mpirun.  Then OUT.lime
has the SHA-256 it had before, the only other OUT.lime* files are lattio
temporaries, and `lattio check OUT.lime` passes.  With no previous file,
OUT.lime does not exist after the kill."""
import glob
import hashlib
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool_mpi"))
import mpiutil as mu  # noqa: E402
import toolutil as tu  # noqa: E402


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def wait_for(paths, seconds):
    end = time.time() + seconds
    while time.time() < end:
        if all(os.path.exists(p) for p in paths):
            return True
        time.sleep(0.05)
    return False


def temporaries():
    return glob.glob("OUT.lime.lattio-tmp.*")


def start_and_kill(opt):
    """Start the large writer, kill it mid-write; returns the temporaries'
    sizes seen just before the kill."""
    for p in glob.glob("pid.*") + glob.glob("started*"):
        os.remove(p)
    proc = subprocess.Popen(mu.launcher(opt, 2) + [opt.prog, "large", "OUT.lime"],
                            env=mu.serial_env(), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen = {}
    try:
        ok = wait_for(["pid.0", "pid.1", "started"], 120)
        tu.check(ok, "writer started")
        time.sleep(1.0)  # let it write more records
        seen = {t: os.path.getsize(t) for t in temporaries()}
        for p in ("pid.0", "pid.1"):
            if os.path.exists(p):
                os.kill(int(open(p).read()), signal.SIGKILL)
        proc.kill()
        proc.wait(timeout=60)
    finally:
        try:  # whatever the launcher left of the group started here
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if proc.poll() is None:
            proc.wait(timeout=60)
    tu.check(proc.returncode != 0, "the writer did not finish: %r" % proc.returncode)
    tu.check(len(seen) == 1 and max(seen.values()) > 144 * 3,
             "a temporary file was being written at the kill: %r" % seen)
    return seen


def with_previous(opt):
    p = mu.run_mpi(opt, 2, ["small", "OUT.lime"], prog=opt.prog)
    tu.check_eq(p.returncode, 0, "small write (%r)" % p.stderr)
    before = sha("OUT.lime")
    tu.check_eq([r["type"] for r in tu.parse_lime(tu.read("OUT.lime"))],
                [b"previous-version", b"previous-tail"], "previous file written")
    start_and_kill(opt)
    tu.check_eq(sha("OUT.lime"), before, "previous file byte-identical")
    others = [f for f in glob.glob("OUT.lime*") if f != "OUT.lime" and ".lattio-tmp." not in f]
    tu.check_eq(others, [], "no other OUT.lime* files")
    p = mu.run_serial(["check", "OUT.lime"])
    tu.check_eq((p.returncode, p.stdout), (0, b"OUT.lime: ok, 2 records\n"), "lattio check")


def without_previous(opt):
    for f in glob.glob("OUT.lime*"):
        os.remove(f)
    start_and_kill(opt)
    tu.check(not os.path.exists("OUT.lime"), "no OUT.lime after a killed first write")
    others = [f for f in glob.glob("OUT.lime*") if ".lattio-tmp." not in f]
    tu.check_eq(others, [], "no other OUT.lime* files")
    for f in temporaries():  # what the killed writer left: tens of MiB
        os.remove(f)


def main():
    opt = mu.options("--prog")
    with_previous(opt)
    without_previous(opt)
    tu.finish()


tu.scratch()
main()
