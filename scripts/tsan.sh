#!/bin/sh
# ThreadSanitizer on the field pipeline's two lanes (the helper thread and
# the calling thread sharing a round's blocks, src/strategy/lanes.c): builds the
# helper-thread and pipeline-bytes tests with -fsanitize=thread (without
# HDF5, which they do not use) and runs them at 1 and 2 ranks with the
# helper forced on.  Exits non-zero on a failed test or any TSan report.
#   scripts/tsan.sh   (build directory: LATTIO_TSAN_BUILD, default build-tsan)
set -eu
cd "$(dirname "$0")/.."
build=${LATTIO_TSAN_BUILD:-build-tsan}
CFLAGS="-fsanitize=thread -g -O1" LDFLAGS="-fsanitize=thread" \
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLATTIO_HDF5=OFF > /dev/null
cmake --build "$build" -j 2 --target test_field_mpi.helper_thread test_field_mpi.pipeline_bytes > /dev/null
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LATTIO_FIELD_THREADS=1
export TSAN_OPTIONS="halt_on_error=0 report_signal_unsafe=0"
run=$(mktemp -d "${TMPDIR:-/tmp}/lattio-tsan.XXXXXX")
trap 'rm -rf "$run"' EXIT
bin=$(cd "$build/tests/field_mpi" && pwd)
status=0
for t in helper_thread pipeline_bytes; do
    for np in 1 2; do
        log="$run/$t.np$np.log"
        (cd "$run" && mpirun --bind-to none --oversubscribe -np "$np" "$bin/test_field_mpi.$t" > "$log" 2>&1) || {
            echo "tsan: $t at np $np failed"; tail -20 "$log"; status=1; }
        n=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
        if [ "$n" -ne 0 ]; then
            echo "tsan: $t at np $np: $n reports"; grep -A20 "WARNING: ThreadSanitizer" "$log" | head -60; status=1
        else
            echo "tsan: $t at np $np: no report ($(tail -n 1 "$log"))"
        fi
    done
done
exit $status
