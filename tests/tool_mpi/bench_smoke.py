#!/usr/bin/env python3
"""`lattio bench` under mpirun -n NP on a tiny lattice, every strategy, under
each MPI-IO component: the JSON parses and has every case x operation, one
positive time per repetition, bandwidths that are the payload bytes over
those times, ratios that are quotients of the medians, verified results and
the machine description; the table names every case; nothing is left in the
directory.  --json - prints the JSON on stdout; weak scaling multiplies the
local box by the grid.  Errors: a bad option exits 2 with one message; an
unusable --dir exits 1 on every rank with one clear message (no hang); a
file or read buffer that differs from the pattern (LATTIO_BENCH_FAULT, a
test hook that swaps two sites) is an error exit, reported corrupt with no
figures."""
import json
import os
import statistics
import mpiutil as mu
import toolutil as tu

CASES = ["posix-per-rank", "posix-rank0", "independent", "collective", "aggregate", "serial", "mapped", "auto"]
DIMS = [4, 4, 4, 8]
SITE = 576
REPS = 2
MIB = 1048576.0


def close(a, b, what):
    return tu.check(abs(a - b) <= 1e-4 * max(abs(a), abs(b), 1e-12), "%s: %r vs %r" % (what, a, b))


def strict(name):
    """JSON has no NaN or Infinity: a non-finite number is null."""
    raise ValueError("non-standard JSON constant %s" % name)


def bench(opt, args, env=None):
    return mu.run_mpi(opt, opt.np, ["bench"] + args, env=env)


def check_result(c, nbytes, base, what):
    tu.check_eq(c["status"], "ok", what + ": status")
    tu.check_eq(c["verified"], True, what + ": verified")
    tu.check_eq(c["bytes"], nbytes, what + ": bytes")
    t = c["times"]
    tu.check(len(t) == REPS and all(x > 0 for x in t), what + ": %d positive times %r" % (REPS, t))
    if len(t) != REPS or min(t) <= 0:
        return
    bw = c["mib_s"]
    close(bw["median"], nbytes / MIB / statistics.median(t), what + ": median MiB/s")
    close(bw["min"], nbytes / MIB / max(t), what + ": min MiB/s")
    close(bw["max"], nbytes / MIB / min(t), what + ": max MiB/s")
    for key, b in base.items():
        close(c[key], bw["median"] / b["mib_s"]["median"], what + ": " + key)
    if c["kind"] == "strategy":  # one lattio_profile per timed repetition
        prof = c.get("profile", [])
        tu.check(len(prof) == REPS and all(p["calls"] >= 1 and len(p["total"]) == 3 and p["total"][2] > 0
                                           and "io" in p for p in prof), what + ": profiles %r" % prof[:1])


def check_json(d, comp, nbytes, np):
    m = d["machine"]
    tu.check_eq(m["nprocs"], np, "nprocs")
    tu.check(m["cores"] >= 1 and m["hostname"] and m["mpi_library"], "machine fields %r" % m)
    tu.check_eq(m["mpi_io"], comp, "MPI-IO component")
    tu.check_eq(m["fs_type"] != "", True, "file system type")
    tu.check_eq(d["parameters"]["bytes"], nbytes, "parameters.bytes")
    res = {(c["case"], c["op"]): c for c in d["results"]}
    tu.check_eq(sorted(res), sorted((c, op) for c in CASES for op in ("write", "read")), "cases x ops")
    for op in ("write", "read"):
        base = {"vs_posix_per_rank": res.get(("posix-per-rank", op)),
                "vs_posix_rank0": res.get(("posix-rank0", op))}
        if not all(base.values()):
            continue
        for c in CASES:
            if (c, op) in res:
                check_result(res[(c, op)], nbytes, base, "%s %s %s" % (comp, c, op))
    tu.check_eq(d["ok"], True, "ok")


