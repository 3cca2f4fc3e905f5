#!/usr/bin/env python3
"""counts.py -- what a field call costs does not grow with the job: on the
emulated cluster (scripts/cluster), one field write and one verified read
(bench/scale_field.c) under the count tool (bench/iocount.c), at 2 nodes x
2 ranks, 4 x 1 and 4 x 2, two lattice volumes (2x apart) and two aggregate
windows (4x apart, so 4x the rounds), for the aggregate and the independent
strategies.  Asserts, per strategy and call:

  - the collective MPI calls of a rank are the same number in every run:
    independent of the rank count, the volume and the number of rounds
    (the aggregate strategy creates its node's shared window where a node
    holds 2+ ranks: that one MPI_Win_allocate_shared is discounted);
  - the extra heap of a rank (peak minus start, the tool's malloc count)
    plus the MPI memory it allocates (shared windows) stays within 25% +
    64 KiB of its smallest value over the runs of the same window, and
    below a bound set by the window and staging sizes, far below the
    rank's share of the lattice;
  - the bytes a rank receives through collectives (the agreement payload)
    grow no faster than the rank count;
  - the default strategy (auto) reads a fine split (runs of X / ranks
    sites) across nodes in whole windows: each rank's read calls are within
    2 of the fewest its bytes need (one per window of LATTIO_CB_BUFFER_SIZE)
    -- an independent read makes one call per run, thousands.

usage: counts.py RUN_SH BIN_DIR [--mpiexec X]   (exit 77: cluster not up)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

WINDOW, STAGING = 262144, 262144  # bytes: every buffer lattio sizes by them
SITE = 576  # a double gauge field's bytes per site


def run(args, out, tag, nodes, ppn, dims, strategy, window):
    env = ["env", "LD_PRELOAD=%s/libiocount.so" % args.bin, "IOCOUNT_OUT=%s" % out,
           "IOCOUNT_MATCH=scale_field", "IOCOUNT_TAG=%s" % tag,
           "LATTIO_STRATEGY=%s" % strategy, "LATTIO_CB_BUFFER_SIZE=%d" % window,
           "LATTIO_STAGING_BYTES=%d" % STAGING]
    cmd = ["sh", args.run_sh, "--nodes", str(nodes), "--ppn", str(ppn), "--timeout", "180"]
    if args.mpiexec:
        cmd += ["--mpiexec", args.mpiexec]
    cmd += ["--"] + env + ["%s/scale_field" % args.bin] + [str(d) for d in dims] + ["xy"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode == 77:
        print(p.stdout)
        sys.exit(77)
    if p.returncode != 0:
        print(p.stdout)
        sys.exit("FAIL: %s exited %d" % (tag, p.returncode))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run_sh")
    ap.add_argument("bin")
    ap.add_argument("--mpiexec")
    args = ap.parse_args()
    if not os.path.exists(os.path.join(args.bin, "libiocount.so")):
        sys.exit("FAIL: %s/libiocount.so missing (build the iocount target)" % args.bin)
    small, large = (16, 16, 16, 8), (16, 16, 16, 16)
    plan = []
    for strategy in ("aggregate", "independent"):
        for nodes, ppn in ((2, 2), (4, 1), (4, 2)):
            plan.append((strategy, nodes, ppn, large, WINDOW))
        plan.append((strategy, 2, 2, small, WINDOW))
        plan.append((strategy, 2, 2, large, WINDOW // 4))
    for nodes, ppn in ((2, 2), (4, 1)):
        plan.append(("auto", nodes, ppn, large, WINDOW))
    fd, out = tempfile.mkstemp(prefix="scale-counts.", suffix=".jsonl", dir=os.getcwd())
    os.close(fd)
    for strategy, nodes, ppn, dims, window in plan:
        tag = "%s %dx%d %s w%d" % (strategy, nodes, ppn, "x".join(map(str, dims)), window)
        run(args, out, tag, nodes, ppn, dims, strategy, window)
    rows = [json.loads(line) for line in open(out)]
    os.unlink(out)
    failed = check(rows, plan)
    sys.exit(1 if failed else 0)


def check(rows, plan):
    failed = 0
    byrun = {}
    for r in rows:
        byrun.setdefault(r["tag"], {})[r["phase"]] = r
    if len(byrun) != len(plan):
        print("FAIL: %d runs reported, %d planned" % (len(byrun), len(plan)))
        return 1
    for strategy in ("aggregate", "independent"):
        for phase in ("field_write", "field_read"):
            runs = [(tag, ph[phase]) for tag, ph in byrun.items() if tag.startswith(strategy)]
            failed += check_calls(strategy, phase, runs)
            failed += check_memory(strategy, phase, runs)
            failed += check_agreement(strategy, phase, runs)
    failed += check_reads([(tag, ph["lattice_read"]) for tag, ph in byrun.items() if tag.startswith("auto")])
    return failed


def calls(r):
    """A rank's collective calls, its node-window creation discounted."""
    if r["coll"][1] != r["coll"][2]:
        return None  # ranks disagree: a collective mismatch
    return r["coll"][2] - r["rank0_calls"].get("MPI_Win_allocate_shared", 0)


