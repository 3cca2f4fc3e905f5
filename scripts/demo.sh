#!/bin/sh
# demo.sh BUILD -- what lattio does today, on the real files in tests/data/real
# (written by tmLQCD, QDP++/QIO, MILC and the C-LIME reference library).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-build}" && pwd)
lattio="$build/bin/lattio"
data="$top/tests/data/real"
out="$build/demo"
rm -rf "$out" && mkdir -p "$out"
step() { printf '\n== %s\n' "$*"; }

step "lattio info: the records of a MILC/QIO gauge configuration (lime_contents format)"
"$lattio" info "$data/lat.sample.l4444.ildg" | head -40

step "lattio info --json: the same listing for scripts"
"$lattio" info --json "$data/unity.lime" | head -30

step "lattio check: structural validation of every real file"
for f in "$data"/*.lime "$data"/*.ildg; do "$lattio" check "$f"; done

step "lattio check on a damaged copy (the last 1000 bytes cut off): exit status 1"
head -c 148000 "$data/unity.lime" > "$out/cut.lime"
if "$lattio" check "$out/cut.lime"; then echo "demo: the damage went unnoticed" >&2; exit 1; fi

step "lattio extract: the SciDAC checksum record of t_dprec_ildg.lime"
"$lattio" extract "$data/t_dprec_ildg.lime" --type scidac-checksum
echo

step "lattio unpack + pack: every file rebuilt byte for byte"
for f in "$data"/*.lime "$data"/*.ildg; do
  name=$(basename "$f")
  "$lattio" unpack "$f" "$out/$name.contents" >/dev/null
  "$lattio" pack "$out/$name.contents/pack.list" "$out/$name.repacked" >/dev/null
  cmp "$f" "$out/$name.repacked" && echo "$name: identical after unpack + pack"
done

step "the library from C: examples/write_and_read.c"
"$build/examples/example_write_and_read" "$out/example.lime"

# The parallel engine: the command under mpirun, and a small lattice written
# and read by lattio, by Lemon's approach and by plain POSIX, every file verified.
mpirun_flags=""
case $(mpirun --version 2>/dev/null | head -n 1) in
*"Open MPI"*) mpirun_flags="--oversubscribe"; [ "$(id -u)" = 0 ] && mpirun_flags="$mpirun_flags --allow-run-as-root" ;;
esac
step "lattio under mpirun (3 ranks): check on rank 0, extract split between ranks"
mpirun -np 3 $mpirun_flags "$lattio" check "$data/t_dprec_ildg.lime"
mpirun -np 3 $mpirun_flags "$lattio" extract "$data/t_dprec_ildg.lime" --type ildg-binary-data -o "$out/links.bin"
"$lattio" extract "$data/t_dprec_ildg.lime" --type ildg-binary-data -o "$out/links.serial.bin"
cmp "$out/links.bin" "$out/links.serial.bin" && echo "parallel extract: $(wc -c < "$out/links.bin") bytes, identical to the serial extract"

step "a 8^3x16 lattice of 576-byte sites at 2 ranks: lattio vs Lemon's approach vs POSIX (bench/lattice_bench.c)"
mpirun -np 2 $mpirun_flags "$build/bin/lattice_bench" --dims 8 8 8 16 --reps 3 --warmup 1 --dir "$out"

step "lattio verify: checksums, metadata, plaquette and link trace of the real gauge files"
"$lattio" verify "$data/unity.lime" "$data/t_dprec_ildg.lime" "$data/lat.sample.l4444.ildg" "$data/t_nersc.cfg"

step "lattio convert: the SZIN NERSC file to ILDG (verified before and after), then verified under mpirun"
"$lattio" convert "$data/t_nersc.cfg" "$out/from_nersc.lime" --to ildg
mpirun -np 2 $mpirun_flags "$lattio" verify "$out/from_nersc.lime"

step "HDF5: an ILDG configuration to QDP++'s and Qlua's HDF5 layouts at 2 ranks, listed, verified, and back to ILDG"
rm -f "$out/cfg.h5" "$out/cfg_qlua.h5" "$out/back.lime"
mpirun -np 2 $mpirun_flags "$lattio" convert "$data/lat.sample.l4444.ildg" "$out/cfg.h5" --to hdf5 --path /cfg/0001/U
mpirun -np 2 $mpirun_flags "$lattio" convert "$data/lat.sample.l4444.ildg" "$out/cfg_qlua.h5" --to hdf5 --layout qlua
"$lattio" info "$out/cfg.h5"
"$lattio" info "$out/cfg_qlua.h5"
mpirun -np 2 $mpirun_flags "$lattio" verify "$out/cfg.h5" "$out/cfg_qlua.h5"
"$lattio" convert "$out/cfg_qlua.h5" "$out/back.lime"

step "Python: import lattio (NumPy arrays, checksums verified; under mpirun each rank's block)"
py="$build/pyenv/bin/python3"
"$py" "$top/examples/python/session.py" "$data" "$out"
mpirun -np 2 $mpirun_flags "$py" "$top/examples/python/session.py" "$data" "$out"

step "lattio bench at 2 ranks: every strategy against plain POSIX, with the time breakdown"
mpirun -np 2 $mpirun_flags "$lattio" bench --dims 8,8,8,16 --reps 2 --warmup 0 --profile --dir "$out"

step "a task-local container: 4 ranks write streams of different sizes into one file (the test suite's writer)"
mpirun -np 4 $mpirun_flags "$build/tests/tool_container/test_tool_container.writer" write "$out/streams.ltc" 4096 4096
"$lattio" container dump "$out/streams.ltc"
"$lattio" container split "$out/streams.ltc" "$out/stream"
echo
echo "demo finished; files are in $out"
