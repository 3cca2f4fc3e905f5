#!/bin/sh
# qio-on-lattio.sh PREFIX [WORKDIR] -- build USQCD's QIO, unchanged, on the
# lattio installed at PREFIX (its CMake build, -DCLime_DIR=PREFIX/lib/cmake/CLime),
# then convert a NERSC configuration to ILDG with QIO's qio_convert_nersc and
# verify the file with lattio.  Needs git and the network; not part of the
# test suite (install.prefix_and_serial checks the CMake lookup offline).
set -eu
prefix=$(cd "$1" && pwd)
work=${2:-$(mktemp -d)}
here=$(cd "$(dirname "$0")/.." && pwd)
libdir=$prefix/lib
[ -d "$libdir/cmake/CLime" ] || libdir=$prefix/lib64
mkdir -p "$work"
cd "$work"
[ -d qio ] || git clone --quiet --depth 1 https://github.com/usqcd-software/qio.git qio
cmake -S qio -B qio-build -DCLime_DIR="$libdir/cmake/CLime" >cmake.log
cmake --build qio-build -j 2 >build.log
if ldd qio-build/examples/qio_convert_nersc | grep -q liblattio; then
    echo "qio_convert_nersc loads liblattio: expected the static liblime.a" >&2
    exit 1
fi
rm -f qio.ildg
echo lattio-qio-check | qio-build/examples/qio_convert_nersc --ildg "$here/tests/data/real/t_nersc.cfg" qio.ildg >convert.log
"$prefix/bin/lattio" verify qio.ildg
echo "QIO built on lattio in $work: qio.ildg written by QIO through lattio's C-LIME API, verified"
