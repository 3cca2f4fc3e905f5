#!/bin/sh
# field.sh -- what conversion to big-endian and SciDAC checksums cost on top
# of writing the same bytes: lattio_field_write of a double gauge field
# against lattio_lattice_write, in the same run, at 1 and 2 ranks, with and
# without fsync; then the kernels' single-core throughput.  Prints the load
# average before and after (this machine is shared: read ratios, not times).
#   bench/field.sh [BUILD_DIR] [L] [T] [REPS]     (default build-rel 32 64 3)
# Environment: NPS ("1 2"), SYNC ("0 1"), OVERLAP ("1 0"), MPIRUN (mpirun),
# OMPI_MCA_io.  (-x passes the variable with Open MPI's mpirun.)
set -eu
build=${1:-build-rel}
L=${2:-32}
T=${3:-64}
reps=${4:-3}
bin=$(cd "$build/bin" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d "${TMPDIR:-/tmp}/lattio-field-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)  io=${OMPI_MCA_io:-default}"
for np in ${NPS:-1 2}; do
    for sync in ${SYNC:-0 1}; do
        for ov in ${OVERLAP:-1 0}; do
            echo "LATTIO_FIELD_OVERLAP=$ov (1: conversion of round k+1 overlaps the write of round k)"
            LATTIO_FIELD_OVERLAP=$ov ${MPIRUN:-mpirun} --oversubscribe -x LATTIO_FIELD_OVERLAP \
                -np "$np" "$bin/field_bench" "$L" "$T" "$reps" "$sync"
        done
    done
done
echo "single-core kernels (64 MiB buffer, best of 3):"
"$bin/field_kernels" 64
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
