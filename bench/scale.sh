#!/bin/sh
# scale.sh -- counts (not times) of parallel writes and reads on the emulated
# cluster (scripts/cluster), under the count tool (bench/iocount.c):
#
#   bench/scale.sh compare [BUILD [OUT.jsonl]]
#       lattio's strategies against Lemon's approach (a subarray view and
#       one MPI_File_write_at_all, ROMIO's default hints), ROMIO's
#       collective buffering told the cluster (romio_cb_write/read enable,
#       cb_nodes = nodes, striping_unit = the block) and plain collective
#       parallel HDF5 (QDP++'s way, bench/h5_bench.c), at 2 nodes x 2 ranks
#       and 4 x 1 on GlusterFS, ROMIO (romio321) under everything so that
#       the tool sees the MPI-IO layer's own messages.
#   bench/scale.sh ranks [BUILD [OUT.jsonl]]
#       one field write and read (bench/scale_field.c, a fixed small
#       lattice, fine x,y split) at 4 to 256 ranks on 4 emulated nodes
#       (oversubscribed: counts only, no speed).
#
# Both print a Markdown table (bench/scale_table.py) and keep the raw lines.
# Environment: SCALE_DIMS (compare: "16 16 16 32"), SCALE_BLOCK (the stripe
# the counts are aligned to, 1048576), SCALE_PPN (ranks: "1 4 16 32 64").
# The cluster is brought up if it is not (scripts/cluster/cluster.sh ensure 4).
set -eu
MODE=${1:-compare}
BUILD=${2:-build}
HERE=$(cd "$(dirname "$0")" && pwd)
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
BIN=$BUILD/bin
OUT=${3:-$PWD/scale-$MODE.jsonl}
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
BLOCK=${SCALE_BLOCK:-1048576}
RUN="sh $HERE/../scripts/cluster/run.sh"
[ -x "$BIN/lattice_bench" ] && [ -f "$BIN/libiocount.so" ] || { echo "scale.sh: build $BUILD first" >&2; exit 2; }
# (its daemons must not hold this script's output)
sh "$HERE/../scripts/cluster/cluster.sh" ensure 4 >/dev/null 2>&1 || { echo "scale.sh: the cluster cannot come up (scripts/cluster/cluster.sh up 4)" >&2; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
: >"$OUT"
T=$(mktemp -d "${TMPDIR:-/tmp}/lattio-scale.XXXXXX")
trap 'rm -rf "$T"' EXIT

# counted NODES PPN TAG MATCH PROGRAM ARGS...: one job under the tool
counted() {
    nodes=$1 ppn=$2 tag=$3 match=$4
    shift 4
    echo "scale.sh: $tag at ${nodes}x$ppn" >&2
    $RUN --nodes "$nodes" --ppn "$ppn" --fs "${FS:-gluster}" --timeout 900 -- env LD_PRELOAD="$BIN/libiocount.so" \
        IOCOUNT_OUT="$OUT" IOCOUNT_MATCH="$match" IOCOUNT_BLOCK="$BLOCK" IOCOUNT_TAG="$tag" \
        LATTIO_STRIPING_UNIT="$BLOCK" OMPI_MCA_io=romio321 ${EXTRA_ENV:-} "$@" >"$T/log" 2>&1 ||
        { cat "$T/log" >&2; echo "scale.sh: $tag at ${nodes}x$ppn failed" >&2; return 1; }
}

compare() {
    dims=${SCALE_DIMS:-16 16 16 32}
    for shape in "2 2" "4 1"; do
        set -- $shape
        n=$1 p=$2
        for s in aggregate collective independent; do
            # shellcheck disable=SC2086
            counted "$n" "$p" "lattice-$s" lattice_bench "$BIN/lattice_bench" --dims $dims --site-bytes 576 \
                --decomp xy --reps 1 --warmup 0 --strategy "$s"
        done
        printf 'romio_cb_write enable\nromio_cb_read enable\ncb_nodes %s\nstriping_unit %s\n' "$n" "$BLOCK" \
            >"$T/romio-hints"
        # shellcheck disable=SC2086
        EXTRA_ENV="ROMIO_HINTS=$T/romio-hints" counted "$n" "$p" "lattice-romio-cb" lattice_bench \
            "$BIN/lattice_bench" --dims $dims --site-bytes 576 --decomp xy --reps 1 --warmup 0
        set -- $dims
        # plain HDF5 on a node-shared directory of the local disk: on the
        # GlusterFS volume its H5Fcreate failed under the tool in 4 of 4 runs
        # (MPI_File_open: MPI_ERR_IO on node2's ranks; 0 of 3 without the
        # tool; HDF5 first opens the absent file without create on every
        # rank, and a FUSE client that saw it absent may keep that negative
        # entry while ROMIO's other ranks open what rank 0 created)
        if [ -x "$BIN/h5_bench" ] && [ "$1" = "$2" ] && [ "$2" = "$3" ]; then
            mkdir -p "$T/h5"
            FS=$T/h5 counted "$n" "$p" "h5" "$T/h5" "$BIN/h5_bench" "$1" "$4" xy 0 0
        fi
    done
}

ranks() {
    for p in ${SCALE_PPN:-1 4 16 32 64}; do
        counted 4 "$p" "field-$((4 * p))" scale_field "$BIN/scale_field" 16 16 8 8 xy
    done
}

case $MODE in
    compare) compare ;;
    ranks) ranks ;;
    *) echo "usage: bench/scale.sh compare|ranks [BUILD [OUT.jsonl]]" >&2; exit 2 ;;
esac
python3 "$HERE/scale_table.py" "$MODE" "$OUT"
