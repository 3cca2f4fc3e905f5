#!/usr/bin/env python3
"""Issue 17, item 7: a writer of 2 or 3 ranks (tests/fault/writer.c: records,
a verified SciDAC field, durable) is killed with SIGKILL at random points,
24 times, replacing a previous OUT.  After every kill:
  - OUT is byte-identical to the previous file, or (the kill came after the
    rename) to the complete new file, never anything else;
  - `lattio verify OUT` passes;
  - what the killed writer left is only lattio temporaries, `lattio check
    OUT` notes each as stale, and `lattio clean OUT` removes them all (the
    writer is provably gone), after which none is left.
The kill times are drawn (fixed seed, printed) from the whole duration of a
complete run measured first, so they fall in start-up, records, the field,
verification, close and rename alike."""
import glob
import hashlib
import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool_mpi"))
import mpiutil as mu  # noqa: E402
import toolutil as tu  # noqa: E402

KILLS = 24


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def writer(opt, np, seed):
    return mu.launcher(opt, np) + [opt.prog, "OUT.lime", str(seed), "40"]


def complete_run(opt, np, seed):
    t0 = time.time()
    p = mu.run_mpi(opt, np, ["OUT.lime", str(seed), "40"], prog=opt.prog)
    tu.check_eq(p.returncode, 0, "complete write (np %d): %r" % (np, p.stdout + p.stderr))
    return time.time() - t0


def kill_at(opt, np, seed, delay):
    """Start the writer, SIGKILL every rank and the launcher after `delay` s."""
    for p in glob.glob("pid.*"):
        os.remove(p)
    proc = subprocess.Popen(writer(opt, np, seed), env=mu.serial_env(), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    for p in glob.glob("pid.[0-9]*"):
        if p.endswith(".part"):
            continue
        try:
            os.kill(int(open(p).read()), signal.SIGKILL)
        except (ValueError, ProcessLookupError):
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        tu.check(False, "the killed launcher did not end within 60 s")
    # ranks started by the launcher may outlive it briefly: wait for them
    end = time.time() + 30
    pids = []
    for p in glob.glob("pid.[0-9]*"):
        try:
            pids.append(int(open(p).read()))
        except ValueError:
            pass
    while time.time() < end and any(os.path.exists("/proc/%d" % q) for q in pids):
        time.sleep(0.05)


def main():
    opt = mu.options("--prog")
    for f in glob.glob("OUT.lime*"):
        os.remove(f)
    complete_run(opt, 2, 2)
    new_sha = sha("OUT.lime")
    duration = max(complete_run(opt, 3, 1), complete_run(opt, 2, 1))
    previous = tu.read("OUT.lime")
    old_sha = sha("OUT.lime")
    tu.check(old_sha != new_sha, "previous and new files differ")
    seed = 20261124
    rng = random.Random(seed)
    print("kill times drawn with seed %d over %.2f s" % (seed, duration))
    outcomes = {"previous": 0, "new": 0}
    left = 0
    for i in range(KILLS):
        np = 2 + i % 2
        delay = rng.uniform(0.0, duration * 1.1)
        kill_at(opt, np, 2, delay)
        what = "kill %d (np %d, after %.3f s)" % (i + 1, np, delay)
        now = sha("OUT.lime") if os.path.exists("OUT.lime") else None
        tu.check(now in (old_sha, new_sha), "%s: OUT.lime is the previous or the new file" % what)
        outcomes["previous" if now == old_sha else "new"] += now in (old_sha, new_sha)
        p = mu.run_serial(["verify", "OUT.lime"])
        tu.check_eq(p.returncode, 0, "%s: lattio verify (%r)" % (what, p.stdout[-300:]))
        others = [f for f in glob.glob("OUT.lime*") if f != "OUT.lime" and ".lattio-tmp." not in f]
        tu.check_eq(others, [], "%s: nothing but temporaries beside OUT.lime" % what)
        temps = mu.temporaries()
        if temps:
            left += 1
            p = mu.run_serial(["check", "OUT.lime"])
            tu.check_eq(p.stderr.count(b"note: stale temporary"), len(temps),
                        "%s: check notes the %d temporaries (%r)" % (what, len(temps), p.stderr))
            p = mu.run_serial(["clean", "OUT.lime"])
            tu.check_eq(p.returncode, 0, "%s: lattio clean (%r)" % (what, p.stdout + p.stderr))
        tu.check_eq(mu.temporaries(), [], "%s: no temporary after clean" % what)
        if now != old_sha:  # put the previous file back for the next kill
            tu.write("OUT.lime", previous)
    print("outcomes: %r; %d kills left a temporary (removed by lattio clean)" % (outcomes, left))
    # some kills must land mid-write (7 to 10 of 24 here with 20 ms naps;
    # faster writes, since 256 KiB write pieces, left 2: the naps are 40 ms
    # so the writing phases keep their share of the run; a slower start-up
    # on another machine shifts the share, hence the margin)
    tu.check(left >= KILLS // 8, "kills landed while the file was being written (%d)" % left)
    tu.finish()


tu.scratch()
main()
