#!/bin/sh
# lattice.sh -- the lattice write/read matrix: lattio vs Lemon's approach vs
# a plain POSIX transfer of the same bytes, at 1, 2 and 4 ranks, t-slab and
# 4-D decompositions (+ the x,y split at 4 ranks), under Open MPI's two MPI-IO
# components (romio321, ompio).
#
# usage: bench/lattice.sh [BUILD_DIR [REPS [JSON_OUT]]]
#   BUILD_DIR  build directory (default: build; configured RelWithDebInfo and
#              built here if bin/lattice_bench is missing)
#   REPS       timed repetitions per case (default 5; plus one warm-up)
#   JSON_OUT   JSON results (default: lattice-results.json)
# environment:
#   BENCH_TMP     scratch directory for the 1.2 GB files (default: mktemp -d)
#   BENCH_DIMS    "X Y Z T" (default "32 32 32 64")
#   BENCH_SITE    bytes per site (default 576)
#   BENCH_NPS     rank counts (default "1 2 4")
#   BENCH_IOS     MPI-IO components (default "romio321 ompio")
#   BENCH_EXTRA   extra lattice_bench options (e.g. --drop-caches, --profile)
#   BENCH_SMOKE=1 tiny lattice, 1 repetition, no warm-up (for CI)
# Writes a Markdown table to stdout.  4 ranks on a 2-core machine measure
# oversubscription, not scaling.
set -eu
BUILD=${1:-build}
REPS=${2:-5}
JSON=${3:-lattice-results.json}
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=$BUILD/bin/lattice_bench
if [ ! -x "$BIN" ]; then
    [ -f "$BUILD/CMakeCache.txt" ] || cmake -S "$HERE/.." -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >&2
    cmake --build "$BUILD" -j 2 --target lattice_bench >&2
fi
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
DIMS=${BENCH_DIMS:-32 32 32 64}
SITE=${BENCH_SITE:-576}
NPS=${BENCH_NPS:-1 2 4}
IOS=${BENCH_IOS:-romio321 ompio}
EXTRA=${BENCH_EXTRA:-}
MODE="--dims $DIMS --site-bytes $SITE --reps $REPS --warmup 1 --fsync"
[ "${BENCH_SMOKE:-0}" = 1 ] && MODE="--smoke"
T=${BENCH_TMP:-$(mktemp -d "${TMPDIR:-/tmp}/lattio-lattice.XXXXXX")}
mkdir -p "$T"
PARTS="$T/parts"
mkdir -p "$PARTS"
cleanup() { rm -f "$T"/lattice_bench.* "$PARTS"/*.json; rmdir "$PARTS" 2>/dev/null || true
            [ -n "${BENCH_TMP:-}" ] || rmdir "$T" 2>/dev/null || true; }
trap cleanup EXIT

# Open MPI's mpirun needs --allow-run-as-root as root and --oversubscribe for
# more ranks than cores; other launchers (MPICH's hydra) take neither and have
# one MPI-IO implementation (ROMIO), listed as "default".
mpi_version=$(mpirun --version 2>/dev/null | head -n 1)
FLAGS=""
case $mpi_version in
*"Open MPI"*) FLAGS="--oversubscribe"; [ "$(id -u)" = 0 ] && FLAGS="$FLAGS --allow-run-as-root" ;;
*) IOS=default ;;
esac
echo "# lattice benchmark"
echo
echo "- machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo), kernel $(uname -sr)"
echo "- scratch: $T ($(df -PT "$T" | awk 'NR == 2 {print $2}'))"
echo "- MPI: $mpi_version"
echo "- lattice: $DIMS (x y z t), $SITE bytes/site, file order t z y x; $MODE $EXTRA"
echo "- at 1 and 2 ranks the 4d decomposition (MPI_Dims_create over t,z,y,x) is the t-slab: run once."
echo "- 4 ranks run on $(nproc) cores (--oversubscribe): they measure oversubscription, not scaling."
echo

n=0
failed=0
for io in $IOS; do
    for np in $NPS; do
        # At 1 and 2 ranks MPI_Dims_create(np, 4) splits t only: 4d is the
        # t-slab itself, so it is run (and listed) once, as tslab.
        decomps="tslab"
        [ "$np" -ge 4 ] && decomps="tslab 4d xy"
        for d in $decomps; do
            n=$((n + 1))
            part=$(printf '%s/%02d.json' "$PARTS" "$n")
            label="np$np-$d-$io"
            echo "running $label" >&2
            # shellcheck disable=SC2086
            iovar=$io
            [ "$io" = default ] && iovar=""
            OMPI_MCA_io=$iovar mpirun $FLAGS -np "$np" "$BIN" $MODE $EXTRA \
                --decomp "$d" --dir "$T" --label "$label" --json "$part" >&2 || {
                echo "$label: exit $? (ERROR or CORRUPT case, or the run failed)" >&2; failed=$((failed + 1)); }
        done
    done
done

python3 - "$PARTS" "$JSON" <<'EOF'
import glob, json, sys
parts, out = sys.argv[1], sys.argv[2]
runs = [json.load(open(p)) for p in sorted(glob.glob(parts + "/*.json"))]
json.dump(runs, open(out, "w"), indent=1)
def f(x, fmt):
    return fmt % x if x else "-"
print("Load average (1 min) before/after each run: " + "; ".join("%s %.1f/%.1f" % (r["label"], *r["loadavg"]) for r in runs if "loadavg" in r))
print()
print("| io | np | decomp (grid x,y,z,t) | case | median s | min s | max s | GB/s | vs baseline | vs Lemon | status |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for r in runs:
    g = ",".join(str(v) for v in r["grid_xyzt"])
    for c in r["cases"]:
        base = "%s (%s)" % (f(c["vs_baseline"], "%.2f"), c["baseline"].replace("_write", "").replace("_read", "")) \
            if c["name"] != c["baseline"] else "1"
        print("| %s | %d%s | %s (%s) | %s | %.3f | %.3f | %.3f | %s | %s | %s | %s |" % (
            r["io"], r["np"], "*" if r["np"] > 2 else "", r["decomp"], g, c["name"], c["median"], c["min"],
            c["max"], f(c["gbps"], "%.2f"), base, f(c["vs_lemon"], "%.2f"), c["status"]))
print()
print("\\* 4 ranks on 2 cores: oversubscribed. Ratios are t(reference) / t(case): above 1, the case is faster.")
print("vs baseline: against rank 0 writing/reading the same bytes with write()/read() (posix), or with an")
print("fsync before close (posix_fsync) for the cases that sync. vs Lemon: lattio against Lemon's approach.")
print()
print("Targets:")
for r in runs:
    cs = {c["name"]: c for c in r["cases"]}
    tag = "np%d %s %s" % (r["np"], r["decomp"], r["io"])
    lw = cs.get("lattio_write", {})
    if r["decomp"] == "tslab" and lw:
        ok = lw["status"] == "ok" and lw["vs_baseline"] >= 0.9
        print("- %s: slab write %.2fx posix write (target >= 0.9): %s" % (tag, lw["vs_baseline"], "met" if ok else "NOT met"))
    for name in ("lattio_write", "lattio_write_durable", "lattio_read"):
        c = cs.get(name)
        if c:
            ok = c["status"] == "ok" and c["vs_lemon"] >= 1.0
            print("- %s: %s %.2fx Lemon (target >= 1): %s" % (tag, name, c["vs_lemon"], "met" if ok else "NOT met"))
EOF
[ "$failed" = 0 ] || { echo "lattice.sh: $failed run(s) failed" >&2; exit 1; }
