#!/bin/sh
# field.sh -- what conversion to big-endian and SciDAC checksums cost on top
# of writing the same bytes: lattio_field_write of a double gauge field
# against lattio_lattice_write, in the same run, at 1 and 2 ranks, without
# and with fsync (durable); then the kernels' single-core throughput.
# Prints the load average before and after (this machine is shared: read
# ratios, not times).
#   bench/field.sh [BUILD_DIR] [L] [T] [REPS]     (default build-rel 32 64 5)
# Variants per rank count and sync setting:
#   default     mpirun's binding (a core per rank at 1-2 ranks): blocking
#               rounds, no helper thread;
#   free-core   (1 rank) --bind-to none: the rank may use both CPUs, so the
#               helper thread converts while the rank writes.
# Environment: NPS ("1 2"), SYNC ("0 1"), VARIANTS ("default
# free-core"), MPIRUN (mpirun, Open MPI's options), OMPI_MCA_io.
set -eu
build=${1:-build-rel}
L=${2:-32}
T=${3:-64}
reps=${4:-5}
bin=$(cd "$build/bin" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d "${TMPDIR:-/tmp}/lattio-field-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)  io=${OMPI_MCA_io:-default}  $(nproc) CPUs"
run() { # np sync label mpirun-options...
    np=$1 sync=$2 label=$3
    shift 3
    echo "[$label]"
    ${MPIRUN:-mpirun} --oversubscribe "$@" -np "$np" "$bin/field_bench" "$L" "$T" "$reps" "$sync"
}
for np in ${NPS:-1 2}; do
    for sync in ${SYNC:-0 1}; do
        for v in ${VARIANTS:-default free-core}; do
            case $v in
            default) run "$np" "$sync" default ;;
            free-core) [ "$np" = 1 ] && run 1 "$sync" free-core --bind-to none ;;
            esac
        done
    done
done
echo "single-core kernels (64 MiB buffer, best of 3):"
"$bin/field_kernels" 64
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
