#!/bin/sh
# qio-volumes-data.sh QIO_SRC QMP_SRC BUILD OUT -- regenerate
# tests/data/real/qio-volumes: build USQCD's QMP (MPI) and QIO (parallel,
# unchanged, on the C-LIME API of lattio's BUILD) from their sources and run
# QIO's own test programs on 4 ranks: qio-test1 writes the single file,
# qio-test2 the partfile set, qio-test3 the multifile set of the same
# fields.  QIO stamps each record with the time; time() is frozen for the
# three runs (an LD_PRELOAD shim; MPI's clocks run on) so that the three
# sets carry the same dates and can be compared byte for byte.  Not part
# of the suite: QIO and QMP are no dependencies of lattio.
set -eu
qio=$1 qmp=$2 build=$(cd "$3" && pwd) out=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/lattio" >/dev/null
cmake -S "$qmp" -B "$work/qmp-build" -DQMP_MPI=ON -DQMP_TESTING=OFF -DCMAKE_C_COMPILER=mpicc \
      -DCMAKE_INSTALL_PREFIX="$work/qmp" >/dev/null
cmake --build "$work/qmp-build" -j 2 >/dev/null && cmake --install "$work/qmp-build" >/dev/null
cmake -S "$qio" -B "$work/qio-build" -DCLime_DIR="$work/lattio/lib/cmake/CLime" -DQIO_ENABLE_PARALLEL_BUILD=ON \
      -DQMP_DIR="$work/qmp/lib/cmake/QMP" -DCMAKE_C_COMPILER=mpicc -DQIO_BUILD_TESTS=ON >/dev/null
cmake --build "$work/qio-build" -j 2 >/dev/null
printf '#include <time.h>\ntime_t time(time_t *t) { const time_t v = 1795867200; if (t) *t = v; return v; }\n' \
  >"$work/fixtime.c"
cc -shared -fPIC -o "$work/fixtime.so" "$work/fixtime.c"
for t in 1:single 2:part 3:multi; do
  n=${t%%:*} dir=$out/${t#*:}
  mkdir -p "$dir" "$work/run$n"
  (cd "$work/run$n" && mpirun -n 4 --oversubscribe -x LD_PRELOAD="$work/fixtime.so" \
     "$work/qio-build/examples/qio-test$n" >log 2>&1 && grep -q "Test passed" log)
  cp "$work/run$n"/binary_test* "$dir/"
done
echo "QIO's sets in $out"