def run_components(opt):
    romio = os.environ.get("LATTIO_ROMIO", "")  # tests/mpi-stack.cmake: this Open MPI's ROMIO
    comps = ["ompio"] + ([romio] if romio else []) if opt.flavor == "openmpi" else ["default"]
    nbytes = SITE
    for x in DIMS:
        nbytes *= x
    for comp in comps:
        os.mkdir("d")
        env = {"OMPI_MCA_io": comp} if comp != "default" else {}
        r = bench(opt, ["--dims", ",".join(map(str, DIMS)), "--reps", str(REPS), "--dir", "d",
                        "--json", "out.json", "--profile"], env)
        tu.check_eq(r.returncode, 0, comp + ": exit status (stderr %r)" % r.stderr[-400:])
        out = r.stdout.decode()
        tu.check(all(c in out for c in CASES) and "profile" in out, comp + ": table names every case")
        with open("out.json") as f:
            check_json(json.load(f, parse_constant=strict), comp, nbytes, opt.np)
        tu.check_eq(os.listdir("d"), [], comp + ": nothing left in --dir")
        os.rmdir("d")
        os.remove("out.json")


def json_stdout_and_weak(opt):
    grid = [1, 1, 1, opt.np]
    r = bench(opt, ["--dims", "2,3,2,2", "--scaling", "weak", "--grid", ",".join(map(str, grid)),
                    "--strategies", "independent,aggregate", "--reps", "1", "--json", "-"])
    tu.check_eq(r.returncode, 0, "weak run exit status")
    d = json.loads(r.stdout.decode(), parse_constant=strict)
    tu.check_eq(d["parameters"]["global"], [2, 3, 2, 2 * opt.np], "weak: global = local x grid")
    tu.check_eq(d["parameters"]["grid"], grid, "grid as given")
    tu.check_eq(sorted({c["case"] for c in d["results"]}),
                ["aggregate", "independent", "posix-per-rank", "posix-rank0"], "only the asked strategies")
    tu.check(b"independent" in r.stderr, "table on stderr with --json -")


def errors(opt):
    for args in (["--bogus"], ["--dims", "4,,4"], ["--strategies", "fast"], ["--grid", "1,1,1,%d" % (opt.np + 1)]):
        r = bench(opt, args)
        tu.check_eq(r.returncode, 2, "%s: exit status" % args)
        tu.check(r.stderr.count(b"lattio bench:") == 1 and r.stdout == b"", "%s: one message %r" % (args, r.stderr))
    tu.write("afile", b"x")
    for d in ("afile/sub", "missing/dir"):
        r = bench(opt, ["--dims", "2,2,2,2", "--dir", d, "--reps", "1"])
        tu.check_eq(r.returncode, 1, "--dir %s: exit status" % d)
        tu.check(r.stderr.count(b"lattio bench:") == 1 and d.encode() in r.stderr
                 and b"cannot create files" in r.stderr, "--dir %s: one clear message %r" % (d, r.stderr))


def faults(opt):
    for where, word in (("write", b"file's bytes"), ("read", b"sites read")):
        os.mkdir("f")
        r = bench(opt, ["--dims", "4,4,2,4", "--reps", "1", "--warmup", "0", "--dir", "f", "--json", "f.json"],
                  {"LATTIO_BENCH_FAULT": where})
        tu.check_eq(r.returncode, 1, "fault in %s: exit status" % where)
        tu.check(b"verification FAILED" in r.stderr and word in r.stderr, "fault %s: message %r" % (where, r.stderr))
        with open("f.json") as f:
            d = json.load(f)
        c = [x for x in d["results"] if x["case"] == "independent" and x["op"] == where][0]
        tu.check_eq((c["status"], c["verified"], c["times"], d["ok"]), ("corrupt", False, [], False),
                    "fault %s: reported corrupt, no figures" % where)
        others = [x for x in d["results"] if x["case"] != "independent"]
        tu.check(all(x["status"] == "ok" for x in others), "fault %s: other cases still ok" % where)
        tu.check_eq(os.listdir("f"), [], "fault %s: nothing left" % where)
        os.rmdir("f")


def serial_run():
    r = mu.run_serial(["bench", "--dims", "2,2,2,4", "--reps", "1", "--strategies", "independent", "--json", "-"])
    tu.check_eq(r.returncode, 0, "serial run exit status")
    tu.check_eq(json.loads(r.stdout.decode())["machine"]["nprocs"], 1, "serial run: one rank")


def main():
    opt = mu.options()
    tu.scratch()
    run_components(opt)
    json_stdout_and_weak(opt)
    errors(opt)
    faults(opt)
    if opt.np == 1:
        serial_run()
    tu.finish()


if __name__ == "__main__":
    main()
