#!/bin/sh
# smoke.sh -- run every bench script at a tiny size so they cannot rot.
# usage: bench/smoke.sh BUILD_DIR
set -eu
BUILD=${1:?usage: bench/smoke.sh BUILD_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
"$HERE/extract.sh" "$BUILD" 2 2
BENCH_SMOKE=1 "$HERE/lattice.sh" "$BUILD" 1 /dev/null > /dev/null
BENCH_SMOKE=1 "$HERE/container.sh" "$BUILD" > /dev/null
echo "bench smoke: ok"
