#!/bin/sh
# extract.sh -- benchmark `lattio extract` against `cat` of the same bytes.
#
# usage: bench/extract.sh [BUILD_DIR [SIZE_MIB [REPEATS]]]
#   BUILD_DIR  build directory holding bin/lattio (default: build)
#   SIZE_MIB   payload size in MiB (default: 1024)
#   REPEATS    timed runs of each command (default: 5)
#   BENCH_TMP  directory for the (large) scratch files (default: mktemp -d)
#
# Makes a random payload file P of SIZE_MIB MiB and a LIME file L holding it
# as its only record (with `lattio pack`), warms the page cache, then
# alternately times
#   lattio extract L --record 1 -o OUT        and        cat P > OUT
# (fresh OUT each run), and prints the medians and the throughput ratio
# t(cat) / t(extract): >= 1 means extract is at least as fast as cat.
set -eu
BUILD=${1:-build}
SIZE=${2:-1024}
REPS=${3:-5}
LATTIO=$BUILD/bin/lattio
[ -x "$LATTIO" ] || { echo "extract.sh: $LATTIO not found (build first)" >&2; exit 2; }
case $LATTIO in /*) ;; *) LATTIO=$PWD/$LATTIO ;; esac
T=${BENCH_TMP:-$(mktemp -d "${TMPDIR:-/tmp}/lattio-bench.XXXXXX")}
mkdir -p "$T"
trap 'rm -f "$T/payload" "$T/rec.lime" "$T/out" "$T/list"; [ -n "${BENCH_TMP:-}" ] || rmdir "$T"' EXIT

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

echo "machine: $(uname -srm), $(nproc) cores; scratch $T ($(df -PT "$T" | awk 'NR==2{print $2}'))"
echo "payload: $SIZE MiB, $REPS runs each"
head -c "$((SIZE * 1048576))" /dev/urandom > "$T/payload"
printf 'payload bench-payload\n' > "$T/list"
"$LATTIO" pack "$T/list" "$T/rec.lime" > /dev/null
cat "$T/payload" > /dev/null
cat "$T/rec.lime" > /dev/null
"$LATTIO" extract "$T/rec.lime" --record 1 -o "$T/out"
cmp "$T/out" "$T/payload" || { echo "extract.sh: extracted bytes differ" >&2; exit 1; }

: > "$T/t_extract"
: > "$T/t_cat"
i=0
while [ "$i" -lt "$REPS" ]; do
    rm -f "$T/out"; sync
    a=$(now); "$LATTIO" extract "$T/rec.lime" --record 1 -o "$T/out"; b=$(now)
    awk -v a="$a" -v b="$b" 'BEGIN { print b - a }' >> "$T/t_extract"
    rm -f "$T/out"; sync
    a=$(now); cat "$T/payload" > "$T/out"; b=$(now)
    awk -v a="$a" -v b="$b" 'BEGIN { print b - a }' >> "$T/t_cat"
    i=$((i + 1))
done
te=$(median < "$T/t_extract")
tc=$(median < "$T/t_cat")
rm -f "$T/t_extract" "$T/t_cat"
awk -v te="$te" -v tc="$tc" -v mib="$SIZE" 'BEGIN {
    printf "extract: median %.4f s (%.0f MiB/s)\n", te, (te > 0 ? mib / te : 0);
    printf "cat:     median %.4f s (%.0f MiB/s)\n", tc, (tc > 0 ? mib / tc : 0);
    printf "ratio t(cat)/t(extract): %.3f\n", (te > 0 ? tc / te : 0) }'
