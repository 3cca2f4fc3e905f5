#!/bin/sh
# container.sh -- N task streams into one task-local container (lattio
# container, issue 6) vs N task-local files, side by side in one run, for
# N = 1, 4, 16, 64, 256 ranks (oversubscribed), with the metadata operations
# on the data directory counted by `strace -f`.
#
# usage: bench/container.sh [BUILD_DIR [MD_OUT]]
#   BUILD_DIR  build directory (default: build; configured RelWithDebInfo and
#              built here if bin/container_bench is missing)
#   MD_OUT     also write the Markdown report there (default: stdout only)
# environment:
#   BENCH_NS     rank counts (default "1 4 16 64 256")
#   BENCH_SMALL  bytes per task of the small streams (default 65536)
#   BENCH_LARGE  total bytes of the large streams, split over the N tasks
#                (default 268435456: 256 MiB at N=1, 1 MiB per task at 256)
#   BENCH_IO     Open MPI MPI-IO component (default ompio; or romio321).  The
#                container's data path is POSIX (docs/format.md 8.8): the
#                component matters only to the MPI start-up and collectives
#   BENCH_REPS   repetitions of each timed case, best kept (default 3)
#   BENCH_TMP    scratch directory (default: mktemp -d under TMPDIR or /tmp)
#   BENCH_STRACE 0: skip the strace counts
#   BENCH_STRACE_MAX  largest N traced (default 64: tracing the MPI start-up
#                of 256 ranks, thousands of /sys opens each, takes over 5
#                minutes on 2 cores)
#   BENCH_SMOKE=1 N = 1 2, tiny streams (for bench/smoke.sh)
# Each case: timed run (best of BENCH_REPS; write with fsync, page cache
# dropped for the written files with posix_fadvise, read from disk; the
# container read a second time with no_verify) and a second run under
# `strace -f --seccomp-bpf -y` with the small streams that counts the syscalls naming a
# file of the scratch directory (openat split into creating and plain opens;
# stat = newfstatat/statx/stat/lstat/fstat; unlink, rename, mkdir, fsync).
# Times are maximum over ranks, include open and close (container: the
# collective open, final trailers, footer, rename).  More ranks than the
# machine's cores measure oversubscription, not scaling.
set -eu
BUILD=${1:-build}
MD=${2:-}
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=$BUILD/bin/container_bench
if [ ! -x "$BIN" ]; then
    [ -f "$BUILD/CMakeCache.txt" ] || cmake -S "$HERE/.." -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >&2
    cmake --build "$BUILD" -j 2 --target container_bench >&2
fi
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
NS=${BENCH_NS:-1 4 16 64 256}
SMALL=${BENCH_SMALL:-65536}
LARGE=${BENCH_LARGE:-268435456}
IO=${BENCH_IO:-ompio}
REPS=${BENCH_REPS:-3}
STRACE=${BENCH_STRACE:-1}
STRACE_MAX=${BENCH_STRACE_MAX:-64}
if [ "${BENCH_SMOKE:-0}" = 1 ]; then NS="1 2"; SMALL=4096; LARGE=1048576; REPS=1; fi
if [ "$STRACE" = 1 ] && ! command -v strace >/dev/null 2>&1; then
    echo "container.sh: strace not found (scripts/install-deps.sh bench); counts skipped" >&2
    STRACE=0
fi
T=${BENCH_TMP:-$(mktemp -d "${TMPDIR:-/tmp}/lattio-container.XXXXXX")}
mkdir -p "$T/data"
T=$(cd "$T" && pwd)
RAW="$T/raw.txt"
: > "$RAW"
cleanup() { rm -rf "$T/data" "$T"/trace.* "$RAW"; [ -n "${BENCH_TMP:-}" ] || rmdir "$T" 2>/dev/null || true; }
trap cleanup EXIT

mpi_version=$(mpirun --version 2>/dev/null | head -n 1)
FLAGS=""
case $mpi_version in
*"Open MPI"*)
    FLAGS="-q --oversubscribe"
    [ "$(id -u)" = 0 ] && FLAGS="$FLAGS --allow-run-as-root"
    # 2 cores, up to 256 ranks: waiting ranks must yield the CPU.
    export OMPI_MCA_io="$IO" OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_btl=self,vader ;;
