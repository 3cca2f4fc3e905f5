#!/usr/bin/env python3
"""plot.py -- bandwidth against process count from `lattio bench --json` files.

usage: bench/plot.py [-o OUT.png] [--title TEXT] [--linear] RESULT.json...

Each JSON file is one run (e.g. mpirun -np 1, 2, 4 of `lattio bench ... --json
npN.json`).  Writes a PNG with one panel for writes and one for reads: the
median MiB/s of every strategy against the number of processes (bars: min to
max over the repetitions), the two POSIX baselines as dashed lines.  Runs
that differ in label (--label) or MPI-IO component get separate lines.
Failed, corrupt or unsupported cases are left out (they have no figures).
Needs matplotlib (Debian: python3-matplotlib); exit status 2 without it or
on bad arguments, 1 when a file cannot be read."""
import argparse
import json
import sys


def load(paths):
    runs = []
    for p in paths:
        try:
            with open(p) as f:
                d = json.load(f)
            d["results"], d["machine"]["nprocs"], d["parameters"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            print("plot.py: %s: not a lattio bench JSON file (%s)" % (p, e), file=sys.stderr)
            sys.exit(1)
        runs.append(d)
    return runs


def series(runs):
    """{(op, name, is_baseline): [(nprocs, median, min, max)]}; the name
    carries the label and MPI-IO component when the runs differ in them."""
    labels = {r["parameters"].get("label", "") for r in runs}
    ios = {r["machine"].get("mpi_io", "") for r in runs}
    out = {}
    for r in runs:
        tag = []
        if len(labels) > 1:
            tag.append(r["parameters"].get("label", "") or "-")
        if len(ios) > 1:
            tag.append(r["machine"].get("mpi_io", ""))
        for c in r["results"]:
            if c.get("status") != "ok" or not c.get("times"):
                continue
            name = c["case"] + (" (%s)" % ", ".join(tag) if tag else "")
            key = (c["op"], name, c.get("kind") == "baseline")
            bw = c["mib_s"]
            out.setdefault(key, []).append((r["machine"]["nprocs"], bw["median"], bw["min"], bw["max"]))
    for v in out.values():
        v.sort()
    return out


def title_of(runs):
    p = runs[0]["parameters"]
    dims = "x".join(str(x) for x in p["dims"])
    what = "lattice " + dims if p["scaling"] == "strong" else "local volume %s per process" % dims
    return "lattio bench: %s, %d B/site, %s scaling%s" % (
        what, p["site_bytes"], p["scaling"], ", fsync" if p.get("fsync") else "")


def draw(plt, runs, args):
    data = series(runs)
    names = sorted({(not k[2], k[1]) for k in data})  # baselines first
    colors = {n: plt.get_cmap("tab20")(i % 20) for i, (_, n) in enumerate(names)}
    fig, axes = plt.subplots(1, 2, figsize=(14, 5.5), sharey=True)
    nps = sorted({r["machine"]["nprocs"] for r in runs})
    handles = {}
    for ax, op in zip(axes, ("write", "read")):
        for (o, name, base), pts in sorted(data.items(), key=lambda kv: (not kv[0][2], kv[0][1])):
            if o != op:
                continue
            y = [p[1] for p in pts]
            err = [[p[1] - p[2] for p in pts], [p[3] - p[1] for p in pts]]
            h = ax.errorbar([p[0] for p in pts], y, yerr=err, color=colors[name], capsize=3,
                            linestyle="--" if base else "-", marker="" if base else "o",
                            linewidth=1.2 if base else 1.8)
            handles.setdefault(name, h)
        ax.set_title(op)
        ax.set_xlabel("processes")
        ax.set_xticks(nps)
        if not args.linear:
            ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("MiB/s (median; bars min-max)")
    order = [n for _, n in names if n in handles]
    fig.legend([handles[n] for n in order], order, loc="center right", fontsize=8)
    fig.suptitle(args.title or title_of(runs))
    fig.tight_layout(rect=(0, 0, 0.83, 1))
    fig.savefig(args.output, dpi=110)


def main():
    ap = argparse.ArgumentParser(description="Plot lattio bench JSON results (bandwidth vs processes).")
    ap.add_argument("files", nargs="+", metavar="RESULT.json")
    ap.add_argument("-o", "--output", default="bench.png", help="PNG to write (default bench.png)")
    ap.add_argument("--title", help="figure title")
    ap.add_argument("--linear", action="store_true", help="linear bandwidth axis (default log)")
    args = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot.py: matplotlib is not installed for %s (Debian: apt-get install "
              "python3-matplotlib, then run it with /usr/bin/python3; or pip install matplotlib)"
              % sys.executable, file=sys.stderr)
        sys.exit(2)
    runs = load(args.files)
    draw(plt, runs, args)
    print("plot.py: wrote %s" % args.output)


if __name__ == "__main__":
    main()
