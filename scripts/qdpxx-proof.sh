#!/bin/sh
# qdpxx-proof.sh [BUILD [URL_PATTERN]] -- QDP++'s own HDF5 against lattio's.
# Builds USQCD's QMP (over MPI) and QDP++ (parscalar, --with-hdf5: Debian's
# parallel HDF5) with its submodules qio (and its c-lime), xpath_reader,
# filedb and libintrin, unchanged, from their sources (URL_PATTERN: where
# each repository is, %s its name; default https://github.com/usqcd-software/%s.git),
# and scripts/qdpxx/qdp_h5_proof.cc against it.  Then, at 1 and 2 ranks:
#   - lattio writes a random SU(3) gauge field, propagator and real field as
#     LIME (ILDG / SciDAC) and in QDP++'s HDF5 layout (lattio.h5);
#   - QDP++ reads the LIME files through QIO (which checks their checksums)
#     and writes them with its HDF5Writer (qdp.npN.h5), reading the gauge
#     field and propagator back with its HDF5Reader;
#   - lattio reads QDP++'s file: every value equal to what it wrote, its
#     SciDAC checksums of QDP++'s data equal to the LIME files' stored ones;
#   - QDP++'s HDF5Reader reads lattio.h5: equal to QIO's reading of the LIME;
#   - both files list the same objects, shapes and named types (h5ls -r).
# Work and logs in BUILD/qdpxx-proof; prints one line per check and exits
# non-zero when any failed.  Needs BUILD's Python package (make python).
# Not part of the suite: QDP++ is no dependency of lattio; the last result
# is in bench/results/.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
pattern=${2:-https://github.com/usqcd-software/%s.git}
work=$build/qdpxx-proof
py=$build/pyenv/bin/python3
[ -x "$py" ] || { echo "qdpxx-proof: $py missing: run make python first" >&2; exit 2; }
sh "$here/scripts/install-deps.sh" qdpxx
rm -rf "$work"
mkdir -p "$work/run"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
url() { printf "$pattern" "$1"; }
fails=0
pass() { echo "ok: $*"; }
fail() { echo "FAILED: $*"; fails=$((fails + 1)); }

echo "== building QMP and QDP++ (logs in $work)"
git clone --quiet "$(url qmp)" "$work/qmp-src"
git clone --quiet "$(url qdpxx)" "$work/qdpxx-src"
for s in qio filedb libintrin xpath_reader; do
  git -C "$work/qdpxx-src" config "submodule.other_libs/$s.url" "$(url "$s")"
done
git -C "$work/qdpxx-src" -c protocol.file.allow=always submodule --quiet update --init
git -C "$work/qdpxx-src/other_libs/qio" config submodule.other_libs/c-lime.url "$(url c-lime)"
git -C "$work/qdpxx-src/other_libs/qio" -c protocol.file.allow=always submodule --quiet update --init
(cd "$work/qmp-src" && autoreconf -fi && ./configure --prefix="$work/qmp" --with-qmp-comms-type=MPI CC=mpicc \
   && make -j 2 && make install) >"$work/qmp.log" 2>&1
# QDP++ at its head includes no <array> where qdp_map_obj_disk.h uses std::array (GCC 12 refuses):
# the header is included from the command line, the sources stay unchanged
(cd "$work/qdpxx-src" && autoreconf -fi) >"$work/qdpxx.log" 2>&1
mkdir -p "$work/qdpxx-build"
(cd "$work/qdpxx-build" && "$work/qdpxx-src/configure" --prefix="$work/qdpxx" --enable-parallel-arch=parscalar \
   --with-qmp="$work/qmp" --with-hdf5=/usr/lib/x86_64-linux-gnu/hdf5/openmpi --enable-precision=double \
   CC=mpicc CXX=mpicxx CXXFLAGS="-O1 -std=c++14 -include array" CFLAGS=-O2 && make -j 2 && make install) \
   >>"$work/qdpxx.log" 2>&1
cfg=$work/qdpxx/bin/qdp++-config
# shellcheck disable=SC2046
mpicxx $("$cfg" --cxxflags) -o "$work/qdp_h5_proof" "$here/scripts/qdpxx/qdp_h5_proof.cc" $("$cfg" --ldflags) \
  $("$cfg" --libs) >>"$work/qdpxx.log" 2>&1
pass "QMP, QDP++ (parscalar, HDF5) and qdp_h5_proof built"

cd "$work/run"
"$py" "$here/scripts/qdpxx/make_inputs.py" 4 8
for np in 1 2; do
  if mpiexec -n "$np" "$work/qdp_h5_proof" 4 8 write "qdp.np$np.h5" >"write.np$np.log" 2>&1 &&
     grep -q '^IDENTICAL' "write.np$np.log"; then
    pass "np=$np: QDP++'s HDF5Writer wrote qdp.np$np.h5 from QIO's reading; its HDF5Reader reads U and prop back equal"
  else
    fail "np=$np: QDP++ write (log $work/run/write.np$np.log)"
  fi
  if mpiexec -n "$np" "$work/qdp_h5_proof" 4 8 read lattio.h5 >"read.np$np.log" 2>&1 &&
     grep -q '^IDENTICAL' "read.np$np.log"; then
    pass "np=$np: QDP++'s HDF5Reader reads lattio.h5 (U, prop) equal to QIO's reading of the LIME files"
  else
    fail "np=$np: QDP++ read of lattio.h5 (log $work/run/read.np$np.log)"
  fi
  if "$py" "$here/scripts/qdpxx/check_qdp_file.py" "qdp.np$np.h5" "$build/bin/lattio"; then :; else fails=$((fails + 1)); fi
done
if [ "$(h5ls -r qdp.np1.h5)" = "$(h5ls -r lattio.h5)" ]; then
  pass "lattio.h5 and QDP++'s file list the same objects, shapes and named types (h5ls -r)"
else
  fail "h5ls -r differs: $(h5ls -r qdp.np1.h5 | tr '\n' ';') against $(h5ls -r lattio.h5 | tr '\n' ';')"
fi
echo "qdpxx-proof: $fails failed"
[ "$fails" = 0 ]