*) IO=default ;;
esac
TRACED=openat,open,creat,mkdir,mkdirat,stat,lstat,fstat,newfstatat,statx,unlink,unlinkat,rename,renameat,renameat2,fsync,fdatasync

# count_ops TRACE N: one "COUNT mode=M n=N ..." line per mode from the
# strace output (lines naming a file under $T/data; a call split by strace
# into "unfinished" and "resumed" lines is counted once, at its start).
count_ops() {
    python3 - "$1" "$2" "$T/data" <<'EOF'
import re, sys
trace, n, data = sys.argv[1], sys.argv[2], sys.argv[3]
keys = ["files", "create", "open", "stat", "unlink", "rename", "mkdir", "fsync"]
cnt = {m: dict.fromkeys(keys, 0) for m in ("container", "files")}
made = {"container": set(), "files": set()}
for line in open(trace, errors="replace"):
    line = re.sub(r"^\d+\s+", "", line)
    if line.startswith("<...") or data not in line:
        continue
    call = line.split("(", 1)[0]
    path = re.search(re.escape(data) + r"[^\"<>]*", line).group(0)
    mode = "files" if path.startswith(data + "/files") else "container"
    c = cnt[mode]
    if call in ("openat", "open", "creat"):
        if "O_CREAT" in line or call == "creat":
            c["create"] += 1
            made[mode].add(path)
        else:
            c["open"] += 1
    elif call in ("stat", "lstat", "fstat", "newfstatat", "statx"):
        c["stat"] += 1
    elif call.startswith("unlink"):
        c["unlink"] += 1
    elif call.startswith("rename"):
        c["rename"] += 1
    elif call.startswith("mkdir"):
        c["mkdir"] += 1
    elif call in ("fsync", "fdatasync"):
        c["fsync"] += 1
for m in ("container", "files"):
    cnt[m]["files"] = len(made[m])
    print("COUNT mode=%s n=%s " % (m, n) + " ".join("%s=%d" % (k, cnt[m][k]) for k in keys))
EOF
}

# run_mpi N OUT ARGS...: mpirun on N ranks, stdout appended to OUT.  Under
# heavy oversubscription Open MPI 4.1 sometimes reports a rank "exiting
# improperly" after every rank printed its results and finalised; such a
# run counts when its RESULT lines are all there (checked by the caller).
run_mpi() {
    n=$1; out=$2; shift 2
    # shellcheck disable=SC2086
    mpirun -n "$n" $FLAGS "$@" >> "$out" || echo "container.sh: mpirun -n $n exited with status $? (results checked)" >&2
}

for n in $NS; do
    large=$((LARGE / n))
    echo "running N=$n (streams of $SMALL and $large bytes)" >&2
    before=$(grep -c '^RESULT' "$RAW" || true)
    run_mpi "$n" "$RAW" "$BIN" --dir "$T/data" --bytes "$SMALL,$large" --sync --cold --readnv --reps "$REPS"
    echo "LOAD n=$n $(cut -d' ' -f1-3 /proc/loadavg | tr ' ' ,)" >> "$RAW"
    after=$(grep -c '^RESULT' "$RAW" || true)
    [ $((after - before)) -eq 4 ] || { echo "container.sh: N=$n: results missing" >&2; exit 1; }
    rm -rf "$T/data" && mkdir -p "$T/data"
    if [ "$STRACE" = 1 ] && [ "$n" -le "$STRACE_MAX" ]; then
        # shellcheck disable=SC2086
        strace -f --seccomp-bpf -y -qq -o "$T/trace.$n" -e trace=$TRACED \
            mpirun -n "$n" $FLAGS "$BIN" --dir "$T/data" --bytes "$SMALL" --sync > /dev/null ||
            echo "container.sh: traced mpirun -n $n exited with status $?" >&2
        count_ops "$T/trace.$n" "$n" >> "$RAW"
        rm -f "$T/trace.$n"
        rm -rf "$T/data" && mkdir -p "$T/data"
    fi
done