def check_calls(strategy, phase, runs):
    seen = {tag: calls(r) for tag, r in runs}
    for tag, r in runs:
        print("%-44s %-11s collectives per rank %s %s" % (tag, phase, r["coll"][2], r["rank0_calls"]))
    ok = None not in seen.values() and len(set(seen.values())) == 1
    print("%s %s %s: collective calls per rank %s" % ("ok" if ok else "FAIL", strategy, phase,
                                                       sorted(set(seen.values()), key=str)))
    return 0 if ok else 1


def check_memory(strategy, phase, runs):
    full = [(tag, r) for tag, r in runs if tag.endswith("w%d" % WINDOW)]
    mem = {tag: r["heap"][2] + r["mpimem"][2] for tag, r in full}
    least, most = min(mem.values()), max(mem.values())
    bound = 4 * (WINDOW + STAGING) + (1 << 20)
    volume = 16 * 16 * 16 * 16 * SITE // max(r["ranks"] for _, r in full)  # smallest share of the large lattice
    for tag, m in sorted(mem.items()):
        print("%-44s %-11s extra memory per rank %8d bytes (share of the lattice %d)" % (tag, phase, m, volume))
    ok = most <= 1.25 * least + 65536 and most <= bound and bound < volume
    print("%s %s %s: extra memory per rank %d..%d bytes, bound %d" % ("ok" if ok else "FAIL", strategy, phase,
                                                                      least, most, bound))
    return 0 if ok else 1


def check_reads(runs):
    """The default strategy's fine-split read across nodes: read calls per
    rank within 2 of the fewest its bytes need (a window a call)."""
    failed = 0 if len(runs) == 2 else 1
    for tag, r in runs:
        least = -(-r["rbytes"][2] // WINDOW)  # the rank reading the most
        ok = r["nodes"] > 1 and r["reads"][2] <= least + 2
        print("%s %-44s lattice_read: read calls per rank %d..%d, bytes per rank up to %d (fewest calls %d)" % (
            "ok" if ok else "FAIL", tag, r["reads"][1], r["reads"][2], r["rbytes"][2], least))
        failed += 0 if ok else 1
    return failed


def check_agreement(strategy, phase, runs):
    """Bytes received through collectives per rank, over the rank count: no growth."""
    full = [(r["ranks"], r["cbytes"][2]) for tag, r in runs if "16x16x16x16 w%d" % WINDOW in tag]
    full.sort()
    per = [b / n for n, b in full]
    ok = all(per[i + 1] <= per[i] * 1.1 + 64 for i in range(len(per) - 1))
    print("%s %s %s: agreement bytes per rank %s" % ("ok" if ok else "FAIL", strategy, phase,
                                                     ", ".join("%d at %d ranks" % (b, n) for n, b in full)))
    return 0 if ok else 1


if __name__ == "__main__":
    main()
