#!/usr/bin/env python3
"""The parallel volume writer (lattio_volumes_write) SIGKILLed before each
step of its publication in turn (volumes_kill.c), over an older set of 4
volumes of another field: after every kill `lattio verify set` finds the
old field or the new one, or says ERR_INTERRUPTED and `lattio clean set`
completes the new one; nothing of the older set is left once the new one
is there; the run that is not killed publishes at once."""
import glob
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool_mpi"))
import mpiutil as mu  # noqa: E402
import toolutil as tu  # noqa: E402


def verdict():
    """(status, the first field's checksum) of `lattio verify set`."""
    p = mu.run_serial(["verify", "--json", "set"])
    rep = json.loads(p.stdout)[0]
    recs = rep["binary_records"]
    return rep["status"], (recs[0]["suma"], recs[0]["sumb"]) if recs and rep["ok"] else None


def old_set():
    """An older multifile set of 4 volumes at "set" (a split of another field)."""
    for f in glob.glob("set.vol*") + glob.glob("set.lattio*"):
        os.unlink(f)
    p = mu.run_serial(["convert", tu.data_path("t_qio.intel-scalar.lime"), "set", "--volumes", "multi",
                       "--grid", "1,1,1,4"])
    tu.check_eq(p.returncode, 0, "the older set: %r" % p.stderr)
    return verdict()


def main():
    ap = mu.options("--prog")
    old = old_set()
    tu.check(old[0] == "OK" and old[1], "the older set verifies")
    m = mu.run_mpi(ap, ap.np, [str(-1)], prog=ap.prog)
    tu.check_eq(m.returncode, 0, "unkilled write: %r" % m.stderr)
    new = verdict()
    tu.check(new[0] == "OK" and new[1] and new[1] != old[1], "the new set verifies: %r" % (new,))
    tu.check_eq(sorted(glob.glob("set.vol*")), ["set.vol%04d" % i for i in range(ap.np)], "the old extra volumes gone")
    seen = set()
    for k in range(64):
        old_set()
        m = mu.run_mpi(ap, ap.np, [str(k)], prog=ap.prog)
        status, sums = verdict()
        if m.returncode == 0:  # k is past the last step: the write completed
            tu.check_eq((status, sums), new, "step %d: completed" % k)
            break
        seen.add(status if status != "OK" else "old" if sums == old[1] else "new" if sums == new[1] else "other")
        tu.check(status in ("OK", "ERR_INTERRUPTED") and (status != "OK" or sums in (old[1], new[1])),
                 "kill before step %d: the old set, the new one or ERR_INTERRUPTED, got %r" % (k, (status, sums)))
        c = mu.run_serial(["clean", "set"])
        tu.check_eq(c.returncode, 0, "kill before step %d: lattio clean set: %r" % (k, c.stderr))
        after = verdict()
        tu.check(after in (old, new), "kill before step %d: after clean the old or the new set, got %r" % (k, after))
        if status == "ERR_INTERRUPTED":
            tu.check_eq(after, new, "kill before step %d: clean completes the new set" % k)
        if after == new:
            tu.check_eq(sorted(glob.glob("set.vol*")), ["set.vol%04d" % i for i in range(ap.np)],
                        "kill before step %d: nothing of the older set left" % k)
    else:
        tu.check(False, "the publication never completed")
    tu.check({"old", "ERR_INTERRUPTED"} <= seen, "kills before and during the publication: %r" % sorted(seen))
    print("steps killed: %d, readers saw %s" % (k, sorted(seen)))
    tu.finish()


tu.scratch()
main()
