#!/bin/sh
# h5.sh -- issue 14's figures (bench/h5_bench.c says what each case is): a
# 32^3x64 double gauge field (1.21 GB) as HDF5 through lattio against ILDG
# through lattio and against plain collective parallel HDF5, at 1, 2 and 4
# ranks (4 oversubscribed on a 2-CPU machine), t slabs and an x,y split,
# page cache and durable; ratios within each run.
#   bench/h5.sh [BUILD_DIR] [L] [T] [REPS]   (default build 32 64 3)
# Environment: CONFIGS ("NP:DECOMP ..."), SYNC ("0 1"), OMPI_MCA_io.
set -eu
build=${1:-build}
L=${2:-32}
T=${3:-64}
reps=${4:-3}
bin=$(cd "$build/bin" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d "${BENCH_TMP:-${TMPDIR:-/tmp}}/lattio-h5.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)," \
     "$(uname -r), io=${OMPI_MCA_io:-default}, $(df -T . | awk 'NR==2 {print $2}') at $work"
for cfg in ${CONFIGS:-1:tslab 2:tslab 2:xy 4:tslab 4:xy}; do
    np=${cfg%%:*} decomp=${cfg#*:}
    for sync in ${SYNC:-0 1}; do
        echo "[np $np $decomp sync $sync] load before: $(cut -d' ' -f1-3 /proc/loadavg)"
        # Open MPI 4's launcher sometimes fails a finished job (ompi#7833): once more
        mpirun --oversubscribe -np "$np" "$bin/h5_bench" "$L" "$T" "$decomp" "$reps" "$sync" ||
            mpirun --oversubscribe -np "$np" "$bin/h5_bench" "$L" "$T" "$decomp" "$reps" "$sync"
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
