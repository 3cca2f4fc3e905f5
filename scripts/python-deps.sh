#!/bin/sh
# python-deps.sh DIR -- the Python virtual environment at DIR that the tests
# and the Python package use, from PyPI: NumPy and h5py (the HDF5 tests
# build files with h5py and read lattio's back), xarray and dask (the
# package's xarray backend), pytest, mypy (the package's type hints
# checked), lizard (the house's complexity rule, test house.rules), and what building
# the lattio package needs (scikit-build-core, Cython, mpi4py compiled
# against this machine's MPI: a binary wheel of mpi4py may be built for
# another MPI).  Idempotent: an environment that already imports everything
# is left alone.
set -eu
dir=${1:?usage: python-deps.sh DIR}
py="$dir/bin/python3"
check="import h5py, numpy, pytest, mpi4py, Cython, scikit_build_core, mypy, xarray, dask.array, lizard"
if [ -x "$py" ] && "$py" -c "$check" 2>/dev/null; then exit 0; fi
[ -x "$py" ] || python3 -m venv "$dir"
pip="$py -m pip install --quiet --disable-pip-version-check"
$pip "numpy>=1.24" "h5py>=3.8" "pytest>=7" "mypy>=1.5" "cython>=3.0" "scikit-build-core>=0.10" \
     "xarray>=2023.1" "dask[array]>=2023.1" "lizard>=1.17"
MPICC=${MPICC:-mpicc} $pip --no-binary=mpi4py "mpi4py>=3.1"
"$py" -c "$check; print('python-deps: numpy', numpy.__version__, 'h5py', h5py.__version__, 'mpi4py', mpi4py.__version__)"
