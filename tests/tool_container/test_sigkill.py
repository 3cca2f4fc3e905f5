"""A writer killed with SIGKILL: ct_writer writes 40 chunks per task, one
chunk at a time with sleeps; once the file holds K complete blocks the
mpirun process group is killed.  Then `dump` reports the file incomplete
(truncated), `cat --recover` reads every task's complete chunks with the
right bytes (the pattern computed here), `repair` makes the container whole
and `cat` gives exactly those bytes per task.
Open MPI puts every rank in its own process group (in mpirun's session), so
the kill goes to every process of the session mpirun leads, by pid.
--mode temp: the default temporary name; --mode in_place: written under PATH."""
import os
import signal
import subprocess
import time

import ctutil as ct
import toolutil as tu

CAP, ALIGN = 4032, 4096
STRIDE = CAP + 64
K = 6


def find_file(in_place):
    if in_place:
        return "c.ltc" if os.path.exists("c.ltc") else None
    t = ct.temporaries()
    return t[0] if t else None


def run_and_kill(opt, in_place):
    args = ["write", "c.ltc", CAP, ALIGN, 150] + (["in_place"] if in_place else [])
    proc = subprocess.Popen(ct.writer_cmd(opt, opt.np, args), env=ct.serial_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    want = ALIGN + K * opt.np * STRIDE
    deadline = time.time() + 120
    path = None
    while time.time() < deadline and proc.poll() is None:
        path = find_file(in_place)
        if path and os.path.getsize(path) >= want:
            break
        time.sleep(0.02)
    tu.check(proc.poll() is None, "writer still running when killed")
    for pid in session_members(proc.pid) + [proc.pid]:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()
    deadline = time.time() + 30
    while session_members(proc.pid) and time.time() < deadline:
        time.sleep(0.05)
    tu.check_eq(session_members(proc.pid), [], "every writer process gone")
    return path


def session_members(sid):
    """Pids (other than sid) of the session sid: the ranks mpirun started."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == sid:
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                st = f.read()
        except OSError:
            continue
        fields = st[st.rfind(")") + 2:].split()
        if fields[0] != "Z" and int(fields[3]) == sid:
            out.append(int(d))
    return out


def main():
    opt = ct.options()
    in_place = opt.mode == "in_place"
    tu.scratch()
    path = run_and_kill(opt, in_place)
    if not tu.check(path is not None and os.path.exists(path), "killed writer left its file"):
        tu.finish()
    tu.check(not os.path.exists("c.ltc") or in_place, "no container under the final name")
    p = ct.lattio(["container", "dump", path])
    tu.check_eq(p.returncode, 1, "dump of the killed writer's file: exit 1")
    tu.check(b"INCOMPLETE" in p.stdout and b"ERR_CONTAINER_TRUNCATED" in p.stdout,
             "dump reports truncated: %r" % p.stdout[:300])
    d = ct.dump_json(path, expect_rc=1)
    tu.check_eq(d["state"], "incomplete", "json state")
    recovered = []
    for t in range(opt.np):
        p = ct.lattio(["container", "cat", "--recover", "--task", t, path])
        tu.check_eq(p.returncode, 0, "cat --recover task %d" % t)
        got = p.stdout
        tu.check_eq(len(got) % CAP, 0, "task %d: whole chunks recovered" % t)
        # The ranks write at the same pace (one chunk per 150 ms) but a loaded
        # machine may hold one back: every task has 2 chunks at least.
        tu.check(len(got) >= 2 * CAP, "task %d: at least 2 chunks (got %d bytes)" % (t, len(got)))
        tu.check(got == ct.pattern(t, len(got)), "task %d: recovered bytes right" % t)
        tu.check_eq(d["streams"][t]["bytes"], len(got), "task %d: dump size = recovered size" % t)
        recovered.append(got)
    tu.check(max(len(g) for g in recovered) >= (K - 1) * CAP,
             "the file held %d blocks: some task has %d complete chunks" % (K, K - 1))
    p = ct.lattio(["container", "cat", "--task", 0, path])
    tu.check_eq(p.returncode, 1, "strict cat refuses the incomplete file")
    p = ct.lattio(["container", "repair", path])
    tu.check_eq(p.returncode, 0, "repair exit status (stderr %r)" % p.stderr)
    for t in range(opt.np):
        tu.check(("%d" % len(recovered[t])).encode() in p.stdout, "repair reports task %d's bytes" % t)
    d = ct.dump_json(path)
    tu.check_eq(d["state"], "complete", "repaired container complete")
    for t in range(opt.np):
        p = ct.lattio(["container", "cat", "--task", t, path])
        tu.check(p.returncode == 0 and p.stdout == recovered[t], "task %d after repair" % t)
    tu.finish()


main()
