#!/bin/sh
# floor.sh -- issue 13's figures: the field pipeline against its floor and
# against one process writing the same bytes contiguously, all ratios
# within one run (bench/floor_bench.c says what each case is).  For a
# 32^3x64 double gauge field (1.21 GB): 1 rank (t slab), 2 ranks (t slab,
# x split, 4-D) and 4 ranks oversubscribed on 2 cores (t slab, x split,
# 4-D = x,y), page cache and durable.  Prints the load average before and
# after each configuration and the machine.
#   bench/floor.sh [BUILD_DIR] [L] [T] [REPS]   (default build-rel 32 64 3)
# Environment: CONFIGS ("NP:DECOMP ..."), SYNC ("0 1"), OMPI_MCA_io.
set -eu
build=${1:-build-rel}
L=${2:-32}
T=${3:-64}
reps=${4:-3}
bin=$(cd "$build/bin" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d "${BENCH_TMP:-${TMPDIR:-/tmp}}/lattio-floor.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)," \
     "$(uname -r), io=${OMPI_MCA_io:-default}, $(df -T . | awk 'NR==2 {print $2}') at $work"
for cfg in ${CONFIGS:-1:tslab 2:tslab 2:x 2:4d 4:tslab 4:x 4:4d}; do
    np=${cfg%%:*} decomp=${cfg#*:}
    for sync in ${SYNC:-0 1}; do
        label=""
        [ "$np" -gt "$(nproc)" ] && label=" (oversubscribed: $np ranks on $(nproc) CPUs)"
        echo "[np $np $decomp sync $sync$label] load before: $(cut -d' ' -f1-3 /proc/loadavg)"
        mpirun --oversubscribe -np "$np" "$bin/floor_bench" "$L" "$T" "$decomp" "$reps" "$sync"
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
