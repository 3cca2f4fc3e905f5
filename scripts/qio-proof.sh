#!/bin/sh
# qio-proof.sh [BUILD [QIO_SRC]] -- build USQCD's QIO, unchanged, from its
# own sources on the lattio of BUILD (default build; installed into
# BUILD/qio-proof), configure BUILD with -DQIO_DIR so that tests/qio is
# built, and run its test: QIO reads lattio's multi-field, propagator and
# SU(2) files (record metadata, checksums, values) and lattio reads QIO's.
# QIO_SRC: a QIO source tree or git repository (default: a clone of
# github.com/usqcd-software/qio, which needs the network).  Not part of the
# suite: QIO is no dependency of lattio.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
src=${2:-https://github.com/usqcd-software/qio.git}
work=$build/qio-proof
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/lattio" >"$work/install.log"
git clone --quiet "$src" "$work/qio-src"
cmake -S "$work/qio-src" -B "$work/qio-build" -DCLime_DIR="$work/lattio/lib/cmake/CLime" \
      -DCMAKE_INSTALL_PREFIX="$work/qio" -DQIO_BUILD_TESTS=OFF >"$work/qio-cmake.log"
cmake --build "$work/qio-build" -j 2 >"$work/qio-build.log"
cmake --install "$work/qio-build" >"$work/qio-install.log"
cmake -S "$here" -B "$build" -DQIO_DIR="$work/qio/lib/cmake/QIO" >"$work/lattio-cmake.log"
cmake --build "$build" --target test_qio.proof >"$work/lattio-build.log"
ctest --test-dir "$build" -R '^qio\.' --output-on-failure
