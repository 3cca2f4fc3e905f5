#!/bin/sh
# python-deps.sh DIR -- a Python virtual environment at DIR with what the
# HDF5 tests use from PyPI (h5py, NumPy): files built with h5py to the
# QDP++ / Qlua specifications, and lattio's files read back with it.
# Idempotent: an environment that already imports both is left alone.
set -eu
dir=${1:?usage: python-deps.sh DIR}
py="$dir/bin/python3"
if [ -x "$py" ] && "$py" -c "import h5py, numpy" 2>/dev/null; then exit 0; fi
python3 -m venv "$dir"
"$py" -m pip install --quiet --disable-pip-version-check "numpy>=1.24" "h5py>=3.8"
"$py" -c "import h5py, numpy; print('python-deps: h5py', h5py.__version__, 'numpy', numpy.__version__)"
