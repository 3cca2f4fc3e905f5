#!/usr/bin/env bash
# Build the libFuzzer targets (fuzz/*.c) and run each for a bounded time.
#   scripts/fuzz.sh [SECONDS]      total time, split evenly between the targets (default 60)
# Environment: LATTIO_FUZZ_BUILD (build directory, default build-fuzz), CC (default clang).
# Prints "fuzz TARGET: N executions, no crash" per target; exits non-zero on
# a crash, leaving the crashing input in the build directory (crash-*).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
total=${1:-60}
build=${LATTIO_FUZZ_BUILD:-build-fuzz}
export CC=${CC:-clang}

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLATTIO_FUZZ=ON \
  -DLATTIO_BUILD_TESTS=OFF -DLATTIO_SANITIZE=OFF >/dev/null
# Remove old fuzzer executables so a failed build cannot leave a stale one to run.
[ -d "$build/fuzz" ] && find "$build/fuzz" -maxdepth 1 -type f -name 'fuzz_*' -perm -u+x -delete
# Keep going past a target that fails to build (-k 0): the others still run and
# the missing one is reported as a failure below.
cmake --build "$build" -j 2 --target lattio_fuzzers -- -k 0 || true

# Seed corpus: the real files (truncated copies of those over 64 KiB) and a few hand-made ones.
corpus=fuzz/corpus
mkdir -p "$corpus"
for f in tests/data/real/*.lime tests/data/real/*.ildg tests/data/real/*.cfg tests/data/real/tmlqcd/*; do
  [ -e "$f" ] || continue
  head -c 65536 "$f" >"$corpus/$(basename "$f")"
done
: >"$corpus/empty"
# One 144-byte header of a zero-length record: magic, version 1, MB|ME, type "x".
{ printf '\x45\x67\x89\xab\x00\x01\xc0\x00'; printf '\x00%.0s' $(seq 8);
  printf 'x'; head -c 127 /dev/zero; } >"$corpus/one-header"
# The first header alone (a payload cut off) and the first two records of the C-LIME test file.
if [ -e tests/data/real/lime_writer_test1.lime ]; then
  head -c 144 tests/data/real/lime_writer_test1.lime >"$corpus/header-only"
  head -c 376 tests/data/real/lime_writer_test1.lime >"$corpus/two-records"
fi

# Seeds of the gauge formats without a real file here: MILC (little-endian
# magic, 2^4 lattice), openQCD (2^4) and HiRep (SU(2), 2^4), headers right,
# links zero; and the
# committed seeds (fuzz/seeds: a container written by lattio's serial writer).
python3 - "$corpus" <<'PY'
import struct, sys
d = sys.argv[1]
milc = struct.pack("<5i", 20103, 2, 2, 2, 2) + b"fuzz seed".ljust(64, b"\0") + struct.pack("<3i", 0, 0, 0)
open(d + "/seed.milc", "wb").write(milc + bytes(16 * 4 * 18 * 4))
oqcd = struct.pack("<4id", 2, 2, 2, 2, 1.0)
open(d + "/seed.openqcd", "wb").write(oqcd + bytes(8 * 8 * 144))
hirep = struct.pack(">5id", 2, 2, 2, 2, 2, 1.0)  # SU(2) on 2^4
open(d + "/seed.hirep", "wb").write(hirep + bytes(16 * 4 * 4 * 16))
PY
cp fuzz/seeds/* "$corpus/"

mapfile -t targets < <(grep -v '^$' "$build/fuzz/fuzz_targets.txt")
[ "${#targets[@]}" -gt 0 ] || { echo "fuzz: no targets built" >&2; exit 1; }
per=$(( total / ${#targets[@]} ))
[ "$per" -ge 1 ] || per=1

status=0
for t in "${targets[@]}"; do
  if [ ! -x "$build/fuzz/$t" ]; then
    echo "fuzz $t: NOT BUILT (see the build errors above)"
    status=1
    continue
  fi
  work="$build/fuzz/run-$t"
  rm -rf "$work"
  mkdir -p "$work/corpus"
  cp "$corpus"/* "$work/corpus/"
  log="$work/log"
  rc=0
  # (MPI's own start-up allocations are suppressed, as in .ci/run: scripts/lsan-mpi.supp;
  # intercept_tls_get_addr=0 as in .ci/run step 2b: with MPI and libhdf5 in one process LSan
  # misreads the dynamic TLS and its tracer dies with SIGSEGV -- fuzz_hdf5 failed so at exit)
  ( cd "$work" && ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:intercept_tls_get_addr=0 UBSAN_OPTIONS=print_stacktrace=1 \
      LSAN_OPTIONS=suppressions=$root/scripts/lsan-mpi.supp:fast_unwind_on_malloc=0 \
      "../$t" -max_total_time="$per" -rss_limit_mb=2048 -max_len=262144 \
      -print_final_stats=1 corpus ) >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
  if [ "$rc" -ne 0 ]; then
    echo "fuzz $t: CRASH (exit $rc) after ${execs:-?} executions; log $log"
    grep -E 'ERROR|invariant|SUMMARY|^    #[0-9]' "$log" | sed 's/ (BuildId: [0-9a-f]*)//' | head -n 30 || true
    ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null || true
    status=1
  else
    echo "fuzz $t: ${execs:-?} executions, no crash"
  fi
done
exit "$status"