report() {
    echo "# task-local container vs task-local files"
    echo
    echo "- machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo), kernel $(uname -sr)"
    echo "- scratch: $T ($(df -PT "$T" | awk 'NR == 2 {print $2}'))"
    echo "- MPI: $mpi_version, MPI-IO component $IO"
    echo "- command: bench/container.sh $BUILD (BENCH_NS=\"$NS\" BENCH_SMALL=$SMALL BENCH_LARGE=$LARGE BENCH_STRACE_MAX=$STRACE_MAX BENCH_REPS=$REPS)"
    echo "- writes end with fsync (container: durable close); reads after posix_fadvise(DONTNEED)."
    echo "- times: max over ranks, open to close; bandwidth = N x bytes / (create + write) and / read."
    echo "- ratio = container / files (bandwidth: >= 0.9 is the target for large streams);"
    echo "  read nv = the container read with no_verify (no CRC pass), best of $REPS each."
    echo "- load average (1, 5, 15 min) after each N: $(grep '^LOAD' "$RAW" | cut -d' ' -f2- | tr '\n' ' ')"
    echo
    python3 - "$RAW" <<'EOF'
import sys
res, cnt = {}, {}
for line in open(sys.argv[1]):
    f = line.split()
    if not f or f[0] not in ("RESULT", "COUNT"):
        continue
    kv = dict(x.split("=", 1) for x in f[1:])
    if f[0] == "RESULT":
        res[(int(kv["n"]), int(kv["bytes"]), kv["mode"])] = kv
    else:
        cnt[(int(kv["n"]), kv["mode"])] = kv
print("| N | bytes/task | create s (cont / files) | write MB/s (cont / files) | ratio | read MB/s (cont / files) | ratio | read nv ratio |")
print("|---:|---:|---|---|---:|---|---:|---:|")
for (n, b, m) in sorted(res):
    if m != "container" or (n, b, "files") not in res:
        continue
    c, p = res[(n, b, "container")], res[(n, b, "files")]
    tot = n * b / 1e6
    def bw(r, key):
        t = float(r[key]) + (float(r["create"]) if key == "write" else 0.0)
        return tot / t if t > 0 else float("inf")
    cw, pw, cr, pr = bw(c, "write"), bw(p, "write"), bw(c, "read"), bw(p, "read")
    cnv = bw(c, "readnv") if "readnv" in c else float("nan")
    print("| %d | %d | %.4f / %.4f | %.0f / %.0f | %.2f | %.0f / %.0f | %.2f | %.2f |"
          % (n, b, float(c["create"]), float(p["create"]), cw, pw, cw / pw, cr, pr, cr / pr, cnv / pr))
print()
print("Phases, seconds (max over ranks): create = open for writing, wclose = the write's close")
print("(container: final trailers, footer, fsync, rename; files: fsync, close), ropen = open for")
print("reading (container: header, footer, trailer scan).")
print()
print("| N | bytes/task | create (cont / files) | wclose (cont / files) | ropen (cont / files) |")
print("|---:|---:|---|---|---|")
for (n, b, m) in sorted(res):
    if m != "container" or (n, b, "files") not in res or "wclose" not in res[(n, b, m)]:
        continue
    c, p = res[(n, b, "container")], res[(n, b, "files")]
    print("| %d | %d | %.4f / %.4f | %.4f / %.4f | %.4f / %.4f |" % (n, b, float(c["create"]),
          float(p["create"]), float(c["wclose"]), float(p["wclose"]), float(c["ropen"]), float(p["ropen"])))
if cnt:
    keys = ["files", "create", "open", "stat", "unlink", "rename", "mkdir", "fsync"]
    print()
    print("Metadata operations on the data directory (strace -f, small streams; write and read):")
    print()
    print("| N | mode | " + " | ".join(keys) + " |")
    print("|---:|---|" + "---:|" * len(keys))
    for (n, m) in sorted(cnt):
        print("| %d | %s | " % (n, m) + " | ".join(cnt[(n, m)][k] for k in keys) + " |")
    print()
    print("| N | files created: container / files | all metadata ops: container / files | ratio |")
    print("|---:|---|---|---:|")
    for n in sorted({n for (n, m) in cnt}):
        c, p = cnt.get((n, "container")), cnt.get((n, "files"))
        if not c or not p:
            continue
        sc = sum(int(c[k]) for k in keys[1:])
        sp = sum(int(p[k]) for k in keys[1:])
        print("| %d | %s / %s | %d / %d | %.2f |" % (n, c["files"], p["files"], sc, sp, sc / sp if sp else 0))
EOF
}
if [ -n "$MD" ]; then report | tee "$MD"; else report; fi
