#!/bin/sh
# smoke.sh -- run every bench script at a tiny size so they cannot rot.
# usage: bench/smoke.sh BUILD_DIR
set -eu
BUILD=${1:?usage: bench/smoke.sh BUILD_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
"$HERE/extract.sh" "$BUILD" 2 2
BENCH_SMOKE=1 "$HERE/lattice.sh" "$BUILD" 1 /dev/null > /dev/null
BENCH_SMOKE=1 "$HERE/container.sh" "$BUILD" > /dev/null

# `lattio bench` at 1 and 2 ranks on a tiny lattice, and plot.py on its JSON
# when a Python with matplotlib is there.
LATTIO=$BUILD/bin/lattio
case $LATTIO in /*) ;; *) LATTIO=$PWD/$LATTIO ;; esac
S=$(mktemp -d "${TMPDIR:-/tmp}/lattio-bench-smoke.XXXXXX")
trap 'rm -rf "$S"' EXIT
FLAGS=""
case $(mpirun --version 2>/dev/null | head -n 1) in
*"Open MPI"*) FLAGS="--oversubscribe"; [ "$(id -u)" = 0 ] && FLAGS="$FLAGS --allow-run-as-root" ;;
esac
for np in 1 2; do
    # shellcheck disable=SC2086
    mpirun $FLAGS -np $np "$LATTIO" bench --dims 4,4,4,8 --reps 1 --warmup 0 --dir "$S" \
        --json "$S/np$np.json" > /dev/null 2>&1 || { echo "bench smoke: lattio bench at np $np failed" >&2; exit 1; }
done
[ -z "$(find "$S" -name 'lattio-bench.*')" ] || { echo "bench smoke: lattio bench left files" >&2; exit 1; }
# floor.sh (the field pipeline against its floor) on a tiny lattice
CONFIGS="1:tslab 2:x" SYNC=0 BENCH_TMP="$S" "$HERE/floor.sh" "$BUILD" 4 8 1 > "$S/floor.txt" 2>&1 ||
    { cat "$S/floor.txt" >&2; echo "bench smoke: floor.sh failed" >&2; exit 1; }
grep -q "RATIO field read" "$S/floor.txt" || { echo "bench smoke: floor.sh printed no ratios" >&2; exit 1; }
# h5.sh (HDF5 through lattio vs ILDG vs plain parallel HDF5) on a tiny lattice
if [ -x "$BUILD/bin/h5_bench" ]; then
    CONFIGS="2:xy" SYNC=0 BENCH_TMP="$S" "$HERE/h5.sh" "$BUILD" 4 8 1 > "$S/h5.txt" 2>&1 ||
        { cat "$S/h5.txt" >&2; echo "bench smoke: h5.sh failed" >&2; exit 1; }
    grep -q "ratios: h5/lime write" "$S/h5.txt" || { echo "bench smoke: h5.sh printed no ratios" >&2; exit 1; }
fi
# the benchmark programs run by hand leave nothing in their working directory
BIN=$(cd "$BUILD/bin" && pwd)
mkdir "$S/left"
for prog in "floor_bench 4 8 x 1 0" "small_fields 4 2 x" "h5_bench 4 8 xy 1 0"; do
    [ -x "$BIN/${prog%% *}" ] || continue
    # shellcheck disable=SC2086
    (cd "$S/left" && mpirun $FLAGS -np 2 "$BIN/${prog%% *}" ${prog#* } > /dev/null 2>&1) ||
        { echo "bench smoke: $prog failed" >&2; exit 1; }
    [ -z "$(ls -A "$S/left")" ] || { echo "bench smoke: $prog left $(ls "$S/left")" >&2; exit 1; }
done
# py_load.py (the Python package against NumPy) when make python installed it
if "$BUILD/pyenv/bin/python3" -c 'import lattio' 2>/dev/null; then
    "$BUILD/pyenv/bin/python3" "$HERE/py_load.py" --dims 4,4,4,8 --reps 1 --dir "$S" > "$S/py.txt" 2>&1 ||
        { cat "$S/py.txt" >&2; echo "bench smoke: py_load.py failed" >&2; exit 1; }
    grep -q "ratio load/fromfile" "$S/py.txt" || { echo "bench smoke: py_load.py printed no ratios" >&2; exit 1; }
fi
# py_xarray.py (xarray and dask against lattio.load) when xarray is there too
if "$BUILD/pyenv/bin/python3" -c 'import lattio.xarray_backend, dask.array' 2>/dev/null; then
    "$BUILD/pyenv/bin/python3" "$HERE/py_xarray.py" --dims 4,4,4,8 --files 2 --reps 1 --dir "$S" > "$S/xr.txt" 2>&1 ||
        { cat "$S/xr.txt" >&2; echo "bench smoke: py_xarray.py failed" >&2; exit 1; }
    grep -q "ratio xr_eager/load" "$S/xr.txt" || { echo "bench smoke: py_xarray.py printed no ratios" >&2; exit 1; }
fi
# page_reuse (the machine's page-cache behaviour behind the write baselines)
PR=$BIN/page_reuse
(cd "$S" && "$PR" 4 0 1 > page_reuse.txt) && grep -q "ratio rested/reuse" "$S/page_reuse.txt" ||
    { echo "bench smoke: page_reuse failed" >&2; exit 1; }
for py in python3 /usr/bin/python3; do
    if "$py" -c 'import matplotlib' 2>/dev/null; then
        "$py" "$HERE/plot.py" -o "$S/bench.png" "$S"/np*.json > /dev/null
        [ -s "$S/bench.png" ] || { echo "bench smoke: plot.py wrote no PNG" >&2; exit 1; }
        break
    fi
done
echo "bench smoke: ok"
