#!/bin/sh
# serial_install.sh PYTHON SRC WORK -- `pip install` of the package as on a
# machine with a C compiler and Python alone: MPI, libdeflate and libcrypto
# not used (LATTIO_MPI=OFF, the built-in CRC-32, no OpenSSL), into WORK/site;
# then python/tests/test_serial_install.py runs against that install, with
# the real files.  The build uses PYTHON's scikit-build-core, Cython and
# NumPy (no download).
set -eu
py=${1:?usage: serial_install.sh PYTHON SRC WORK}
src=${2:?}
work=${3:?}
rm -rf "$work/site" "$work/build"
mkdir -p "$work"
# PATH without MPI's compiler wrappers: the build must not need them
PATH=/usr/local/bin:/usr/bin:/bin "$py" -m pip install --quiet --disable-pip-version-check --no-build-isolation \
  --no-deps --target "$work/site" --config-settings=build-dir="$work/build" \
  --config-settings=cmake.define.LATTIO_MPI=OFF \
  --config-settings=cmake.define.LATTIO_USE_LIBDEFLATE=OFF \
  --config-settings=cmake.define.CMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON "$src"
cd "$work"
LATTIO_SERIAL_SITE="$work/site" PYTHONPATH="$work/site" "$py" -m pytest -q -p no:cacheprovider --color=no \
  --basetemp="$work/tmp" "$src/python/tests/test_serial_install.py"
